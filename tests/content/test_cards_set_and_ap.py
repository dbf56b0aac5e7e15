"""The set-based and AP-family cards state only numbers that rankcards.metrics computes.

Cards: precision-at-k, f1-at-k, r-precision, average-precision, precision-recall-curve, bpref.
Each number a card's prose states is recomputed here from the shared toy example and checked
twice: the rounded module value equals the written one, and the written one is in both
languages. Each example is run in both languages (as the site's build runs it) and its output
lines are checked against the module. Where a card states what another tool gives
(pytrec_eval, i.e. trec_eval 9.x, which ir_measures uses), that tool is run too.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import math
import re
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
import yaml

from ci_gate import require_module
from rankcards.demos.toy import TOY
from rankcards.metrics import (
    average_precision,
    evaluate,
    explain,
    f1_at_k,
    interpolated_precision,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
)
from rankcards.viz._lab_spec import expand_lab
from rankcards.viz.lab import view

CARDS = Path(__file__).resolve().parents[2] / "docs" / "cards"
SLUGS = [
    "precision-at-k",
    "f1-at-k",
    "r-precision",
    "average-precision",
    "precision-recall-curve",
    "bpref",
]
LANGS = ("es", "en")

# The toy example as qrels and a run: decreasing scores in ranking order (no ties).
QRELS = {q.id: dict(q.judgments) for q in TOY}
RUN = {q.id: {doc: float(len(q.ranking) - i) for i, doc in enumerate(q.ranking)} for q in TOY}
# The bpref card's judged non-relevant documents (every other document stays unjudged).
NONRELEVANT = {"q1": ["d3", "d9"], "q2": ["d5", "d1"], "q3": ["d4"], "q4": ["d5", "d7"]}
JUDGED = {q.id: {**dict.fromkeys(NONRELEVANT[q.id], 0), **q.judgments} for q in TOY}
LEVELS = [j / 10 for j in range(11)]


def _card(slug: str) -> dict:
    return yaml.safe_load((CARDS / f"{slug}.yml").read_text(encoding="utf-8"))


def _prose(card: dict, lang: str) -> str:
    """Every text a reader sees on the card's page, in one language."""
    parts = [card["summary"][lang], card["definition"][lang], card["intuition"][lang]]
    parts += card["key_points"][lang] + card["gotchas"][lang]
    parts += [card["formula"]["where"][lang], card["code"]["caption"][lang]]
    return "\n".join(parts)


class Claims:
    """The numbers one card states, each checked against the module as it is recorded."""

    def __init__(self, slug: str) -> None:
        self.slug = slug
        self.prose = {lang: _prose(_card(slug), lang) for lang in LANGS}
        self.written: set[str] = set()

    def states(self, written: str, computed: float) -> None:
        """``written`` (e.g. "0.425") is ``computed`` rounded, and both languages say it."""
        decimals = len(written.partition(".")[2])
        assert round(computed, decimals) == float(written), (self.slug, written, computed)
        pattern = re.compile(rf"(?<![\d.]){re.escape(written)}(?![\d])")
        for lang in LANGS:
            assert pattern.search(self.prose[lang]), f"{self.slug} ({lang}) lacks {written}"
        self.written.add(written)


def _mean(qrels: dict, names: Sequence[str], **options: object) -> dict[str, float]:
    return evaluate(qrels, RUN, names, **options).aggregate  # type: ignore[arg-type]


def _per_query(qrels: dict, name: str) -> list[float]:
    result = evaluate(qrels, RUN, [name])
    return [result.per_query[q.id][name] for q in TOY]


def _run_example(slug: str, lang: str) -> str:
    """The example's printed output, as the build runs it (a final expression is not shown
    in these examples: each prints what it shows)."""
    source = _card(slug)["code"]["source"][lang]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, f"{slug}.{lang}", "exec"), {"__name__": "__card__"})
    return out.getvalue()


_NUMBER = re.compile(r"\d+\.\d+|\d+")


@pytest.mark.parametrize("slug", SLUGS)
def test_the_example_prints_the_same_numbers_in_both_languages(slug):
    es, en = (_NUMBER.findall(_run_example(slug, lang)) for lang in LANGS)
    assert es == en and len(en) >= 6, slug


# ----------------------------------------------------------------------------- precision-at-k


def _precision_at_k_claims() -> Claims:
    claims = Claims("precision-at-k")
    q1, q2 = TOY[0], TOY[1]
    claims.states("0.4", precision_at_k(q1.ranking, q1.relevant, 5))
    claims.states("0.2", precision_at_k(q2.ranking, q2.relevant, 5))
    claims.states("0.2", min(len(q2.relevant), 5) / 5)  # q2's ceiling, and P@5 reaches it
    claims.states("0.667", recall_at_k(q1.ranking, q1.relevant, 5))
    claims.states("0.667", _mean(QRELS, ["R@5"])["R@5"])
    for k in range(1, 6):  # "0.25 for every k from 1 to 5"
        claims.states("0.25", _mean(QRELS, [f"P@{k}"])[f"P@{k}"])
    claims.states("0.125", _mean(QRELS, ["P@10"])["P@10"])
    # set_P under -M 10: relevant retrieved / retrieved, per query.
    counts = evaluate(QRELS, RUN, ["num_ret", "num_rel_ret"], depth=10).per_query
    set_p = [v["num_rel_ret"] / v["num_ret"] for v in counts.values()]
    claims.states("0.25", sum(set_p) / len(set_p))
    return claims


def test_precision_at_k_relations_hold_on_the_toy_example():
    for q in TOY:
        ranking, rel = list(q.ranking), q.relevant
        assert precision_at_k(ranking, rel, 1) == reciprocal_rank(ranking, rel, k=1)
        for k in range(1, 11):
            hits_p = precision_at_k(ranking, rel, k) * k
            assert math.isclose(hits_p, recall_at_k(ranking, rel, k) * len(rel))


def test_precision_at_k_example_output():
    out = _run_example("precision-at-k", "en")
    assert "q1: R = 3  P@5 = 0.400  R@5 = 0.667" in out
    assert "mean P@10 = 0.125" in out
    assert "q2's P@5 ceiling = 0.2" in out


# ----------------------------------------------------------------------------------- f1-at-k


def _f1_at_k_claims() -> Claims:
    claims = Claims("f1-at-k")
    f1 = _per_query(QRELS, "F1@5")
    claims.states("0.5", f1[0])
    claims.states("0.333", f1[1])
    q1, q2 = TOY[0], TOY[1]
    claims.states("0.4", precision_at_k(q1.ranking, q1.relevant, 5))
    claims.states("0.667", recall_at_k(q1.ranking, q1.relevant, 5))
    p2, r2 = precision_at_k(q2.ranking, q2.relevant, 5), recall_at_k(q2.ranking, q2.relevant, 5)
    claims.states("0.6", (p2 + r2) / 2)  # the arithmetic mean the card contrasts
    claims.states("0.333", 2 / (1 / p2 + 1 / r2))  # the cyclist's average speed
    means = _mean(QRELS, ["F1@5", "F1@10", "P@5", "R@5"])
    claims.states("0.351", means["F1@5"])
    claims.states("0.3512", means["F1@5"])
    claims.states("0.206", means["F1@10"])
    claims.states("0.2057", means["F1@10"])
    p, r = means["P@5"], means["R@5"]
    # trec_eval's set_F.2 (x = 2, where F has beta squared) against the usual F2, on q1
    p1, r1 = precision_at_k(q1.ranking, q1.relevant, 5), recall_at_k(q1.ranking, q1.relevant, 5)
    claims.states("0.5455", 3 * p1 * r1 / (r1 + 2 * p1))
    claims.states("0.5882", 5 * p1 * r1 / (4 * p1 + r1))
    claims.states("0.2", p2)
    claims.states("0.25", p)
    claims.states("0.667", r)
    claims.states("0.3636", 2 * p * r / (p + r))
    hits = sum(v["num_rel_ret"] for v in _counts(None).values())
    relevant = sum(len(q.relevant) for q in TOY)
    claims.states("0.3704", 2 * hits / (5 * len(TOY) + relevant))
    assert 2 * hits == 10 and 5 * len(TOY) + relevant == 27  # "10/27"
    # trec_eval -M 10 -m set_F: P over what was retrieved (5), not over 10.
    set_f = [
        2 * v["num_rel_ret"] / (v["num_ret"] + len(q.relevant)) if v["num_rel_ret"] else 0.0
        for q, v in zip(TOY, _counts(10).values(), strict=True)
    ]
    claims.states("0.3512", sum(set_f) / len(set_f))
    # "a query's maximum need not be at k = R": q1 (R = 3) peaks at k = 4, q3 (R = 2) at k = 5
    by_k = {k: _per_query(QRELS, f"F1@{k}") for k in range(1, 6)}
    for index, best_k, r in ((0, 4, 3), (2, 5, 2)):
        assert len(TOY[index].relevant) == r
        assert max(range(1, 6), key=lambda k: by_k[k][index]) == best_k != r
        claims.states("0.5714", by_k[best_k][index])
    assert by_k[2][2] == 0.0  # q3's F1@2
    claims.states("0.333", by_k[3][0])  # F1@R on q1 ...
    claims.states("0.333", _per_query(QRELS, "Rprec")[0])  # ... its R-Precision
    return claims


def test_f1_reaches_1_only_at_k_equal_to_r():
    # "its best possible value, 1, needs k = R": over every ordering of 3 relevant and 3
    # non-relevant documents, F1@k reaches 1 only at k = 3
    relevant = {"a", "b", "c"}
    orders = [list(order) for order in itertools.permutations("abcxyz")]
    for k in range(1, 7):
        best = max(f1_at_k(order, relevant, k) for order in orders)
        assert (best == 1.0) == (k == len(relevant)), k


def test_ir_measures_set_f_wants_a_float_beta():
    ir_measures = require_module("ir_measures", "pip install ir-measures, in .[dev]")
    q1 = {"q1": QRELS["q1"]}, {"q1": RUN["q1"]}
    value = ir_measures.calc_aggregate([ir_measures.SetF(beta=2.0)], *q1)
    assert round(value[ir_measures.SetF(beta=2.0)], 4) == 0.5455
    with pytest.raises(AssertionError, match="invalid param beta=2"):
        ir_measures.calc_aggregate([ir_measures.SetF(beta=2)], *q1)


def _counts(depth: int | None) -> dict[str, dict[str, float]]:
    return evaluate(QRELS, RUN, ["num_ret", "num_rel_ret"], depth=depth).per_query


def test_pytrec_eval_set_f_parameter_is_not_beta():
    """The card: ir_measures' SetF(beta=2) -> pytrec_eval set_F_2.0 = 3PR/(R + 2P) on q1."""
    pytrec_eval = require_module("pytrec_eval", "pip install pytrec-eval-terrier, in .[dev]")
    q1 = {"q1": QRELS["q1"]}
    got = pytrec_eval.RelevanceEvaluator(q1, {"set_F_2.0"}).evaluate({"q1": RUN["q1"]})
    assert round(got["q1"]["set_F"], 4) == 0.5455


def test_f1_at_k_is_2h_over_k_plus_r_and_equals_r_precision_at_r():
    for q in TOY:
        ranking, rel = list(q.ranking), q.relevant
        for k in range(1, 11):
            hits = sum(doc in rel for doc in ranking[:k])
            assert math.isclose(f1_at_k(ranking, rel, k), 2 * hits / (k + len(rel)))
        rprec = evaluate({q.id: QRELS[q.id]}, {q.id: RUN[q.id]}, ["Rprec"]).aggregate["Rprec"]
        assert math.isclose(f1_at_k(ranking, rel, len(rel)), rprec)


def test_f1_at_k_example_output():
    out = _run_example("f1-at-k", "en")
    assert "q1: P@5 = 0.400  R@5 = 0.667  F1@5 = 0.500" in out
    assert "mean F1@5 = 0.3512   mean F1@10 = 0.2057" in out
    assert "F1 of the mean P@5 and R@5 = 0.3636" in out
    assert "micro F1 (pooled hits) = 0.3704" in out


# ------------------------------------------------------------------------------- r-precision


def _r_precision_claims() -> Claims:
    claims = Claims("r-precision")
    rprec = _per_query(QRELS, "Rprec")
    assert rprec == pytest.approx([1 / 3, 1.0, 0.0, 0.0])  # "1/3, 1, 0 and 0"
    claims.states("0.333", rprec[0])
    means = _mean(QRELS, ["Rprec", "AP"])
    claims.states("0.333", means["Rprec"])
    claims.states("0.425", means["AP"])
    q3 = TOY[2]
    assert rprec[2] == 0.0 and recall_at_k(q3.ranking, q3.relevant, 5) == 1.0  # q3's point
    return claims


def test_r_precision_is_p_and_r_at_r():
    for q, rprec in zip(TOY, _per_query(QRELS, "Rprec"), strict=True):
        big_r = len(q.relevant)
        assert precision_at_k(q.ranking, q.relevant, big_r) == rprec
        assert recall_at_k(q.ranking, q.relevant, big_r) == rprec


def test_r_precision_example_output():
    out = _run_example("r-precision", "en")
    assert "q3: R = 2  P@R = 0.000  R@R = 0.000  Rprec = 0.000  R@5 = 1.000" in out
    assert "mean: Rprec = 0.3333   MAP = 0.4250" in out


# ------------------------------------------------------------------------- average-precision


def _map_at(k: int, denominator: Callable[[int, int], int]) -> float:
    """MAP@k with another denominator than trec_eval's R: ``denominator(R, hits in top k)``."""
    result = evaluate(QRELS, RUN, [f"AP@{k}"]).per_query
    values = []
    for q in TOY:
        big_r = len(q.relevant)
        hits = sum(doc in q.relevant for doc in q.ranking[:k])
        numerator = result[q.id][f"AP@{k}"] * big_r
        values.append(numerator / denominator(big_r, hits) if hits else 0.0)
    return sum(values) / len(values)


def _average_precision_claims() -> Claims:
    claims = Claims("average-precision")
    ap = _per_query(QRELS, "AP")
    claims.states("0.333", ap[0])
    claims.states("0.367", ap[2])
    means = _mean(QRELS, ["AP", "AP@2", "P@5", "Rprec"])
    claims.states("0.425", means["AP"])
    claims.states("0.25", means["P@5"])
    claims.states("0.333", means["Rprec"])
    claims.states("0.2917", means["AP@2"])
    claims.states("0.3125", _map_at(2, lambda big_r, hits: min(big_r, 2)))
    claims.states("0.375", _map_at(2, lambda big_r, hits: hits))
    q1 = TOY[0]  # what scikit-learn sees: only the scored (retrieved) documents
    claims.states("0.5", average_precision(q1.ranking, set(q1.ranking) & q1.relevant))
    # the treasure hunt's notes
    steps = [s for s in explain("AP", list(q1.ranking), q1.judgments).steps if s.contribution]
    assert [s.expression for s in steps] == ["1/2", "2/4"]
    claims.states("0.4", precision_at_k(q1.ranking, q1.relevant, 5))
    claims.states("0.667", recall_at_k(q1.ranking, q1.relevant, 5))
    return claims


def test_average_precision_relations_hold_on_the_toy_example():
    for q in TOY:
        ranking, rel = list(q.ranking), q.relevant
        one = evaluate({q.id: QRELS[q.id]}, {q.id: RUN[q.id]}, ["AP@1", "P@1"]).aggregate
        assert math.isclose(one["AP@1"], one["P@1"] / len(rel))
        if len(rel) == 1:  # AP = RR with a single relevant document
            assert average_precision(ranking, rel) == reciprocal_rank(ranking, rel)


def test_average_precision_example_output():
    out = _run_example("average-precision", "en")
    assert "AP(q1) = (1/2 + 2/4 + 0) / 3 = 0.3333" in out
    assert "MAP = 0.4250" in out
    assert "MAP@2 / R          = 0.2917" in out
    assert "MAP@2 / min(R, k)  = 0.3125" in out
    assert "MAP@2 / hits       = 0.3750" in out
    assert "AP(q1) without the unretrieved relevant = 0.5000" in out


# -------------------------------------------------------------------- precision-recall-curve


def _iprec(query, needed: Callable[[float, int], int], level: float) -> float:
    """Interpolated precision from the module's per-rank precision and recall, with a rule
    for the number of relevant documents a recall level needs (trec_eval's loop)."""
    steps = explain("IPrec@0.5", list(query.ranking), query.judgments).steps
    found = [s for s in steps if s.contribution]
    count = needed(level, len(query.relevant))
    if count > len(found):
        return 0.0
    return max((s.detail["precision"] for s in found[max(count, 1) - 1 :]), default=0.0)


def _lround(level: float, big_r: int) -> int:  # trec_eval 10.0
    return math.floor(level * big_r + 0.5)


def _plus_09(level: float, big_r: int) -> int:  # trec_eval 9.x: (long)(r * R + 0.9)
    return int(level * big_r + 0.9)


def _textbook(level: float, big_r: int) -> int:  # recall >= r
    return math.ceil(level * big_r - 1e-12)


def test_the_iprec_helper_reproduces_the_module():
    for q in TOY:
        for level in LEVELS:
            module = interpolated_precision(list(q.ranking), q.relevant, level)
            assert _iprec(q, _lround, level) == pytest.approx(module), (q.id, level)


def _precision_recall_curve_claims() -> Claims:
    claims = Claims("precision-recall-curve")
    q1, q3 = TOY[0], TOY[2]
    points = [
        (s.detail["recall"], s.detail["precision"])
        for s in explain("IPrec@0.5", list(q3.ranking), q3.judgments).steps
        if s.contribution
    ]
    assert [value for point in points for value in point] == pytest.approx([0.5, 1 / 3, 1.0, 0.4])
    claims.states("0.333", points[0][1])
    claims.states("0.4", interpolated_precision(list(q3.ranking), q3.relevant, 0.5))
    claims.states("0.5", interpolated_precision(list(q1.ranking), q1.relevant, 0.0))
    assert precision_at_k(q1.ranking, q1.relevant, 1) == 0.0  # "P@1 = 0"
    means = _mean(QRELS, [f"IPrec@{level:.1f}" for level in LEVELS] + ["AP"])
    for level in LEVELS:
        claims.states("0.475" if level <= 0.8 else "0.35", means[f"IPrec@{level:.1f}"])
    eleven = sum(means[f"IPrec@{level:.1f}"] for level in LEVELS) / 11
    claims.states("0.4523", eleven)
    claims.states("0.425", means["AP"])
    # trec_eval 9.x's rounding: q1 at 0.8 gives 0, the mean 0.35, 11pt_avg 0.4409
    assert _iprec(q1, _plus_09, 0.8) == 0.0 and _iprec(q1, _lround, 0.8) == 0.5
    old = {level: sum(_iprec(q, _plus_09, level) for q in TOY) / len(TOY) for level in LEVELS}
    claims.states("0.35", old[0.8])
    claims.states("0.4409", sum(old.values()) / 11)
    # the textbook rule already gives 0 at 0.7 on q1
    assert _iprec(q1, _textbook, 0.7) == 0.0 and _iprec(q1, _textbook, 0.6) == 0.5
    return claims


def test_precision_recall_curve_example_output():
    out = _run_example("precision-recall-curve", "en")
    assert "q3 uninterpolated: [(0.5, 0.333), (1.0, 0.4)]" in out
    assert "q3 interpolated at 0.5 = 0.4" in out
    assert "IPrec@0.8: mean 0.475   per query [0.5, 1.0, 0.4, 0.0]" in out
    assert "IPrec@0.9: mean 0.350   per query [0.0, 1.0, 0.4, 0.0]" in out
    assert "11-point average = 0.4523" in out


def test_pytrec_eval_follows_trec_eval_9_on_the_curve():
    """The card: pytrec-eval-terrier (ir_measures' IPrec) gives 0 on q1 at 0.8, like 9.x."""
    pytrec_eval = require_module("pytrec_eval", "pip install pytrec-eval-terrier, in .[dev]")
    measures = {f"iprec_at_recall_{level:.2f}" for level in LEVELS}
    got = pytrec_eval.RelevanceEvaluator(QRELS, measures).evaluate(RUN)
    for q in TOY:
        for level in LEVELS:
            expected = _iprec(q, _plus_09, level)
            assert got[q.id][f"iprec_at_recall_{level:.2f}"] == pytest.approx(expected)
    assert got["q1"]["iprec_at_recall_0.80"] == 0.0


# --------------------------------------------------------------------------------------- bpref


def _paper_bpref(query) -> float:
    """The 2004 paper's formula: 1 - |n above r| / R, from the module's per-rank terms."""
    terms = explain("bpref", list(query.ranking), JUDGED[query.id])
    big_r = terms.quantities["R"]
    found = [s for s in terms.steps if s.grade and s.grade > 0]
    return sum(1 - min(s.detail["nonrel_above"], big_r) / big_r for s in found) / big_r


def _bpref_claims() -> Claims:
    claims = Claims("bpref")
    toy = _mean(QRELS, ["bpref", "R@5"])
    claims.states("0.667", toy["bpref"])
    assert toy["bpref"] == toy["R@5"]  # N = 0: bpref is the list's recall
    judged = _mean(JUDGED, ["bpref", "AP", "Judged@5"])
    claims.states("0.333", judged["bpref"])
    claims.states("0.3333", judged["bpref"])
    claims.states("0.425", judged["AP"])
    claims.states("0.6", judged["Judged@5"])
    per_query = _per_query(JUDGED, "bpref")
    assert per_query == pytest.approx([1 / 3, 1.0, 0.0, 0.0])
    claims.states("0.367", _per_query(JUDGED, "AP")[2])  # q3: bpref 0, AP 0.367
    # the tasting jury: d1 and d4 each have one known bad dish above, min(N, R) = 2
    q1 = explain("bpref", list(TOY[0].ranking), JUDGED["q1"])
    assert [s.expression for s in q1.steps if s.contribution] == ["1-1/2", "1-1/2"]
    assert q1.quantities["min(N,R)"] == 2
    # two unjudged documents on top of q1
    moved = ["u1", "u2", *TOY[0].ranking]
    claims.states("0.333", explain("bpref", moved, JUDGED["q1"]).value)
    claims.states("0.194", explain("AP", moved, JUDGED["q1"]).value)
    claims.states("0.2", explain("P@5", moved, JUDGED["q1"]).value)
    claims.states("0.4", explain("P@5", list(TOY[0].ranking), JUDGED["q1"]).value)
    # the paper's /R: q3 0.5, the mean 0.4861
    claims.states("0.5", _paper_bpref(TOY[2]))
    claims.states("0.4861", sum(map(_paper_bpref, TOY)) / len(TOY))
    # trec_eval's bpref_bug example: one non-relevant then 4 relevant retrieved; not
    # retrieved, 3 non-relevant and 2 relevant -> 0.5 since trec_eval 8.0
    bug = {"n1": 0, "n2": 0, "n3": 0, "n4": 0, "r1": 1, "r2": 1, "r3": 1, "r4": 1, "r5": 1}
    bug["r6"] = 1
    claims.states("0.5", explain("bpref", ["n1", "r1", "r2", "r3", "r4"], bug).value)
    return claims


def test_bpref_demo_judges_every_listed_document():
    """The card says the demo (the lab) gives 0.333 on the toy rankings, not the toy's 0.667."""
    demo = expand_lab(_card("bpref")["demo"]["lab"])
    html = view(demo["state"], "en")
    mean = re.search(r'data-metric="mean" data-value="([^"]+)"', html)
    assert mean, "the lab shows no mean"
    Claims("bpref").states("0.333", float(mean.group(1)))


def test_bpref_example_output():
    out = _run_example("bpref", "en")
    assert "only relevant: bpref = 0.6667  R@5 = 0.6667" in out
    assert "q3: bpref = 0.0000  AP = 0.3667  Judged@5 = 0.6" in out
    assert "mean: bpref = 0.3333  AP = 0.4250  Judged@5 = 0.6" in out
    assert "u1, u2 + q1  bpref = 0.3333  AP = 0.1944" in out
    assert "mean with /R (paper) = 0.4861" in out


def test_pytrec_eval_bpref_agrees_on_the_judged_example():
    pytrec_eval = require_module("pytrec_eval", "pip install pytrec-eval-terrier, in .[dev]")
    got = pytrec_eval.RelevanceEvaluator(JUDGED, {"bpref"}).evaluate(RUN)
    assert [got[q.id]["bpref"] for q in TOY] == pytest.approx(_per_query(JUDGED, "bpref"))


# ------------------------------------------------------------------------------ every card


CLAIMS: dict[str, Callable[[], Claims]] = {
    "precision-at-k": _precision_at_k_claims,
    "f1-at-k": _f1_at_k_claims,
    "r-precision": _r_precision_claims,
    "average-precision": _average_precision_claims,
    "precision-recall-curve": _precision_recall_curve_claims,
    "bpref": _bpref_claims,
}

# Decimals a card writes that are not results on the example, each with its reason.
NOT_RESULTS: dict[str, set[str]] = {
    "precision-at-k": {"10.0"},  # trec_eval 10.0
    "f1-at-k": {"2.0"},  # the parameter of SetF(beta=2.0)
    "r-precision": set(),
    # scikit-learn's version; ml_metrics' apk on an empty query, quoted (1.0 in 0.1.4 on PyPI,
    # 0.0 on its main branch); trec_eval 10.0
    "average-precision": {"0.19", "1.0", "0.0", "10.0"},
    # recall levels (inputs, and the 0.80 of iprec_at_recall_0.80); trec_eval 10.0
    "precision-recall-curve": {"0.0", "0.1", "0.7", "0.8", "0.80", "0.9", "1.0", "10.0"},
    "bpref": {"8.0", "0.0"},  # trec_eval 8.0; bpref_bug's pre-8.0 result, quoted
}
# One decimal number, not part of a version such as 0.3.20 or 9.0.8.
_DECIMAL = re.compile(r"(?<![\d.])\d+\.\d+(?![\d.]\d)")


@pytest.mark.parametrize("slug", SLUGS)
def test_the_numbers_a_card_states_are_the_modules(slug):
    assert CLAIMS[slug]().written


@pytest.mark.parametrize("slug", SLUGS)
def test_every_decimal_in_the_prose_is_a_checked_one(slug):
    """A number the card states that no claim above checks is a defect (e.g. a typo)."""
    claims = CLAIMS[slug]()
    for lang in LANGS:
        written = set(_DECIMAL.findall(claims.prose[lang]))
        unchecked = written - claims.written - NOT_RESULTS[slug]
        assert not unchecked, f"{slug} ({lang}) states unchecked numbers: {sorted(unchecked)}"


@pytest.mark.parametrize("slug", SLUGS)
def test_the_intuition_ends_at_the_draw_tool(slug):
    intuition = _card(slug)["intuition"]
    assert "«Dibujar / Apuntes»" in intuition["es"].strip().splitlines()[-2]
    assert "**Draw / Notes**" in intuition["en"].strip().splitlines()[-2]


@pytest.mark.parametrize("slug", SLUGS)
def test_spanish_is_written_in_the_house_register(slug):
    text = _prose(_card(slug), "es")
    for calque in (r"\bvs\.?\b", "&", r"\bbalance\b", r"\bde test\b"):
        assert not re.search(calque, text), (slug, calque)
    assert not re.search(r"\d,\d", text), slug  # decimal point, never a comma
    assert "exhaustividad" in text


def test_ranx_bpref_differs_from_trec_eval_where_the_card_says():
    """The bpref card: ranx 0.3.21 gives NaN when no non-relevant document is judged (trec_eval:
    the share of relevant retrieved, 0.667 on the toy) and counts a negative grade as judged
    non-relevant (trec_eval: unjudged)."""
    ranx = require_module("ranx", "pip install ranx, in .[dev]")
    import importlib.metadata

    assert importlib.metadata.version("ranx") == "0.3.21"
    for lang in LANGS:
        assert "ranx 0.3.21" in "\n".join(_card("bpref")["gotchas"][lang])
    only_relevant = ranx.evaluate(ranx.Qrels(QRELS), ranx.Run(RUN), "bpref", return_mean=False)
    # NaN on q1, q2, q3 (a relevant document retrieved, N = 0); q4 retrieves none: 0
    assert [math.isnan(value) for value in only_relevant] == [True, True, True, False]
    assert math.isnan(ranx.evaluate(ranx.Qrels(QRELS), ranx.Run(RUN), "bpref"))
    assert round(_mean(QRELS, ["bpref"])["bpref"], 3) == 0.667  # trec_eval's rule here
    pytrec_eval = require_module("pytrec_eval", "pip install pytrec-eval-terrier, in .[dev]")
    # q1 judged with d3 at -1 (above d1): trec_eval skips it, ranx counts it as non-relevant
    negative = {"q1": {**JUDGED["q1"], "d3": -1}}
    as_zero = {"q1": {**JUDGED["q1"], "d3": 0}}
    one = {"q1": RUN["q1"]}
    ours = evaluate(negative, one, ["bpref"]).aggregate["bpref"]
    theirs = pytrec_eval.RelevanceEvaluator(negative, {"bpref"}).evaluate(one)["q1"]["bpref"]
    unjudged = {"q1": {doc: g for doc, g in negative["q1"].items() if g >= 0}}
    assert ours == theirs == evaluate(unjudged, one, ["bpref"]).aggregate["bpref"]
    ranx_negative = ranx.evaluate(ranx.Qrels(negative), ranx.Run(one), "bpref")
    ranx_zero = ranx.evaluate(ranx.Qrels(as_zero), ranx.Run(one), "bpref")
    assert ranx_negative == ranx_zero != ours


def test_the_pr_curve_formula_shows_the_rounding_its_numbers_use():
    from rankcards.metrics._iprec import relevant_needed

    assert r"n_q(r) = \mathrm{lround}(r R_q)" in _card("precision-recall-curve")["formula"]["latex"]
    for num_rel in range(1, 12):
        for level in LEVELS:
            exact = level * num_rel  # lround: to the nearest whole number, halves away from 0
            assert relevant_needed(level, num_rel) == math.floor(exact + 0.5), (level, num_rel)
