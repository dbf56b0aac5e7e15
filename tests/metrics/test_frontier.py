"""pareto_frontier and best_at_recall: against ann-benchmarks' create_pointset and brute force.

The reference transcribes ``create_pointset`` from erikbern/ann-benchmarks at
f402b2cc17b980d7cd45241ab5a7a4cc0f965e55, ``ann_benchmarks/plotting/utils.py`` (the same code
is in big-ann-benchmarks' ``benchmark/plotting/utils.py``), with the two metric descriptors it
reads: ``k-nn`` and ``qps`` have ``worst = -inf`` (higher is better), ``distcomps`` has
``worst = inf`` (lower is better), as in ``ann_benchmarks/plotting/metrics.py``.
"""

from __future__ import annotations

import math
import random

import pytest

from rankcards.metrics import best_at_recall, pareto_frontier

_METRICS = {
    "k-nn": {"worst": -math.inf},
    "qps": {"worst": -math.inf},
    "distcomps": {"worst": math.inf},
}


def _create_pointset(data, xn, yn):  # ann_benchmarks/plotting/utils.py, transcribed
    xm, ym = (_METRICS[xn], _METRICS[yn])
    rev_y = -1 if ym["worst"] < 0 else 1
    rev_x = -1 if xm["worst"] < 0 else 1
    data.sort(key=lambda t: (rev_y * t[-1], rev_x * t[-2]))

    axs, ays, als = [], [], []
    # Generate Pareto frontier
    xs, ys, ls = [], [], []
    last_x = xm["worst"]
    comparator = (lambda xv, lx: xv > lx) if last_x < 0 else (lambda xv, lx: xv < lx)
    for algo, algo_name, xv, yv in data:  # noqa: B007 (as written there)
        if not xv or not yv:
            continue
        axs.append(xv)
        ays.append(yv)
        als.append(algo_name)
        if comparator(xv, last_x):
            last_x = xv
            xs.append(xv)
            ys.append(yv)
            ls.append(algo_name)
    return xs, ys, ls, axs, ays, als


def _random_points(rng: random.Random) -> list[tuple[float, float]]:
    """Non-zero points (create_pointset skips zeros), on a coarse grid so that equal recalls,
    equal speeds and identical points occur."""
    n = rng.randint(1, 25)
    return [(rng.randint(1, 12) / 12, float(rng.randint(1, 15) * 100)) for _ in range(n)]


@pytest.mark.parametrize(("y_name", "higher"), [("qps", True), ("distcomps", False)])
def test_equals_ann_benchmarks_create_pointset(y_name, higher):
    rng = random.Random(2401)
    for _ in range(400):
        points = _random_points(rng)
        data = [("algo", str(i), x, y) for i, (x, y) in enumerate(points)]
        _, _, labels, _, _, _ = _create_pointset(data, "k-nn", y_name)
        assert pareto_frontier(points, higher_is_better=higher) == [int(s) for s in labels]


def _dominates(q, p, higher):
    better_y = q[1] >= p[1] if higher else q[1] <= p[1]
    return q[0] >= p[0] and better_y and q != p


@pytest.mark.parametrize("higher", [True, False])
def test_keeps_exactly_the_undominated_points_once_in_recall_order(higher):
    rng = random.Random(2402)
    for _ in range(400):
        points = _random_points(rng)
        frontier = pareto_frontier(points, higher_is_better=higher)
        first_of_each = {p: i for i, p in reversed(list(enumerate(points)))}
        expected = {
            first_of_each[p] for p in points if not any(_dominates(q, p, higher) for q in points)
        }
        assert set(frontier) == expected
        recalls = [points[i][0] for i in frontier]
        ys = [points[i][1] for i in frontier]
        assert recalls == sorted(set(recalls))  # recall strictly ascending
        assert ys == sorted(set(ys), reverse=higher)  # the y value strictly worse along it


def test_ties():
    # Equal recall: the faster one stays. Equal speed: the higher recall stays.
    assert pareto_frontier([(0.9, 100.0), (0.9, 300.0)]) == [1]
    assert pareto_frontier([(0.8, 300.0), (0.9, 300.0)]) == [1]
    # Identical points: the first one stays, once.
    assert pareto_frontier([(0.5, 10.0), (0.9, 5.0), (0.5, 10.0)]) == [0, 1]
    # With a cost, the cheaper of two equal recalls stays.
    assert pareto_frontier([(0.9, 120.0), (0.9, 95.0)], higher_is_better=False) == [1]


def test_order_is_recall_ascending_whatever_the_input_order():
    sweep = [(0.99, 700.0), (0.62, 9000.0), (0.95, 1800.0), (0.80, 5200.0)]
    assert pareto_frontier(sweep) == [1, 3, 2, 0]
    assert pareto_frontier([]) == []


def test_keeps_points_of_zero_recall_or_speed_that_create_pointset_skips():
    assert pareto_frontier([(0.0, 9000.0), (0.5, 100.0)]) == [0, 1]


def test_nan_raises():
    with pytest.raises(ValueError, match="NaN"):
        pareto_frontier([(0.5, math.nan)])


def test_best_at_recall_against_brute_force():
    rng = random.Random(2403)
    for _ in range(300):
        points = _random_points(rng)
        target = rng.randint(0, 13) / 12
        for higher in (True, False):
            reaching = [p for p in points if p[0] >= target]
            index = best_at_recall(points, target, higher_is_better=higher)
            if not reaching:
                assert index is None
                continue
            best = max(p[1] for p in reaching) if higher else min(p[1] for p in reaching)
            assert index is not None and points[index][1] == best
            assert points[index][0] >= target
            assert points[index][0] == max(p[0] for p in reaching if p[1] == best)


def test_best_at_recall_reaches_the_target_inclusively():
    sweep = [(0.89999, 5000.0), (0.9, 2000.0), (0.97, 900.0)]
    assert best_at_recall(sweep, 0.9) == 1
    assert best_at_recall(sweep, 0.9, higher_is_better=False) == 2
    assert best_at_recall(sweep, 0.98) is None
