"""Kendall's τ-b and τ_AP for the rank-correlation card, until ``rankcards.metrics`` has them.

The ``agree`` work adds ``kendall_tau`` and ``tau_ap`` to :mod:`rankcards.metrics` with these
very signatures and semantics; once it is merged, the card imports them from there and this
module goes. Both take one score per item (e.g. each system's MAP), higher first.

- :func:`kendall_tau`: τ-b = (C - D) / sqrt((P - T_x)(P - T_y)) over the P = n(n-1)/2 pairs, C
  concordant, D discordant, T_x / T_y pairs tied in x / y (equal to
  ``scipy.stats.kendalltau(x, y).statistic``, ``variant="b"``);
- :func:`tau_ap`: Yilmaz, Aslam & Robertson's AP correlation of ``other`` against
  ``reference``: for each item of ``other`` below its first tie group, the share ``C(i) / A(i)``
  of the ``A(i)`` items ``other`` scores strictly higher that ``reference`` also scores strictly
  higher; τ_AP = 2 · mean - 1 (without ties, the paper's (2 / (n - 1)) Σ_{i≥2} C(i)/(i - 1) - 1).

Both return ``nan`` when undefined (fewer than two items, an ordering that ties everything).

>>> kendall_tau([4, 3, 2, 1], [3, 4, 2, 1])
0.6666666666666666
>>> round(tau_ap([4, 3, 2, 1], [3, 4, 2, 1]), 6), round(tau_ap([4, 3, 2, 1], [4, 3, 1, 2]), 6)
(0.333333, 0.777778)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["kendall_tau", "tau_ap"]


def _checked(x: Sequence[float], y: Sequence[float], name: str) -> int:
    if len(x) != len(y):
        raise ValueError(f"{name}: the orderings have {len(x)} and {len(y)} items, not the same")
    if any(value != value for value in (*x, *y)):
        raise ValueError(f"{name}: a score is NaN; every item needs a score")
    return len(x)


def kendall_tau(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's τ-b between the orderings ``x`` and ``y`` give the same items (see above)."""
    n = _checked(x, y, "kendall_tau")
    concordant = discordant = tied_x = tied_y = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = x[i] - x[j], y[i] - y[j]
            tied_x += dx == 0
            tied_y += dy == 0
            concordant += dx * dy > 0
            discordant += dx * dy < 0
    pairs = n * (n - 1) // 2
    if pairs == 0 or tied_x == pairs or tied_y == pairs:
        return math.nan
    return (concordant - discordant) / math.sqrt((pairs - tied_x) * (pairs - tied_y))


def tau_ap(reference: Sequence[float], other: Sequence[float]) -> float:
    """τ_AP of the ordering ``other`` against the ordering ``reference`` (see above)."""
    n = _checked(reference, other, "tau_ap")
    shares = []
    for i in range(n):
        above = [j for j in range(n) if other[j] > other[i]]
        if above:
            shares.append(sum(reference[j] > reference[i] for j in above) / len(above))
    if not shares:
        return math.nan
    return 2.0 * sum(shares) / len(shares) - 1.0
