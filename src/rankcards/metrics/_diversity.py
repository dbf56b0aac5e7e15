"""Teaching functions for the diversity measures over one ranked list (see ``_subtopics``).

Each takes a ranking (document ids, best first) and ``covers``: for each judged document, the
subtopics it is relevant to (an empty collection: judged, relevant to none). They call the
very ``compute`` functions :func:`evaluate` uses with a diversity qrels, so both give the same
numbers (the tests check it). Subtopics are numbered by first appearance, documents in the
mapping's order and each document's subtopics sorted, so that a set gives the same floats on
every run.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from . import _alpha_ndcg, _err_ia, _nerr_ia, _p_ia, _strecall
from ._query import Args, Query
from ._subtopics import QuerySubtopics
from ._teaching import checked_ranking

Covers = Mapping[str, Collection[str]]


def alpha_ndcg_at_k(ranking: Sequence[str], covers: Covers, k: int, alpha: float = 0.5) -> float:
    """alpha-nDCG@k (Clarke et al. 2008) as ndeval computes it: novelty gains over the greedy ideal.

    Formula: the document at rank r gains sum over its subtopics s of (1 - alpha)^c(s), c(s)
    the documents above it covering s; alpha-DCG@k = sum of gain_r / log2(r + 1) for r <= k,
    and alpha-nDCG@k = alpha-DCG@k / alpha-DCG@k of ndeval's greedy ideal ranking
    (:func:`diverse_ideal_ranking`).

    Args:
        ranking: document ids, best first; no repeats.
        covers: ``{docno: subtopics it is relevant to}``; other documents are unjudged.
        k: cutoff, an integer >= 1.
        alpha: redundancy intolerance in [0, 1]; 0 ignores redundancy, 1 counts each
            subtopic once. Default 0.5 (ndeval).

    Returns:
        float, 0 when no document covers a subtopic; in [0, 1] but for rare rankings that
        beat the greedy ideal.

    Reference:
        Clarke, Kolla, Cormack, Vechtomova, Ashkan, Büttcher & MacKinnon, Novelty and
        diversity in information retrieval evaluation, SIGIR 2008; ndeval 4.5 (``ndeval.c``).

    Example:
        >>> covers = {"d1": {"jaguar car"}, "d2": {"jaguar car"}, "d3": {"jaguar cat"}}
        >>> round(alpha_ndcg_at_k(["d1", "d2", "d3"], covers, k=3), 4)  # d2 repeats d1
        0.9652
        >>> alpha_ndcg_at_k(["d3", "d2", "d1"], covers, k=3)  # the greedy ideal itself
        1.0
    """
    return _alpha_ndcg.compute(*_query(ranking, covers, k, alpha))


def err_ia_at_k(ranking: Sequence[str], covers: Covers, k: int) -> float:
    """ERR-IA@k as ndeval computes it: intent-aware ERR over the "ideal ideal" normaliser.

    Formula: the document at rank r adds sum over its subtopics of 0.5^c(s) / r; the sum to k
    is divided by sum_{r <= k} N·0.5^(r-1) / r, N the subtopics some document covers (at
    k = 1 ndeval leaves it undivided: the first document's gain, up to N).

    Args:
        ranking: document ids, best first; no repeats.
        covers: ``{docno: subtopics it is relevant to}``.
        k: cutoff, an integer >= 1.

    Returns:
        float; 0 when no document covers a subtopic.

    Reference:
        Chapelle, Ji, Liao, Velipasaoglu, Lai & Wu, Intent-based diversification of web
        search results, Information Retrieval 14(6), 2011; ndeval 4.5.

    Example:
        >>> covers = {"d1": {"a"}, "d2": {"b"}}
        >>> err_ia_at_k(["d1", "d2"], covers, k=2)  # (1/1 + 1/2) / (2/1 + 2·0.5/2)
        0.6
    """
    return _err_ia.compute(*_query(ranking, covers, k, 0.5))


def nerr_ia_at_k(ranking: Sequence[str], covers: Covers, k: int) -> float:
    """nERR-IA@k as ndeval computes it: ERR-IA@k over that of the greedy ideal ranking.

    Formula: ``nERR-IA@k = ERR-IA@k(ranking) / ERR-IA@k(ideal)``, stop probability 0.5.

    Args:
        ranking: document ids, best first; no repeats.
        covers: ``{docno: subtopics it is relevant to}``.
        k: cutoff, an integer >= 1.

    Returns:
        float; 0 when the ranking covers nothing in its top k.

    Reference:
        Chapelle et al., Information Retrieval 14(6), 2011; ndeval 4.5.

    Example:
        >>> covers = {"d1": {"a"}, "d2": {"b"}, "d3": {"a", "b"}}
        >>> round(nerr_ia_at_k(["d1", "d2"], covers, k=2), 4)  # (1 + 1/2) / (2 + 0.5/2)
        0.6667
    """
    return _nerr_ia.compute(*_query(ranking, covers, k, 0.5))


def precision_ia_at_k(ranking: Sequence[str], covers: Covers, k: int) -> float:
    """P-IA@k as ndeval computes it: the mean over subtopics of their precision at k.

    Formula: ``P-IA@k = (relevant (document, subtopic) pairs in the top k) / (k · N)``.

    Args:
        ranking: document ids, best first; no repeats.
        covers: ``{docno: subtopics it is relevant to}``.
        k: cutoff, an integer >= 1.

    Returns:
        float in [0, 1].

    Reference:
        Agrawal, Gollapudi, Halverson & Ieong, Diversifying search results, WSDM 2009;
        ndeval 4.5 (intents weighted equally).

    Example:
        >>> precision_ia_at_k(["d1", "d2"], {"d1": {"a", "b"}, "d2": set()}, k=2)  # 2 / (2·2)
        0.5
    """
    return _p_ia.compute(*_query(ranking, covers, k, 0.5))


def subtopic_recall_at_k(ranking: Sequence[str], covers: Covers, k: int) -> float:
    """Subtopic recall@k (ndeval's strec): the share of subtopics the top k cover.

    Formula: ``S-recall@k = |subtopics covered by the top k| / N``, N the subtopics some
    judged document covers (Zhai et al. count every subtopic of the query).

    Args:
        ranking: document ids, best first; no repeats.
        covers: ``{docno: subtopics it is relevant to}``.
        k: cutoff, an integer >= 1.

    Returns:
        float in [0, 1].

    Reference:
        Zhai, Cohen & Lafferty, Beyond independent relevance, SIGIR 2003; ndeval 4.5.

    Example:
        >>> subtopic_recall_at_k(["d1", "d2"], {"d1": {"a"}, "d2": {"a"}, "d3": {"b"}}, k=2)
        0.5
    """
    return _strecall.compute(*_query(ranking, covers, k, 0.5))


def diverse_ideal_ranking(covers: Covers, k: int, alpha: float = 0.5) -> list[str]:
    """ndeval's greedy ideal ranking: at each rank, the document adding the most novelty gain.

    Formula: rank r gets the document maximising sum over its subtopics of (1 - alpha)^c(s), c(s)
    the documents already placed covering s; equal gains go to the greatest docno. Finding
    the best ranking is NP-hard (Clarke et al. 2008): this greedy one is the normaliser of
    alpha-nDCG and nERR-IA.

    Args:
        covers: ``{docno: subtopics it is relevant to}``.
        k: how many documents to place, an integer >= 1.
        alpha: redundancy intolerance in [0, 1] (default 0.5).

    Returns:
        Up to ``k`` document ids, those covering a subtopic only.

    Example:
        >>> diverse_ideal_ranking({"d1": {"a"}, "d2": {"a", "b"}, "d3": {"b", "c"}}, k=3)
        ['d3', 'd2', 'd1']
    """
    _, args = _query([], covers, k, alpha)  # checks k and alpha
    ranked = _judged(covers).ideal_ranking(args.rel, args.alpha, k)
    return [docno.decode("utf-8", "surrogateescape") for docno, _ in ranked]


def _query(ranking: Sequence[str], covers: Covers, k: int, alpha: float) -> tuple[Query, Args]:
    """The prepared query of a ranking and its subtopic judgments, and the measure's args."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be an integer >= 1, got {k!r}")
    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not 0 <= alpha <= 1:
        raise ValueError(f"alpha must be a number with 0 <= alpha <= 1, got {alpha!r}")
    ranks = [rank for rank, doc in enumerate(checked_ranking(ranking)) if doc in covers]
    docnos = [ranking[rank].encode("utf-8", "surrogateescape") for rank in ranks]
    query = Query(ranks, [1] * len(ranks), len(ranking), [0, len(covers)], docnos, _judged(covers))
    return query, Args(k=k, rel=1, p=0.0, alpha=float(alpha))


def _judged(covers: Covers) -> QuerySubtopics:
    """The judgments per subtopic, numbered by first appearance (each document's sorted)."""
    index: dict[str, int] = {}
    judged: dict[bytes, dict[int, int]] = {}
    for doc, subtopics in covers.items():
        if isinstance(subtopics, str):
            raise ValueError(f"covers[{doc!r}] must be a collection of subtopics, got a string")
        judged[doc.encode("utf-8", "surrogateescape")] = {
            index.setdefault(name, len(index)): 1 for name in sorted(map(str, subtopics))
        }
    return QuerySubtopics(judged)
