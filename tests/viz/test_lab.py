"""The measure lab's view: every number it shows is what rankcards.metrics computes.

Checked against :func:`rankcards.metrics.evaluate` on qrels and runs built here independently of
the view (every listed document judged, scores from the list order), for every measure that
reports an explanation: a measure that gains one is covered at once.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from rankcards.metrics import evaluate
from rankcards.metrics._registry import MEASURES
from rankcards.viz._lab_spec import cutoff_variant, expand_lab, gain_variant, measure_at
from rankcards.viz._lab_text import DETAIL, QUANTITY, VIEW
from rankcards.viz.lab import view

_METRIC = re.compile(r'data-metric="([^"]*)" data-value="([^"]*)"')


def _written(measure: Any) -> str:
    if measure.at == "recall":  # IPrec@r: the "@" is a recall level, fixed on the card
        return f"{measure.name}@0.5"
    return measure.name + ("@k" if measure.cutoff != "none" else "")


#: the diversity measures read subtopics, which the lab's rankings do not have
EXPLAINED = [
    _written(m) for m in MEASURES if m.explain is not None and not m.is_counter and not m.subtopics
]


def test_the_lab_covers_the_explained_measures() -> None:
    assert "AP@k" in EXPLAINED  # the first explanation; every later one joins the tests below


def _metrics(html: str) -> dict[str, float]:
    pairs = _METRIC.findall(html)
    names = Counter(name for name, _ in pairs)
    assert [name for name, count in names.items() if count > 1] == []  # names are unique
    return {name: float(value) for name, value in pairs}


def _state(written: str, labels: str, **changes: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {"measure": written, "labels": labels}
    if written.endswith("@k"):
        spec["k"] = 3
    spec["conventions"] = ["ties", "averaging"] + (
        ["cutoff"] if cutoff_variant(measure_at(written, 3)) is not None else []
    )
    state = expand_lab(spec)["state"]
    state.update(changes)
    return state


def _reference(
    state: dict[str, Any],
    name: str,
    tied: Sequence[str] = (),
    drop: str | None = None,
    **options: Any,
) -> tuple[dict[str, float], float]:
    """evaluate() on the lab's data, built here: listed docs judged 0 unless marked or left
    unjudged; ``tied`` entries "q1:2" give ranks 2 and 3 of q1 one score."""
    qrels, run = {}, {}
    for item in state["queries"]:
        judged = {doc: 0 for doc in item["ranking"] if doc not in item.get("unjudged", [])}
        if "grades" in item:
            judged.update(item["grades"])
        else:
            judged.update(dict.fromkeys(item["relevant"], 1))
        qrels[item["query"]] = judged
        if item["query"] == drop:
            continue
        scores = {doc: float(100 - rank) for rank, doc in enumerate(item["ranking"])}
        for tie in tied:
            qid, _, rank = tie.rpartition(":")
            if qid == item["query"]:  # rank r and r + 1 (1-based) share the upper one's score
                scores[item["ranking"][int(rank)]] = scores[item["ranking"][int(rank) - 1]]
        run[item["query"]] = scores
    result = evaluate(qrels, run, [name], **options)
    key = result.measures[0].name
    return {q: v[key] for q, v in result.per_query.items()}, result.aggregate[key]


@pytest.mark.parametrize("labels", ["binary", "graded"])
@pytest.mark.parametrize("written", EXPLAINED)
@pytest.mark.parametrize("focus", ["q1", "q2", "q3", "q4"])
def test_values_mean_and_terms_equal_evaluate(written: str, labels: str, focus: str) -> None:
    state = _state(written, labels, focus=focus)
    name = measure_at(written, state.get("k"))
    shown = _metrics(view(state, "en"))
    per_query, mean = _reference(state, name)
    assert {q: shown[f"value:{q}"] for q in per_query} == per_query
    assert shown["mean"] == mean
    assert [shown[f"mean-term:{q}"] for q in per_query] == list(per_query.values())
    # the focused query's formula: its terms add up to the numerator, over the denominator
    assert shown["explained"] == per_query[focus]
    terms = [value for key, value in shown.items() if key.startswith("term:")]
    numerator = math.fsum(terms) if terms else shown.get("numerator", 0.0)
    denominator = shown.get("denominator", 1.0)
    assert math.isclose(numerator / denominator, per_query[focus], rel_tol=1e-12, abs_tol=1e-15)
    steps = math.fsum(v for k, v in shown.items() if re.fullmatch(r"step:\d+:contribution", k))
    assert math.isclose(steps, numerator, rel_tol=1e-12, abs_tol=1e-15)


@pytest.mark.parametrize("written", EXPLAINED)
def test_both_languages_show_the_same_numbers(written: str) -> None:
    state = _state(written, "graded", show_ties=True, show_averaging=True, show_cutoff=True)
    assert _metrics(view(state, "es")) == _metrics(view(state, "en"))


@pytest.mark.parametrize("written", EXPLAINED)
def test_ties_side_by_side_trec_eval_and_run_order(written: str) -> None:
    state = _state(written, "binary", show_ties=True)
    [tie] = state["tied"]  # the initial tie: one that docno descending reorders
    qid, _, rank = tie.rpartition(":")
    [item] = [item for item in state["queries"] if item["query"] == qid]
    assert item["ranking"][int(rank) - 1] < item["ranking"][int(rank)]
    name = measure_at(written, state.get("k"))
    shown = _metrics(view(state, "en"))
    _, trec_eval_mean = _reference(state, name, tied=state["tied"])
    _, run_order_mean = _reference(state, name)  # distinct scores: the list order
    assert shown["ties:default"] == shown["mean"] == trec_eval_mean
    assert math.isclose(shown["ties:other"], run_order_mean, rel_tol=1e-12)


def test_a_tie_reorders_the_terms_as_trec_eval_does() -> None:
    state = _state("AP@k", "binary", show_ties=True, k=5)
    html = view(state, "en")
    shown = _metrics(html)
    # q1 = d3 d1 d7 d4 d9, relevant d1 d4 (d8 never retrieved): tied d1 = d7 -> d7 first
    assert re.findall(r'<tr data-rank="(\d)" data-doc="(d\d)"', html)[:3] == [
        ("1", "d3"),
        ("2", "d7"),
        ("3", "d1"),
    ]
    assert shown["explained"] == pytest.approx((1 / 3 + 2 / 4) / 3)
    assert shown["ties:other"] > shown["ties:default"]  # run order keeps d1 at rank 2
    assert "d3 d7 d1 d4 d9" in html  # the tie note gives the order used


@pytest.mark.parametrize("written", EXPLAINED)
def test_averaging_side_by_side_with_and_without_c(written: str) -> None:
    state = _state(written, "binary", show_averaging=True, focus="q4")
    assert state["absent"] == ["q4"]
    name = measure_at(written, state.get("k"))
    html = view(state, "en")
    shown = _metrics(html)
    per_query, judged_mean = _reference(state, name, drop="q4")
    _, complete_mean = _reference(state, name, drop="q4", complete=True)
    assert "value:q4" not in shown and "q4" not in per_query
    assert shown["averaging:default"] == shown["mean"] == judged_mean
    assert shown["averaging:other"] == complete_mean
    assert shown["explained"] == 0.0
    assert VIEW["en"]["no_steps"].format(query="q4") in html


def test_cutoff_side_by_side() -> None:
    state = _state("AP@k", "binary", show_cutoff=True, k=2)
    shown = _metrics(view(state, "en"))
    assert shown["cutoff:default"] == _reference(state, "AP@2")[1]
    assert shown["cutoff:other"] == _reference(state, "AP")[1]
    assert shown["cutoff:other"] != shown["cutoff:default"]


def test_gain_side_by_side_when_the_module_has_exponential_gain() -> None:
    assert gain_variant("nDCG@3") == "nDCG(dcg=exp-log2)@3"
    assert gain_variant("nDCG(dcg=exp-log2)@3") == "nDCG@3"
    state = expand_lab({"measure": "nDCG@k", "k": 3, "conventions": ["gain"]})["state"]
    state["show_gain"] = True
    shown = _metrics(view(state, "en"))
    assert shown["gain:default"] == _reference(state, "nDCG@3")[1]
    assert shown["gain:other"] == _reference(state, "nDCG(dcg=exp-log2)@3")[1]


def test_conventions_off_show_no_side_by_side_and_ignore_ties_and_absences() -> None:
    state = _state("AP@k", "binary")
    html = view(state, "en")
    shown = _metrics(html)
    assert not [key for key in shown if key.split(":")[0] in ("ties", "averaging", "cutoff")]
    assert "rc-lab-conventions" not in html and "rc-lab-tie" not in html
    assert shown["mean"] == _reference(state, "AP@3")[1]  # q4 counted, no tie


@pytest.mark.parametrize("written", EXPLAINED)
def test_every_named_intermediate_has_words_in_both_languages(written: str) -> None:
    for labels in ("binary", "graded"):
        for focus in ("q1", "q2", "q3"):
            html = view(_state(written, labels, focus=focus), "en")
            for key in _metrics(html):
                kind, _, rest = key.partition(":")
                if kind in ("step", "ideal"):
                    detail = rest.split(":")[1]
                    if detail != "contribution":
                        assert all(detail in DETAIL[lang] for lang in ("es", "en")), detail
                if kind == "quantity":
                    assert all(rest in QUANTITY[lang] for lang in ("es", "en")), rest


def test_the_view_controls_act_on_the_state() -> None:
    state = _state("AP@k", "binary", show_ties=True, show_averaging=True)
    html = view(state, "es")
    assert 'data-rc-set="focus" data-rc-value="&quot;q2&quot;"' in html
    assert 'data-rc-toggle="tied" data-rc-item="q1:2"' in html
    assert 'data-rc-toggle="absent" data-rc-item="q3"' in html
    assert "data-rc-announce" in html and "media de AP@3" in html


def test_no_query_in_the_run_shows_no_mean() -> None:
    state = _state("AP@k", "binary", show_averaging=True, absent=["q1", "q2", "q3", "q4"])
    html = view(state, "en")
    assert 'data-metric="mean">—' in html
    assert VIEW["en"]["no_mean"] in html
    assert _metrics(html)["averaging:other"] == 0.0  # -c: every query 0


def test_the_strings_have_the_same_keys_in_both_languages() -> None:
    for table in (VIEW, DETAIL, QUANTITY):
        assert set(table["es"]) == set(table["en"])


def test_gain_side_by_side_from_the_exponential_side() -> None:
    spec = {"measure": "nDCG(dcg=exp-log2)@k", "k": 4, "conventions": ["gain"]}
    state = expand_lab(spec)["state"]
    state["show_gain"] = True
    html = view(state, "es")
    shown = _metrics(html)
    assert shown["gain:default"] == shown["mean"] == _reference(state, "nDCG(dcg=exp-log2)@4")[1]
    assert shown["gain:other"] == _reference(state, "nDCG@4")[1]
    assert html.index(VIEW["es"]["gain_exp"]) < html.index(VIEW["es"]["gain_linear"])


def test_a_term_that_writes_the_whole_value_is_shown_as_its_contribution() -> None:
    # RR's step writes "1/2" (the value) but adds 1 to the numerator, over the rank 2
    state = _state("RR@k", "binary", focus="q1")
    html = view(state, "en")
    assert re.search(r'RR@3\(q1\) = <span[^>]*data-metric="term:2"[^>]*>1</span> / ', html)
    assert '<td class="rc-lab-expression">1/2</td>' in html


_CONVENTION = re.compile(
    r'<li data-convention="(\w+)">(.*?)<span[^>]*data-metric="\1:default"[^>]*>.*?</span>'
    r"(.*?)<span[^>]*data-metric=\"\1:other\"",
    re.S,
)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_each_conventions_labels_name_the_value_they_stand_beside(lang: str) -> None:
    """trec_eval's value sits after the label naming trec_eval's rule, the other after the
    other's, in each language (a label pair swapped in one language reads the wrong number)."""
    state = _state("AP@k", "binary", show_ties=True, show_averaging=True)
    labels = {
        name: (first, second) for name, first, second in _CONVENTION.findall(view(state, lang))
    }
    ties_default, ties_other = labels["ties"]
    assert "trec_eval" in ties_default and "docno" in ties_default
    run = {"en": "run", "es": "ejecución"}[lang]
    assert "trec_eval" not in ties_other and run in ties_other
    averaging_default, averaging_other = labels["averaging"]
    assert "trec_eval" in averaging_default and "-c" not in averaging_default
    assert "trec_eval" not in averaging_other and "-c" in averaging_other
