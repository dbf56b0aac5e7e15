"""Agreement between assessors' labels: the confusion table, Cohen's κ, Krippendorff's alpha and
Fleiss' κ, in pure standard-library Python (they run in Pyodide unchanged).

Each is written to give the number of the reference implementation the test suite compares it
with (``tests/metrics/test_agreement_references.py``), including where those tools choose a
convention:

- :func:`confusion_matrix` and :func:`cohen_kappa`: ``sklearn.metrics.confusion_matrix`` and
  ``cohen_kappa_score``: the categories are the labels either assessor used, sorted, and the
  linear and quadratic weights are the distance between their *positions* in that list, not
  between the label values (a grade nobody used is no step).
- :func:`krippendorff_alpha`: the ``krippendorff`` package's ``alpha`` (coders in rows, units
  in columns, missing values allowed, any number of coders).
- :func:`fleiss_kappa`: statsmodels' ``fleiss_kappa(table, method="fleiss")`` on the table
  ``statsmodels.stats.inter_rater.aggregate_raters`` makes of the same ratings.

Where a coefficient is undefined (no disagreement is expected by chance: every label the
same), it is ``nan``, as sklearn and statsmodels return.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from typing import Literal

Weights = Literal["linear", "quadratic"]
Level = Literal["nominal", "ordinal", "interval", "ratio"]
LEVELS: tuple[Level, ...] = ("nominal", "ordinal", "interval", "ratio")
_Distance = Callable[[float, float], float]


def confusion_matrix(
    a: Sequence[int], b: Sequence[int], labels: Sequence[int] | None = None
) -> list[list[int]]:
    """How many items got label ``labels[i]`` from assessor ``a`` and ``labels[j]`` from ``b``.

    Formula: ``M[i][j] = |{ n : a[n] = labels[i] and b[n] = labels[j] }|``; the diagonal
    holds the agreements.

    Args:
        a: one label per item from the first assessor (the table's rows).
        b: the same items' labels from the second assessor (the columns), same length.
        labels: the categories, in the order of the rows and columns; default: every label
            in ``a`` or ``b``, sorted. Every label used must be among them.

    Returns:
        A square list of lists of counts, ``len(labels)`` by ``len(labels)``.

    Raises:
        ValueError: ``a`` and ``b`` have different lengths, or a label not in ``labels``.

    Reference:
        Equal to ``sklearn.metrics.confusion_matrix(a, b, labels=labels)`` (sklearn drops the
        items whose label is not in ``labels``; here that is an error).

    Example:
        >>> confusion_matrix([0, 1, 2, 2], [0, 2, 2, 1])
        [[1, 0, 0], [0, 0, 1], [0, 1, 1]]
    """
    _same_length(a, b, "confusion_matrix")
    categories = _categories(a, b, labels, "confusion_matrix")
    index = {label: position for position, label in enumerate(categories)}
    table = [[0] * len(categories) for _ in categories]
    for x, y in zip(a, b, strict=True):
        table[index[x]][index[y]] += 1
    return table


def cohen_kappa(
    a: Sequence[int],
    b: Sequence[int],
    weights: Weights | None = None,
    labels: Sequence[int] | None = None,
) -> float:
    """Cohen's κ between two assessors' labels of the same items, unweighted or weighted.

    Formula: with ``o`` the confusion table as proportions (:func:`confusion_matrix` over
    ``N``), ``e[i][j] = r_i * c_j`` the table expected by chance from its row and column
    totals, and a disagreement weight ``w[i][j]`` (0 on the diagonal),
    ``κ = 1 - Σ w[i][j] o[i][j] / Σ w[i][j] e[i][j]``. Unweighted, ``w = 1`` off the
    diagonal, so ``κ = (p_o - p_e) / (1 - p_e)`` with ``p_o`` the observed agreement and
    ``p_e`` the agreement expected by chance. ``"linear"`` uses ``w = |i - j|`` and
    ``"quadratic"`` ``w = (i - j)^2``, where ``i`` and ``j`` are the categories' positions
    in ``labels``: a graded disagreement of one step costs less than one of three.

    Args:
        a: one label per item from the first assessor.
        b: the same items' labels from the second assessor, same length.
        weights: ``None`` (unweighted), ``"linear"`` or ``"quadratic"``.
        labels: the ordered categories; default: every label used by either, sorted (as
            sklearn). Give the full scale (e.g. ``[0, 1, 2, 3]``) to weigh by it when a grade
            was never used; every label used must be among them.

    Returns:
        float, at most 1 (1: perfect agreement; 0: what chance gives); ``nan`` when no
        disagreement is expected by chance (both assessors used one and the same label).

    Raises:
        ValueError: different lengths, no items, an unknown ``weights``, or a label not in
            ``labels``.

    References:
        J. Cohen, A coefficient of agreement for nominal scales, Educational and
        Psychological Measurement 20(1), 1960; J. Cohen, Weighted kappa, Psychological
        Bulletin 70(4), 1968. Equal to ``sklearn.metrics.cohen_kappa_score(a, b,
        weights=weights, labels=labels)``.

    Example:
        >>> human = [0, 1, 2, 3, 3, 1]
        >>> judge = [0, 1, 3, 3, 2, 0]
        >>> round(cohen_kappa(human, judge), 4)  # p_o = 3/6, p_e = 9/36: (1/2 - 1/4) / (3/4)
        0.3333
        >>> round(cohen_kappa(human, judge, "quadratic"), 4)  # each miss is one grade off
        0.8235
    """
    if weights not in (None, "linear", "quadratic"):
        raise ValueError(f"weights must be None, 'linear' or 'quadratic', got {weights!r}")
    _same_length(a, b, "cohen_kappa")
    if not a:
        raise ValueError("cohen_kappa: no items to compare")
    table = confusion_matrix(a, b, labels)
    size = len(table)
    rows = [sum(row) for row in table]
    columns = [sum(table[i][j] for i in range(size)) for j in range(size)]
    total = len(a)
    observed: list[float] = []
    expected: list[float] = []
    for i in range(size):
        for j in range(size):
            if i == j:
                continue
            weight = 1 if weights is None else abs(i - j) if weights == "linear" else (i - j) ** 2
            observed.append(weight * table[i][j])
            expected.append(weight * rows[i] * columns[j] / total)
    chance = math.fsum(expected)
    if chance == 0.0:
        return math.nan
    return 1.0 - math.fsum(observed) / chance


def krippendorff_alpha(
    reliability_data: Sequence[Sequence[float | None]], level: Level = "interval"
) -> float:
    """Krippendorff's alpha: agreement among any number of coders, with missing values.

    Formula: ``alpha = 1 - D_o / D_e``. Each unit with ``m_u >= 2`` values adds every ordered
    pair of its values, from different coders, to a coincidence table with weight
    ``1 / (m_u - 1)``: ``o[c][k]``. With ``n_c = Σ_k o[c][k]`` and ``n = Σ_c n_c`` (the
    pairable values), ``alpha = 1 - (n - 1) Σ o[c][k] δ(c, k) / Σ n_c n_k δ(c, k)``, the sums
    over ``c != k``. The distance ``δ`` is the level of measurement: nominal
    ``[c != k]``; ordinal ``(Σ_{g from c to k} n_g - (n_c + n_k) / 2)^2`` over the values in
    order; interval ``(c - k)^2``; ratio ``((c - k) / (c + k))^2``.

    A unit coded by fewer than two coders has no pair: it does not count (so the alpha of the
    units two assessors both labelled equals the alpha of all their units with the rest
    missing).

    Args:
        reliability_data: one row per coder, one column per unit: ``reliability_data[c][u]``
            is coder ``c``'s value for unit ``u``, or ``None`` (or NaN) when missing; rows
            of equal length.
        level: ``"nominal"``, ``"ordinal"``, ``"interval"`` (default, as the package) or
            ``"ratio"``.

    Returns:
        float, at most 1 (1: perfect agreement; 0: what chance gives); ``nan`` when no
        disagreement is expected (every pairable value the same). The ``krippendorff``
        package raises ``ValueError`` when the data hold a single distinct value, and
        returns ``nan`` when the pairable values do; here both are ``nan``.

    Raises:
        ValueError: rows of different lengths, an unknown level, or no unit with values from
            two coders (as the package).

    References:
        K. Krippendorff, Computing Krippendorff's alpha-reliability, 2011
        (https://repository.upenn.edu/asc_papers/43); equal to the ``krippendorff`` package's
        ``alpha(reliability_data, level_of_measurement=level)``.

    Example:
        >>> data = [[1, 2, 3, 3, None], [1, 2, 3, 2, 1], [None, 2, 3, 3, 2]]
        >>> round(krippendorff_alpha(data, "nominal"), 4)
        0.5636
        >>> round(krippendorff_alpha(data, "interval"), 4)
        0.76
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    units = {len(row) for row in reliability_data}
    if len(units) > 1:
        raise ValueError("krippendorff_alpha: every coder's row needs one value per unit")
    coincidences: dict[tuple[float, float], float] = {}
    for unit in zip(*reliability_data, strict=True):
        counts = Counter(v for v in unit if v is not None and v == v)  # v == v: not NaN
        pairable = sum(counts.values())
        if pairable < 2:
            continue
        for c, n_c in counts.items():
            for k, n_k in counts.items():
                pairs = n_c * (n_c - 1) if c == k else n_c * n_k
                if pairs:
                    coincidences[c, k] = coincidences.get((c, k), 0.0) + pairs / (pairable - 1)
    if not coincidences:
        raise ValueError("krippendorff_alpha: no unit has values from two coders")
    totals: dict[float, float] = {}
    for (c, _), count in coincidences.items():
        totals[c] = totals.get(c, 0.0) + count
    values = sorted(totals)
    distance = _distance(level, values, totals)
    pairable_values = math.fsum(totals.values())
    observed = math.fsum(count * distance(c, k) for (c, k), count in coincidences.items())
    expected = math.fsum(
        totals[c] * totals[k] * distance(c, k) for c in values for k in values if c != k
    )
    if expected == 0.0:
        return math.nan
    return 1.0 - (pairable_values - 1) * observed / expected


def fleiss_kappa(ratings: Sequence[Sequence[Hashable]]) -> float:
    """Fleiss' κ: agreement among the same number of raters on every item (nominal labels).

    Formula: with ``m`` raters per item, ``n_ij`` the raters who gave item ``i`` category
    ``j``, ``P_i = (Σ_j n_ij^2 - m) / (m (m - 1))`` the agreeing pairs of raters on item
    ``i``, ``P̄`` their mean over the ``N`` items, and ``p_j = Σ_i n_ij / (N m)`` the share of
    category ``j``: ``κ = (P̄ - P̄_e) / (1 - P̄_e)`` with ``P̄_e = Σ_j p_j^2``. The raters need
    not be the same people on every item; for missing labels use
    :func:`krippendorff_alpha`.

    Args:
        ratings: one row per item: the labels its raters gave (any hashable values), every
            row of the same length, at least 2.

    Returns:
        float, at most 1; ``nan`` when every label given is the same (``P̄_e = 1``).

    Raises:
        ValueError: no items, fewer than two ratings per item, or rows of different lengths.

    References:
        J. L. Fleiss, Measuring nominal scale agreement among many raters, Psychological
        Bulletin 76(5), 1971. Equal to statsmodels' ``fleiss_kappa(aggregate_raters(ratings)[0],
        method="fleiss")``.

    Example:
        >>> ratings = [[1, 1, 1], [1, 1, 0], [0, 0, 0], [2, 1, 0]]  # 4 items, 3 raters each
        >>> round(fleiss_kappa(ratings), 4)
        0.2683
    """
    if not ratings:
        raise ValueError("fleiss_kappa: no items")
    raters = len(ratings[0])
    if raters < 2:
        raise ValueError("fleiss_kappa: every item needs ratings from at least two raters")
    if any(len(row) != raters for row in ratings):
        raise ValueError(
            f"fleiss_kappa: every item needs the same number of ratings ({raters}, as the first)"
        )
    shares: Counter[Hashable] = Counter()
    agreement: list[float] = []
    for row in ratings:
        counts = Counter(row)
        shares.update(counts)
        agreement.append((sum(n * n for n in counts.values()) - raters) / (raters * (raters - 1)))
    given = len(ratings) * raters
    chance = math.fsum((n / given) ** 2 for n in shares.values())
    if chance == 1.0:
        return math.nan
    return (math.fsum(agreement) / len(ratings) - chance) / (1.0 - chance)


def _same_length(a: Sequence[object], b: Sequence[object], name: str) -> None:
    if len(a) != len(b):
        raise ValueError(f"{name}: {len(a)} and {len(b)} labels; one label per item from each")


def _categories(
    a: Sequence[int], b: Sequence[int], labels: Sequence[int] | None, name: str
) -> list[int]:
    """The given categories (checked to hold every label used), or the labels used, sorted."""
    used = set(a) | set(b)
    if labels is None:
        return sorted(used)
    categories = list(labels)
    missing = sorted(used - set(categories))
    if missing:
        raise ValueError(f"{name}: label {missing[0]!r} is not among labels {categories}")
    return categories


def _distance(level: Level, values: list[float], totals: dict[float, float]) -> _Distance:
    """The level's distance between two values; ordinal needs the values' totals in order."""
    if level == "nominal":
        return lambda c, k: 0.0 if c == k else 1.0
    if level == "interval":
        return lambda c, k: float((c - k) ** 2)
    if level == "ratio":
        return lambda c, k: 0.0 if c + k == 0 else float(((c - k) / (c + k)) ** 2)
    position = {value: index for index, value in enumerate(values)}
    cumulative = [0.0]
    for value in values:
        cumulative.append(cumulative[-1] + totals[value])

    def ordinal(c: float, k: float) -> float:
        low, high = sorted((position[c], position[k]))
        between = cumulative[high + 1] - cumulative[low]
        return (between - (totals[c] + totals[k]) / 2) ** 2

    return ordinal
