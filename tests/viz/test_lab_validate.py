"""A card's ``demo.lab`` block: each mistake is one problem at its YAML line and field, and a
valid block expands to a regular demo that `rankcards check` renders."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from rankcards.cards import build_cards, load_cards
from rankcards.commands import check
from rankcards.viz import DemoError, _lab_spec, expand, render, validate
from rankcards.viz._lab_spec import expand_lab, lab_problems, toy_queries

FIXTURE = Path(__file__).parent / "fixtures" / "lab" / "lab-ap.yml"
LAB_BLOCK = """\
  lab:
    measure: "AP@k"
    k: 3
    conventions: [ties, cutoff, averaging]
"""

# lab block -> (field, message fragment, text whose position the problem points at)
CASES = {
    "unknown-measure": (
        '  lab:\n    measure: "nDGC@k"\n    k: 5\n',
        "demo.lab.measure",
        'unknown measure "nDGC@k"; close names: nDCG[(dcg=log2|exp-log2)][@k]',
        '"nDGC@k"',
    ),
    "no-k": (
        '  lab:\n    measure: "AP@k"\n',
        "demo.lab.k",
        "has a cutoff bound to the K slider: give its initial value, e.g. k: 5",
        "measure:",
    ),
    "k-out-of-range": (
        '  lab:\n    measure: "P@k"\n    k: 9\n',
        "demo.lab.k",
        "9 is out of range: k must be an integer from 1 to 5",
        "9",
    ),
    "k-without-cutoff": (
        '  lab:\n    measure: "RR"\n    k: 3\n',
        "demo.lab.k",
        'has no "@k" cutoff for a slider: write "RR@k" or remove k',
        "3",
    ),
    "unknown-convention": (
        '  lab:\n    measure: "AP@k"\n    k: 5\n    conventions: [ties, sort]\n',
        "demo.lab.conventions[1]",
        '"sort" is not one of: ties, gain, cutoff, averaging',
        "sort",
    ),
    "gain-on-ap": (
        '  lab:\n    measure: "AP@k"\n    k: 5\n    conventions: [gain]\n',
        "demo.lab.conventions[0]",
        '"gain" does not apply to AP: only measures with a graded gain (nDCG)',
        "gain",
    ),
    "cutoff-on-p": (
        '  lab:\n    measure: "P@k"\n    k: 5\n    conventions: [ties, cutoff]\n',
        "demo.lab.conventions[1]",
        '"cutoff" does not apply to P: it has no whole-list form to compare with',
        "cutoff",
    ),
    "counter": (
        '  lab:\n    measure: "num_ret"\n',
        "demo.lab.measure",
        '"num_ret" is a counter, not a score per query',
        '"num_ret"',
    ),
    "subtopics": (
        '  lab:\n    measure: "alpha_nDCG@k"\n    k: 3\n',
        "demo.lab.measure",
        '"alpha_nDCG@k": alpha_nDCG reads judgments per subtopic, and the lab\'s rankings have '
        "one label per document: give the card its own demo",
        '"alpha_nDCG@k"',
    ),
    "unknown-field": (
        '  lab:\n    measure: "AP@k"\n    k: 5\n    colour: red\n',
        "demo.lab.colour",
        "unknown field 'colour' (expected one of: conventions, k, labels, measure, params, "
        "queries, unjudged)",
        "colour",
    ),
    "lab-and-compute": (
        '  compute: rankcards.viz.mrr:view\n  lab:\n    measure: "AP@k"\n    k: 5\n',
        "demo.compute",
        "unknown field 'compute' (expected one of: lab)",
        "compute",
    ),
    "bad-labels": (
        '  lab:\n    measure: "AP@k"\n    k: 5\n    labels: stars\n',
        "demo.lab.labels",
        '"stars" is not one of: binary, graded',
        "stars",
    ),
    "bad-grade": (
        '  lab:\n    measure: "nDCG@k"\n    k: 2\n    labels: graded\n    queries:\n'
        "      - {query: a, ranking: [d1, d2], grades: {d1: 5}}\n",
        "demo.lab.queries[0].grades",
        "must map docnos to integers 0..3",
        "{d1: 5}",
    ),
    "bad-measure-parameter": (
        '  lab:\n    measure: "RBP(p=2)"\n',
        "demo.lab.measure",
        "p must be a number with 0 < p < 1, got '2'",
        '"RBP(p=2)"',
    ),
}


def _card_with(tmp_path: Path, block: str) -> tuple[Path, str]:
    text = FIXTURE.read_text(encoding="utf-8")
    assert LAB_BLOCK in text
    path = tmp_path / "lab-ap.yml"
    path.write_text(text.replace(LAB_BLOCK, block), encoding="utf-8")
    return path, path.read_text(encoding="utf-8")


def _position(text: str, block: str, needle: str) -> tuple[int, int]:
    """1-based line and column of ``needle`` inside the lab block of ``text``."""
    start = text.index(block)
    at = text.index(needle, start)
    line = text.count("\n", 0, at) + 1
    return line, at - text.rfind("\n", 0, at)


@pytest.fixture
def every_measure_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks of k, labels and conventions, whichever measures have explanations yet."""
    monkeypatch.setattr(_lab_spec, "explained", lambda spec: True)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.usefixtures("every_measure_explained")
def test_each_lab_mistake_is_one_problem_at_its_line(tmp_path: Path, name: str) -> None:
    block, field, fragment, needle = CASES[name]
    path, text = _card_with(tmp_path, block)
    cards, problems = load_cards(tmp_path)
    assert cards == []  # a card with a lab problem is not rendered
    [problem] = problems
    line, column = _position(text, block, needle)
    assert (problem.line, problem.column, problem.field) == (line, column, field), str(problem)
    assert fragment in problem.message
    assert str(problem) == f"{path}:{line}:{column}: {field}: {problem.message}"


def test_check_prints_the_lab_problem_as_file_line_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    block, _, _, needle = CASES["gain-on-ap"]
    path, text = _card_with(tmp_path, block)
    code = check.run(argparse.Namespace(directory=tmp_path, timeout=30.0, no_cache=True))
    out = capsys.readouterr().out.strip().splitlines()
    line, column = _position(text, block, needle)
    assert code == 1
    assert out == [
        f'{path}:{line}:{column}: demo.lab.conventions[0]: "gain" does not apply to AP: only '
        "measures with a graded gain (nDCG) can compare linear and exponential gains"
    ]


def test_a_valid_lab_card_builds_with_the_expanded_demo(tmp_path: Path) -> None:
    (tmp_path / FIXTURE.name).write_text(FIXTURE.read_text(encoding="utf-8"), encoding="utf-8")
    [card] = build_cards(tmp_path, timeout=30)
    for lang in ("es", "en"):
        demo = card.demos[lang]
        assert demo.compute == "rankcards.viz.lab:view"
        assert [c["kind"] for c in demo.controls] == [
            "slider",
            "ranked-lists",
            "toggle",
            "toggle",
            "toggle",
        ]
        assert demo.state["queries"] == toy_queries("binary")
        assert 'data-metric="mean"' in demo.view_html
    assert card.card.data["demo"] == {  # the card keeps what its author wrote
        "lab": {"measure": "AP@k", "k": 3, "conventions": ["ties", "cutoff", "averaging"]}
    }


def test_expansion_generates_the_controls_the_measure_needs() -> None:
    graded = expand_lab({"measure": "nDCG@k", "k": 3, "conventions": ["gain"]})
    [slider, lists, toggle] = graded["controls"]
    assert (slider["bind"], slider["min"], slider["max"]) == ("k", 1, 5)
    assert lists["max_grade"] == 3  # nDCG reads grades: graded by default
    assert graded["state"]["queries"][0]["grades"] == {"d1": 3, "d4": 1, "d8": 2}
    assert toggle["bind"] == "show_gain" and graded["state"]["show_gain"] is False
    flat = expand_lab({"measure": "RBP(p=0.5)", "labels": "binary"})
    assert [c["kind"] for c in flat["controls"]] == ["ranked-lists"]  # no cutoff: no slider
    assert flat["controls"][0]["max_grade"] == 1
    assert "k" not in flat["state"]


def test_the_initial_tie_is_one_that_trec_eval_reorders() -> None:
    state = expand_lab({"measure": "RR", "conventions": ["ties", "averaging"]})["state"]
    assert state["tied"] == ["q1:2"]  # d1, d7 tied: docno descending puts d7 first
    assert state["absent"] == ["q4"]


def test_viz_validate_and_render_accept_a_lab_block_and_refuse_a_bad_one() -> None:
    demo = {"lab": {"measure": "AP@k", "k": 2}}
    assert validate(demo) == []
    assert 'data-measure="AP@2"' in render(demo, "es")
    assert validate({"lab": {"measure": "AP@k", "k": 0}}) == [
        "demo.lab.k: 0 is out of range: k must be an integer from 1 to 5"
    ]
    with pytest.raises(DemoError, match=r"^demo\.lab\.measure: unknown measure"):
        expand({"lab": {"measure": "Nope"}})
    assert validate({"lab": {"measure": "AP@k", "k": 2}, "state": {}}) == [
        "demo.lab: a lab demo has no compute, controls or state of its own"
    ]


def test_lab_problems_name_the_registry_when_nothing_is_close() -> None:
    [problem] = lab_problems({"measure": "Zzzzzz"})
    assert problem.startswith('demo.lab.measure: unknown measure "Zzzzzz"; known measures: ')
    assert "AP[(rel=N)][@k]" in problem
    assert "num_q" not in problem  # counters are not lab measures


def test_a_measure_without_explanation_is_refused_with_the_fix(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_lab_spec, "explained", lambda spec: spec.measure.name != "AP")
    assert lab_problems({"measure": "AP@k", "k": 5}) == [
        'demo.lab.measure: "AP@k": AP has no per-rank explanation yet, which the lab shows: add '
        "an explain() next to its compute() in rankcards.metrics (see _ap.py)"
    ]


@pytest.mark.usefixtures("every_measure_explained")
def test_a_relevance_level_above_1_needs_graded_labels() -> None:
    assert lab_problems({"measure": "P(rel=2)@k", "k": 3}) == []  # graded by default
    assert lab_problems({"measure": "P(rel=2)@k", "k": 3, "labels": "binary"}) == [
        'demo.lab.labels: "P(rel=2)@k" counts grades >= 2 as relevant, and binary labels are '
        "all 1: use labels: graded"
    ]
