"""Maximal marginal relevance: the greedy picks, their terms, the limits of λ and the ties.

The reference below recomputes Carbonell & Goldstein's criterion from scratch at every step
(the maximum similarity to *all* documents picked so far), independently of the incremental
bookkeeping of ``rankcards.demos.mmr``.
"""

from __future__ import annotations

import math
import random

import pytest

from rankcards.demos.mmr import TOY, Pick, closeness, cosine, mmr


def reference_mmr(query, candidates, k, lam, similarity):
    """MMR straight from the formula: the first pick the most relevant, then the argmax of
    lam * sim(d, q) - (1 - lam) * max over picked p of sim(d, p); the first listed wins ties."""
    picked: list[str] = []
    left = list(candidates)
    while left and len(picked) < k:
        best, best_score = None, -math.inf
        for doc in left:
            relevance = similarity(candidates[doc], query)
            if picked:
                redundancy = max(similarity(candidates[doc], candidates[p]) for p in picked)
                score = lam * relevance - (1 - lam) * redundancy
            else:
                score = relevance
            if score > best_score:
                best, best_score = doc, score
        picked.append(best)
        left.remove(best)
    return picked


def random_points(rng: random.Random, count: int, dim: int = 2) -> dict[str, tuple[float, ...]]:
    return {f"d{i}": tuple(rng.uniform(0.05, 1.0) for _ in range(dim)) for i in range(count)}


@pytest.mark.parametrize("similarity", [cosine, closeness])
def test_picks_equal_the_formula_recomputed_at_every_step(similarity) -> None:
    rng = random.Random(2301)
    for _ in range(300):
        dim = rng.choice([2, 3, 5])
        points = random_points(rng, rng.randint(1, 12), dim)
        query = tuple(rng.uniform(0.05, 1.0) for _ in range(dim))
        lam = rng.choice([0.0, 1.0, rng.random()])
        k = rng.randint(1, 14)
        got = [pick.doc for pick in mmr(query, points, k, lam, similarity)]
        assert got == reference_mmr(query, points, k, lam, similarity)


def test_lambda_one_is_the_relevance_order_with_ties_in_listing_order() -> None:
    rng = random.Random(7)
    for _ in range(200):
        points = random_points(rng, rng.randint(1, 10))
        # exact duplicates: equal relevance, so only the listing order can decide
        for doc in rng.sample(sorted(points), k=min(3, len(points))):
            points[doc + "-twin"] = points[doc]
        query = (rng.uniform(0.1, 1), rng.uniform(0.1, 1))
        relevance = {doc: closeness(v, query) for doc, v in points.items()}
        by_relevance = sorted(points, key=lambda d: -relevance[d])  # stable: listing order
        got = [pick.doc for pick in mmr(query, points, len(points), 1.0, closeness)]
        assert got == by_relevance


def test_lambda_zero_is_farthest_first_after_the_most_relevant() -> None:
    rng = random.Random(11)
    for _ in range(200):
        points = random_points(rng, rng.randint(2, 10))
        query = (rng.uniform(0.1, 1), rng.uniform(0.1, 1))
        got = [pick.doc for pick in mmr(query, points, len(points), 0.0, closeness)]
        assert got[0] == max(points, key=lambda d: closeness(points[d], query))
        for step in range(1, len(got)):
            # each later pick is the least similar to its nearest earlier pick
            nearest = {
                d: max(closeness(points[d], points[p]) for p in got[:step]) for d in got[step:]
            }
            assert nearest[got[step]] == min(nearest.values())


def test_each_pick_carries_its_terms() -> None:
    picks = mmr(TOY.query, TOY.points, 6, 0.7, closeness)
    for step, pick in enumerate(picks):
        point = TOY.points[pick.doc]
        assert pick.relevance == closeness(point, TOY.query)
        earlier = [TOY.points[p.doc] for p in picks[:step]]
        expected_redundancy = max((closeness(point, e) for e in earlier), default=0.0)
        assert pick.redundancy == pytest.approx(expected_redundancy, abs=1e-15)
        assert pick.score == pytest.approx(0.7 * pick.relevance - 0.3 * pick.redundancy)
    assert picks[0].redundancy == 0.0


def test_first_pick_is_the_most_relevant_whatever_lambda() -> None:
    for lam in (0.0, 0.25, 0.5, 1.0):
        assert mmr(TOY.query, TOY.points, 1, lam, closeness)[0].doc == "a1"


def test_a_tie_goes_to_the_candidate_listed_first() -> None:
    twins = {"z": (1.0, 1.0), "a": (1.0, 1.0), "far": (0.1, 1.0)}
    assert [p.doc for p in mmr((1.0, 1.0), twins, 2, 1.0)] == ["z", "a"]
    swapped = {"a": (1.0, 1.0), "z": (1.0, 1.0), "far": (0.1, 1.0)}
    assert [p.doc for p in mmr((1.0, 1.0), swapped, 2, 1.0)] == ["a", "z"]


def test_the_toy_set_moves_with_lambda() -> None:
    """The card's claims about its toy set: λ = 1 stacks the near-duplicates of aspect A,
    a middle λ reaches the three aspects first, λ = 0 brings the off-topic points in."""
    picks = {
        lam: [p.doc for p in mmr(TOY.query, TOY.points, 5, lam, closeness)]
        for lam in (1.0, 0.7, 0.0)
    }
    assert sorted(picks[1.0][:4]) == ["a1", "a2", "a3", "a4"]
    assert [TOY.aspects[d] for d in picks[0.7][:3]] == [{"A"}, {"C"}, {"B"}]
    assert picks[0.0][1:3] == ["x2", "x1"]
    assert set(TOY.points) == set(TOY.aspects)


def test_fewer_candidates_than_k_and_none() -> None:
    assert [p.doc for p in mmr((1.0, 0.0), {"a": (1.0, 0.0)}, 5)] == ["a"]
    assert mmr((1.0, 0.0), {}, 3) == []
    assert isinstance(mmr((1.0, 0.0), {"a": (1.0, 0.0)}, 1)[0], Pick)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"k": 0}, "k must be an integer >= 1, got 0"),
        ({"k": True}, "k must be an integer >= 1, got True"),
        ({"k": 2.0}, "k must be an integer >= 1, got 2.0"),
        ({"k": 2, "lam": 1.5}, "lam must be a number with 0 <= lam <= 1, got 1.5"),
        ({"k": 2, "lam": -0.1}, "lam must be a number with 0 <= lam <= 1, got -0.1"),
        ({"k": 2, "lam": False}, "lam must be a number with 0 <= lam <= 1, got False"),
    ],
)
def test_bad_arguments_are_named(kwargs, message) -> None:
    with pytest.raises(ValueError, match=f"^{message}$".replace("(", r"\(")):
        mmr((1.0, 0.0), {"a": (1.0, 0.0)}, **kwargs)


def test_bad_vectors_name_the_candidate() -> None:
    with pytest.raises(ValueError, match=r"^candidate 'b' has 3 dimensions, the query 2$"):
        mmr((1.0, 0.0), {"a": (1.0, 0.0), "b": (1.0, 0.0, 0.0)}, 2)
    with pytest.raises(ValueError, match=r"^candidate 'z': cosine similarity is undefined"):
        mmr((1.0, 0.0), {"a": (1.0, 0.0), "z": (0.0, 0.0)}, 2)


def test_similarities() -> None:
    assert cosine((1.0, 0.0), (0.0, 3.0)) == 0.0
    assert cosine((2.0, 2.0), (1.0, 1.0)) == pytest.approx(1.0)
    assert cosine((1.0, 0.0), (-1.0, 0.0)) == -1.0
    assert closeness((1.0, 1.0), (1.0, 1.0)) == 1.0
    assert closeness((0.0, 0.0), (0.0, 1.0)) == 0.5
    with pytest.raises(ValueError):
        cosine((1.0, 2.0), (1.0,))
