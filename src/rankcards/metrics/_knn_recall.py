"""Recall of approximate nearest neighbours against exact ones, as the ANN benchmarks count it.

An ANN index is scored against exact (brute-force) search, not against relevance judgments:
the ``k`` exact neighbours of a query are its ground truth. Benchmarks differ in what counts as
finding one when several points lie at the same distance (duplicate vectors, integer vectors
such as SIFT's): three conventions, each the code of a tool.

- ``"ann-benchmarks"`` (erikbern/ann-benchmarks, ``ann_benchmarks/plotting/metrics.py``,
  ``knn_threshold`` and ``get_recall_values``): a returned point counts if its distance to the
  query is at most the k-th exact distance plus ``epsilon`` (1e-3, absolute, in the data set's
  distance). Ids are not compared at all: any point as near as the k-th neighbour counts, so
  ties count, and so do points up to ``epsilon`` farther.
- ``"big-ann-benchmarks"`` (harsha-simhadri/big-ann-benchmarks, ``benchmark/plotting/metrics.py``,
  ``compute_recall_with_distance_ties``): ids are compared, with the ground truth extended past
  position ``k`` over the following exact neighbours whose distance differs from the k-th by
  less than ``tie_tolerance`` (1e-6), as far as the stored ground truth goes (it holds more than
  ``k`` neighbours per query, e.g. 100); a tie beyond what is stored does not count.
- ``"ids"``: the plain intersection of the k exact ids and the k returned ids, ties ignored:
  big-ann-benchmarks with ``count_ties=False``, and FAISS's ``IntersectionCriterion``
  (``faiss/AutoTune.cpp``) with ``R = k``.

Each query's value is the count divided by ``k``; a system's value is the mean over queries
(both tools: ``np.mean(recalls) / count``).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from operator import itemgetter, le

#: One neighbour: (point id, distance to the query), nearer first in every list.
Neighbour = tuple[Hashable, float]

CONVENTIONS = ("ann-benchmarks", "big-ann-benchmarks", "ids")
#: ann-benchmarks' default slack on the k-th exact distance (``knn(..., epsilon=1e-3)``)
ANN_BENCHMARKS_EPSILON = 1e-3
#: big-ann-benchmarks' tie test: ``abs(d_k - d_i) < 1e-6``
BIG_ANN_TIE_TOLERANCE = 1e-6


def knn_recall(
    exact: Sequence[Neighbour],
    found: Sequence[Neighbour],
    k: int,
    convention: str = "ann-benchmarks",
    *,
    epsilon: float = ANN_BENCHMARKS_EPSILON,
    tie_tolerance: float = BIG_ANN_TIE_TOLERANCE,
) -> float:
    """Recall@k of one query's approximate neighbours ``found`` against the ``exact`` ones.

    Formula, with ``d_k`` the k-th exact distance and ``F`` the first ``k`` of ``found``:

    - ann-benchmarks: ``|{(i, d) in F : d <= d_k + epsilon}| / k``;
    - big-ann-benchmarks: ``|ids(F) ∩ ids(exact[:e])| / k`` where ``e >= k`` extends over the
      exact neighbours after the k-th with ``|d_k - d| < tie_tolerance``;
    - ids: ``|ids(F) ∩ ids(exact[:k])| / k``.

    The distances in ``found`` must be the true distances of those points to the query
    (ann-benchmarks recomputes them itself rather than trusting the index's).

    Args:
        exact: the exact neighbours, nearest first, as ``(id, distance)``; at least ``k`` of
            them, more if stored (big-ann-benchmarks extends ties into them).
        found: what the index returned, nearest first, as ``(id, distance)``; only the first
            ``k`` are read, and fewer count as missing (ann-benchmarks pads with infinity).
        k: the number of neighbours asked for, an integer >= 1.
        convention: ``"ann-benchmarks"``, ``"big-ann-benchmarks"`` or ``"ids"``.
        epsilon: ann-benchmarks' absolute slack added to ``d_k`` (its default, 1e-3).
        tie_tolerance: big-ann-benchmarks' tie test on distances (its 1e-6, strict ``<``).

    Returns:
        float in [0, 1].

    Raises:
        ValueError: an unknown convention, ``k`` < 1, fewer than ``k`` exact neighbours, exact
            distances not in increasing order, a NaN distance, or an id twice in ``found``
            (ann-benchmarks stops on duplicated candidates).

    References:
        Aumüller, Bernhardsson & Faithfull, ANN-Benchmarks, Information Systems 87, 2020
        (``ann_benchmarks/plotting/metrics.py``); Simhadri et al., Results of the NeurIPS'21
        Challenge on Billion-Scale ANN Search, PMLR 176, 2022 (``benchmark/plotting/metrics.py``).

    Example:
        >>> exact = [("a", 1.0), ("b", 2.0), ("c", 2.0), ("d", 3.0)]
        >>> found = [("a", 1.0), ("c", 2.0)]  # "c" ties with the 2nd exact neighbour "b"
        >>> knn_recall(exact, found, 2, "ann-benchmarks")  # both within d_2 + 0.001
        1.0
        >>> knn_recall(exact, found, 2, "big-ann-benchmarks")  # "c" is in the extended truth
        1.0
        >>> knn_recall(exact, found, 2, "ids")  # "c" is not among the 2 exact ids
        0.5
    """
    if convention not in CONVENTIONS:
        raise ValueError(
            f"knn_recall: convention must be one of {', '.join(CONVENTIONS)}, got {convention!r}"
        )
    _check(exact, found, k)
    top = found[:k]
    if convention == "ann-benchmarks":
        threshold = exact[k - 1][1] + epsilon
        return sum(1 for _, distance in top if distance <= threshold) / k
    end = k
    if convention == "big-ann-benchmarks":
        anchor = exact[k - 1][1]
        while end < len(exact) and abs(anchor - exact[end][1]) < tie_tolerance:
            end += 1
    truth = {point for point, _ in exact[:end]}
    return sum(1 for point, _ in top if point in truth) / k


def mean_knn_recall(
    exact_lists: Sequence[Sequence[Neighbour]],
    found_lists: Sequence[Sequence[Neighbour]],
    k: int,
    convention: str = "ann-benchmarks",
    *,
    epsilon: float = ANN_BENCHMARKS_EPSILON,
    tie_tolerance: float = BIG_ANN_TIE_TOLERANCE,
) -> float:
    """The mean of :func:`knn_recall` over queries: ``(1/|Q|) * sum_q recall@k(q)``.

    Args:
        exact_lists: each query's exact neighbours, as in :func:`knn_recall`.
        found_lists: each query's returned neighbours, in the same order.
        k, convention, epsilon, tie_tolerance: as in :func:`knn_recall`.

    Returns:
        float in [0, 1].

    Raises:
        ValueError: no queries, lists of different lengths, or any problem of
            :func:`knn_recall`.

    Example:
        >>> exact = [[(1, 0.5), (2, 0.7)], [(3, 0.2), (4, 0.9)]]
        >>> found = [[(1, 0.5), (9, 0.7)], [(3, 0.2), (5, 1.4)]]
        >>> mean_knn_recall(exact, found, 2, "ann-benchmarks")  # (2/2 + 1/2) / 2
        0.75
        >>> mean_knn_recall(exact, found, 2, "ids")  # (1/2 + 1/2) / 2
        0.5
    """
    if len(exact_lists) != len(found_lists):
        raise ValueError(
            f"mean_knn_recall: {len(exact_lists)} exact lists but {len(found_lists)} found lists"
        )
    if not exact_lists:
        raise ValueError("mean_knn_recall: no queries")
    total = math.fsum(
        knn_recall(exact, found, k, convention, epsilon=epsilon, tie_tolerance=tie_tolerance)
        for exact, found in zip(exact_lists, found_lists, strict=True)
    )
    return total / len(exact_lists)


def _check(exact: Sequence[Neighbour], found: Sequence[Neighbour], k: int) -> None:
    # map() over C functions: a recall sweep checks thousands of lists on every run.
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"knn_recall: k must be an integer >= 1, got {k!r}")
    if len(exact) < k:
        raise ValueError(f"knn_recall: {len(exact)} exact neighbours for k = {k}")
    distances = list(map(itemgetter(1), exact))
    if any(map(math.isnan, distances)) or any(map(math.isnan, map(itemgetter(1), found))):
        raise ValueError("knn_recall: a distance is NaN")
    if not all(map(le, distances, distances[1:])):
        raise ValueError("knn_recall: the exact neighbours must be nearest first")
    ids = list(map(itemgetter(0), found))
    if len(set(ids)) != len(ids):
        raise ValueError("knn_recall: an id appears twice in the found neighbours")
