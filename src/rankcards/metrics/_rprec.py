"""Rprec: precision at rank R, R being the number of relevant documents (trec_eval ``Rprec``)."""

from __future__ import annotations

from bisect import bisect_left

from ._measure import REL, Measure
from ._query import Args, Query
from ._terms import Terms, counted


def compute(query: Query, args: Args) -> float:
    """Relevant documents in the top R divided by R (0 when R is 0 or nothing was retrieved)."""
    num_rel = query.num_rel(args.rel)
    if min(num_rel, query.num_ret) == 0:
        return 0.0
    return bisect_left(query.positions(args.rel), num_rel) / num_rel


def explain(query: Query, args: Args) -> Terms:
    """1 per relevant document in the top R, over R."""
    num_rel = query.num_rel(args.rel)
    steps = counted(query, num_rel, args.rel)
    hits = sum(step.contribution for step in steps)
    quantities = {"R": float(num_rel), "relevant_retrieved": hits}
    return Terms(tuple(steps), hits, float(num_rel), quantities)


MEASURE = Measure(
    name="Rprec",
    compute=compute,
    explain=explain,
    summary="R-precision: precision after R documents, R = number of relevant documents.",
    citation="Buckley & Voorhees, Retrieval System Evaluation, in TREC: Experiment and "
    "Evaluation in Information Retrieval, MIT Press, 2005.",
    params=(REL,),
    trec_eval="Rprec",
)
