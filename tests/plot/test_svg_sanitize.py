"""rankcards.web.svg: only the allow-list of svg_allow.json reaches a page, and a figure drawn by
rankcards.plot passes whole. The malicious cases are shared with the page's sanitizer
(tests/data/svg_cases.json, checked in Chromium by tests/browser/test_svg_sanitize_js.py)."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET

import pytest

from rankcards.cards import CardError, build_cards
from rankcards.cards._execute import run_jobs
from rankcards.plot import Figure
from rankcards.web.svg import SVG_NS, allow_list, sanitize_svg
from repo_paths import ROOT
from svg_cases import CASES, assert_case, assert_only_allowed


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["name"])
def test_malicious_input_is_cleaned_or_rejected(case):
    assert_case(case, sanitize_svg(case["svg"]))


def test_a_plot_figure_passes_whole():
    figure = Figure(title="PR <curve>", xlabel="recall", ylabel="precision", x_range=(0, 1))
    figure.line([0, 0.5, 1], [1, 0.5, 0.4], label="a", point_labels=["x", "y", "z"])
    figure.scatter([0.5], [0.3], label="b & c")
    original = figure._repr_svg_()
    cleaned = sanitize_svg(original)
    assert cleaned is not None
    assert_only_allowed(cleaned)
    # The same tree: only self-closing tags are written out in full.
    assert ET.tostring(ET.fromstring(cleaned)) == ET.tostring(ET.fromstring(original))


def test_oversized_input_is_rejected():
    rect = '<rect width="1" height="1"/>'
    limit = allow_list()["max_length"]
    body = rect * (limit // len(rect) + 1)
    assert sanitize_svg(f'<svg xmlns="{SVG_NS}">{body}</svg>') is None
    assert sanitize_svg(f'<svg xmlns="{SVG_NS}">{rect}</svg>') is not None


def test_svg_without_namespace_is_read_as_svg():
    assert sanitize_svg('<svg><rect width="2"/></svg>') == (
        f'<svg xmlns="{SVG_NS}"><rect width="2"></rect></svg>'
    )


def test_the_build_sanitizes_an_examples_figures():
    """What the site's build keeps of a figure (the worker answers with the sanitized SVG)."""
    source = (
        "class Bad:\n"
        "    def _repr_svg_(self):\n"
        '        return \'<svg onload="x()"><script>x()</script><circle r="1"/></svg>\'\n'
        "print('text stays')\n"
        "display(Bad())\n"
        "Bad()\n"
    )
    (answer,) = run_jobs([{"kind": "example", "source": source}])
    assert answer["output"] == "text stays\n" and answer["error"] is None
    assert answer["figures"] == [f'<svg xmlns="{SVG_NS}"><circle r="1"></circle></svg>'] * 2
    (broken,) = run_jobs([{"kind": "example", "source": source.replace("<circle", "<circle<")}])
    assert broken["figures"] == [None, None]


def test_a_figure_the_page_cannot_show_is_a_card_problem(tmp_path):
    """``rankcards check`` / the build: one line naming the card, the field and the figure."""
    fixtures = ROOT / "tests" / "cards" / "fixtures"
    for path in (fixtures / "ok").glob("*.yml"):
        shutil.copy(path, tmp_path / path.name)
    card = (fixtures / "bad" / "code-raises.yml").read_text(encoding="utf-8")
    raising = card.split("  source: |\n", 1)[1].split("\n")[2]
    assert raising == "    sum(values) / (len(values) - 3)", raising
    broken = "    type('B', (), {'_repr_svg_': lambda self: '<svg><rect></svg>'})()"
    (tmp_path / "code-raises.yml").write_text(card.replace(raising, broken), encoding="utf-8")
    with pytest.raises(CardError) as caught:
        build_cards(tmp_path, timeout=30)
    [problem] = caught.value.problems
    assert (problem.path.name, problem.field) == ("code-raises.yml", "code.source")
    assert problem.message == "code example's figure 1 is not SVG the page can show"


def test_a_new_allow_list_runs_the_examples_again(monkeypatch, tmp_path):
    """Cached answers hold sanitized figures and tables: editing svg_allow.json or
    table_allow.json (mkdocs serve) renews them."""
    from rankcards.cards import _execute

    package = tmp_path / "rankcards"
    (package / "web").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    allow = package / "web" / "svg_allow.json"
    tables = package / "web" / "table_allow.json"
    allow.write_text("{}", encoding="utf-8")
    tables.write_text("{}", encoding="utf-8")
    monkeypatch.setattr(_execute, "_PACKAGE", package)
    before = _execute._fingerprint()
    allow.write_text('{"elements": []}', encoding="utf-8")
    after_svg = _execute._fingerprint()
    assert after_svg != before
    tables.write_text('{"elements": []}', encoding="utf-8")
    assert _execute._fingerprint() != after_svg
