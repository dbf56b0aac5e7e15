"""Teaching functions: hand values, argument errors, and equality with evaluate()."""

from __future__ import annotations

import random

from metrics_support import close, raises

from rankcards.metrics import (
    average_precision,
    evaluate,
    hit_at_k,
    hit_rate_at_k,
    mean_average_precision,
    mean_ndcg_at_k,
    mean_precision_at_k,
    mean_recall_at_k,
    mean_reciprocal_rank,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
)


def _as_run(ranking: list[str]) -> dict[str, float]:
    """Scores that reproduce the given order exactly (strictly decreasing)."""
    return {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}


def test_hand_values() -> None:
    ranking = ["d3", "d1", "d2", "d4"]
    assert reciprocal_rank(ranking, {"d2"}) == 1 / 3
    assert reciprocal_rank(ranking, {"d2"}, k=2) == 0.0
    assert reciprocal_rank(ranking, set()) == 0.0
    assert hit_at_k(ranking, {"d4"}, 4) == 1.0
    assert precision_at_k(ranking, {"d1", "d4"}, 2) == 0.5
    assert recall_at_k(ranking, {"d1", "d4", "d9", "d8"}, 2) == 0.25
    assert close(average_precision(ranking, {"d1", "d4"}), (1 / 2 + 2 / 4) / 2)
    assert ndcg_at_k(ranking, {"d3": 2}, 1) == 1.0
    assert ndcg_at_k(ranking, {"d9": 2}) == 0.0


def test_argument_errors() -> None:
    with raises(ValueError, "k must be an integer >= 1, got 0"):
        precision_at_k(["a"], {"a"}, 0)
    with raises(ValueError, "document 'a' appears twice in the ranking"):
        reciprocal_rank(["a", "b", "a"], {"a"})
    with raises(ValueError, "ranking must be a list of document ids, got the string 'abc'"):
        reciprocal_rank("abc", {"a"})
    with raises(
        ValueError, "got 2 rankings but 1 judgment sets; give one per query, in the same order"
    ):
        mean_reciprocal_rank([["a"], ["b"]], [{"a"}])
    with raises(ValueError, "no queries: give at least one ranking"):
        mean_reciprocal_rank([], [])
    with raises(ValueError, "gain of 'a' must be an integer label, got 1.5"):
        ndcg_at_k(["a"], {"a": 1.5})  # type: ignore[dict-item]


def test_teaching_equals_evaluate_on_random_queries() -> None:
    rng = random.Random(7)
    docs = [f"d{i}" for i in range(12)]
    rankings, relevant_sets, gain_sets = [], [], []
    qrels: dict[str, dict[str, int]] = {}
    binary: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(60):
        ranking = rng.sample(docs, rng.randint(1, 12))
        gains = {d: rng.choice([0, 0, 1, 2, 3]) for d in rng.sample(docs, rng.randint(1, 8))}
        relevant = {d for d, g in gains.items() if g >= 1}
        rankings.append(ranking)
        relevant_sets.append(relevant)
        gain_sets.append(gains)
        qid = f"q{q:02d}"
        qrels[qid] = gains
        binary[qid] = {d: 1 for d in relevant} or {"none": 0}
        run[qid] = _as_run(ranking)
    names = ["RR", "RR@3", "Success@3", "P@5", "R@5", "AP", "nDCG", "nDCG@5"]
    graded = evaluate(qrels, run, names)
    flat = evaluate(binary, run, names)
    for i, qid in enumerate(sorted(run)):
        ranking, relevant, gains = rankings[i], relevant_sets[i], gain_sets[i]
        values, binary_values = graded.per_query[qid], flat.per_query[qid]
        assert reciprocal_rank(ranking, relevant) == values["RR"]
        assert reciprocal_rank(ranking, relevant, k=3) == values["RR@3"]
        assert hit_at_k(ranking, relevant, 3) == values["Success@3"]
        assert precision_at_k(ranking, relevant, 5) == values["P@5"]
        assert recall_at_k(ranking, relevant, 5) == values["R@5"]
        assert average_precision(ranking, relevant) == values["AP"]
        assert ndcg_at_k(ranking, gains) == values["nDCG"]
        assert ndcg_at_k(ranking, gains, 5) == values["nDCG@5"]
        assert ndcg_at_k(ranking, dict.fromkeys(relevant, 1), 5) == binary_values["nDCG@5"]
    assert close(mean_reciprocal_rank(rankings, relevant_sets), graded.aggregate["RR"])
    assert close(hit_rate_at_k(rankings, relevant_sets, 3), graded.aggregate["Success@3"])
    assert close(mean_precision_at_k(rankings, relevant_sets, 5), graded.aggregate["P@5"])
    assert close(mean_recall_at_k(rankings, relevant_sets, 5), graded.aggregate["R@5"])
    assert close(mean_average_precision(rankings, relevant_sets), graded.aggregate["AP"])
    assert close(mean_ndcg_at_k(rankings, gain_sets, 5), graded.aggregate["nDCG@5"])
