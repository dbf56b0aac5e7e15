"""The recall-speed Pareto frontier of an index's operating points, and the best point at a recall.

Each setting of an index's search parameters (IVF's ``nprobe``, HNSW's ``ef``) is one operating
point: its recall and its speed (queries per second, higher is better) or cost (distance
computations or latency per query, lower is better). A point is on the frontier when no other
point is at least as good on both and better on one; only the frontier matters when comparing
indexes, and an index is compared with another at a fixed recall (big-ann-benchmarks' NeurIPS'23
tracks rank by the highest QPS with recall@10 of at least 0.9, ``neurips23/leaderboard.md``).

:func:`pareto_frontier` keeps what ann-benchmarks' ``create_pointset``
(``ann_benchmarks/plotting/utils.py``) keeps, except that it also keeps a point whose recall or
speed is 0 (``create_pointset`` skips those, as FAISS's ``OperatingPoints::add`` skips a point of
0 accuracy).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: One operating point: (recall, speed or cost).
Point = tuple[float, float]


def pareto_frontier(points: Sequence[Point], *, higher_is_better: bool = True) -> list[int]:
    """The indices of the operating points that no other point dominates, by recall ascending.

    Point ``q`` dominates ``p`` when ``recall_q >= recall_p`` and ``q``'s second value is at
    least as good (``>=`` when ``higher_is_better``, else ``<=``), one of them strictly. Equal
    points do not dominate each other: of several identical points the frontier keeps the
    first (as ann-benchmarks' stable sort does).

    Args:
        points: ``(recall, y)`` pairs, ``y`` a speed (QPS) or a cost (distances, latency).
        higher_is_better: ``True`` for a speed, ``False`` for a cost.

    Returns:
        list of indices into ``points``, recall ascending; along it ``y`` gets strictly worse
        (a higher recall costs speed), which is how a frontier is drawn.

    Raises:
        ValueError: a value is NaN.

    Reference:
        ann-benchmarks, ``create_pointset`` in ``ann_benchmarks/plotting/utils.py`` (the
        frontier its plots draw per algorithm); Aumüller, Bernhardsson & Faithfull,
        Information Systems 87, 2020.

    Example:
        >>> sweep = [(0.62, 9000.0), (0.80, 5200.0), (0.78, 4000.0), (0.95, 1800.0)]
        >>> pareto_frontier(sweep)  # (0.78, 4000) is beaten by (0.80, 5200)
        [0, 1, 3]
        >>> pareto_frontier([(0.62, 40.0), (0.80, 95.0), (0.80, 120.0)], higher_is_better=False)
        [0, 1]
    """
    if any(math.isnan(value) for point in points for value in point):
        raise ValueError("pareto_frontier: a value is NaN")
    sign = 1.0 if higher_is_better else -1.0
    # Best y first (ties: higher recall first, then input order); a point whose recall beats
    # every point before it is dominated by none of them. Kept points come recall ascending.
    order = sorted(range(len(points)), key=lambda i: (-sign * points[i][1], -points[i][0]))
    frontier: list[int] = []
    best_recall = -math.inf
    for index in order:
        if points[index][0] > best_recall:
            best_recall = points[index][0]
            frontier.append(index)
    return frontier


def best_at_recall(
    points: Sequence[Point], min_recall: float, *, higher_is_better: bool = True
) -> int | None:
    """The index of the fastest (or cheapest) point whose recall is at least ``min_recall``.

    This is how an index is scored at a fixed recall, e.g. "QPS at 90 % recall": among the
    settings that reach the recall, the best speed; ``None`` when no setting reaches it.
    Equal speeds: the higher recall, then the first.

    Args:
        points: ``(recall, y)`` pairs as in :func:`pareto_frontier`.
        min_recall: the recall to reach (``>=``).
        higher_is_better: ``True`` for a speed, ``False`` for a cost.

    Returns:
        int or None.

    Reference:
        big-ann-benchmarks, ``neurips23/leaderboard.md``: "ranked on the QPS they achieve ...
        as long as the recall@10 is at least 90%".

    Example:
        >>> sweep = [(0.62, 9000.0), (0.80, 5200.0), (0.91, 2500.0), (0.95, 1800.0)]
        >>> best_at_recall(sweep, 0.9)
        2
        >>> best_at_recall(sweep, 0.99) is None
        True
    """
    sign = 1.0 if higher_is_better else -1.0
    reaching = [i for i, (recall, _) in enumerate(points) if recall >= min_recall]
    if not reaching:
        return None
    return min(reaching, key=lambda i: (-sign * points[i][1], -points[i][0], i))
