"""R@k: recall at cutoff k (trec_eval ``recall``), over all relevant documents of the query."""

from __future__ import annotations

from bisect import bisect_left

from ._measure import REL, Measure
from ._query import Args, Query
from ._terms import Terms, counted


def compute(query: Query, args: Args) -> float:
    """Relevant documents in the top k divided by all relevant documents (0 when none)."""
    num_rel = query.num_rel(args.rel)
    if num_rel == 0:
        return 0.0
    return bisect_left(query.positions(args.rel), args.cutoff()) / num_rel


def explain(query: Query, args: Args) -> Terms:
    """1 per relevant document in the top k, over R (relevant documents, retrieved or not)."""
    k = args.cutoff()
    steps = counted(query, k, args.rel)
    hits = sum(step.contribution for step in steps)
    num_rel = float(query.num_rel(args.rel))
    quantities = {"k": float(k), "R": num_rel, "relevant_retrieved": hits}
    return Terms(tuple(steps), hits, num_rel, quantities)


MEASURE = Measure(
    name="R",
    compute=compute,
    explain=explain,
    summary="Recall at k: relevant documents in the top k divided by all relevant documents "
    "(trec_eval recall).",
    citation="Manning, Raghavan & Schutze, Introduction to Information Retrieval, ch. 8, 2008.",
    cutoff="required",
    params=(REL,),
    trec_eval_cut="recall",
)
