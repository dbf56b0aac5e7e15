"""The escaping HTML builder: text and attributes can never inject markup."""

from __future__ import annotations

import pytest

from rankcards.viz._html import (
    Html,
    act_cycle,
    act_move,
    act_set,
    act_toggle,
    el,
    escape,
    fmt,
    join,
    metric,
)


def test_text_and_attribute_values_are_escaped() -> None:
    html = el("span", {"title": '"><script>x</script>'}, "<b>&'")
    assert (
        html == '<span title="&quot;&gt;&lt;script&gt;x&lt;/script&gt;">&lt;b&gt;&amp;&#x27;</span>'
    )


def test_html_children_are_inserted_verbatim_and_nested_lists_flatten() -> None:
    inner = el("b", {}, "x")
    assert el("p", None, [inner, ["y", None, 2]], 0.5) == "<p><b>x</b>y20.5</p>"


@pytest.mark.parametrize(
    ("attrs", "expected"),
    [
        ({"hidden": True}, "<i hidden></i>"),
        ({"hidden": False, "title": None}, "<i></i>"),
        ({"data-n": 3}, '<i data-n="3"></i>'),
    ],
)
def test_boolean_and_missing_attributes(attrs: dict, expected: str) -> None:
    assert el("i", attrs) == expected


def test_kept_renderings_tell_equal_values_of_other_types_apart() -> None:
    """The builder keeps the renderings it repeats (_escaped_text, _attr): a value equal to an
    earlier one but of another type (markup against text, True against 1) renders as its own."""
    assert el("i", {"title": Html("&amp;")}) == '<i title="&amp;"></i>'
    assert el("i", {"title": "&amp;"}) == '<i title="&amp;amp;"></i>'
    assert el("i", {"data-n": True}) == "<i data-n></i>"
    assert el("i", {"data-n": 1}) == '<i data-n="1"></i>'
    assert el("i", {"data-n": 1.0}) == '<i data-n="1.0"></i>'
    assert el("i", {}, Html("<b>a</b>"), "<b>a</b>") == "<i><b>a</b>&lt;b&gt;a&lt;/b&gt;</i>"


@pytest.mark.parametrize("bad", ["a b", "x>", "on click", "", "1a"])
def test_invalid_tag_or_attribute_names_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="invalid HTML"):
        el(bad)
    with pytest.raises(ValueError, match="invalid HTML attribute"):
        el("span", {bad: "x"})


def test_void_elements_have_no_closing_tag_and_no_children() -> None:
    assert el("br") == "<br>"
    with pytest.raises(ValueError, match="cannot have children"):
        el("input", {}, "x")


def test_unrenderable_child_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="cannot render dict"):
        el("p", {}, {"a": 1})


def test_escape_passes_html_through_and_join_escapes_separator() -> None:
    assert escape(Html("<b>")) == "<b>"
    assert escape("<b>") == "&lt;b&gt;"
    assert join(["a", el("b", {}, "c")], " < ") == "a &lt; <b>c</b>"


@pytest.mark.parametrize(
    ("value", "digits", "expected"),
    [(1 / 3, 3, "0.333"), (2 / 3, 2, "0.67"), (0.5, 3, "0.5"), (1.0, 3, "1"), (-0.0001, 3, "0")],
)
def test_fmt(value: float, digits: int, expected: str) -> None:
    assert fmt(value, digits) == expected


def test_metric_carries_the_exact_value() -> None:
    html = metric("RR:q<1>", 1 / 3, title="x")
    assert html == (
        '<span class="rc-num" data-metric="RR:q&lt;1&gt;" data-value="0.3333333333333333" '
        'title="x">0.333</span>'
    )


def test_action_attributes_follow_the_contract() -> None:
    assert act_toggle(["queries", 0, "relevant"], "d3") == {
        "data-rc-toggle": "queries.0.relevant",
        "data-rc-item": "d3",
    }
    assert act_set("selected", "q7") == {"data-rc-set": "selected", "data-rc-value": '"q7"'}
    assert act_cycle("queries.1.grades", "d2", 3) == {
        "data-rc-cycle": "queries.1.grades",
        "data-rc-item": "d2",
        "data-rc-max": 3,
    }
    assert act_move("queries.0.ranking", 2, -1) == {
        "data-rc-move": "queries.0.ranking",
        "data-rc-index": 2,
        "data-rc-delta": -1,
    }


def test_volatile_metrics_are_marked() -> None:
    assert metric("qps", 1234.5, "1,234", volatile=True) == (
        '<span class="rc-num" data-metric="qps" data-value="1234.5" data-rc-volatile>1,234</span>'
    )
    assert "data-rc-volatile" not in metric("recall", 0.5)
