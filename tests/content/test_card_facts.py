"""What cards state that is not a number: relations between measures, and other tools' behaviour.

Every number a card states is `rankcards check`'s (its example, its demo or its ``claims``
compute it: rankcards.cards._numbers). What is left here is each card's own content that a
number cannot carry: a relation it states ("MRR@K ≤ Hit Rate@K") holds on the shared example
for every k, and what it says another tool does (pytrec_eval, i.e. trec_eval 9.x, which
ir_measures uses; SciPy) is what the installed tool does.
"""

from __future__ import annotations

import inspect
import math
import random
from pathlib import Path

import pytest
import yaml

from ci_gate import require_module
from rankcards.demos.gold import GRADE_NAMES
from rankcards.demos.toy import TOY, toy_rankings, toy_relevant
from rankcards.demos.vectors import synthetic
from rankcards.metrics import (
    _stats,
    average_precision,
    evaluate,
    explain,
    f1_at_k,
    hit_rate_at_k,
    mean_average_precision,
    mean_precision_at_k,
    mean_reciprocal_rank,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
)
from rankcards.viz import index_benchmarking
from rankcards.viz.per_query import compare
from rankcards.viz.significance import queries_needed

CARDS = Path(__file__).resolve().parents[2] / "docs" / "cards"
LANGS = ("es", "en")
QRELS = {q.id: dict(q.judgments) for q in TOY}
RUN = {q.id: {doc: float(len(q.ranking) - i) for i, doc in enumerate(q.ranking)} for q in TOY}
LEVELS = [j / 10 for j in range(11)]


def _card(slug: str) -> dict:
    return yaml.safe_load((CARDS / f"{slug}.yml").read_text(encoding="utf-8"))


def _prose(slug: str, lang: str) -> str:
    card = _card(slug)
    parts = [card[field][lang] for field in ("summary", "definition", "intuition")]
    parts += card["key_points"][lang] + card["gotchas"][lang]
    if "formula" in card:
        parts.append(card["formula"]["where"][lang])
    return "\n".join(parts)


def _item(items: list[str], *needles: str) -> str:
    """The one list item (key point, gotcha) that holds every needle."""
    found = [item for item in items if all(needle in item for needle in needles)]
    assert len(found) == 1, f"expected one item with {needles}, found {len(found)}"
    return found[0]


# --- relations between measures -------------------------------------------------------------


def test_mrr_and_hit_rate_relations_hold_on_the_shared_example():
    rankings, relevant = toy_rankings(), toy_relevant()
    for lang in LANGS:
        mrr, hit = _prose("mrr", lang), _prose("hit-rate-at-k", lang)
        assert "MRR@K ≤ Hit Rate@K" in mrr and "MRR@K ≤ Hit Rate@K" in hit
        assert "MRR@1 = Hit Rate@1 = " in mrr and "Hit Rate@1 = MRR@1 = " in hit
        assert "MRR = MAP" in mrr
    for k in range(1, 6):
        assert mean_reciprocal_rank(rankings, relevant, k) <= hit_rate_at_k(rankings, relevant, k)
    at_one = mean_reciprocal_rank(rankings, relevant, 1)
    assert (
        at_one == hit_rate_at_k(rankings, relevant, 1) == mean_precision_at_k(rankings, relevant, 1)
    )
    # MRR = MAP when every query has exactly one relevant document (AP = 1 / rank).
    single = [{ranking[i]} for ranking, i in zip(rankings, (1, 0, 4, 2), strict=True)]
    assert mean_reciprocal_rank(rankings, single) == mean_average_precision(rankings, single)


def test_precision_recall_f1_and_r_precision_relations_hold_on_the_shared_example():
    for q in TOY:
        ranking, rel = list(q.ranking), q.relevant
        assert precision_at_k(ranking, rel, 1) == reciprocal_rank(ranking, rel, k=1)
        for k in range(1, 11):
            hits = sum(doc in rel for doc in ranking[:k])
            assert math.isclose(
                precision_at_k(ranking, rel, k) * k, recall_at_k(ranking, rel, k) * len(rel)
            )
            assert math.isclose(f1_at_k(ranking, rel, k), 2 * hits / (k + len(rel)))
        rprec = evaluate({q.id: QRELS[q.id]}, {q.id: RUN[q.id]}, ["Rprec"]).aggregate["Rprec"]
        assert (
            precision_at_k(ranking, rel, len(rel)) == rprec == recall_at_k(ranking, rel, len(rel))
        )
        assert math.isclose(f1_at_k(ranking, rel, len(rel)), rprec)


def test_average_precision_relations_hold_on_the_shared_example():
    for q in TOY:
        one = evaluate({q.id: QRELS[q.id]}, {q.id: RUN[q.id]}, ["AP@1", "P@1"]).aggregate
        assert math.isclose(one["AP@1"], one["P@1"] / len(q.relevant))
        if len(q.relevant) == 1:  # AP = RR with a single relevant document
            assert average_precision(q.ranking, q.relevant) == reciprocal_rank(
                q.ranking, q.relevant
            )


def test_gain_and_setup_relations_the_cards_state():
    qrels, run = QRELS, {q.id: {d: 5.0 - r for r, d in enumerate(q.ranking)} for q in TOY}
    q1 = explain("nDCG@5", TOY[0].ranking, TOY[0].judgments)
    assert [step.docno for step in q1.ideal] == ["d1", "d8", "d4"]  # q1's ideal ordering
    # uncut nDCG is nDCG@5 on 5-document rankings; -l does not change a graded measure
    assert (
        evaluate(qrels, run, ["nDCG"]).aggregate["nDCG"]
        == evaluate(qrels, run, ["nDCG@5"]).aggregate["nDCG@5"]
    )
    assert (
        evaluate(qrels, run, ["nDCG@5"], rel_level=2).aggregate
        == evaluate(qrels, run, ["nDCG@5"]).aggregate
    )
    # P(rel=2)@5 is P@5 under -l 2; -c scores the query the run lacks
    strict = evaluate(qrels, run, ["P@5"], rel_level=2).aggregate["P@5"]
    assert strict == evaluate(qrels, run, ["P(rel=2)@5"]).aggregate["P(rel=2)@5"]
    without_q4 = {qid: scores for qid, scores in run.items() if qid != "q4"}
    assert len(evaluate(qrels, without_q4, ["AP"], complete=True).per_query) == 4


def test_the_per_query_gap_is_fifteen_times_the_mean_difference():
    data = compare("AP", 5)
    worst = min(data["differences"])
    assert round(-worst / data["comparison"]["delta"]) == 15
    for lang, words in (("es", "quince veces"), ("en", "fifteen times")):
        assert words in _prose("per-query-analysis", lang)


def test_the_gold_dataset_names_each_grade_as_the_module_does():
    card = _card("gold-dataset")
    for lang in LANGS:
        for grade, name in GRADE_NAMES[lang].items():
            assert f"{grade} = {name}" in card["definition"][lang]
        level = next(control for control in card["demo"]["controls"] if control["bind"] == "level")
        assert [(o["value"], o["label"][lang]) for o in level["options"]] == [
            (grade, f"{grade} ({GRADE_NAMES[lang][grade]})") for grade in (1, 2, 3)
        ]


def test_ivf_with_every_list_probed_is_exact_but_slower_than_brute_force():
    assert index_benchmarking.recall_at(index_benchmarking.N_LISTS) == 1.0
    assert index_benchmarking._cost(index_benchmarking.N_LISTS) > len(synthetic().data)


def test_halving_an_interval_takes_about_four_times_the_queries():
    assert 3.5 <= queries_needed(0.17, 0.025) / queries_needed(0.17, 0.05) <= 4.5


def test_a_sampled_randomization_p_is_a_multiple_of_one_over_the_samples_plus_one():
    where = _card("significance-testing")["formula"]["where"]
    assert all("$p = (1 + " in where[lang] and "16" in where[lang] for lang in LANGS)
    differences = [0.01 * (i % 7 + 1) * (-1) ** i for i in range(20)]  # 20 non-zero: sampled
    p = _stats.randomization_test(differences, samples=999, seed=3).p
    assert p > 0 and round(p * 1000) == pytest.approx(p * 1000)


def test_a_larger_family_never_lowers_an_adjusted_p():
    """The PyTerrier gotcha: correcting over every measure at once (rankcards compare) never
    gives a smaller adjusted p than correcting each measure's family alone."""
    for lang in LANGS:
        gotcha = _item(_card("multiple-comparisons")["gotchas"][lang], "PyTerrier 1.1.2")
        assert "nunca son menores" in gotcha or "never smaller" in gotcha
    generator = random.Random(11)
    for _ in range(300):
        family = [generator.random() ** 2 for _ in range(generator.randint(2, 12))]
        part = family[: generator.randint(1, len(family))]
        for correct in (_stats.holm, _stats.bonferroni):
            assert all(w >= a - 1e-15 for w, a in zip(correct(family), correct(part), strict=False))


def test_holm_never_rejects_fewer_than_bonferroni():
    generator = random.Random(5)
    for _ in range(500):
        p = [generator.random() ** 3 for _ in range(generator.randint(1, 12))]
        assert all(
            h <= b + 1e-15 for h, b in zip(_stats.holm(p), _stats.bonferroni(p), strict=True)
        )


# --- other tools ------------------------------------------------------------------------------


def _pytrec_eval():
    return require_module("pytrec_eval", "pip install pytrec-eval-terrier, in .[dev]")


def test_pytrec_eval_set_f_parameter_is_beta_squared():
    """f1-at-k: ir_measures' SetF(beta=2) -> pytrec_eval set_F_2.0 = 3PR/(R + 2P) on q1."""
    got = _pytrec_eval().RelevanceEvaluator({"q1": QRELS["q1"]}, {"set_F_2.0"})
    p1 = precision_at_k(TOY[0].ranking, TOY[0].relevant, 5)
    r1 = recall_at_k(TOY[0].ranking, TOY[0].relevant, 5)
    assert got.evaluate({"q1": RUN["q1"]})["q1"]["set_F"] == pytest.approx(
        3 * p1 * r1 / (r1 + 2 * p1)
    )


def _iprec_trec_eval_9(query, level: float) -> float:
    """trec_eval 9.x's interpolated precision: level r needs int(r * R + 0.9) relevant."""
    steps = explain("IPrec@0.5", list(query.ranking), query.judgments).steps
    found = [s.detail["precision"] for s in steps if s.contribution]
    needed = int(level * len(query.relevant) + 0.9)
    return 0.0 if needed > len(found) else max(found[max(needed, 1) - 1 :], default=0.0)


def test_pytrec_eval_follows_trec_eval_9_on_the_curve():
    """precision-recall-curve: pytrec-eval-terrier (ir_measures' IPrec) gives 0 on q1 at 0.8."""
    measures = {f"iprec_at_recall_{level:.2f}" for level in LEVELS}
    got = _pytrec_eval().RelevanceEvaluator(QRELS, measures).evaluate(RUN)
    for q in TOY:
        for level in LEVELS:
            assert got[q.id][f"iprec_at_recall_{level:.2f}"] == pytest.approx(
                _iprec_trec_eval_9(q, level)
            )
    assert got["q1"]["iprec_at_recall_0.80"] == 0.0
    assert evaluate(QRELS, RUN, ["IPrec@0.8"]).per_query["q1"]["IPrec@0.8"] == 0.5  # 10.0


def test_pytrec_eval_bpref_agrees_with_the_module():
    nonrelevant = {"q1": ["d3", "d9"], "q2": ["d5", "d1"], "q3": ["d4"], "q4": ["d5", "d7"]}
    judged = {q.id: {**dict.fromkeys(nonrelevant[q.id], 0), **q.judgments} for q in TOY}
    got = _pytrec_eval().RelevanceEvaluator(judged, {"bpref"}).evaluate(RUN)
    ours = evaluate(judged, RUN, ["bpref"]).per_query
    assert [got[q.id]["bpref"] for q in TOY] == pytest.approx([ours[q.id]["bpref"] for q in TOY])


def test_scipy_wilcoxon_is_exact_on_few_differences_as_the_gotcha_says():
    stats = require_module("scipy.stats", "in .[dev]")
    scipy = require_module("scipy", "in .[dev]")
    for lang in LANGS:
        gotcha = _item(_card("significance-testing")["gotchas"][lang], "0.0625", "0.0431")
        assert "1.17" in gotcha and "50" in gotcha and "13" in gotcha
    assert scipy.__version__.startswith("1.17")  # the version the gotcha names
    # 5 distinct positive differences: the exact distribution, p = 2/32
    assert stats.wilcoxon([0.011, 0.02, 0.005, 0.003, 0.012]).pvalue == pytest.approx(0.0625)
    notes = stats.wilcoxon.__doc__
    assert "``len(d) <= 50``" in notes and "``len(d) <= 13``" in notes


def test_scipy_bootstrap_defaults_are_bca_with_9999_resamples():
    stats = require_module("scipy.stats", "in .[dev]")
    parameters = inspect.signature(stats.bootstrap).parameters
    assert parameters["method"].default == "BCa" and parameters["n_resamples"].default == 9999
    for lang in LANGS:
        gotcha = _item(_card("confidence-intervals")["gotchas"][lang], "BCa")
        assert "9999" in gotcha
