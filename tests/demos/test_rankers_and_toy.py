"""The random ranker's determinism and the shared toy example's shape."""

import pytest

from rankcards.demos.rankers import random_ranking
from rankcards.demos.toy import TOY, toy_rankings, toy_relevant, toy_state


def test_random_ranking_is_seeded_per_query_and_order_independent():
    docs = [f"d{i:03d}" for i in range(1, 201)]
    first = random_ranking(docs, "q01", k=10, seed=0)
    assert first == random_ranking(list(reversed(docs)), "q01", k=10, seed=0)
    assert len(set(first)) == 10
    assert first != random_ranking(docs, "q02", k=10, seed=0)
    assert first != random_ranking(docs, "q01", k=10, seed=1)
    # Fixed by the seed string, in CPython and Pyodide alike.
    assert first[:3] == random_ranking(docs, "q01", k=3, seed=0)


def test_random_ranking_caps_k_and_rejects_zero():
    assert sorted(random_ranking(["a", "b"], "q", k=5)) == ["a", "b"]
    with pytest.raises(ValueError, match="k must be >= 1, got 0"):
        random_ranking(["a"], "q", k=0)


def test_toy_example_shape():
    assert [q.id for q in TOY] == ["q1", "q2", "q3", "q4"]
    assert toy_rankings()[0] == ["d3", "d1", "d7", "d4", "d9"]
    assert toy_relevant()[3] == {"d9"}
    assert toy_state()[0] == {
        "query": "q1",
        "ranking": ["d3", "d1", "d7", "d4", "d9"],
        "relevant": ["d1", "d4", "d8"],
    }
