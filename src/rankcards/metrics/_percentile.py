"""Percentiles of measured values (latencies), as ``numpy.percentile`` computes them by default.

ann-benchmarks reports a run's p50, p95, p99 and p99.9 latency with ``np.percentile(times, q)``
(``ann_benchmarks/plotting/metrics.py``), NumPy's default ``method="linear"``: Hyndman & Fan's
definition 7, linear interpolation between the two order statistics around ``(n - 1) q / 100``.
Other definitions give other values on the same sample (a "nearest rank" p99 of 50 latencies is
the largest one), so a percentile is only comparable with one computed the same way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile of ``values``, linear between order statistics (NumPy's default).

    Formula: sort the values ``x_(0) <= ... <= x_(n-1)``; with ``h = (n - 1) q / 100``,
    ``P_q = x_(floor h) + (h - floor h) (x_(floor h + 1) - x_(floor h))``.

    Args:
        values: the sample (any order), at least one value, none NaN.
        q: the percentile, in [0, 100] (50 is the median, 99 the p99).

    Returns:
        float: between the smallest (``q = 0``) and the largest (``q = 100``) value.

    Raises:
        ValueError: no values, a NaN value, or ``q`` outside [0, 100].

    Reference:
        Hyndman & Fan, Sample Quantiles in Statistical Packages, The American Statistician
        50(4), 1996 (definition 7); equal to ``numpy.percentile(values, q)``.

    Example:
        >>> percentile([4.0, 1.0, 3.0, 2.0], 50)  # h = 1.5: halfway between 2 and 3
        2.5
        >>> percentile([1.0, 2.0, 3.0, 4.0, 100.0], 87.5)  # h = 3.5: halfway from 4 to 100
        52.0
    """
    if not values:
        raise ValueError("percentile: no values")
    if not 0 <= q <= 100:
        raise ValueError(f"percentile: q must be in [0, 100], got {q!r}")
    if any(math.isnan(value) for value in values):
        raise ValueError("percentile: a value is NaN")
    ordered = sorted(values)
    position = (len(ordered) - 1) * (q / 100)
    if position >= len(ordered) - 1:
        return ordered[-1]
    below = math.floor(position)
    fraction = position - below
    low, high = ordered[below], ordered[below + 1]
    # NumPy's _lerp, operation for operation, so that the result equals it to the last bit
    # (interpolating from the nearer end).
    if fraction >= 0.5:
        return high - (high - low) * (1 - fraction)
    return low + (high - low) * fraction
