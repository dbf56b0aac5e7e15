"""Means over queries of the teaching functions: MRR, HitRate@k, MAP, mean P@k, R@k, nDCG@k.

Each averages the per-query teaching function (which calls the measure module that
:func:`evaluate` uses) over paired lists of rankings and judgments.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TypeVar

from ._teaching import (
    Ranking,
    average_precision,
    hit_at_k,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
)

_J = TypeVar("_J")
_K = TypeVar("_K")


def mean_reciprocal_rank(
    rankings: Sequence[Ranking], relevant_sets: Sequence[Collection[str]], k: int | None = None
) -> float:
    """MRR: the mean of :func:`reciprocal_rank` over queries.

    Formula: ``MRR = (1/|Q|) * sum_q 1 / rank_q`` where ``rank_q`` is the first relevant rank.

    Args:
        rankings: one ranking per query.
        relevant_sets: the relevant ids of each query, in the same order.
        k: optional cutoff applied to every query (``RR@k``).

    Returns:
        float in [0, 1].

    Reference:
        Voorhees, The TREC-8 Question Answering Track Report, TREC 1999.

    Example:
        >>> mean_reciprocal_rank([["a", "b"], ["c", "d", "e"]], [{"a"}, {"e"}])
        0.6666666666666666

        Query 1 finds ``a`` at rank 1 (RR 1), query 2 finds ``e`` at rank 3 (RR 1/3):
        (1 + 1/3) / 2 = 0.6667.
    """
    return _mean(reciprocal_rank, rankings, relevant_sets, k)


def hit_rate_at_k(
    rankings: Sequence[Ranking], relevant_sets: Sequence[Collection[str]], k: int
) -> float:
    """HitRate@k: the share of queries with a relevant document in the top ``k``.

    Formula: ``HitRate@k = (1/|Q|) * sum_q hit@k(q)``.

    Args:
        rankings: one ranking per query.
        relevant_sets: the relevant ids of each query, in the same order.
        k: cutoff, an integer >= 1.

    Returns:
        float in [0, 1].

    Reference:
        Craswell & Hawking, Overview of the TREC-2004 Web Track, TREC 2004.

    Example:
        >>> hit_rate_at_k([["a", "b"], ["c", "d", "e"]], [{"a"}, {"e"}], k=2)
        0.5

        Query 1 hits at rank 1, query 2's only relevant doc is at rank 3: (1 + 0) / 2.
    """
    return _mean(hit_at_k, rankings, relevant_sets, k)


def mean_precision_at_k(
    rankings: Sequence[Ranking], relevant_sets: Sequence[Collection[str]], k: int
) -> float:
    """Mean of :func:`precision_at_k` over queries: ``(1/|Q|) * sum_q P@k(q)``.

    Args:
        rankings: one ranking per query.
        relevant_sets: the relevant ids of each query, in the same order.
        k: cutoff, an integer >= 1.

    Returns:
        float in [0, 1].

    Reference:
        Manning, Raghavan & Schutze, Introduction to Information Retrieval, ch. 8, 2008.

    Example:
        >>> mean_precision_at_k([["a", "b"], ["c", "d"]], [{"a", "b"}, {"x"}], k=2)
        0.5

        Query 1: 2/2 = 1; query 2: 0/2 = 0; mean (1 + 0) / 2.
    """
    return _mean(precision_at_k, rankings, relevant_sets, k)


def mean_recall_at_k(
    rankings: Sequence[Ranking], relevant_sets: Sequence[Collection[str]], k: int
) -> float:
    """Mean of :func:`recall_at_k` over queries: ``(1/|Q|) * sum_q R@k(q)``.

    Args:
        rankings: one ranking per query.
        relevant_sets: the relevant ids of each query, in the same order.
        k: cutoff, an integer >= 1.

    Returns:
        float in [0, 1].

    Reference:
        Manning, Raghavan & Schutze, Introduction to Information Retrieval, ch. 8, 2008.

    Example:
        >>> mean_recall_at_k([["a", "b"], ["c", "d"]], [{"a", "z"}, {"d"}], k=2)
        0.75

        Query 1: 1 of 2 relevant = 0.5; query 2: 1 of 1 = 1; mean (0.5 + 1) / 2.
    """
    return _mean(recall_at_k, rankings, relevant_sets, k)


def mean_average_precision(
    rankings: Sequence[Ranking], relevant_sets: Sequence[Collection[str]]
) -> float:
    """MAP: the mean of :func:`average_precision` over queries.

    Formula: ``MAP = (1/|Q|) * sum_q AP(q)``.

    Args:
        rankings: one ranking per query.
        relevant_sets: the relevant ids of each query, in the same order.

    Returns:
        float in [0, 1].

    Reference:
        Harman, Overview of the Second Text REtrieval Conference (TREC-2), 1993.

    Example:
        >>> mean_average_precision([["a", "b"], ["c", "d"]], [{"b"}, {"c", "d"}])
        0.75

        Query 1: relevant b at rank 2, AP = (1/2) / 1 = 0.5; query 2: AP = (1 + 1) / 2 = 1;
        mean (0.5 + 1) / 2.
    """
    return _mean(_ap_ignoring_k, rankings, relevant_sets, None)


def _ap_ignoring_k(ranking: Ranking, relevant: Collection[str], _k: None) -> float:
    """average_precision in the shape ``_mean`` calls."""
    return average_precision(ranking, relevant)


def mean_ndcg_at_k(
    rankings: Sequence[Ranking], gains: Sequence[Mapping[str, int]], k: int | None = None
) -> float:
    """Mean of :func:`ndcg_at_k` over queries: ``(1/|Q|) * sum_q nDCG@k(q)``.

    Args:
        rankings: one ranking per query.
        gains: the graded labels of each query, in the same order.
        k: cutoff, an integer >= 1, or ``None`` for the whole ranking.

    Returns:
        float in [0, 1].

    Reference:
        Jarvelin & Kekalainen, Cumulated gain-based evaluation of IR techniques,
        ACM TOIS 20(4), 2002.

    Example:
        >>> mean_ndcg_at_k([["a", "b"], ["c"]], [{"a": 1}, {"z": 3}], k=2)
        0.5

        Query 1 puts its only gain first (nDCG 1); query 2 retrieves no gain (0).
    """
    return _mean(ndcg_at_k, rankings, gains, k)


def _mean(
    function: Callable[[Ranking, _J, _K], float],
    rankings: Sequence[Ranking],
    judgments: Sequence[_J],
    k: _K,
) -> float:
    """Average a per-query teaching function; the two lists must pair up one to one."""
    if len(rankings) != len(judgments):
        raise ValueError(
            f"got {len(rankings)} rankings but {len(judgments)} judgment sets; "
            "give one per query, in the same order"
        )
    if not rankings:
        raise ValueError("no queries: give at least one ranking")
    total = 0.0
    for ranking, judged in zip(rankings, judgments, strict=True):
        total += function(ranking, judged, k)
    return total / len(rankings)
