"""rankcards.demos.ann: tied data, exact neighbours with distances, cached IVF sweeps."""

import math

import pytest

from rankcards.demos.ann import (
    exact_neighbours,
    integer_vectors,
    ivf_index,
    operating_point,
    true_neighbours,
    with_distances,
)
from rankcards.demos.ivf import IVFIndex
from rankcards.demos.vectors import exact_knn, synthetic
from rankcards.metrics import mean_knn_recall

CONVENTIONS = ("ann-benchmarks", "big-ann-benchmarks", "ids")


def test_integer_vectors_are_seeded_integers_with_ties():
    vectors = integer_vectors()
    assert vectors is integer_vectors()  # cached
    assert (len(vectors.data), vectors.dim, len(vectors.queries)) == (500, 8, 20)
    assert integer_vectors.__wrapped__().data == vectors.data  # same seed, same numbers
    coordinates = {c for point in vectors.data + vectors.queries for c in point}
    assert coordinates == {0.0, 1.0, 2.0, 3.0}
    # The point of the data set: the 10th exact distance is shared with other points.
    truth = exact_neighbours(vectors.data, vectors.queries[0], 40)
    assert sum(d == truth[9][1] for _, d in truth) > 1


def test_integer_vectors_rejects_bad_sizes():
    with pytest.raises(ValueError, match="levels >= 2"):
        integer_vectors(levels=1)


def test_exact_neighbours_are_brute_force_with_true_distances():
    vectors = integer_vectors()
    for query in vectors.queries[:5]:
        neighbours = exact_neighbours(vectors.data, query, 30)
        assert [i for i, _ in neighbours] == exact_knn(vectors.data, query, 30)
        assert all(d == math.dist(query, vectors.data[i]) for i, d in neighbours)
        assert [d for _, d in neighbours] == sorted(d for _, d in neighbours)


def test_true_neighbours_are_each_querys_exact_neighbours_computed_once():
    vectors = integer_vectors()
    for highest_id_first in (False, True):
        truth = true_neighbours(vectors, 25, highest_id_first=highest_id_first)
        assert truth is true_neighbours(vectors, 25, highest_id_first=highest_id_first)
        assert [list(t) for t in truth] == [
            exact_neighbours(vectors.data, q, 25, highest_id_first=highest_id_first)
            for q in vectors.queries
        ]
    # the two tie orders differ somewhere on this tied data
    assert true_neighbours(vectors, 25) != true_neighbours(vectors, 25, highest_id_first=True)


def test_the_other_tie_order_is_another_exact_answer():
    data = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (5.0, 5.0)]
    assert exact_neighbours(data, (0.0, 0.0), 2) == [(0, 0.0), (1, 1.0)]
    assert exact_neighbours(data, (0.0, 0.0), 2, highest_id_first=True) == [(0, 0.0), (3, 1.0)]
    vectors = integer_vectors()
    truth = [exact_neighbours(vectors.data, q, 100) for q in vectors.queries]
    other = [exact_neighbours(vectors.data, q, 10, highest_id_first=True) for q in vectors.queries]
    # Exact search is recall 1 by distance and with ties extended, whichever way it breaks ties;
    # by ids alone, the other tie order loses the tied points.
    assert mean_knn_recall(truth, [t[:10] for t in truth], 10, "ids") == 1.0
    assert mean_knn_recall(truth, other, 10, "ann-benchmarks") == 1.0
    assert mean_knn_recall(truth, other, 10, "big-ann-benchmarks") == 1.0
    assert mean_knn_recall(truth, other, 10, "ids") < 1.0


def test_with_distances_recomputes_the_true_distance_in_the_given_order():
    data = [(0.0, 0.0), (3.0, 4.0), (1.0, 1.0)]
    assert with_distances(data, (0.0, 0.0), [1, 2]) == [(1, 5.0), (2, math.sqrt(2))]


def test_ivf_index_is_built_once_per_data_set_and_size():
    vectors = integer_vectors()
    assert ivf_index(vectors, 16) is ivf_index(vectors, 16)
    assert ivf_index(vectors, 8) is not ivf_index(vectors, 16)
    assert ivf_index(vectors, 16).lists == IVFIndex(vectors.data, n_lists=16, seed=0).lists


@pytest.mark.parametrize("n_lists", [3, 6])
def test_operating_points_equal_searching_the_index(n_lists):
    """The one-pass sweep gives what index.search gives, nprobe by nprobe."""
    size = {"count": 300, "dim": 4, "queries": 7}
    vectors = synthetic(**size)
    index = ivf_index(vectors, n_lists)
    truth = [exact_neighbours(vectors.data, q, 5) for q in vectors.queries]
    for nprobe in range(1, n_lists + 1):
        found = [
            with_distances(vectors.data, q, index.search(q, 5, nprobe)) for q in vectors.queries
        ]
        for convention in CONVENTIONS:
            expected = mean_knn_recall(truth, found, 5, convention)
            assert operating_point(n_lists, nprobe, k=5, **size)[0] == expected
        cost = index.distances_per_query(vectors.queries, nprobe)
        assert operating_point(n_lists, nprobe, k=5, **size)[1] == cost


def test_recall_rises_with_nprobe_and_is_one_when_every_list_is_probed():
    for n_lists in (4, 8, 16):
        points = [operating_point(n_lists, p) for p in range(1, n_lists + 1)]
        recalls = [recall for recall, _ in points]
        costs = [cost for _, cost in points]
        assert recalls == sorted(recalls)
        assert costs == sorted(costs) and len(set(costs)) == n_lists
        assert recalls[-1] == 1.0
        assert recalls[0] < 1.0
        assert costs[-1] == n_lists + 1000  # every centroid and every point


def test_operating_point_rejects_an_nprobe_outside_the_lists():
    with pytest.raises(ValueError, match=r"nprobe must be in 1\.\.4, got 5"):
        operating_point(4, 5)
