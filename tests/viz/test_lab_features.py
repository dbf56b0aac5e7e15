"""The lab's later features, each against rankcards.metrics on data built here: unjudged
documents, measure parameters as sliders, micro against macro averaging, unjudged against
judged non-relevant, the precision-recall curve, a first tie that changes the measure, and the
quantities written in words."""

from __future__ import annotations

import copy
import math
import re
from typing import Any

import pytest

from rankcards.metrics import evaluate
from rankcards.viz import DemoError, expand, validate
from rankcards.viz._lab_spec import concrete_name, judgments_of, lab_problems
from rankcards.viz._lab_text import QUANTITY, VIEW
from rankcards.viz.lab import RECALL_LEVELS, view

_METRIC = re.compile(r'data-metric="([^"]*)" data-value="([^"]*)"')

#: the shared example as its judgments stand: only the toy's relevant documents are judged
UNJUDGED_TOY = [
    {"query": "q1", "ranking": ["d3", "d1", "d7", "d4", "d9"], "relevant": ["d1", "d4", "d8"],
     "unjudged": ["d3", "d7", "d9"]},
    {"query": "q2", "ranking": ["d2", "d5", "d9", "d1", "d6"], "relevant": ["d2"],
     "unjudged": ["d5", "d9", "d1", "d6"]},
    {"query": "q3", "ranking": ["d4", "d8", "d6", "d2", "d3"], "relevant": ["d3", "d6"],
     "unjudged": ["d4", "d8", "d2"]},
]  # fmt: skip


def _shown(state: dict[str, Any], lang: str = "en") -> dict[str, float]:
    return {name: float(value) for name, value in _METRIC.findall(view(state, lang))}


def _state(**lab: Any) -> dict[str, Any]:
    return copy.deepcopy(expand({"lab": lab})["state"])


def _run(queries: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    return {q["query"]: {d: 100.0 - i for i, d in enumerate(q["ranking"])} for q in queries}


def _qrels(queries: list[dict[str, Any]], unjudged_as_zero: bool = False) -> dict:
    """Listed documents judged 0 unless marked, except the unjudged ones (absent)."""
    qrels = {}
    for q in queries:
        left_out = set() if unjudged_as_zero else set(q.get("unjudged", []))
        judged = {d: 0 for d in q["ranking"] if d not in left_out}
        judged.update(dict.fromkeys(q["relevant"], 1))
        qrels[q["query"]] = judged
    return qrels


# ---------------------------------------------------------------------- unjudged documents


def test_an_unjudged_document_is_absent_from_the_qrels() -> None:
    item = UNJUDGED_TOY[0]
    assert judgments_of(item, graded=False) == {"d1": 1, "d4": 1, "d8": 1}
    graded = {"query": "q", "ranking": ["a", "b", "c"], "grades": {"a": 2}, "unjudged": ["c"]}
    assert judgments_of(graded, graded=True) == {"a": 2, "b": 0}


@pytest.mark.parametrize("measure", ["bpref", "Judged@k", "P@k", "AP", "nDCG@k"])
def test_every_measure_sees_unjudged_documents_as_trec_eval_does(measure: str) -> None:
    lab: dict[str, Any] = {"measure": measure, "unjudged": True, "queries": UNJUDGED_TOY}
    lab["labels"] = "binary"
    if measure.endswith("@k"):
        lab["k"] = 5
    state = _state(**lab)
    name = concrete_name(measure, 5 if measure.endswith("@k") else None, {})
    want = evaluate(_qrels(UNJUDGED_TOY), _run(UNJUDGED_TOY), [name]).aggregate[name]
    assert _shown(state)["mean"] == want


def test_bpref_and_judged_tell_unjudged_from_non_relevant_and_p_does_not() -> None:
    for measure, differs in (("bpref", True), ("Judged@k", True), ("P@k", False)):
        lab: dict[str, Any] = {"measure": measure, "unjudged": True, "queries": UNJUDGED_TOY}
        lab.update({"conventions": ["unjudged"], "labels": "binary"})
        if measure.endswith("@k"):
            lab["k"] = 5
        state = _state(**lab)
        state["show_unjudged"] = True
        shown = _shown(state)
        name = concrete_name(measure, state.get("k"), {})
        zero = evaluate(_qrels(UNJUDGED_TOY, True), _run(UNJUDGED_TOY), [name]).aggregate[name]
        assert shown["unjudged:default"] == shown["mean"]
        assert shown["unjudged:other"] == zero
        assert (shown["unjudged:default"] != shown["unjudged:other"]) is differs, measure
    # bpref on the example's only-relevant judgments, and with everything shown judged 0
    bpref = _state(measure="bpref", unjudged=True, queries=UNJUDGED_TOY, conventions=["unjudged"])
    bpref["show_unjudged"] = True
    shown = _shown(bpref)
    assert shown["unjudged:default"] == pytest.approx((2 / 3 + 1 + 1) / 3)


def test_the_steps_name_an_unjudged_document_in_words() -> None:
    state = _state(measure="bpref", unjudged=True, queries=UNJUDGED_TOY)
    for lang in ("es", "en"):
        html = view(state, lang)
        row = re.search(r'<tr data-rank="1" data-doc="d3">(.*?)</tr>', html)
        assert row and f"<td>{VIEW[lang]['unjudged']}</td>" in row.group(1)


UNJUDGED_MISTAKES = [
    (
        {"unjudged": ["d9"]},
        "demo.lab.queries[0].unjudged: 'd9' is not in the ranking",
    ),
    (
        {"unjudged": ["d1"], "relevant": ["d1"]},
        "demo.lab.queries[0].unjudged: 'd1' also has a label: an unjudged document has none",
    ),
    ({"unjudged": ["d1", "d1"]}, "demo.lab.queries[0].unjudged: docnos must be distinct"),
]


@pytest.mark.parametrize(("change", "problem"), UNJUDGED_MISTAKES)
def test_unjudged_mistakes_are_one_line_each(change: dict[str, Any], problem: str) -> None:
    item = {"query": "q1", "ranking": ["d1", "d2"], "relevant": [], **change}
    assert lab_problems({"measure": "bpref", "unjudged": True, "queries": [item]}) == [problem]


def test_unjudged_documents_need_the_lab_to_offer_them() -> None:
    item = {"query": "q1", "ranking": ["d1", "d2"], "relevant": ["d1"], "unjudged": ["d2"]}
    assert lab_problems({"measure": "bpref", "queries": [item]}) == [
        "demo.lab.queries[0].unjudged: add unjudged: true to the lab block first"
    ]
    assert lab_problems({"measure": "bpref", "conventions": ["unjudged"]}) == [
        'demo.lab.conventions[0]: "unjudged" compares unjudged documents with judged '
        "non-relevant ones: add unjudged: true to the lab block and leave some documents unjudged"
    ]


def test_the_ranked_lists_control_offers_the_unjudged_state() -> None:
    demo = expand({"lab": {"measure": "bpref", "unjudged": True, "queries": UNJUDGED_TOY}})
    [lists] = [c for c in demo["controls"] if c["kind"] == "ranked-lists"]
    assert lists["unjudged"] is True and lists["help"]["en"].startswith("Press a document")
    assert validate({"lab": {"measure": "bpref", "unjudged": True, "queries": UNJUDGED_TOY}}) == []


# ------------------------------------------------------------------- parameters as sliders

PARAMS = [
    ("RBP(p=0.8)", "p", {"min": 0.5, "max": 0.95, "step": 0.05}, 0.65, "RBP(p=0.65)"),
    ("F(beta=1)@k", "beta", {"min": 0.5, "max": 3, "step": 0.5}, 2.0, "F(beta=2.0)@5"),
    ("P(rel=2)@k", "rel", {"min": 1, "max": 3, "step": 1}, 3, "P(rel=3)@5"),
    ("IPrec@0.5", "recall", {"min": 0, "max": 1, "step": 0.1}, 0.3, "IPrec@0.3"),
]


@pytest.mark.parametrize(("measure", "param", "bounds", "moved", "name"), PARAMS)
def test_a_parameter_slider_moves_the_measure(
    measure: str, param: str, bounds: dict[str, float], moved: float, name: str
) -> None:
    lab: dict[str, Any] = {"measure": measure, "params": {param: bounds}}
    if measure.endswith("@k"):
        lab["k"] = 5
    assert lab_problems(lab) == []
    demo = expand({"lab": lab})
    [slider] = [c for c in demo["controls"] if c["bind"] == f"param_{param}"]
    assert (slider["kind"], slider["min"], slider["max"], slider["step"]) == (
        "slider",
        bounds["min"],
        bounds["max"],
        bounds["step"],
    )
    state = {**demo["state"], f"param_{param}": moved}
    graded = state["labels"] == "graded"
    qrels = {q["query"]: judgments_of(q, graded) for q in state["queries"]}
    want = evaluate(qrels, _run(state["queries"]), [name]).aggregate[name]
    html = view(state, "en")
    assert f'data-measure="{name}"' in html
    assert _shown(state)["mean"] == want
    assert validate({"lab": lab}) == []  # and the slider moves the mean (check's rule)


PARAM_MISTAKES = [
    ("RBP(p=0.8)", {"q": {"min": 0.1, "max": 0.9, "step": 0.1}}, "has no parameter 'q'"),
    ("RBP(p=0.8)", {"p": {"min": 0.5, "max": 0.9}}, "expected {min, max, step}"),
    ("RBP(p=0.8)", {"p": {"min": 0.5, "max": 1, "step": 0.1}}, "p must be a number with 0 < p"),
    ("RBP(p=0.8)", {"p": {"min": 0.5, "max": 0.9, "step": 0.25}}, "p = 0.8 is not one of"),
    ("P(rel=2)@5", {"rel": {"min": 1, "max": 3, "step": 0.5}}, "rel is an integer"),
    ("AP@5", {"dcg": {"min": 1, "max": 2, "step": 1}}, "has no parameter 'dcg'"),
]


@pytest.mark.parametrize(("measure", "params", "fragment"), PARAM_MISTAKES)
def test_parameter_mistakes_name_the_parameter(
    measure: str, params: dict[str, Any], fragment: str
) -> None:
    [problem] = lab_problems({"measure": measure, "params": params, "labels": "graded"})
    assert problem.startswith(f"demo.lab.params.{next(iter(params))}: ")
    assert fragment in problem


def test_a_binary_lab_cannot_raise_the_relevance_level() -> None:
    [problem] = lab_problems(
        {"measure": "P@5", "labels": "binary", "params": {"rel": {"min": 1, "max": 2, "step": 1}}}
    )
    assert "a relevance level above 1 needs labels: graded" in problem


# ------------------------------------------------------------------ micro against macro


@pytest.mark.parametrize("measure", ["R@k", "P@k", "F1@k", "Rprec", "Judged@k"])
def test_micro_pools_the_counts_of_the_averaged_queries(measure: str) -> None:
    lab: dict[str, Any] = {"measure": measure, "labels": "binary", "conventions": ["micro"]}
    if measure.endswith("@k"):
        lab["k"] = 3
    state = _state(**lab)
    state["show_micro"] = True
    shown = _shown(state)
    # pooled by hand: hits over k, over R, or over k + R, counted from the qrels
    k = state.get("k")
    hits = denominator = 0.0
    for item in state["queries"]:
        relevant, ranking = set(item["relevant"]), item["ranking"]
        big_r = len(relevant)
        depth = {"R@k": k, "P@k": k, "F1@k": k, "Judged@k": k, "Rprec": big_r}[measure]
        found = sum(1 for d in ranking[:depth] if d in relevant)
        if measure == "Judged@k":
            found = min(depth, len(ranking))  # every listed document is judged
        hits += 2 * found if measure == "F1@k" else found
        if measure == "F1@k":
            denominator += k + big_r
        elif measure in ("R@k", "Rprec"):
            denominator += big_r
        else:  # P@k and Judged@k divide by k (every toy ranking holds 5 >= k documents)
            denominator += k
    assert shown["micro:default"] == shown["mean"]
    assert math.isclose(shown["micro:other"], hits / denominator, rel_tol=1e-12)


def test_the_averaging_card_shows_micro_recall_5_over_7() -> None:
    state = _state(measure="R@k", k=5, labels="binary", conventions=["micro"])
    state["show_micro"] = True
    html = view(state, "en")
    assert _shown(state)["micro:other"] == 5 / 7
    assert "micro: pooled counts, 5 / 7" in html
    assert "micro: recuentos sumados, 5 / 7" in view(state, "es")


def test_micro_applies_to_ratios_of_counts_only() -> None:
    [problem] = lab_problems({"measure": "AP@k", "k": 3, "conventions": ["micro"]})
    assert problem.startswith('demo.lab.conventions[0]: "micro" does not apply to AP')


# -------------------------------------------------------------- precision-recall curve


def test_the_iprec_lab_draws_the_interpolated_curve_with_the_readers_level() -> None:
    state = _state(measure="IPrec@0.5", params={"recall": {"min": 0, "max": 1, "step": 0.1}})
    state["param_recall"] = 0.9
    html = view(state, "es")
    figure = re.search(r'<figure class="rc-lab-curve">(.*?)</figure>', html, re.S)
    assert figure and figure.group(1).startswith("<svg")
    names = [f"IPrec@{level}" for level in RECALL_LEVELS]
    qrels = {q["query"]: judgments_of(q, False) for q in state["queries"]}
    result = evaluate(qrels, _run(state["queries"]), names)
    mean_curve = [result.aggregate[spec.name] for spec in result.measures]
    q1_curve = [result.per_query["q1"][spec.name] for spec in result.measures]
    desc = re.search(r"<desc>(.*?)</desc>", figure.group(1)).group(1)  # type: ignore[union-attr]
    series = re.findall(r"\((?:línea|puntos)\): ((?:\([\d.]+, [\d.]+\)(?:, )?)+)", desc)
    points = [re.findall(r"\(([\d.]+), ([\d.]+)\)", part) for part in series]
    assert [float(y) for _, y in points[0]] == pytest.approx(mean_curve, abs=5e-4)
    assert [float(y) for _, y in points[1]] == pytest.approx(q1_curve, abs=5e-4)
    assert points[2] == [("0.9", "0.35")]  # the reader's level on the mean curve: 0.35
    assert "tu nivel de exhaustividad r = 0.9" in desc
    assert _shown(state)["mean"] == result.aggregate["IPrec@0.9"] == 0.35


def test_other_measures_draw_no_curve() -> None:
    assert "rc-lab-curve" not in view(_state(measure="AP@k", k=3), "en")


# ------------------------------------------------------------------ the initial tie


@pytest.mark.parametrize("measure", ["AP@k", "Rprec", "IPrec@0.5", "RR@k"])
def test_the_initial_tie_changes_the_measure_when_one_can(measure: str) -> None:
    lab: dict[str, Any] = {"measure": measure, "conventions": ["ties"]}
    if measure.endswith("@k"):
        lab["k"] = 3
    state = _state(**lab)
    state["show_ties"] = True
    shown = _shown(state)
    assert shown["ties:default"] != shown["ties:other"], state["tied"]


def test_without_a_tie_that_matters_the_first_reordering_one_is_kept() -> None:
    # P@3 on the shared example: no tie across rank 3 reorders a relevant document
    state = _state(measure="P@k", k=3, conventions=["ties"])
    assert state["tied"] == ["q1:2"]
    assert validate({"lab": {"measure": "P@k", "k": 3, "conventions": ["ties"]}})[-1].startswith(
        'demo.lab.conventions[0]: "ties" shows the same mean on both sides'
    )


# ------------------------------------------------------------------------ words


@pytest.mark.parametrize("lang", ["es", "en"])
def test_quantities_are_written_in_words(lang: str) -> None:
    state = _state(measure="F(beta=2)@k", k=3)
    html = view(state, lang)
    items = re.findall(r"<li>(.*?)</li>", html.split('class="rc-lab-quantities"')[1])
    text = [re.sub(r"<[^>]+>", "", item) for item in items]
    assert f"β = 2 ({QUANTITY[lang]['beta']})" in text
    words = QUANTITY[lang]["relevant_retrieved"]
    assert any(item.startswith(f"{words[0].upper()}{words[1:]}: ") for item in text)
    assert not [item for item in text if "_" in item]


def test_a_lab_block_problem_is_a_demo_error() -> None:
    with pytest.raises(DemoError, match=r"^demo\.lab\.params\.q: "):
        expand({"lab": {"measure": "RBP(p=0.8)", "params": {"q": {"min": 0, "max": 1, "step": 1}}}})
