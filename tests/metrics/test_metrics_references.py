"""The new measures against their references, on random collections.

- ``ERR@k`` and ``nDCG(dcg=exp-log2)@k``: gdeval.pl as ir_measures runs it (perl). gdeval
  prints 5 decimals, so values agree to 5e-6; gdeval needs numeric topics and grades <= 4.
- ``IPrec@r``: trec_eval's ``iprec_at_recall`` through pytrec_eval, at trec_eval's 11 points
  and other levels (0.25, 0.33, 0.75). pytrec_eval bundles trec_eval 9.x, which rounds r*R
  differently from 10.0 (see the test); the conformance tests check 10.0's own outputs.
- ``Judged@k``: ir_measures' judged provider. It orders ties by docno ascending, which
  ``ties="run-order"`` reproduces when the run is given in that order.
- ``F1@k``: the formula 2PR/(P+R) with P = P@k and R = R@k from ``evaluate``, and trec_eval's
  ``set_F`` on the run cut at k (``-M k``) whenever the ranking has at least k documents.

Counts of queries compared are asserted, so a reference that silently returns nothing fails.
The seed is fixed per test (set RANKCARDS_REF_SEED to try another).
"""

from __future__ import annotations

import os
import random
import shutil

import pytest

from ci_gate import require_module, skip_or_fail
from rankcards.metrics import evaluate
from rankcards.metrics._iprec import relevant_needed

pytrec_eval = require_module("pytrec_eval", "pip install pytrec-eval-terrier, in .[dev]")
ir_measures = require_module("ir_measures", "pip install ir-measures, in .[dev]")

_SEED = int(os.environ.get("RANKCARDS_REF_SEED", "2026"))
_DOCS = [f"d{i}" for i in range(14)] + ["doc-a", "doc-b", "D3", "z"]
_TIED_SCORES = [0.0, 0.5, 1.0, 1.0, 2.0, -1.0]
_CUTS = (1, 3, 5, 10, 20)


def _collection(
    rng: random.Random, queries: int, labels: list[int], tied: bool = True
) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    """Numeric qids (gdeval's rule), graded labels, runs of 1-18 documents."""
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for number in range(1, queries + 1):
        qid = str(number)
        judged = rng.sample(_DOCS, rng.randint(1, 10))
        qrels[qid] = {doc: rng.choice(labels) for doc in judged}
        docs = rng.sample(_DOCS, rng.randint(1, len(_DOCS)))
        if tied and rng.random() < 0.7:
            run[qid] = {doc: rng.choice(_TIED_SCORES) for doc in docs}
        else:
            run[qid] = {doc: round(rng.uniform(-5, 5), 6) + i * 1e-3 for i, doc in enumerate(docs)}
    return qrels, run


def _perl() -> None:
    if shutil.which("perl") is None:
        skip_or_fail("gdeval needs perl on PATH")


def test_err_and_exp_ndcg_equal_gdeval() -> None:
    _perl()
    rng = random.Random(_SEED)
    qrels, run = _collection(rng, 400, [-1, 0, 0, 1, 1, 2, 3, 4])
    compared = 0
    for k in _CUTS:
        err, ndcg = ir_measures.ERR @ k, ir_measures.nDCG(dcg="exp-log2") @ k
        ours = evaluate(qrels, run, [f"ERR@{k}", f"nDCG(dcg=exp-log2)@{k}"]).per_query
        wrong = []
        for metric in ir_measures.gdeval.iter_calc([err, ndcg], qrels, run):
            name = f"ERR@{k}" if metric.measure == err else f"nDCG(dcg=exp-log2)@{k}"
            got = ours[metric.query_id][name]
            if abs(got - metric.value) > 5e-6 + 1e-12:  # gdeval prints %.5f
                wrong.append(f"{name} q{metric.query_id}: gdeval {metric.value}, ours {got}")
            compared += 1
        assert not wrong, "; ".join(wrong[:10])
    assert compared == 400 * 2 * len(_CUTS)


def _v9_needed(recall: float, num_rel: int) -> int:
    """trec_eval 9.x (pytrec_eval's copy): relevant documents needed, (long)(r * R + 0.9)."""
    return int(recall * num_rel + 0.9)


def test_iprec_equals_trec_eval() -> None:
    """pytrec_eval bundles trec_eval 9.x, which turns r into (long)(r*R + 0.9) relevant
    documents; trec_eval 10.0 (ours, and the conformance outputs) uses lround(r*R). Where
    the two counts agree the values must be equal; where they differ, ours at the recall
    that gives 9.x's count must equal pytrec_eval's (the interpolation is the same)."""
    rng = random.Random(_SEED + 1)
    levels = [0.0, 0.1, 0.2, 0.25, 0.3, 0.33, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 1.0]
    same = rounded_apart = 0
    for _ in range(40):
        qrels, run = _collection(rng, 25, [-1, 0, 0, 1, 1, 2, 3])
        for level in (1, 2):
            measure = "iprec_at_recall." + ",".join(f"{r:.2f}" for r in levels)
            trec = pytrec_eval.RelevanceEvaluator(qrels, {measure}, relevance_level=level)
            reference = trec.evaluate(run)
            names = [f"IPrec@{r}" for r in levels]
            ours = evaluate(qrels, run, names, rel_level=level).per_query
            for qid, values in reference.items():
                num_rel = sum(label >= level for label in qrels[qid].values())
                for r, name in zip(levels, names, strict=True):
                    want = values[f"iprec_at_recall_{r:.2f}"]
                    needed = _v9_needed(r, num_rel)
                    if needed == relevant_needed(r, num_rel):
                        got = ours[qid][name]
                        same += 1
                    else:
                        one = {qid: qrels[qid]}
                        at = f"IPrec@{needed / num_rel!r}"
                        got = evaluate(one, {qid: run[qid]}, [at], rel_level=level).per_query
                        got = got[qid][at]
                        rounded_apart += 1
                    assert got == pytest.approx(want, abs=1e-12), (qid, name, level)
    assert same + rounded_apart == 40 * 2 * 25 * len(levels)
    assert rounded_apart > 300, rounded_apart


def test_iprec_rounds_as_trec_eval_10() -> None:
    """R = 5, r = 0.25: trec_eval 10.0 needs lround(1.25) = 1 relevant document, 9.x 2."""
    qrels = {"1": {"a": 1, "b": 1, "c": 1, "d": 1, "e": 1}}
    run = {"1": {"x": 5.0, "a": 4.0, "y": 3.0, "z": 2.0, "b": 1.0}}  # P = 1/2 at a, 2/5 at b
    assert relevant_needed(0.25, 5) == 1 and _v9_needed(0.25, 5) == 2
    assert relevant_needed(0.5, 3) == 2  # a half rounds away from zero, as C's lround
    assert evaluate(qrels, run, ["IPrec@0.25"]).per_query["1"]["IPrec@0.25"] == 0.5
    old = pytrec_eval.RelevanceEvaluator(qrels, {"iprec_at_recall.0.25"}).evaluate(run)
    assert old["1"]["iprec_at_recall_0.25"] == 0.4


def test_judged_equals_ir_measures() -> None:
    rng = random.Random(_SEED + 2)
    qrels, run = _collection(rng, 500, [0, 0, 1, 2, 3])
    # ir_measures orders ties by docno ascending: give the run in that order, keep it
    as_ranked = {
        qid: dict(sorted(docs.items(), key=lambda item: (-item[1], item[0])))
        for qid, docs in run.items()
    }
    measures = [ir_measures.Judged @ k for k in _CUTS] + [ir_measures.Judged]
    ours = evaluate(qrels, as_ranked, [str(m) for m in measures], ties="run-order").per_query
    compared = 0
    for metric in ir_measures.judged.iter_calc(measures, qrels, run):
        assert ours[metric.query_id][str(metric.measure)] == pytest.approx(
            metric.value, abs=1e-12
        ), metric
        compared += 1
    assert compared == 500 * len(measures)


def test_judged_counts_a_negative_label_as_unjudged_unlike_ir_measures() -> None:
    qrels = {"1": {"a": -1, "b": 0}}
    run = {"1": {"a": 2.0, "b": 1.0}}
    assert evaluate(qrels, run, ["Judged@2"]).per_query["1"]["Judged@2"] == 0.5
    (reference,) = ir_measures.judged.iter_calc([ir_measures.Judged @ 2], qrels, run)
    assert reference.value == 1.0


def _cut(run: dict[str, float], k: int) -> dict[str, float]:
    """trec_eval's -M k: the top k by score, then docno, both descending."""
    ranked = sorted(run.items(), key=lambda item: (item[1], item[0].encode()), reverse=True)
    return dict(ranked[:k])


def test_f1_is_the_harmonic_mean_and_set_f_under_depth_k() -> None:
    rng = random.Random(_SEED + 3)
    same = shorter = 0
    for _ in range(60):
        qrels, run = _collection(rng, 20, [-1, 0, 0, 1, 1, 2, 3])
        for k in _CUTS:
            for level in (1, 2):
                names = [f"F1@{k}", f"P@{k}", f"R@{k}"]
                ours = evaluate(qrels, run, names, rel_level=level).per_query
                cut = {qid: _cut(docs, k) for qid, docs in run.items()}
                trec = pytrec_eval.RelevanceEvaluator(qrels, {"set_F"}, relevance_level=level)
                reference = trec.evaluate(cut)
                for qid, values in ours.items():
                    p, r = values[f"P@{k}"], values[f"R@{k}"]
                    formula = 2 * p * r / (p + r) if p + r else 0.0
                    assert values[f"F1@{k}"] == pytest.approx(formula, abs=1e-12)
                    if len(run[qid]) >= k:
                        assert values[f"F1@{k}"] == reference[qid]["set_F"], (qid, k, level)
                        same += 1
                    else:  # set_F divides by the documents retrieved, F1@k by k
                        assert values[f"F1@{k}"] <= reference[qid]["set_F"]
                        shorter += 1
    assert same > 5000 and shorter > 2000, (same, shorter)
