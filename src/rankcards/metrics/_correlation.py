"""Rank correlation between two orderings of the same items: Kendall's τ-b and τ_AP.

Both take two sequences of scores, one per item, where a higher score ranks first; item ``i``
is ``x[i]`` in one ordering and ``y[i]`` in the other. Typically the items are systems and
the scores their mean effectiveness under two sets of judgments (``rankcards agree``), or
under two measures.

- :func:`kendall_tau`: Kendall's τ-b, symmetric, ties corrected as ``scipy.stats.kendalltau``.
- :func:`tau_ap`: Yilmaz, Aslam & Robertson's AP correlation, which weighs a disagreement near
  the top of the ordering more; asymmetric: the first argument is the reference.

Both return ``nan`` when the coefficient is undefined (fewer than two items, or an ordering
that ties everything), as scipy does, and raise ``ValueError`` for sequences of different
lengths or a NaN score.
"""

from __future__ import annotations

import math
from bisect import bisect_right, insort
from collections.abc import Sequence
from itertools import groupby


def kendall_tau(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's τ-b between the orderings that ``x`` and ``y`` give to the same items.

    Formula: ``τ_b = (C - D) / sqrt((P - T_x) (P - T_y))`` where, over the ``P = n(n-1)/2``
    pairs of items, ``C`` are the pairs both orderings put in the same order (concordant),
    ``D`` those they put in opposite orders (discordant), ``T_x`` the pairs tied in ``x`` and
    ``T_y`` those tied in ``y``. A pair tied in either is neither concordant nor discordant.
    Without ties it is ``(C - D) / P``, Kendall's original τ.

    Counted in ``O(n log n)`` comparisons (discordant pairs are the inversions of ``y`` once
    the items are sorted by ``x``).

    Args:
        x: one score per item (any real numbers; only their order matters).
        y: the same items' scores in the other ordering, same length.

    Returns:
        float in [-1, 1]: 1 when the orderings agree on every pair neither ties, -1 when they
        disagree on every one; ``nan`` with fewer than 2 items or when ``x`` or ``y`` ties
        every item (the denominator is 0), as ``scipy.stats.kendalltau``.

    Raises:
        ValueError: ``x`` and ``y`` have different lengths, or a score is NaN.

    Reference:
        M. G. Kendall, The treatment of ties in ranking problems, Biometrika 33(3), 1945;
        equal to ``scipy.stats.kendalltau(x, y).statistic`` (``variant="b"``).

    Example:
        >>> kendall_tau([4, 3, 2, 1], [4, 3, 2, 1])
        1.0
        >>> kendall_tau([4, 3, 2, 1], [3, 4, 2, 1])  # one discordant pair of 6: (5 - 1) / 6
        0.6666666666666666
        >>> round(kendall_tau([4, 3, 2, 1], [3, 3, 2, 1]), 6)  # 5 / sqrt(6 * 5)
        0.912871
    """
    n = _paired_length(x, y, "kendall_tau")
    if n < 2:
        return math.nan
    pairs = sorted(zip(x, y, strict=True))
    total = n * (n - 1) // 2
    tied_x = _tied_pairs(sorted(x))
    tied_y = _tied_pairs(sorted(y))
    tied_both = _tied_pairs(pairs)
    discordant = 0
    seen: list[float] = []  # the y scores of the items before, in x order, kept sorted
    for _, score in pairs:
        discordant += len(seen) - bisect_right(seen, score)  # earlier x, greater y
        insort(seen, score)
    concordant = total - tied_x - tied_y + tied_both - discordant
    if tied_x == total or tied_y == total:
        return math.nan
    return (concordant - discordant) / math.sqrt((total - tied_x) * (total - tied_y))


def tau_ap(reference: Sequence[float], other: Sequence[float]) -> float:
    """AP correlation τ_AP of the ordering ``other`` against the ordering ``reference``.

    Walk down ``other``'s ordering: for the item at each rank ``i >= 2``, ``C(i)`` is how
    many of the ``i - 1`` items above it ``reference`` also puts above it. Then

    ``τ_AP = (2 / (n - 1)) * sum_{i=2..n} C(i) / (i - 1) - 1``,

    twice the mean precision of "above" minus 1. Unlike Kendall's τ, a swap near the top of
    ``other`` costs more than one near the bottom, and the coefficient is asymmetric:
    ``tau_ap(a, b)`` and ``tau_ap(b, a)`` differ in general.

    Ties (the paper assumes none): for an item ``i`` of ``other``, ``A(i)`` is the number of
    items ``other`` scores strictly higher, and ``C(i)`` how many of those ``reference`` also
    scores strictly higher than ``i``. Items with ``A(i) = 0`` (the first tie group of
    ``other``) are left out, like the item at rank 1 without ties, and with ``T`` the others,
    ``τ_AP = (2 / |T|) * sum_{i in T} C(i) / A(i) - 1``. So a pair that ``other`` ties is
    not compared, and a pair that ``other`` orders but ``reference`` ties counts as not
    concordant. Without ties this is exactly the formula above; identical orderings give 1
    and reversed ones -1, with or without ties. It is the one-sided term of Urbano &
    Marrero's τ_AP,b: their symmetric coefficient is ``(tau_ap(a, b) + tau_ap(b, a)) / 2``
    (``tauAP_b_ties(x=reference, y=other)`` in their R package ``ircor``, ``R/tauAP.R``).

    Args:
        reference: one score per item in the reference ordering (e.g. systems' means under
            human judgments); higher ranks first.
        other: the same items' scores in the ordering judged against it (e.g. under LLM
            judgments), same length.

    Returns:
        float in [-1, 1]; ``nan`` with fewer than 2 items or when ``other`` ties every item.

    Raises:
        ValueError: the sequences have different lengths, or a score is NaN.

    References:
        E. Yilmaz, J. A. Aslam and S. Robertson, A new rank correlation coefficient for
        information retrieval, SIGIR 2008 (the definition). J. Urbano and M. Marrero, The
        treatment of ties in AP correlation, ICTIR 2017 (τ_AP,b, the tie treatment).

    Example:
        >>> truth = [4, 3, 2, 1]  # item 0 first, item 3 last
        >>> tau_ap(truth, [3, 4, 2, 1])  # the top two swapped: (2/3) * (0 + 1 + 1) - 1
        0.33333333333333326
        >>> round(tau_ap(truth, [4, 3, 1, 2]), 6)  # the bottom two: (2/3) * (1 + 1 + 2/3) - 1
        0.777778
        >>> tau_ap(truth, [1, 2, 3, 4])
        -1.0
    """
    n = _paired_length(reference, other, "tau_ap")
    if n < 2:
        return math.nan
    order = sorted(range(n), key=other.__getitem__, reverse=True)
    above: list[int] = []  # items that ``other`` scores strictly higher than the current group
    precisions = 0.0
    compared = 0
    for _, group in groupby(order, key=other.__getitem__):
        tied = list(group)
        if above:
            for item in tied:
                concordant = sum(1 for j in above if reference[j] > reference[item])
                precisions += concordant / len(above)
            compared += len(tied)
        above.extend(tied)
    if not compared:
        return math.nan
    return 2.0 * precisions / compared - 1.0


def _paired_length(x: Sequence[float], y: Sequence[float], name: str) -> int:
    """The common length of ``x`` and ``y``; refuses different lengths and NaN scores."""
    if len(x) != len(y):
        raise ValueError(f"{name}: the orderings have {len(x)} and {len(y)} items, not the same")
    for values in (x, y):
        for value in values:
            if value != value:  # NaN orders with nothing
                raise ValueError(f"{name}: a score is NaN; every item needs a score")
    return len(x)


def _tied_pairs(ordered: Sequence[object]) -> int:
    """Pairs of equal values in a sorted sequence: the sum of t(t-1)/2 over runs of t."""
    pairs = 0
    for _, run in groupby(ordered):
        size = sum(1 for _ in run)
        pairs += size * (size - 1) // 2
    return pairs
