"""knn_recall against the code of the two ANN benchmarks it reproduces, and its own properties.

Neither benchmark is pip-installable without Docker, HDF5 and the rest of its harness, so each
reference below transcribes the tool's function literally (NumPy included), from:
- erikbern/ann-benchmarks at f402b2cc17b980d7cd45241ab5a7a4cc0f965e55,
  ``ann_benchmarks/plotting/metrics.py``: ``knn_threshold`` and ``get_recall_values`` (what its
  ``knn`` metric computes before caching the result in the HDF5 file);
- harsha-simhadri/big-ann-benchmarks at 452e508b72e98f1be6e7bca1a6c98dbf1bc5e967,
  ``benchmark/plotting/metrics.py``: ``compute_recall_with_distance_ties``,
  ``compute_recall_without_distance_ties`` and ``get_recall_values``; and the expected values
  of its own test table, ``tests/recall_tests.py``.
"""

from __future__ import annotations

import math
import random
from itertools import pairwise

import pytest

from ci_gate import require_module
from rankcards.metrics import knn_recall, mean_knn_recall

np = require_module("numpy", "pip install -e .[dev]")


# --- ann-benchmarks, ann_benchmarks/plotting/metrics.py (f402b2cc), transcribed ---------------
def _annb_knn_threshold(data, count, epsilon):
    return data[count - 1] + epsilon


def _annb_get_recall_values(dataset_distances, run_distances, count, threshold, epsilon=1e-3):
    recalls = np.zeros(len(run_distances))
    for i in range(len(run_distances)):
        t = threshold(dataset_distances[i], count, epsilon)
        actual = 0
        for d in run_distances[i][:count]:
            if d <= t:
                actual += 1
        recalls[i] = actual
    return (np.mean(recalls) / float(count), np.std(recalls) / float(count), recalls)


# --- big-ann-benchmarks, benchmark/plotting/metrics.py (452e508b), transcribed ----------------
def _bigann_without_ties(true_ids, run_ids, count):
    return len(set(true_ids) & set(run_ids))


def _bigann_with_ties(true_ids, true_dists, run_ids, count):
    found_tie = False
    gt_size = np.shape(true_dists)[0]
    if gt_size == count:
        recall = len(set(true_ids[:count]) & set(run_ids))
    else:
        dist_tie_check = true_dists[count - 1]
        set_end = gt_size
        for i in range(count, gt_size):
            is_close = abs(dist_tie_check - true_dists[i]) < 1e-6
            if not is_close:
                set_end = i
                break
        found_tie = set_end > count
        recall = len(set(true_ids[:set_end]) & set(run_ids))
    return recall, found_tie


def _bigann_get_recall_values(true_nn, run_nn, count, count_ties=True):
    true_ids, true_dists = true_nn
    if not count_ties:
        true_ids = true_ids[:, :count]
        assert true_ids.shape == run_nn.shape
    recalls = np.zeros(len(run_nn))
    queries_with_ties = 0
    for i in range(len(run_nn)):
        if count_ties:
            recalls[i], found_tie = _bigann_with_ties(true_ids[i], true_dists[i], run_nn[i], count)
            if found_tie:
                queries_with_ties += 1
        else:
            recalls[i] = _bigann_without_ties(true_ids[i], run_nn[i], count)
    return (
        np.mean(recalls) / float(count),
        np.std(recalls) / float(count),
        recalls,
        queries_with_ties,
    )


# --- random cases ------------------------------------------------------------------------------
def _case(rng: random.Random, *, integer: bool, depth: int, k: int):
    """One query against a random point set: the exact neighbours (``depth`` of them, ties
    broken by id), and an approximate answer of exactly ``k`` points drawn from near the query
    (a mix of true neighbours, tied or slightly farther points, and misses)."""
    dim = rng.choice((2, 3, 4))
    count = rng.randint(depth + 5, 80)
    if integer:  # small integer coordinates: many exact distance ties, as in uint8 data sets
        points = [tuple(float(rng.randint(0, 3)) for _ in range(dim)) for _ in range(count)]
        query = tuple(float(rng.randint(0, 3)) for _ in range(dim))
    else:
        points = [tuple(rng.random() for _ in range(dim)) for _ in range(count)]
        query = tuple(rng.random() for _ in range(dim))
    distances = [math.dist(query, point) for point in points]
    by_distance = sorted(range(count), key=lambda i: (distances[i], i))
    exact = [(i, distances[i]) for i in by_distance[:depth]]
    pool = by_distance[: min(count, 3 * k + 2)]  # near the query: hits, ties and near misses
    chosen = rng.sample(pool, k)
    found = sorted(((i, distances[i]) for i in chosen), key=lambda pair: pair[1])
    return exact, found


def _cases(seed: int, *, integer: bool, depth_extra: int):
    rng = random.Random(seed)
    cases = []
    for _ in range(150):
        k = rng.randint(1, 12)
        cases.append((k, _case(rng, integer=integer, depth=k + depth_extra, k=k)))
    return cases


@pytest.mark.parametrize("integer", [True, False], ids=["ties", "floats"])
def test_equals_ann_benchmarks_knn_on_random_cases(integer):
    cases = _cases(2201, integer=integer, depth_extra=3)
    for k in range(1, 13):
        group = [case for kk, case in cases if kk == k]
        if not group:
            continue
        dataset_distances = np.array([[d for _, d in exact] for exact, _ in group])
        run_distances = np.array([[d for _, d in found] for _, found in group])
        mean, _, recalls = _annb_get_recall_values(
            dataset_distances, run_distances, k, _annb_knn_threshold
        )
        for (exact, found), count in zip(group, recalls, strict=True):
            assert knn_recall(exact, found, k, "ann-benchmarks") == count / k
        exacts = [exact for exact, _ in group]
        founds = [found for _, found in group]
        assert mean_knn_recall(exacts, founds, k, "ann-benchmarks") == pytest.approx(
            mean, rel=1e-12
        )


@pytest.mark.parametrize("integer", [True, False], ids=["ties", "floats"])
@pytest.mark.parametrize("count_ties", [True, False])
def test_equals_big_ann_benchmarks_on_random_cases(integer, count_ties):
    cases = _cases(2202, integer=integer, depth_extra=6)
    convention = "big-ann-benchmarks" if count_ties else "ids"
    for k in range(1, 13):
        group = [case for kk, case in cases if kk == k]
        if not group:
            continue
        true_ids = np.array([[i for i, _ in exact] for exact, _ in group])
        true_dists = np.array([[d for _, d in exact] for exact, _ in group])
        run_nn = np.array([[i for i, _ in found] for _, found in group])
        mean, _, recalls, _ = _bigann_get_recall_values(
            (true_ids, true_dists), run_nn, k, count_ties
        )
        for (exact, found), count in zip(group, recalls, strict=True):
            assert knn_recall(exact, found, k, convention) == count / k
        exacts = [exact for exact, _ in group]
        founds = [found for _, found in group]
        assert mean_knn_recall(exacts, founds, k, convention) == pytest.approx(mean, rel=1e-12)


def test_the_random_cases_hold_ties_that_split_the_conventions():
    """The comparison above is only worth something if the conventions disagree on them."""
    disagreements = 0
    for k, (exact, found) in _cases(2202, integer=True, depth_extra=6):
        values = {c: knn_recall(exact, found, k, c) for c in ("ann-benchmarks", "ids")}
        disagreements += values["ann-benchmarks"] != values["ids"]
    assert disagreements >= 20


# big-ann-benchmarks' own table (tests/recall_tests.py, main_tests): true ids, true distances,
# run ids, k, expected recall without ties ("ids"), expected recall with ties.
_BIG_ANN_TABLE = [
    ([0, 1, 2], [0.0, 1.0, 2.0], [0, 1, 2], 3, 1.0, 1.0),
    ([0, 1, 2], [0.0, 1.0, 2.0], [0, 1, 3], 3, 2 / 3, 2 / 3),
    ([0, 1, 2, 3], [0.0, 1.0, 2.0, 3.0], [0, 1, 2], 3, 1.0, 1.0),
    ([0, 1, 2, 3], [0.0, 1.0, 2.0, 2.0], [0, 1, 2], 3, 1.0, 1.0),
    (
        [
            937541801,
            221456167,
            336118969,
            971823307,
            267986685,
            544978851,
            815975675,
            615142927,
            640142873,
            994367459,
            504814,
        ],
        [
            55214.0,
            58224.0,
            58379.0,
            58806.0,
            59251.0,
            59256.0,
            60302.0,
            60573.0,
            60843.0,
            60950.0,
            61125.0,
        ],
        [
            221456167,
            336118969,
            971823307,
            640142873,
            994367459,
            504814,
            87356234,
            628179290,
            928121617,
            397551598,
        ],
        10,
        0.5,
        0.5,
    ),
    ([0, 1, 2, 3], [0.0, 0.0, 1.0, 2.0], [0, 1, 3], 3, 2 / 3, 2 / 3),
    ([0, 1, 2, 3], [0.0, 0.0 + 1e-6 - 1e-7, 1.0, 2.0], [0, 1, 3], 3, 2 / 3, 2 / 3),
    ([0, 1, 2, 3], [0.0, 1.0, 1.0, 2.0], [0, 1, 3], 3, 2 / 3, 2 / 3),
    ([0, 1, 2, 3], [0.0, 1.0, 2.0, 2.0], [0, 1, 3], 3, 2 / 3, 1.0),
    (
        [0, 1, 2, 3, 4, 5],
        [0.0, 1.0, 2.0, 2.0, 2.0 + 1e-6 - 1e-7, 2.0 + 1e-6],
        [0, 1, 4],
        3,
        2 / 3,
        1.0,
    ),
    (
        [5, 4, 3, 2, 1, 0],
        [0.0, 1.0, 2.0, 2.0, 2.0 + 1e-6 - 1e-7, 2.0 + 1e-6],
        [5, 4, 0],
        3,
        2 / 3,
        2 / 3,
    ),
    ([0, 1, 2, 3, 4, 5], [0.0, 0.0, 2.0, 3.0, 3.0, 4.0], [0, 1, 5], 3, 2 / 3, 2 / 3),
    ([0, 1, 2, 3, 4, 5, 6], [0.0, 0.0, 2.0, 3.0, 3.0, 4.0, 5.0], [0, 1, 5, 7], 4, 0.5, 0.5),
]


@pytest.mark.parametrize("case", _BIG_ANN_TABLE, ids=lambda c: f"k{c[3]}-{c[2]}")
def test_big_ann_benchmarks_own_test_table(case):
    true_ids, true_dists, run_ids, k, expected_ids, expected_ties = case
    exact = list(zip(true_ids, true_dists, strict=True))
    found = [(i, 0.0) for i in run_ids]  # ids conventions read no found distance
    assert knn_recall(exact, found, k, "ids") == pytest.approx(expected_ids, abs=1e-15)
    assert knn_recall(exact, found, k, "big-ann-benchmarks") == pytest.approx(
        expected_ties, abs=1e-15
    )


# --- properties --------------------------------------------------------------------------------
@pytest.mark.parametrize("convention", ["ann-benchmarks", "big-ann-benchmarks", "ids"])
def test_exact_search_has_recall_one(convention):
    rng = random.Random(2203)
    for _ in range(50):
        k = rng.randint(1, 10)
        exact, _ = _case(rng, integer=bool(rng.getrandbits(1)), depth=k + 4, k=k)
        assert knn_recall(exact, exact[:k], k, convention) == 1.0
        assert knn_recall(exact, exact, k, convention) == 1.0  # only the first k are read


def test_the_conventions_differ_exactly_on_tied_distances():
    # Points 2 and 3 both lie at distance 2 from the query; k = 2 asks for 0 and 2.
    exact = [(0, 1.0), (2, 2.0), (3, 2.0), (4, 5.0)]
    tie = [(0, 1.0), (3, 2.0)]  # an exact search that broke the tie the other way
    assert knn_recall(exact, tie, 2, "ann-benchmarks") == 1.0  # distances: d <= 2 + 0.001
    assert knn_recall(exact, tie, 2, "big-ann-benchmarks") == 1.0  # 3 extends the truth
    assert knn_recall(exact, tie, 2, "ids") == 0.5  # 3 is not among the first 2 ids
    # The same tie when the stored ground truth stops at k: big-ann-benchmarks cannot see it.
    assert knn_recall(exact[:2], tie, 2, "big-ann-benchmarks") == 0.5
    assert knn_recall(exact[:2], tie, 2, "ann-benchmarks") == 1.0
    # Without the tie (point 3 a little farther) the three agree.
    apart = [(0, 1.0), (2, 2.0), (3, 2.5), (4, 5.0)]
    assert {knn_recall(apart, [tie[0], (3, 2.5)], 2, c) for c in _all()} == {0.5}


def test_epsilon_is_absolute_and_inclusive():
    exact = [(0, 1.0), (1, 2.0), (2, 3.0)]
    near = [(0, 1.0), (7, 2.0009)]  # not a tie: 0.0009 farther than the 2nd exact neighbour
    assert knn_recall(exact, near, 2, "ann-benchmarks") == 1.0
    assert knn_recall(exact, near, 2, "ann-benchmarks", epsilon=0.0) == 0.5
    assert knn_recall(exact, near, 2, "big-ann-benchmarks") == 0.5  # ids: 7 is not a neighbour
    at_edge = [(0, 1.0), (7, 2.5)]
    assert knn_recall(exact, at_edge, 2, "ann-benchmarks", epsilon=0.5) == 1.0  # d <= d_k + eps


def test_tie_tolerance_is_strict_and_anchored_at_the_kth_distance():
    exact = [(0, 1.0), (1, 2.0), (2, 2.0 + 5e-7), (3, 2.0 + 1e-6 + 1e-9), (4, 9.0)]
    assert knn_recall(exact, [(0, 1.0), (2, 2.0)], 2, "big-ann-benchmarks") == 1.0
    assert knn_recall(exact, [(0, 1.0), (3, 2.0)], 2, "big-ann-benchmarks") == 0.5
    wider = knn_recall(exact, [(0, 1.0), (3, 2.0)], 2, "big-ann-benchmarks", tie_tolerance=1e-5)
    assert wider == 1.0
    # Exactly the tolerance apart is not a tie (abs(0 - 1e-6) < 1e-6 is false).
    assert knn_recall([(0, 0.0), (1, 1e-6)], [(1, 1e-6)], 1, "big-ann-benchmarks") == 0.0


def test_without_near_ties_the_three_conventions_agree():
    rng = random.Random(2204)
    checked = 0
    for _ in range(300):
        k = rng.randint(1, 8)
        exact, found = _case(rng, integer=False, depth=k + 6, k=k)
        distances = sorted({d for _, d in exact} | {d for _, d in found})
        if any(b - a <= 2e-3 for a, b in pairwise(distances)):
            continue  # a pair within epsilon: the conventions may rightly differ
        checked += 1
        assert len({knn_recall(exact, found, k, c) for c in _all()}) == 1
    assert checked > 100


def test_fewer_found_than_k_count_as_missing_and_extra_ones_are_ignored():
    exact = [(0, 1.0), (1, 2.0), (2, 3.0)]
    for convention in _all():
        assert knn_recall(exact, [(0, 1.0)], 2, convention) == 0.5
        assert knn_recall(exact, [], 2, convention) == 0.0
        assert knn_recall(exact, [(9, 5.0), (8, 6.0), (1, 2.0)], 2, convention) == 0.0


def test_ids_may_be_any_hashable():
    exact = [("d1", 0.1), ("d2", 0.2)]
    assert knn_recall(exact, [("d2", 0.2), ("d9", 0.3)], 2, "ids") == 0.5


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: knn_recall([(0, 1.0)], [(0, 1.0)], 1, "faiss"), "convention must be one of"),
        (lambda: knn_recall([(0, 1.0)], [(0, 1.0)], 0), "k must be an integer >= 1"),
        (lambda: knn_recall([(0, 1.0)], [(0, 1.0)], True), "k must be an integer >= 1"),
        (lambda: knn_recall([(0, 1.0)], [(0, 1.0)], 2), "1 exact neighbours for k = 2"),
        (lambda: knn_recall([(0, 2.0), (1, 1.0)], [], 1), "nearest first"),
        (lambda: knn_recall([(0, math.nan)], [], 1), "NaN"),
        (lambda: knn_recall([(0, 1.0)], [(0, math.nan)], 1), "NaN"),
        (lambda: knn_recall([(0, 1.0), (1, 2.0)], [(0, 1.0), (0, 1.0)], 2), "appears twice"),
        (lambda: mean_knn_recall([], [], 1), "no queries"),
        (lambda: mean_knn_recall([[(0, 1.0)]], [], 1), "1 exact lists but 0 found lists"),
    ],
)
def test_bad_input_raises_a_one_line_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def _all():
    return ("ann-benchmarks", "big-ann-benchmarks", "ids")
