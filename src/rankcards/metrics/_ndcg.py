"""nDCG / nDCG@k: normalised discounted cumulative gain (trec_eval ``ndcg``, ``ndcg_cut``).

Gains are the judged labels themselves (linear gain); the discount of rank r is log2(r + 1);
the ideal ranking orders all judged documents by label. The relevance level does not apply.
"""

from __future__ import annotations

from math import log2

from ._measure import Measure
from ._query import Args, Query


def compute(query: Query, args: Args) -> float:
    """DCG of the run (top k) divided by the DCG of the ideal ranking (top k); 0 if no gain."""
    k = args.k
    dcg = 0.0
    for rank, label in zip(query.ranks, query.labels, strict=True):
        if k is not None and rank >= k:
            break
        if label > 0:
            dcg += label / log2(rank + 2)
    ideal = 0.0
    rank = 0
    levels = query.levels
    for gain in range(len(levels) - 1, 0, -1):
        for _ in range(levels[gain]):
            if k is not None and rank >= k:
                break
            ideal += gain / log2(rank + 2)
            rank += 1
    return dcg / ideal if ideal > 0.0 else 0.0


MEASURE = Measure(
    name="nDCG",
    compute=compute,
    summary="Normalised DCG with linear gains and log2(rank + 1) discount; nDCG@k cuts run and "
    "ideal at k (trec_eval ndcg, ndcg_cut).",
    citation="Jarvelin & Kekalainen, Cumulated gain-based evaluation of IR techniques, "
    "ACM TOIS 20(4), 2002.",
    cutoff="optional",
    trec_eval="ndcg",
    trec_eval_cut="ndcg_cut",
)
