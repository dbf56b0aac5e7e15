"""Teaching functions for one query over plain Python lists (means: see ``_means``).

Each takes a ranking that is already ordered (document ids, rank 1 first) and calls the very
``compute`` function of the measure module that :func:`evaluate` uses, so both faces give the
same numbers (the test suite checks it).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from . import _ap, _err, _f1, _iprec, _judged, _ndcg, _p, _recall, _rr, _success
from ._query import Args, Query, level_counts

Ranking = Sequence[str]


def reciprocal_rank(ranking: Ranking, relevant: Collection[str], k: int | None = None) -> float:
    """Reciprocal rank: 1 / rank of the first relevant document, 0 if none (within k).

    Formula: ``RR = 1 / min{ r : ranking[r] is relevant }`` (``r <= k`` when ``k`` is given).

    Args:
        ranking: document ids, best first; no repeats.
        relevant: the relevant document ids.
        k: look only at the top ``k`` (``RR@k``); ``None`` looks at the whole ranking.

    Returns:
        float in [0, 1].

    Reference:
        Kantor & Voorhees, The TREC-5 Confusion Track, Information Retrieval 2(2-3), 2000.

    Example:
        >>> reciprocal_rank(["d3", "d1", "d2"], {"d1", "d2"})  # first relevant at rank 2
        0.5
        >>> reciprocal_rank(["d3", "d1", "d2"], {"d2"}, k=2)  # d2 is at rank 3 > k
        0.0
    """
    return _rr.compute(_binary(ranking, relevant), _args(k, optional=True))


def hit_at_k(ranking: Ranking, relevant: Collection[str], k: int) -> float:
    """Hit (Success@k): 1.0 if a relevant document is in the top ``k``, else 0.0.

    Formula: ``hit@k = 1 if |top_k(ranking) & relevant| > 0 else 0``.

    Args:
        ranking: document ids, best first; no repeats.
        relevant: the relevant document ids.
        k: cutoff, an integer >= 1.

    Returns:
        0.0 or 1.0.

    Reference:
        Craswell & Hawking, Overview of the TREC-2004 Web Track, TREC 2004.

    Example:
        >>> hit_at_k(["d3", "d1", "d2"], {"d1"}, k=2)  # d1 at rank 2 <= 2
        1.0
        >>> hit_at_k(["d3", "d1", "d2"], {"d1"}, k=1)  # only d3 in the top 1
        0.0
    """
    return _success.compute(_binary(ranking, relevant), _args(k))


def precision_at_k(ranking: Ranking, relevant: Collection[str], k: int) -> float:
    """Precision@k: relevant documents in the top ``k`` divided by ``k``.

    Formula: ``P@k = |top_k(ranking) & relevant| / k`` (still ``/ k`` when fewer are ranked).

    Args:
        ranking: document ids, best first; no repeats.
        relevant: the relevant document ids.
        k: cutoff, an integer >= 1.

    Returns:
        float in [0, 1].

    Reference:
        Manning, Raghavan & Schutze, Introduction to Information Retrieval, ch. 8, 2008.

    Example:
        >>> precision_at_k(["d3", "d1", "d2"], {"d1", "d2"}, k=2)  # 1 relevant / 2
        0.5
        >>> precision_at_k(["d1"], {"d1"}, k=4)  # 1 relevant / 4, not / 1
        0.25
    """
    return _p.compute(_binary(ranking, relevant), _args(k))


def recall_at_k(ranking: Ranking, relevant: Collection[str], k: int) -> float:
    """Recall@k: relevant documents in the top ``k`` divided by all relevant documents.

    Formula: ``R@k = |top_k(ranking) & relevant| / |relevant|`` (0 when nothing is relevant).

    Args:
        ranking: document ids, best first; no repeats.
        relevant: the relevant document ids (retrieved or not).
        k: cutoff, an integer >= 1.

    Returns:
        float in [0, 1].

    Reference:
        Manning, Raghavan & Schutze, Introduction to Information Retrieval, ch. 8, 2008.

    Example:
        >>> recall_at_k(["d3", "d1", "d2"], {"d1", "d2", "d9"}, k=2)  # 1 of 3 relevant
        0.3333333333333333
    """
    return _recall.compute(_binary(ranking, relevant), _args(k))


def average_precision(ranking: Ranking, relevant: Collection[str]) -> float:
    """Average precision: mean of P@rank over relevant documents, missing ones counting 0.

    Formula: ``AP = (1/|relevant|) * sum_{r : ranking[r] relevant} P@r``.

    Args:
        ranking: document ids, best first; no repeats.
        relevant: the relevant document ids (retrieved or not).

    Returns:
        float in [0, 1].

    Reference:
        Harman, Overview of the Second Text REtrieval Conference (TREC-2), 1993.

    Example:
        >>> average_precision(["d1", "d4", "d2"], {"d1", "d2", "d9"})
        0.5555555555555555

        Relevant at ranks 1 and 3: P@1 = 1/1, P@3 = 2/3; d9 never retrieved adds 0:
        (1 + 2/3 + 0) / 3 = 0.5556.
    """
    return _ap.compute(_binary(ranking, relevant), _args(None, optional=True))


def ndcg_at_k(
    ranking: Ranking, gains: Mapping[str, int], k: int | None = None, dcg: str = "log2"
) -> float:
    """nDCG@k: DCG of the ranking over DCG of the ideal ordering (linear or exponential gain).

    Formula: ``DCG@k = sum_{r=1..k} gain(ranking[r]) / log2(r + 1)``;
    ``nDCG@k = DCG@k / IDCG@k``, the ideal ranking sorting all judged documents by gain.
    ``gain(d)`` is the label g itself (``dcg="log2"``, trec_eval) or ``2^g - 1``
    (``dcg="exp-log2"``, gdeval; ir_measures ``nDCG(dcg=exp-log2)``).

    Args:
        ranking: document ids, best first; no repeats.
        gains: graded label (integer >= 0) of each judged document; others gain 0.
        k: cutoff, an integer >= 1; ``None`` uses the whole ranking (trec_eval ``ndcg``).
        dcg: ``"log2"`` (linear gain, the default) or ``"exp-log2"`` (gain 2^g - 1).

    Returns:
        float in [0, 1]; 0 when no document has a positive gain.

    Reference:
        Jarvelin & Kekalainen, Cumulated gain-based evaluation of IR techniques,
        ACM TOIS 20(4), 2002.

    Example:
        >>> round(ndcg_at_k(["d2", "d1", "d3"], {"d1": 2, "d2": 1}, k=2), 4)
        0.8597

        DCG = 1/log2(2) + 2/log2(3) = 1 + 1.2619 = 2.2619;
        ideal d1, d2: 2/log2(2) + 1/log2(3) = 2 + 0.6309 = 2.6309; 2.2619 / 2.6309 = 0.8597.

        >>> round(ndcg_at_k(["d2", "d1", "d3"], {"d1": 2, "d2": 1}, k=2, dcg="exp-log2"), 4)
        0.7967

        Gains 2^1 - 1 = 1 and 2^2 - 1 = 3: (1 + 3/log2(3)) / (3 + 1/log2(3)) = 2.8928 / 3.6309.
    """
    if dcg not in _ndcg.DCG.choices:
        raise ValueError(f"dcg must be 'log2' or 'exp-log2', got {dcg!r}")
    return _ndcg.compute(_graded(ranking, gains), _args(k, optional=True, dcg=dcg))


def err_at_k(ranking: Ranking, grades: Mapping[str, int], k: int | None = None) -> float:
    """ERR@k: expected reciprocal rank of a cascade user, with gdeval's stop probabilities.

    Formula: ``ERR@k = sum_{r=1..k} (1/r) * R_r * prod_{i<r} (1 - R_i)`` with
    ``R = (2^g - 1) / 2^4`` for a document of grade g (gdeval's maximum grade is 4; higher
    grades count as 4; unjudged documents and grade 0 have R = 0).

    Args:
        ranking: document ids, best first; no repeats.
        grades: graded label of each judged document.
        k: cutoff, an integer >= 1; ``None`` reads the whole ranking.

    Returns:
        float in [0, 1).

    Reference:
        Chapelle, Metzler, Zhang & Grinspan, Expected reciprocal rank for graded relevance,
        CIKM 2009; gdeval.pl (TREC 2010 Web track), as ir_measures runs it.

    Example:
        >>> err_at_k(["d1", "d2", "d3"], {"d1": 1, "d3": 4})
        0.35546875

        d1 (grade 1) stops the user with R = 1/16: 1/16 / 1 = 0.0625; d3 (grade 4) is reached
        with probability 15/16 and stops with R = 15/16: (15/16) * (15/16) / 3 = 0.29296875.
    """
    return _err.compute(_graded(ranking, grades), _args(k, optional=True))


def f1_at_k(ranking: Ranking, relevant: Collection[str], k: int) -> float:
    """F1@k: harmonic mean of precision@k and recall@k.

    Formula: ``F1@k = 2 * P@k * R@k / (P@k + R@k)`` (0 when no relevant document is in the top
    ``k``), with ``P@k`` dividing by ``k`` as trec_eval's ``P_k``. trec_eval's ``set_F``
    under ``-M k`` divides by the documents retrieved instead: it is larger on a ranking with
    fewer than ``k`` documents.

    Args:
        ranking: document ids, best first; no repeats.
        relevant: the relevant document ids (retrieved or not).
        k: cutoff, an integer >= 1.

    Returns:
        float in [0, 1].

    Reference:
        van Rijsbergen, Information Retrieval, 2nd ed., Butterworths, 1979, ch. 7.

    Example:
        >>> round(f1_at_k(["d3", "d1", "d2"], {"d1", "d2", "d9"}, k=2), 4)
        0.4

        P@2 = 1/2, R@2 = 1/3: 2 * (1/2) * (1/3) / (1/2 + 1/3) = (1/3) / (5/6) = 0.4.
    """
    return _f1.compute(_binary(ranking, relevant), _args(k))


def interpolated_precision(ranking: Ranking, relevant: Collection[str], recall: float) -> float:
    """Interpolated precision at a recall level, as trec_eval's ``iprec_at_recall``.

    Formula: with ``c = lround(recall * |relevant|)`` relevant documents needed,
    ``IPrec = max_{m >= max(c, 1)} m / rank_m`` (``rank_m``: rank of the m-th relevant
    document retrieved); 0 when fewer than ``c`` are retrieved.

    Args:
        ranking: document ids, best first; no repeats.
        relevant: the relevant document ids (retrieved or not).
        recall: the recall level, a number in [0, 1] (the 11-point curve uses 0.0, 0.1 ... 1.0).

    Returns:
        float in [0, 1].

    Reference:
        trec_eval 10.0, ``m_iprec_at_recall.c``; Manning, Raghavan & Schutze, Introduction to
        Information Retrieval, ch. 8.4, 2008.

    Example:
        >>> ranking = ["d1", "d4", "d2", "d5", "d3"]
        >>> round(interpolated_precision(ranking, {"d1", "d2", "d3"}, 0.5), 4)
        0.6667

        Relevant at ranks 1, 3, 5 (precision 1, 2/3, 3/5); recall 0.5 of 3 needs
        lround(1.5) = 2 documents: the best precision from the 2nd on is 2/3.

        >>> interpolated_precision(ranking, {"d1", "d2", "d3"}, 1.0)
        0.6
    """
    if isinstance(recall, bool) or not isinstance(recall, int | float) or not 0 <= recall <= 1:
        raise ValueError(f"recall must be a number in [0, 1], got {recall!r}")
    args = Args(k=None, rel=1, p=0.0, recall=float(recall))
    return _iprec.compute(_binary(ranking, relevant), args)


def judged_at_k(ranking: Ranking, judged: Collection[str], k: int | None = None) -> float:
    """Judged@k: the fraction of the top ``k`` that has a relevance judgment.

    Formula: ``Judged@k = |top_k(ranking) & judged| / min(k, |ranking|)`` (a shorter ranking
    divides by its length, as ir_measures' ``Judged``).

    Args:
        ranking: document ids, best first; no repeats.
        judged: the ids with a judgment, relevant or not.
        k: cutoff, an integer >= 1; ``None`` looks at the whole ranking.

    Returns:
        float in [0, 1]; 0 for an empty ranking.

    Reference:
        ir_measures ``Judged`` (from OpenNIR; MacAvaney et al., WSDM 2020).

    Example:
        >>> judged_at_k(["d1", "d2", "d3", "d4"], {"d1", "d4", "d9"}, k=2)
        0.5
        >>> judged_at_k(["d1", "d2"], {"d1"}, k=10)  # 1 of the 2 ranked documents
        0.5
    """
    judged = set(judged)
    ranks = [rank for rank, doc in enumerate(checked_ranking(ranking)) if doc in judged]
    query = Query(ranks, [0] * len(ranks), len(ranking), [len(judged)])
    return _judged.compute(query, _args(k, optional=True))


def _args(k: int | None, optional: bool = False, dcg: str = "log2") -> Args:
    """Validate the cutoff once for every teaching function."""
    if k is None and optional:
        return Args(k=None, rel=1, p=0.0, dcg=dcg)
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be an integer >= 1, got {k!r}")
    return Args(k=k, rel=1, p=0.0, dcg=dcg)


def checked_ranking(ranking: Ranking) -> Ranking:
    """A ranking lists each document once (as trec_eval requires of a run)."""
    if isinstance(ranking, str):
        raise ValueError(f"ranking must be a list of document ids, got the string {ranking!r}")
    if len(set(ranking)) != len(ranking):
        seen: set[str] = set()
        for doc in ranking:
            if doc in seen:
                raise ValueError(f"document {doc!r} appears twice in the ranking")
            seen.add(doc)
    return ranking


def _binary(ranking: Ranking, relevant: Collection[str]) -> Query:
    """Binary judgments: relevant documents get label 1, the rest are unjudged."""
    relevant = set(relevant)
    ranks = [rank for rank, doc in enumerate(checked_ranking(ranking)) if doc in relevant]
    return Query(ranks, [1] * len(ranks), len(ranking), [0, len(relevant)])


def _graded(ranking: Ranking, gains: Mapping[str, int]) -> Query:
    """Graded judgments: labels are the integer gains; negative ones count as unjudged."""
    for doc, gain in gains.items():
        if isinstance(gain, bool) or not isinstance(gain, int):
            raise ValueError(f"gain of {doc!r} must be an integer label, got {gain!r}")
    ranks, labels = [], []
    for rank, doc in enumerate(checked_ranking(ranking)):
        label = gains.get(doc)
        if label is not None and label >= 0:
            ranks.append(rank)
            labels.append(label)
    return Query(ranks, labels, len(ranking), level_counts(gains.values()))
