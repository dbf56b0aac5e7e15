"""Filtered search: ground truth after the filter; pre-, post- and in-graph filtering."""

import math

import pytest

from rankcards.demos.filtered import (
    expected_postfilter_recall,
    infilter_search,
    postfilter_search,
    prefilter_search,
    tag_filter,
)
from rankcards.demos.hnsw import HNSW
from rankcards.demos.vectors import exact_knn, synthetic

VECTORS = synthetic(count=500, dim=16, clusters=40, queries=30, spread=1.0)


@pytest.fixture(scope="module")
def index():
    return HNSW(VECTORS.data, m=8, ef_construction=40, seed=1)


def _recall(search, allowed, k=10):
    total = 0
    for query in VECTORS.queries:
        truth = set(prefilter_search(VECTORS.data, query, k, allowed).ids)
        total += len(truth & set(search(query).ids))
    return total / (k * len(VECTORS.queries))


def test_tag_filter_has_the_exact_selectivity_and_nests():
    wide, narrow = tag_filter(500, 0.2, seed=3), tag_filter(500, 0.05, seed=3)
    assert (len(wide), len(narrow)) == (100, 25)
    assert narrow <= wide
    assert tag_filter(500, 0.2, seed=4) != wide
    assert tag_filter(500, 1.0) == frozenset(range(500)) and not tag_filter(500, 0.0)


def test_prefilter_is_exact_search_over_the_matching_vectors():
    allowed = tag_filter(500, 0.1)
    members = sorted(allowed)
    for query in VECTORS.queries[:5]:
        result = prefilter_search(VECTORS.data, query, 10, allowed)
        subset = [VECTORS.data[i] for i in members]
        assert result.ids == [members[i] for i in exact_knn(subset, query, 10)]
        assert result.distances == [math.dist(query, VECTORS.data[i]) for i in result.ids]
        assert result.computations == 50


def test_postfilter_recall_collapses_at_low_selectivity_while_prefilter_stays_one(index):
    recalls = {}
    for selectivity in (0.02, 0.1, 0.5, 1.0):
        allowed = tag_filter(500, selectivity)
        recalls[selectivity] = _recall(
            lambda q, a=allowed: postfilter_search(index, q, 10, 40, a), allowed
        )
        assert _recall(lambda q, a=allowed: prefilter_search(VECTORS.data, q, 10, a), allowed) == 1
    assert recalls[0.02] < 0.2 < recalls[0.1] < 0.6 < 0.9 < recalls[0.5]
    # about candidates * selectivity results survive the filter: 40 * 0.1 = 4 of 10
    assert recalls[0.1] == pytest.approx(0.4, abs=0.1)


def test_postfilter_returns_fewer_than_k_when_few_survive(index):
    allowed = tag_filter(500, 0.02)
    lengths = [len(postfilter_search(index, q, 10, 40, allowed).ids) for q in VECTORS.queries]
    assert max(lengths) < 10
    for query in VECTORS.queries[:5]:
        result = postfilter_search(index, query, 10, 40, allowed)
        assert set(result.ids) <= allowed


def test_more_candidates_lift_postfilter_recall(index):
    allowed = tag_filter(500, 0.1)
    few = _recall(lambda q: postfilter_search(index, q, 10, 20, allowed), allowed)
    many = _recall(lambda q: postfilter_search(index, q, 10, 200, allowed), allowed)
    assert few < many


def test_infilter_keeps_recall_but_walks_more_of_the_graph(index):
    narrow, wide = tag_filter(500, 0.02), tag_filter(500, 0.5)
    assert _recall(lambda q: infilter_search(index, q, 10, 40, narrow), narrow) >= 0.95
    cost_narrow = sum(
        infilter_search(index, q, 10, 40, narrow).computations for q in VECTORS.queries
    )
    cost_wide = sum(infilter_search(index, q, 10, 40, wide).computations for q in VECTORS.queries)
    assert cost_narrow > cost_wide
    for query in VECTORS.queries[:5]:
        assert set(infilter_search(index, query, 10, 40, narrow).ids) <= narrow


def test_without_a_filter_all_three_agree_with_unfiltered_search(index):
    everything = tag_filter(500, 1.0)
    for query in VECTORS.queries[:5]:
        unfiltered = index.search(query, 10, 40)
        assert postfilter_search(index, query, 10, 40, everything).ids == unfiltered.ids
        assert infilter_search(index, query, 10, 40, everything).ids == unfiltered.ids
        exact = prefilter_search(VECTORS.data, query, 10, everything).ids
        assert exact == exact_knn(VECTORS.data, query, 10)


def test_selectivity_out_of_range_is_a_clear_error():
    with pytest.raises(ValueError, match=r"selectivity must be in \[0, 1\], got 1.5"):
        tag_filter(10, 1.5)


def test_expected_postfilter_recall_matches_a_simulation_over_tag_draws():
    """Exact candidates, random tags: the mean of min(k, X) / k over many draws of the tag."""
    query = VECTORS.queries[0]
    nearest = exact_knn(VECTORS.data, query, 40)
    draws = 400
    total = 0.0
    for seed in range(draws):
        allowed = tag_filter(500, 0.1, seed=seed)
        post = [i for i in nearest if i in allowed][:10]
        truth = prefilter_search(VECTORS.data, query, 10, allowed).ids
        assert post == truth[: len(post)]  # the survivors are the nearest tagged vectors
        total += len(post) / 10
    assert total / draws == pytest.approx(expected_postfilter_recall(500, 50, 10, 40), abs=0.03)


@pytest.mark.parametrize(
    ("count", "tagged", "k", "candidates", "expected"),
    [
        (500, 500, 10, 40, 1.0),  # no filter: the first 10 candidates
        (500, 10, 10, 500, 1.0),  # every vector a candidate: every tagged one survives
        (500, 10, 10, 40, 40 / 500),  # k = tagged: E[X] / k, E[X] = 40 * 10 / 500
        (500, 50, 10, 0, 0.0),
    ],
)
def test_expected_postfilter_recall_edge_cases(count, tagged, k, candidates, expected):
    assert expected_postfilter_recall(count, tagged, k, candidates) == pytest.approx(expected)


def test_expected_postfilter_recall_is_bounded_by_selectivity_times_candidates():
    for tagged in (10, 25, 50, 100):
        bound = min(1.0, tagged / 500 * 40 / 10)
        assert expected_postfilter_recall(500, tagged, 10, 40) <= bound + 1e-12


def test_expected_postfilter_recall_rejects_impossible_input():
    with pytest.raises(ValueError, match=r"got count=500, tagged=5, k=10, candidates=40"):
        expected_postfilter_recall(500, 5, 10, 40)
