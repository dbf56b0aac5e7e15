"""Synthetic vectors, exact search and the IVF index: exact, reproducible recall values."""

import math

import pytest

from rankcards.demos.ivf import IVFIndex, kmeans
from rankcards.demos.vectors import exact_knn, ground_truth, synthetic


def test_synthetic_is_seeded_and_cached():
    first = synthetic()
    assert first is synthetic()
    assert (len(first.data), len(first.data[0]), len(first.queries)) == (2000, 16, 50)
    other = synthetic(seed=7)
    assert other.data[0] != first.data[0]
    assert synthetic.__wrapped__().data == first.data  # same seed, same numbers


def test_exact_knn_is_brute_force_order():
    data = [(0.0, 0.0), (3.0, 0.0), (1.0, 0.0), (1.0, 0.0)]
    assert exact_knn(data, (0.9, 0.0), k=3) == [2, 3, 0]  # tie between 2 and 3: lower index


def test_kmeans_converges_on_two_obvious_groups():
    points = [(0.0, 0.0), (0.0, 1.0), (10.0, 10.0), (10.0, 11.0)]
    centroids = sorted(kmeans(points, 2, seed=1))
    assert centroids == [(0.0, 0.5), (10.0, 10.5)]


def test_kmeans_rejects_more_clusters_than_points():
    with pytest.raises(ValueError, match=r"need 1 <= clusters <= 2 points, got 3"):
        kmeans([(0.0,), (1.0,)], 3, seed=0)


def test_every_point_is_in_exactly_one_list():
    vectors = synthetic()
    index = IVFIndex(vectors.data, n_lists=32)
    members = sorted(i for cell in index.lists for i in cell)
    assert members == list(range(2000))
    assert index.build_seconds > 0


def _recall(index, vectors, nprobe):
    truth = ground_truth(vectors, 10)
    found = [index.search(q, k=10, nprobe=nprobe) for q in vectors.queries]
    return sum(len(set(f) & set(t)) for f, t in zip(found, truth, strict=True)) / (10 * len(truth))


def test_recall_grows_with_nprobe_and_reaches_one():
    vectors = synthetic()
    index = IVFIndex(vectors.data, n_lists=32)
    recalls = {p: _recall(index, vectors, p) for p in (1, 2, 4, 8, 16, 32)}
    # Exact values: the data and the k-means are seeded, so these are reproducible.
    assert recalls == {1: 0.62, 2: 0.792, 4: 0.918, 8: 0.988, 16: 1.0, 32: 1.0}


def test_full_probe_equals_exact_search():
    vectors = synthetic()
    index = IVFIndex(vectors.data, n_lists=32)
    for query in vectors.queries[:5]:
        assert index.search(query, 10, nprobe=32) == exact_knn(vectors.data, query, 10)


def test_candidates_shrink_with_fewer_probes():
    vectors = synthetic()
    index = IVFIndex(vectors.data, n_lists=32)
    query = vectors.queries[0]
    assert len(index.candidates(query, 32)) == 2000
    assert len(index.candidates(query, 1)) < 2000 / 8
    nearest_cell = min(range(32), key=lambda c: math.dist(query, index.centroids[c]))
    assert index.candidates(query, 1) == index.lists[nearest_cell]


def test_nprobe_out_of_range_is_a_clear_error():
    index = IVFIndex(synthetic().data, n_lists=32)
    with pytest.raises(ValueError, match=r"nprobe must be in 1..32, got 0"):
        index.search(synthetic().queries[0], 10, nprobe=0)


def test_distances_per_query_counts_centroids_plus_the_probed_lists():
    vectors = synthetic(count=400, dim=4, clusters=4, queries=3, seed=3)
    index = IVFIndex(vectors.data, n_lists=8, seed=0)
    for nprobe in (1, 3, 8):
        scanned = [len(index.candidates(q, nprobe)) for q in vectors.queries]
        expected = 8 + sum(scanned) / len(scanned)
        assert index.distances_per_query(vectors.queries, nprobe) == expected
    # every list probed: every point once, plus the 8 centroids
    assert index.distances_per_query(vectors.queries, 8) == 400 + 8
