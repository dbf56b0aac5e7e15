"""``beir_evaluate`` against BEIR's rules, restated here over pytrec_eval (the engine BEIR calls).

BEIR itself is not installed for the tests (it requires sentence-transformers and torch). What
BEIR v2.2.0's ``EvaluateRetrieval.evaluate`` (``beir/retrieval/evaluation.py``) does is
restated in :func:`reference` as a behaviour, not copied: remove, in the given dictionary, each
document whose id is its query's id; ask pytrec_eval for ``ndcg_cut``, ``map_cut``, ``recall``
and ``P`` at the cutoffs; average over the queries pytrec_eval returns; round to 5 decimals.
"""

from __future__ import annotations

import copy
import random

import pytest

from ci_gate import require_module
from rankcards.metrics import beir_evaluate

pytrec_eval = require_module("pytrec_eval", "pip install pytrec-eval-terrier, in .[dev]")

_CUTOFFS = [1, 3, 5, 10]
_FAMILIES = (("NDCG", "ndcg_cut"), ("MAP", "map_cut"), ("Recall", "recall"), ("P", "P"))


def reference(qrels: dict, results: dict, k_values: list[int], ignore: bool) -> tuple:
    """BEIR's rule, through pytrec_eval; mutates ``results`` as BEIR does."""
    if ignore:
        for qid in results:
            results[qid] = {doc: score for doc, score in results[qid].items() if doc != qid}
    cuts = ",".join(map(str, k_values))
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {f"{t}.{cuts}" for _, t in _FAMILIES})
    scores = evaluator.evaluate(results)
    return tuple(
        {
            f"{ours}@{k}": round(sum(s[f"{trec}_{k}"] for s in scores.values()) / len(scores), 5)
            for k in k_values
        }
        for ours, trec in _FAMILIES
    )


def _collection(rng: random.Random) -> tuple[dict, dict]:
    """Queries whose ids are also document ids (ArguAna's shape), ties, a query missing from
    the run, a run query without judgments."""
    docs = [f"d{i}" for i in range(10)] + [f"q{i}" for i in range(4)]
    qrels = {f"q{i}": {d: rng.randint(0, 3) for d in rng.sample(docs, 4)} for i in range(4)}
    results = {}
    for i in range(5):
        if rng.random() < 0.85:
            retrieved = rng.sample(docs, rng.randint(0, 12))
            results[f"q{i}"] = {doc: float(rng.randint(0, 3)) for doc in retrieved}
    results.setdefault("q0", {"q0": 1.0, "d1": 0.5})
    return qrels, results


@pytest.mark.parametrize("ignore", [True, False])
def test_random_runs_match_beirs_rule_over_pytrec_eval(ignore: bool) -> None:
    rng = random.Random(2104)
    for _ in range(300):
        qrels, results = _collection(rng)
        theirs_results, ours_results = copy.deepcopy(results), copy.deepcopy(results)
        expected = reference(qrels, theirs_results, _CUTOFFS, ignore)
        assert beir_evaluate(qrels, ours_results, _CUTOFFS, ignore) == expected
        assert ours_results == theirs_results  # mutated alike (or not at all)


def test_the_query_retrieving_itself_costs_ndcg_only_when_kept() -> None:
    qrels = {"q1": {"q1-counter": 1}}
    kept = beir_evaluate(qrels, {"q1": {"q1": 2.0, "q1-counter": 1.0}}, [10], False)[0]
    dropped = beir_evaluate(qrels, {"q1": {"q1": 2.0, "q1-counter": 1.0}}, [10])[0]
    assert kept == {"NDCG@10": round(1 / 1.584962500721156, 5)}  # 1 / log2(3): rank 2
    assert dropped == {"NDCG@10": 1.0}


def test_the_default_mutates_the_run_so_a_second_call_cannot_undo_it() -> None:
    qrels = {"q1": {"q1-counter": 1}}
    results = {"q1": {"q1": 2.0, "q1-counter": 1.0}}
    first = beir_evaluate(qrels, results, [10])
    assert results == {"q1": {"q1-counter": 1.0}}
    assert beir_evaluate(qrels, results, [10], ignore_identical_ids=False) == first


def test_keys_follow_the_given_cutoffs_and_values_are_rounded_to_5_decimals() -> None:
    qrels = {"q": {"a": 1, "b": 1, "c": 1}}
    ndcg, _map, recall, precision = beir_evaluate(qrels, {"q": {"a": 3.0, "x": 2.0}}, [3, 1, 3])
    assert list(ndcg) == ["NDCG@3", "NDCG@1"]
    assert list(_map) == ["MAP@3", "MAP@1"] and list(precision) == ["P@3", "P@1"]
    assert recall == {"Recall@3": 0.33333, "Recall@1": 0.33333}
    assert precision["P@3"] == 0.33333


def test_no_judged_query_in_the_run_is_an_error() -> None:
    with pytest.raises(ValueError, match="no query"):
        beir_evaluate({"q1": {"a": 1}}, {"q2": {"a": 1.0}}, [10])
