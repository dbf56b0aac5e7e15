"""P@k: precision at cutoff k (trec_eval ``P``), dividing by k even when fewer were retrieved."""

from __future__ import annotations

from bisect import bisect_left

from ._measure import REL, Measure
from ._query import Args, Query
from ._terms import Terms, counted


def compute(query: Query, args: Args) -> float:
    """Relevant documents in the top k, divided by k."""
    k = args.cutoff()
    return bisect_left(query.positions(args.rel), k) / k


def explain(query: Query, args: Args) -> Terms:
    """1 per relevant document in the top k, over k."""
    k = args.cutoff()
    steps = counted(query, k, args.rel)
    hits = sum(step.contribution for step in steps)
    return Terms(tuple(steps), hits, float(k), {"k": float(k), "relevant_retrieved": hits})


MEASURE = Measure(
    name="P",
    compute=compute,
    explain=explain,
    summary="Precision at k: relevant documents in the top k divided by k (trec_eval P).",
    citation="Manning, Raghavan & Schutze, Introduction to Information Retrieval, ch. 8, 2008.",
    cutoff="required",
    params=(REL,),
    trec_eval_cut="P",
)
