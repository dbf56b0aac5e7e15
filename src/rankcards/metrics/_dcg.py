"""DCG / DCG@k: discounted cumulative gain, the sum that nDCG divides by its ideal.

Gains and discount as :mod:`._ndcg` (trec_eval's ``ndcg`` numerator): the gain of a label is the
label (``dcg=log2``) or 2^label - 1 (``dcg=exp-log2``, gdeval), divided by log2(rank + 1). The
value is not normalised, so it grows with the grades and with the number of relevant documents:
its explanation also reports the ideal ranking and its sum (IDCG), which nDCG divides by.
trec_eval prints no DCG; ranx's ``dcg@k`` is this sum with linear gains.
"""

from __future__ import annotations

from math import log2

from ._measure import Measure
from ._ndcg import DCG, gain
from ._ndcg import explain as _ndcg_terms
from ._query import Args, Query
from ._terms import Terms


def compute(query: Query, args: Args) -> float:
    """Sum over the run's top k of gain(label) / log2(rank + 1), ranks from 1."""
    total = 0.0
    for rank, label in zip(query.ranks, query.labels, strict=True):
        if args.k is not None and rank >= args.k:
            break
        if label > 0:
            total += gain(label, args.dcg) / log2(rank + 2)
    return total


def explain(query: Query, args: Args) -> Terms:
    """nDCG's terms without its division: the run's gains over discounts, the ideal beside."""
    terms = _ndcg_terms(query, args)
    return Terms(terms.steps, terms.numerator, 1.0, terms.quantities, terms.ideal)


MEASURE = Measure(
    name="DCG",
    compute=compute,
    explain=explain,
    summary="Discounted cumulative gain: gain over log2(rank + 1), summed over the top k; gains "
    "linear (dcg=log2) or 2^g - 1 (dcg=exp-log2); not normalised (nDCG divides it by the ideal).",
    citation="Jarvelin & Kekalainen, Cumulated gain-based evaluation of IR techniques, "
    "ACM TOIS 20(4), 2002.",
    cutoff="optional",
    params=(DCG,),
)
