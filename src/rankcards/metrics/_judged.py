"""Judged@k: the fraction of the top k that has a relevance judgment (ir_measures ``Judged``).

As ir_measures, the fraction is over the documents actually in the top k: a ranking shorter
than k divides by its length. As in every trec_eval measure here, a negative label counts as
unjudged (ir_measures counts any document of the qrels as judged).
"""

from __future__ import annotations

from bisect import bisect_left

from ._measure import Measure
from ._query import Args, Query
from ._terms import Terms, counted


def compute(query: Query, args: Args) -> float:
    """Judged documents (label >= 0) in the top min(k, retrieved), over that number."""
    depth = _depth(query, args)
    return bisect_left(query.ranks, depth) / depth if depth else 0.0


def explain(query: Query, args: Args) -> Terms:
    """1 per judged document of the top min(k, retrieved), over that number."""
    depth = _depth(query, args)
    steps = counted(query, depth, 0)
    judged = sum(step.contribution for step in steps)
    quantities = {"judged": judged, "depth": float(depth)}
    if args.k is not None:
        quantities["k"] = float(args.k)
    return Terms(tuple(steps), judged, float(depth), quantities)


def _depth(query: Query, args: Args) -> int:
    return query.num_ret if args.k is None else min(args.k, query.num_ret)


MEASURE = Measure(
    name="Judged",
    compute=compute,
    explain=explain,
    summary="Judgment rate: the fraction of the top k (or of a shorter ranking) that has a "
    "relevance judgment (ir_measures Judged).",
    citation="MacAvaney et al., OpenNIR: A complete neural ad-hoc ranking pipeline, "
    "WSDM 2020 (ir_measures Judged).",
    cutoff="optional",
)
