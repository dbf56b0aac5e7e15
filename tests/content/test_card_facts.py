"""What cards state that is not a number: relations between measures, and other tools' behaviour.

Every number a card states is `rankcards check`'s (its example, its demo or its ``claims``
compute it: rankcards.cards._numbers). What is left here is each card's own content that a
number cannot carry: a relation it states ("MRR@K ≤ Hit Rate@K") holds on the shared example
for every k, and what it says another tool does (pytrec_eval, i.e. trec_eval 9.x, which
ir_measures uses; SciPy) is what the installed tool does.
"""

from __future__ import annotations

import copy
import functools
import inspect
import itertools
import math
import random
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from ci_gate import require_module, skip_or_fail
from content._view import shown
from rankcards.demos.bm25 import BM25
from rankcards.demos.gold import GRADE_NAMES, load_gold
from rankcards.demos.toy import TOY, toy_rankings, toy_relevant
from rankcards.demos.vectors import synthetic
from rankcards.metrics import (
    _stats,
    average_precision,
    compare_scores,
    evaluate,
    explain,
    f1_at_k,
    hit_rate_at_k,
    mean_average_precision,
    mean_precision_at_k,
    mean_reciprocal_rank,
    nugget_scores,
    paired_scores,
    precision_at_k,
    ragas_context_precision,
    ragas_context_recall,
    ragas_id_context_precision,
    ragas_id_context_recall,
    recall_at_k,
    reciprocal_rank,
)
from rankcards.metrics._iprec import relevant_needed
from rankcards.viz import expand, index_benchmarking
from rankcards.viz.interleaving import run as interleave
from rankcards.viz.lab import view as lab_view
from rankcards.viz.per_query import compare
from rankcards.viz.significance import queries_needed
from repo_paths import CARDS

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


def _words(text: str) -> str:
    """``text`` on one line (a block of YAML prose breaks its sentences anywhere)."""
    return " ".join(text.split())


# The statistics cards' example: BM25 on the 20 gold queries, three settings against Anserini's
# defaults (the baseline), nDCG@10 per query.
BASELINE, LUCENE, LOW = "k1=0.9 b=0.4", "k1=1.2 b=0.75", "k1=0.5 b=0.3"
TESTS = ("t", "wilcoxon", "randomization", "bootstrap")


@functools.cache
def _gold_ndcg() -> dict[str, list[float]]:
    gold = load_gold()
    runs = {}
    for name in (BASELINE, LUCENE, LOW):
        k1, b = (float(setting.partition("=")[2]) for setting in name.split())
        bm25 = BM25(gold.documents, k1=k1, b=b)
        runs[name] = {qid: dict(bm25.search(text, k=10)) for qid, text in gold.queries.items()}
    scores = paired_scores(gold.qrels, runs, ["nDCG@10"]).scores
    return {name: scores[name]["nDCG@10"] for name in runs}


def _differences(run: str) -> list[float]:
    ndcg = _gold_ndcg()
    return [new - base for base, new in zip(ndcg[BASELINE], ndcg[run], strict=True)]


def _row(run: str, test: str, queries: list[int] | None = None) -> dict:
    """``rankcards compare``'s row for ``run`` against the baseline (on ``queries`` only)."""
    ndcg = _gold_ndcg()
    keep = range(len(ndcg[BASELINE])) if queries is None else queries
    pair = {name: {"nDCG@10": [ndcg[name][i] for i in keep]} for name in (BASELINE, run)}
    return compare_scores(pair, test=test)["comparisons"][0]


def _rbp_of(ranking: list[str] | tuple[str, ...], judgments: dict[str, int], p: float) -> float:
    """One query's RBP(p) through evaluate (scores falling with the rank)."""
    run = {"q": {doc: 100.0 - rank for rank, doc in enumerate(ranking)}}
    return evaluate({"q": judgments}, run, [f"RBP(p={p})"]).aggregate[f"RBP(p={p})"]


def _interleaving(contender: str, model: str):
    """The online-evaluation demo's 1000 impressions (seed 1) of BM25 against ``contender``."""
    state = {"contender": contender, "model": model, "impressions": 1000, "seed": 1}
    simulation, _ = interleave(state)
    return simulation


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


def test_a_queries_best_f1_need_not_be_at_k_equal_to_r_but_1_needs_it():
    for lang in LANGS:
        point = _item(_card("f1-at-k")["key_points"][lang], "0.5714")
        assert all(words in point for words in ("q1 (R = 3)", "k = 4", "q3 (R = 2)", "k = 5"))
        assert "F1@2 es 0" in point or "F1@2 is 0" in point
    by_k = {k: evaluate(QRELS, RUN, [f"F1@{k}"]).per_query for k in range(1, 6)}
    for q, best_k in ((TOY[0], 4), (TOY[2], 5)):
        values = {k: by_k[k][q.id][f"F1@{k}"] for k in range(1, 6)}
        assert max(values, key=values.__getitem__) == best_k != len(q.relevant)
    assert by_k[2]["q3"]["F1@2"] == 0.0
    # The best possible value, 1, needs k = R: over every ordering of 3 relevant and 3
    # non-relevant documents, F1@k reaches 1 only at k = 3.
    relevant = {"a", "b", "c"}
    orders = [list(order) for order in itertools.permutations("abcxyz")]
    for k in range(1, 7):
        best = max(f1_at_k(order, relevant, k) for order in orders)
        assert (best == 1.0) == (k == len(relevant)), k


def test_rbp_never_drops_when_a_grade_rises_under_the_same_top_grade():
    """rbp: replacing a non-relevant document by a relevant one, or raising a grade, never
    lowers RBP while the query's top grade stays (inserting one can: the key point's claims);
    with n documents its maximum is 1 - p^n."""
    for lang in LANGS:
        points = _card("rbp")["key_points"][lang]
        assert "$1 - p^n$" in _item(points, "0.6723")
        rule = _item(points, "0.4167")
        assert "mientras no cambie el grado más alto" in rule or "top grade stays the same" in rule
    generator = random.Random(19)
    for _ in range(300):
        docs = [f"d{i}" for i in range(8)]
        generator.shuffle(docs)
        judgments = {doc: generator.choice([0, 0, 1, 2, 3]) for doc in docs}
        judgments[docs[7]] = 3  # the query's top grade stays 3 whatever changes above
        p = generator.choice([0.5, 0.8, 0.9])
        before = _rbp_of(docs[:6], judgments, p)
        changed = generator.choice(docs[:6])
        raised = {**judgments, changed: max(judgments[changed], generator.randint(1, 3))}
        assert _rbp_of(docs[:6], raised, p) >= before - 1e-12
    for n in (1, 5, 10):
        ranking = [f"x{i}" for i in range(n)]
        assert _rbp_of(ranking, dict.fromkeys(ranking, 1), 0.8) == pytest.approx(1 - 0.8**n)


def test_online_preference_counts_a_tie_as_half_a_win_and_tests_only_the_decided():
    """online-evaluation: the preference for B is (w_B + t/2) / (w_A + w_B + t), a tie half a
    win for each system (Chapelle et al. 2012); the sign test uses the n = w_A + w_B decided
    impressions (SciPy's exact binomial test is the reference)."""
    stats = require_module("scipy.stats", "in .[dev]")
    card = _card("online-evaluation")
    assert (
        r"\hat{p}_B = \frac{w_B + t/2}{w_A + w_B + t}, \quad n = w_A + w_B"
        in card["formula"]["latex"]
    )
    for lang in LANGS:
        definition = _words(card["definition"][lang])
        assert "como media victoria para cada sistema" in definition or (
            "each tie counting as half a win for each system" in definition
        )
    for contender, model in (
        ("same", "navigational"),
        ("prf10", "navigational"),
        ("prf10", "perfect"),
    ):
        s = _interleaving(contender, model)
        assert s.wins_a + s.wins_b + s.ties == 1000
        assert math.isclose(s.preference_b, (s.wins_b + s.ties / 2) / 1000)
        decided = stats.binomtest(s.wins_b, s.wins_a + s.wins_b, 0.5).pvalue
        assert s.p_value == pytest.approx(decided, rel=1e-9)


def test_the_pr_curve_formula_shows_the_rounding_its_numbers_use():
    assert r"n_q(r) = \mathrm{lround}(r R_q)" in _card("precision-recall-curve")["formula"]["latex"]
    for num_rel in range(1, 12):
        for level in LEVELS:
            exact = level * num_rel  # lround: to the nearest whole number, halves away from 0
            assert relevant_needed(level, num_rel) == math.floor(exact + 0.5), (level, num_rel)


# --- what a card says its own demo is ---------------------------------------------------------


def _lab(slug: str, **changes: object) -> dict[str, float]:
    """What the card's lab shows in its default state, with ``changes`` applied to it."""
    state = copy.deepcopy(expand(_card(slug)["demo"])["state"])
    return shown(lab_view({**state, **changes}, "en"))


def test_the_bpref_demo_starts_from_the_examples_judgments_and_its_toggle_judges_the_rest():
    """bpref: the demo starts at the example's judgments (only relevant documents judged, the
    rest "?"); its toggle judges everything on screen non-relevant; the intuition's tip (q1's
    d3 and d9 judged non-relevant, d7 left unjudged) gives the jury's q1."""
    for lang in LANGS:
        definition = _words(_card("bpref")["definition"][lang])
        assert "La demo parte de ahí" in definition or "The demo starts there" in definition
    queries = expand(_card("bpref")["demo"])["state"]["queries"]
    assert [(q["query"], q["ranking"], set(q["relevant"])) for q in queries] == [
        (q.id, list(q.ranking), set(q.relevant)) for q in TOY
    ]
    only_relevant = {q.id: dict(q.judgments) for q in TOY}
    on_screen = {q.id: {**dict.fromkeys(q.ranking, 0), **q.judgments} for q in TOY}
    shown_first = _lab("bpref", show_unjudged=True)
    assert shown_first["mean"] == pytest.approx(
        evaluate(only_relevant, RUN, ["bpref"]).aggregate["bpref"]
    )
    assert shown_first["unjudged:other"] == pytest.approx(
        evaluate(on_screen, RUN, ["bpref"]).aggregate["bpref"]
    )
    tip = copy.deepcopy(queries)
    tip[0]["unjudged"] = ["d7"]
    jury = {**only_relevant["q1"], "d3": 0, "d9": 0}
    assert _lab("bpref", queries=tip)["value:q1"] == pytest.approx(
        explain("bpref", TOY[0].ranking, jury).value
    )


def test_the_precision_at_k_demo_has_queries_of_eight_documents_where_the_cutoff_matters():
    """precision-at-k: the shared example's mean P@k is the same for every k, so the demo has
    queries of its own, eight documents each, on which the cutoff moves the mean."""
    for lang in LANGS:
        point = _item(_card("precision-at-k")["key_points"][lang], "0.667")
        assert "ocho documentos cada una" in point or "eight documents each" in point
    queries = expand(_card("precision-at-k")["demo"])["state"]["queries"]
    assert [len(q["ranking"]) for q in queries] == [8] * len(queries)
    rankings = [q["ranking"] for q in queries]
    relevant = [set(q["relevant"]) for q in queries]
    toy_means = {mean_precision_at_k(toy_rankings(), toy_relevant(), k) for k in range(1, 6)}
    demo_means = {mean_precision_at_k(rankings, relevant, k) for k in range(1, 9)}
    assert len(toy_means) == 1 < len(demo_means)


def test_the_judged_at_k_demo_is_the_examples_new_run_and_judging_a_hole_raises_it():
    """judged-at-k: the demo is the example's new run (n1 and n2 on top of each shared
    ranking; the pool judged each query's top 3 and its relevant documents); the tip's press
    on n1 (? -> 0) raises the mean Judged@5."""
    queries = expand(_card("judged-at-k")["demo"])["state"]["queries"]
    pool = {q.id: set(q.ranking[:3]) | set(q.judgments) for q in TOY}
    assert [
        (q["query"], q["ranking"], set(q["relevant"]), set(q["unjudged"])) for q in queries
    ] == [
        (q.id, ["n1", "n2", *q.ranking], set(q.relevant), {"n1", "n2", *q.ranking} - pool[q.id])
        for q in TOY
    ]
    new_run = {q.id: {doc: 9.0 - i for i, doc in enumerate(["n1", "n2", *q.ranking])} for q in TOY}
    qrels = {q.id: {**dict.fromkeys(q.ranking[:3], 0), **q.judgments} for q in TOY}
    before = _lab("judged-at-k")["mean"]
    assert before == pytest.approx(evaluate(qrels, new_run, ["Judged@5"]).aggregate["Judged@5"])
    pressed = copy.deepcopy(queries)
    pressed[0]["unjudged"].remove("n1")
    after = _lab("judged-at-k", queries=pressed)["mean"]
    with_n1 = {**qrels, "q1": {**qrels["q1"], "n1": 0}}
    assert after == pytest.approx(evaluate(with_n1, new_run, ["Judged@5"]).aggregate["Judged@5"])
    assert after > before
    for lang in LANGS:
        tip = _card("judged-at-k")["intuition"][lang]
        assert "n1" in tip and ("subir Judged@5" in tip or "Judged@5 rise" in tip)


def test_on_lucenes_defaults_three_tests_say_significant_and_the_bootstrap_does_not():
    for lang in LANGS:
        point = _words(_item(_card("significance-testing")["key_points"][lang], "0.0534"))
        assert (
            "Tres dicen «significativo al 5 %» y el bootstrap no: 10 de las 20 consultas empatan"
            in point
            or 'Three say "significant at 5%" and the bootstrap does not: 10 of the 20 queries'
            " are tied"
            in point
        )
    rows = {test: _row(LUCENE, test) for test in TESTS}
    assert [test for test in TESTS if rows[test]["p"] < 0.05] == ["t", "wilcoxon", "randomization"]
    assert (rows["t"]["ties"], len(_differences(LUCENE))) == (10, 20)


def test_zero_differences_move_the_t_and_bootstrap_p_only():
    """significance-testing: Wilcoxon drops zero differences and the randomization test cannot
    move on them, so their p is the same without the tied queries; the t-test and the bootstrap
    count them (their p changes: the gotcha's claims) in a mean they pull toward 0."""
    for lang in LANGS:
        gotcha = _words(_item(_card("significance-testing")["gotchas"][lang], "0.0132", "0.0199"))
        assert "sin las 10 consultas empatadas" in gotcha or "without the 10 ties" in gotcha
        assert "Solo Wilcoxon y la prueba de signos descartan" in gotcha or (
            "Only Wilcoxon and the sign test drop" in gotcha
        )
    differences = _differences(LUCENE)
    untied = [i for i, d in enumerate(differences) if d != 0.0]
    assert len(differences) - len(untied) == 10
    for test in ("wilcoxon", "randomization"):
        assert _row(LUCENE, test, untied)["p"] == pytest.approx(_row(LUCENE, test)["p"])
    for test in ("t", "bootstrap"):
        assert _row(LUCENE, test, untied)["p"] < _row(LUCENE, test)["p"]
    nonzero = [differences[i] for i in untied]
    assert abs(_stats.mean(differences)) < abs(_stats.mean(nonzero))


def test_the_percentile_interval_is_not_the_bootstrap_tests_inverse():
    """confidence-intervals: on Lucene's defaults the t interval and the t-test agree, while the
    percentile interval leaves out 0 and the (studentized, shifted) bootstrap test does not
    reject."""
    t_row, bootstrap = _row(LUCENE, "t"), _row(LUCENE, "bootstrap")
    for lang in LANGS:
        definition = _words(_card("confidence-intervals")["definition"][lang])
        assert f"deja fuera el 0 y la prueba da $p = {bootstrap['p']:.4f}$" in definition or (
            f"leaves out 0 while the test gives $p = {bootstrap['p']:.4f}$" in definition
        )
    assert t_row["ci"][1] < 0.0 and t_row["p"] < 0.05
    assert bootstrap["ci"][1] < 0.0 and bootstrap["p"] >= 0.05


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


def test_ir_measures_set_f_wants_a_float_beta():
    """f1-at-k: ir_measures' SetF(beta=2.0) passes 2.0 to set_F (3PR/(R + 2P) on q1); SetF(beta=2)
    is created but refused when evaluated (its parameter is declared a float)."""
    ir_measures = require_module("ir_measures", "pip install ir-measures, in .[dev]")
    for lang in LANGS:
        gotcha = _item(_card("f1-at-k")["gotchas"][lang], "`SetF(beta=2.0)`")
        assert "`SetF(beta=2)`" in gotcha and "invalid param beta=2" in gotcha
    q1 = {"q1": QRELS["q1"]}, {"q1": RUN["q1"]}
    p1 = precision_at_k(TOY[0].ranking, TOY[0].relevant, 5)
    r1 = recall_at_k(TOY[0].ranking, TOY[0].relevant, 5)
    value = ir_measures.calc_aggregate([ir_measures.SetF(beta=2.0)], *q1)
    assert value[ir_measures.SetF(beta=2.0)] == pytest.approx(3 * p1 * r1 / (r1 + 2 * p1))
    with pytest.raises(AssertionError, match="invalid param beta=2"):
        ir_measures.calc_aggregate([ir_measures.SetF(beta=2)], *q1)


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


# The bpref card's judged non-relevant documents (every other document stays unjudged).
NONRELEVANT = {"q1": ["d3", "d9"], "q2": ["d5", "d1"], "q3": ["d4"], "q4": ["d5", "d7"]}
JUDGED = {q.id: {**dict.fromkeys(NONRELEVANT[q.id], 0), **q.judgments} for q in TOY}


def test_pytrec_eval_bpref_agrees_with_the_module():
    got = _pytrec_eval().RelevanceEvaluator(JUDGED, {"bpref"}).evaluate(RUN)
    ours = evaluate(JUDGED, RUN, ["bpref"]).per_query
    assert [got[q.id]["bpref"] for q in TOY] == pytest.approx([ours[q.id]["bpref"] for q in TOY])


def test_ranx_bpref_differs_from_trec_eval_where_the_card_says():
    """bpref: ranx 0.3.21 gives NaN when no non-relevant document is judged (trec_eval: the
    share of relevant retrieved) and counts a negative grade as judged non-relevant (trec_eval:
    unjudged)."""
    ranx = require_module("ranx", "pip install ranx, in .[dev]")
    import importlib.metadata

    assert importlib.metadata.version("ranx") == "0.3.21"
    for lang in LANGS:
        gotcha = _item(_card("bpref")["gotchas"][lang], "ranx 0.3.21")
        assert "NaN" in gotcha and ("q1, q2 y q3" in gotcha or "q1, q2 and q3" in gotcha)
    only_relevant = ranx.evaluate(ranx.Qrels(QRELS), ranx.Run(RUN), "bpref", return_mean=False)
    # NaN on q1, q2, q3 (a relevant document retrieved, N = 0); q4 retrieves none: 0
    assert [math.isnan(value) for value in only_relevant] == [True, True, True, False]
    assert math.isnan(ranx.evaluate(ranx.Qrels(QRELS), ranx.Run(RUN), "bpref"))
    ours = evaluate(QRELS, RUN, ["bpref", "R@5"]).per_query  # trec_eval's rule: R@5 here
    assert all(values["bpref"] == values["R@5"] for values in ours.values())
    # q1 judged with d3 at -1 (above d1): trec_eval skips it, ranx counts it as non-relevant
    negative = {"q1": {**JUDGED["q1"], "d3": -1}}
    as_zero = {"q1": {**JUDGED["q1"], "d3": 0}}
    unjudged = {"q1": {doc: g for doc, g in negative["q1"].items() if g >= 0}}
    one = {"q1": RUN["q1"]}
    ours_negative = evaluate(negative, one, ["bpref"]).aggregate["bpref"]
    theirs = _pytrec_eval().RelevanceEvaluator(negative, {"bpref"}).evaluate(one)["q1"]["bpref"]
    assert ours_negative == theirs == evaluate(unjudged, one, ["bpref"]).aggregate["bpref"]
    ranx_negative = ranx.evaluate(ranx.Qrels(negative), ranx.Run(one), "bpref")
    ranx_zero = ranx.evaluate(ranx.Qrels(as_zero), ranx.Run(one), "bpref")
    assert ranx_negative == ranx_zero != ours_negative


def test_the_averaging_card_denominators_of_other_tools():
    """averaging-over-queries: for a run without q4, pytrec_eval (trec_eval 9.x's code) averages
    over the three queries it holds, as `rankcards eval` does; ir_measures scores q4 0, as -c."""
    pytrec_eval = _pytrec_eval()
    ir_measures = require_module("ir_measures", "pip install ir-measures, in .[dev]")
    for lang in LANGS:
        definition = _words(_card("averaging-over-queries")["definition"][lang])
        assert (
            "trec_eval 9.x y pytrec_eval la dejan fuera y promedian sobre las consultas que"
            " están en las dos"
            in definition
            and "ir_measures hace lo mismo sin pedírselo" in definition
        ) or (
            "trec_eval 9.x and pytrec_eval leave it out and average over the queries in both"
            in definition
            and "ir_measures does so unasked" in definition
        )
    run = {qid: scores for qid, scores in RUN.items() if qid != "q4"}
    per_query = pytrec_eval.RelevanceEvaluator(QRELS, {"recall.5", "map"}).evaluate(run)
    assert sorted(per_query) == ["q1", "q2", "q3"]
    ours = evaluate(QRELS, run, ["R@5", "AP"]).aggregate
    for theirs, name in (("recall_5", "R@5"), ("map", "AP")):
        mean = sum(values[theirs] for values in per_query.values()) / len(per_query)
        assert mean == pytest.approx(ours[name])
    complete = evaluate(QRELS, run, ["R@5", "AP"], complete=True).aggregate
    aggregate = ir_measures.calc_aggregate([ir_measures.R @ 5, ir_measures.AP], QRELS, run)
    assert aggregate[ir_measures.R @ 5] == pytest.approx(complete["R@5"])
    assert aggregate[ir_measures.AP] == pytest.approx(complete["AP"])
    assert complete["R@5"] < ours["R@5"]


def test_gdeval_prints_ndcg_and_err_never_dcg(tmp_path):
    """dcg: gdeval's lines are runid,topic,ndcg@K,err@K (its header names them), run through
    perl on the shared example (gdeval.pl as ir_measures ships it)."""
    ir_measures = require_module("ir_measures", "pip install ir-measures, in .[dev]")
    perl = shutil.which("perl")
    if perl is None:
        skip_or_fail("gdeval needs perl on PATH")
    for lang in LANGS:
        assert "`runid,topic,ndcg@K,err@K`" in "\n".join(_card("dcg")["gotchas"][lang])
    script = Path(ir_measures.__file__).parent / "bin" / "gdeval.pl"
    numbered = {q.id: str(index) for index, q in enumerate(TOY, 1)}  # gdeval wants numbers
    qrels = tmp_path / "qrels"
    qrels.write_text(
        "".join(
            f"{numbered[q.id]} 0 {doc} {grade}\n" for q in TOY for doc, grade in q.judgments.items()
        )
    )
    run = tmp_path / "run"
    run.write_text(
        "".join(
            f"{numbered[qid]} Q0 {doc} {rank} {score} toy\n"
            for qid, scores in RUN.items()
            for rank, (doc, score) in enumerate(scores.items(), 1)
        )
    )
    done = subprocess.run(
        [perl, str(script), str(qrels), str(run), "5"],  # gdeval.pl QRELS RUN K
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert lines[0] == "runid,topic,ndcg@5,err@5"
    first = lines[1].split(",")
    assert first[:2] == ["toy", "1"] and len(first) == 4
    expected = evaluate(QRELS, RUN, ["nDCG(dcg=exp-log2)@5", "ERR@5"]).per_query["q1"]
    assert float(first[2]) == round(expected["nDCG(dcg=exp-log2)@5"], 5)
    assert float(first[3]) == round(expected["ERR@5"], 5)


def test_the_trec_eval_rbp_outputs_the_card_quotes_are_a_stale_max():
    """rbp: trec_eval 10.0's m_rbp.c reads `min` and `max` uninitialised and, when they fall
    outside [0, 1], rescales each gain to (g - min) / (max - min). The card quotes q1's `rbp`
    (p = 0.9) from two builds with gcc 12.2.0, outputs that no module computes: with the
    Makefile's -g and `-m ndcg`, and with -O2 and `-m P.5`. Both are q1's RBP with its grades
    unscaled over a value the other measure left behind (min 0): ndcg's ideal DCG of q1, and
    P.5's cutoff 5 (the same builds give q2 0.1000 = 0.3 / 3, q2's ideal DCG, and q1 0.0343
    with -m P.10)."""
    q1 = TOY[0]
    rbp = evaluate({"q1": QRELS["q1"]}, {"q1": RUN["q1"]}, ["RBP(p=0.9)"]).aggregate["RBP(p=0.9)"]
    unscaled = sum(
        (1 - 0.9) * 0.9**rank * q1.judgments.get(doc, 0) for rank, doc in enumerate(q1.ranking)
    )
    assert unscaled == pytest.approx(rbp * max(q1.judgments.values()))  # the module: g / top
    ideal = explain("nDCG", q1.ranking, q1.judgments).quantities["IDCG"]
    for lang in LANGS:
        gotcha = _item(_card("rbp")["gotchas"][lang], "m_rbp.c", "gcc 12.2.0")
        for flags in ("`-g`", "`-m ndcg`", "`-O2`", "`-m P.5`"):
            assert flags in gotcha
        assert f"{rbp:.4f}" in gotcha  # what the bug-free measure gives
        assert f"{unscaled / ideal:.4f}" in gotcha and f"{unscaled / 5:.4f}" in gotcha


def test_scipy_wilcoxon_default_and_exact_p_as_the_gotcha_says():
    """significance-testing: on the card's 5 wins and 15 zero differences SciPy's default
    Wilcoxon (zeros, past 13 differences: the normal approximation) is rankcards' p; the exact
    p of the 5 non-zero differences (2 of 32 sign patterns) needs method="exact"."""
    stats = require_module("scipy.stats", "in .[dev]")
    scipy = require_module("scipy", "in .[dev]")
    for lang in LANGS:
        gotcha = _item(_card("significance-testing")["gotchas"][lang], "0.0625", "0.0431")
        assert "1.17.1" in gotcha and "50" in gotcha and "13" in gotcha
        assert 'method="exact"' in gotcha and 'method="auto"' in gotcha
    assert scipy.__version__.startswith("1.17")  # the version the gotcha names
    differences = _differences(LOW)
    assert (len(differences), differences.count(0.0)) == (20, 15)
    assert all(d > 0 for d in differences if d != 0.0)  # 5 wins, no loss
    default = stats.wilcoxon(differences).pvalue
    assert default == pytest.approx(_row(LOW, "wilcoxon")["p"])
    exact = stats.wilcoxon(differences, method="exact").pvalue
    assert exact == pytest.approx(2 / 2**5) and exact != pytest.approx(default)
    notes = stats.wilcoxon.__doc__
    assert "``len(d) <= 50``" in notes and "``len(d) <= 13``" in notes


def test_scipy_bootstrap_defaults_are_bca_with_9999_resamples():
    stats = require_module("scipy.stats", "in .[dev]")
    parameters = inspect.signature(stats.bootstrap).parameters
    assert parameters["method"].default == "BCa" and parameters["n_resamples"].default == 9999
    for lang in LANGS:
        gotcha = _item(_card("confidence-intervals")["gotchas"][lang], "BCa")
        assert "9999" in gotcha


# Urbano, Lima & Hanjalic (SIGIR 2019): the alpha = 0.05 row of each two-sided type I error
# table in julian-urbano/sigir2019-statistical (output/type_1/type_1_<measure>_<topics>.csv,
# commit 4dd2c8e), columns t2 (t-test), w2 (Wilcoxon), s2 (sign), b2 (bootstrap), p2
# (permutation): the significance card summarises these rows.
URBANO_TYPE_I = {
    ("ap", 25): (0.0509, 0.0607, 0.0464, 0.0689, 0.0534),
    ("ap", 50): (0.0512, 0.0722, 0.0779, 0.0597, 0.0522),
    ("ap", 100): (0.0511, 0.0965, 0.1251, 0.0553, 0.0517),
    ("err20", 25): (0.0482, 0.0546, 0.0366, 0.0668, 0.0517),
    ("err20", 50): (0.0494, 0.0602, 0.0559, 0.0579, 0.0509),
    ("err20", 100): (0.0498, 0.0732, 0.0822, 0.0538, 0.0505),
    ("ndcg20", 25): (0.0498, 0.0556, 0.0387, 0.0679, 0.0523),
    ("ndcg20", 50): (0.0504, 0.0617, 0.0592, 0.0588, 0.0515),
    ("ndcg20", 100): (0.0502, 0.0748, 0.0885, 0.0542, 0.0507),
    ("p10", 25): (0.0506, 0.0487, 0.0380, 0.0675, 0.0467),
    ("p10", 50): (0.0503, 0.0526, 0.0552, 0.0585, 0.0481),
    ("p10", 100): (0.0500, 0.0563, 0.0828, 0.0539, 0.0489),
    ("rr", 25): (0.0495, 0.0439, 0.0289, 0.0672, 0.0482),
    ("rr", 50): (0.0498, 0.0480, 0.0360, 0.0580, 0.0498),
    ("rr", 100): (0.0500, 0.0498, 0.0485, 0.0539, 0.0501),
}


def _percent(rate: float) -> str:
    return f"{100 * rate:.1f}"


@pytest.mark.parametrize("lang", LANGS)
def test_significance_urbano_type_i_errors(lang):
    gotcha = _words(_item(_card("significance-testing")["gotchas"][lang], "Urbano"))
    joiner = {"es": " al ", "en": " to "}[lang]
    for topics in (25, 50, 100):
        bootstrap = [row[3] for (_, n), row in URBANO_TYPE_I.items() if n == topics]
        low, high = _percent(min(bootstrap)), _percent(max(bootstrap))
        assert f"{low}{joiner}{high}" in gotcha, topics
    t_and_permutation = [row[i] for row in URBANO_TYPE_I.values() for i in (0, 4)]
    low, high = _percent(min(t_and_permutation)), _percent(max(t_and_permutation))
    assert {"es": f"entre el {low} y el {high}", "en": f"{low} to {high}"}[lang] in gotcha
    wilcoxon, sign = (_percent(rate) for rate in URBANO_TYPE_I["ap", 100][1:3])
    assert {"es": f"el {wilcoxon} y el {sign} %", "en": f"{wilcoxon} and {sign}%"}[lang] in gotcha


# --- retrieval for RAG: Ragas' context precision and recall, AutoNuggetizer ----------------


def _verdict_lists(seed: int, count: int = 500) -> list[list[int]]:
    rng = random.Random(seed)
    return [[rng.choice((0, 1)) for _ in range(rng.randint(1, 8))] for _ in range(count)]


def test_ragas_context_precision_is_ap_over_the_useful_chunks_retrieved():
    # context-precision: "AP computed as if the only relevant chunks were the useful ones
    # retrieved (R = n), multiplied by n/(n + 1e-10): it equals AP only when every relevant
    # chunk was retrieved"
    for verdicts in _verdict_lists(2301):
        chunks = [f"c{k}" for k in range(len(verdicts))]
        useful = {c for c, v in zip(chunks, verdicts, strict=True) if v}
        n = len(useful)
        assert ragas_context_precision(verdicts) == pytest.approx(
            average_precision(chunks, useful) * n / (n + 1e-10), abs=1e-12
        )
        if n:  # one relevant chunk never retrieved: AP drops, Ragas does not move
            assert average_precision(chunks, useful | {"missed"}) < ragas_context_precision(
                verdicts
            )


def test_one_more_useful_chunk_at_the_bottom_can_lower_ragas_and_raises_ap():
    # context-precision: "Finding more can lower it ... AP with a fixed R goes up"
    before, after = [1, 0, 0, 0, 0], [1, 0, 0, 0, 1]
    assert ragas_context_precision(after) < ragas_context_precision(before)
    chunks, relevant = ["c1", "c2", "c3", "c4", "c5"], {"c1", "c5", "m1"}
    assert average_precision(chunks[:4], relevant) < average_precision(chunks, relevant)


def test_ragas_id_variants_are_order_blind_set_measures_equal_to_r_at_k():
    # context-precision / context-recall: the ID-based variants are set precision and recall;
    # with the qrels' relevant chunks as reference ids, recall is Recall@k over the chunks passed
    rng = random.Random(2302)
    for _ in range(500):
        ranking = rng.sample([f"c{i}" for i in range(10)], rng.randint(1, 10))
        relevant = set(rng.sample([f"c{i}" for i in range(12)], rng.randint(1, 5)))
        shuffled = rng.sample(ranking, len(ranking))
        assert ragas_id_context_precision(shuffled, relevant) == ragas_id_context_precision(
            ranking, relevant
        )
        assert ragas_id_context_recall(ranking, relevant) == pytest.approx(
            recall_at_k(ranking, relevant, len(ranking)), abs=1e-12
        )


def test_context_recall_counts_claims_so_a_second_supporting_chunk_adds_nothing():
    # context-recall's intuition: two bags of flour, eggs and milk; the helper brings one bag and
    # the eggs. Over the recipe's claims 2 of 3; over the pantry's useful items 2 of 4, and the
    # second bag raises that one only
    recipe = {"flour": {"flour-1", "flour-2"}, "eggs": {"eggs"}, "milk": {"milk"}}
    pantry = {"flour-1", "flour-2", "eggs", "milk"}
    for basket, claims, items in (
        (["flour-1", "eggs"], 2 / 3, 0.5),
        (["flour-1", "eggs", "flour-2"], 2 / 3, 0.75),
        (["flour-1", "eggs", "milk"], 1.0, 0.75),
    ):
        attributed = [bool(support & set(basket)) for support in recipe.values()]
        assert ragas_context_recall(attributed) == pytest.approx(claims)
        assert recall_at_k(basket, pantry, len(basket)) == pytest.approx(items)


def test_a_strict_nugget_score_never_exceeds_its_non_strict_one():
    # nugget-evaluation: "for one answer, the strict score never exceeds the non-strict one"
    rng = random.Random(2303)
    for _ in range(1000):
        nuggets = [
            {
                "importance": rng.choice(("vital", "okay")),
                "assignment": rng.choice(("support", "partial_support", "not_support")),
            }
            for _ in range(rng.randint(0, 8))
        ]
        scores = nugget_scores(nuggets)
        assert scores.strict_vital_score <= scores.vital_score
        assert scores.strict_all_score <= scores.all_score
