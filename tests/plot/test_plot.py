"""rankcards.plot: well-formed, accessible SVG with the axes, ticks, legend and series asked for;
bad input is one clear error naming the argument. (The module's doctests run with the suite.)"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest

from rankcards.plot import Figure, bar, line, nice_ticks, scatter
from rankcards.runner import run_example

NS = {"s": "http://www.w3.org/2000/svg"}


def _tree(figure: Figure) -> ET.Element:
    return ET.fromstring(figure._repr_svg_())  # raises if not well-formed XML


def _texts(root: ET.Element, cls: str) -> list[str]:
    return [t.text or "" for t in root.iterfind(f".//s:text[@class='{cls}']", NS)]


def test_line_figure_is_accessible_svg_with_title_and_described_data():
    figure = Figure(title="Recall by k", xlabel="k", ylabel="recall")
    figure.line([1, 5, 10], [0.2, 0.6, 0.8], label="run A")
    root = _tree(figure)
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("role") == "img"
    assert root[0].tag.endswith("title") and root[0].text == "Recall by k"
    desc = root[1]
    assert desc.tag.endswith("desc")
    assert desc.text == "x: k; y: recall. run A (line): (1, 0.2), (5, 0.6), (10, 0.8)."
    assert _texts(root, "rc-plot__title") == ["Recall by k"]
    assert _texts(root, "rc-plot__label") == ["k", "recall"]


def test_axes_have_nice_ticks_covering_the_data():
    root = _tree(line([113.5, 2032], [0.62, 1.0]))
    ticks = _texts(root, "rc-plot__tick")
    assert ticks == ["0.6", "0.7", "0.8", "0.9", "1", "0", "500", "1000", "1500", "2000", "2500"]
    assert len(root.findall(".//s:path[@class='rc-plot__axis']", NS)) == 1


def test_fixed_ranges_are_kept():
    figure = Figure(x_range=(0, 1), y_range=(0, 1)).line([0.5, 1], [0.3, 0.4])
    ticks = _texts(_tree(figure), "rc-plot__tick")
    assert ticks[:6] == ["0", "0.2", "0.4", "0.6", "0.8", "1"] and ticks[6:] == ticks[:6]


def test_several_series_get_their_own_class_colour_and_a_legend():
    figure = Figure(title="PR").scatter([0.5, 1], [0.33, 0.4], label="raw")
    figure.line([0, 1], [0.4, 0.4], label="interpolated").line([0, 1], [0.5, 0.3], label="mean")
    root = _tree(figure)
    groups = root.findall(".//s:g[@class]", NS)
    series = [g for g in groups if "rc-plot__series--" in g.get("class", "")]
    # one group per series in the plot area, one swatch per series in the legend
    assert len(series) == 6
    classes = [g.get("class") for g in series[:3]]
    assert classes == [f"rc-plot__series rc-plot__series--{n}" for n in (1, 2, 3)]
    assert len({g.get("fill") for g in series[:3]}) == 3
    legend = root.find(".//s:g[@class='rc-plot__legend']", NS)
    assert legend is not None
    assert [t.text for t in legend.iterfind("s:text", NS)] == ["raw", "interpolated", "mean"]
    # points: 2 scatter dots (no line) and 2 + 2 line markers, each line with one path
    assert len(series[0].findall("s:circle", NS)) == 2 and series[0].find("s:path", NS) is None
    assert all(len(g.findall("s:path", NS)) == 1 for g in series[1:3])


def test_a_single_series_has_no_legend():
    assert (
        _tree(scatter([1], [2], label="only")).find(".//s:g[@class='rc-plot__legend']", NS) is None
    )


def test_axes_and_text_follow_the_palette_through_current_color():
    svg = line([0, 1], [0, 1], title="t")._repr_svg_()
    root = ET.fromstring(svg)
    assert root.get("fill") == "currentColor"
    assert root.find(".//s:path[@class='rc-plot__axis']", NS).get("stroke") == "currentColor"


def test_bar_chart_has_one_rect_per_value_from_zero():
    figure = bar(["q1", "q2", "q3"], [0.5, 1.0, 0.25], title="AP per query", label="run A")
    figure.bar(["q1", "q2", "q3"], [0.4, 0.9, 0.3], label="run B")
    root = _tree(figure)
    rects = root.findall("s:g[@class='rc-plot__series rc-plot__series--1']/s:rect", NS)
    assert len(rects) == 3 and [r.find("s:title", NS).text for r in rects] == [
        "q1: 0.5",
        "q2: 1",
        "q3: 0.25",
    ]
    heights = [float(r.get("height")) for r in rects]
    assert heights[1] == pytest.approx(2 * heights[0]) and heights[0] == pytest.approx(
        2 * heights[2]
    )
    assert _texts(root, "rc-plot__tick")[0] == "0"  # the value axis starts at 0
    assert "q1" in _texts(root, "rc-plot__tick")


def test_text_is_escaped():
    root = _tree(
        Figure(title="<b>&</b>").line([0, 1], [0, 1], label="a<b", point_labels=["<", ">"])
    )
    assert root[0].text == "<b>&</b>"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda f: f.line([1, 2], [1]), "Figure.line: x has 2 values but y has 1"),
        (lambda f: f.scatter([], []), "Figure.scatter: no data"),
        (lambda f: f.line([1], [math.nan]), "Figure.line: values must be finite"),
        (lambda f: f.line([1], ["a"]), "Figure.line: values must be numbers, got 'a'"),
        (lambda f: f.line([1], [1], point_labels=["a", "b"]), "point_labels has 2 labels"),
        (lambda f: f.line([1], [1]).bar(["a"], [1]), "bars and lines/points cannot share"),
    ],
)
def test_bad_input_names_the_argument(call, message):
    with pytest.raises((ValueError, TypeError), match=message.replace("(", r"\(")):
        call(Figure())


def test_an_empty_figure_says_what_to_add():
    with pytest.raises(ValueError, match="add a series"):
        Figure()._repr_svg_()


def test_nice_ticks_round_steps():
    assert nice_ticks(0, 1) == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert nice_ticks(0.1, 0.3) == [0.1, 0.15, 0.2, 0.25, 0.3]
    assert nice_ticks(-3, 7) == [-4.0, -2.0, 0.0, 2.0, 4.0, 6.0, 8.0]
    with pytest.raises(ValueError, match="finite"):
        nice_ticks(0, math.inf)


def test_runner_shows_a_final_figure_instead_of_its_repr():
    source = "from rankcards.plot import line\nprint('numbers')\nline([0, 1], [1, 0], title='t')\n"
    result = run_example(source)
    assert result.output == "numbers\n" and result.error is None
    assert len(result.figures) == 1 and "<title>t</title>" in result.figures[0]


def test_display_and_show_add_figures_in_order_and_other_values_print():
    source = (
        "from rankcards.plot import line\n"
        "a = line([0, 1], [1, 0], title='first')\n"
        "display(a, 3)\n"
        "line([0, 1], [0, 1], title='second').show()\n"
    )
    seen = []
    result = run_example(source, on_figure=seen.append)
    assert result.output == "3\n"
    assert [f.split("<title>")[1].split("<")[0] for f in result.figures] == ["first", "second"]
    assert seen == result.figures


def test_a_failing_repr_svg_is_the_examples_error():
    source = "from rankcards.plot import Figure\nFigure()\n"
    result = run_example(source)
    assert result.error is not None and result.error.endswith(
        "ValueError: Figure: nothing to draw; add a series with line, scatter or bar\n"
    )
    assert result.figures == []


def test_point_labels_sit_clear_of_the_line_and_above_the_axis():
    figure = line([0, 1, 2], [0, 1, 1], point_labels=["a", "b", "c"])
    root = _tree(figure)
    labels = root.findall(".//s:text[@class='rc-plot__point-label']", NS)
    assert [t.text for t in labels] == ["a", "b", "c"]
    circles = root.findall(".//s:circle", NS)
    axis = root.find(".//s:path[@class='rc-plot__axis']", NS).get("d")  # M<left>,<top>V<y>H<right>
    axis_y = float(re.search(r"V([\d.]+)", axis).group(1))
    for label in labels:
        assert float(label.get("y")) < axis_y - 8  # never on or below the x axis
    # "c" ends a line arriving from the left: its label is not put on that side
    assert labels[2].get("text-anchor") != "end" or float(labels[2].get("y")) < float(
        circles[2].get("cy")
    )
    # "a" starts a line leaving up and to the right: the label goes left, not up-right
    assert labels[0].get("text-anchor") == "end"


def test_point_labels_stay_inside_the_figure_at_its_edges():
    """A point on the right edge whose neighbour lies down-left would get its label up-right,
    past the figure's edge: it goes where the whole label is seen."""
    figure = scatter([0.2, 0.38, 0.4], [0.2, 0.38, 0.4], point_labels=["S9", "S2", "S1"])
    width = float(_tree(figure).get("width"))
    for label in _tree(figure).findall(".//s:text[@class='rc-plot__point-label']", NS):
        x, extent = float(label.get("x")), 6.5 * len(label.text)
        start = {"start": x, "middle": x - extent / 2, "end": x - extent}[label.get("text-anchor")]
        assert start >= 0 and start + extent <= width, (label.text, label.get("text-anchor"))


def test_the_description_speaks_the_figures_language():
    figure = Figure(xlabel="exhaustividad", ylabel="precisión", lang="es").line([0, 1], [1, 0.5])
    desc = _tree(figure)[1].text
    assert desc == "x: exhaustividad; y: precisión. serie 1 (línea): (0, 1), (1, 0.5)."
    assert _tree(figure)[0].text == "Gráfico"
    with pytest.raises(ValueError, match="Figure: lang must be 'en' or 'es', got 'fr'"):
        Figure(lang="fr")
