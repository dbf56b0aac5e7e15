"""R@k: recall at cutoff k (trec_eval ``recall``), over all relevant documents of the query."""

from __future__ import annotations

from bisect import bisect_left

from ._measure import REL, Measure
from ._query import Args, Query


def compute(query: Query, args: Args) -> float:
    """Relevant documents in the top k divided by all relevant documents (0 when none)."""
    num_rel = query.num_rel(args.rel)
    if num_rel == 0:
        return 0.0
    return bisect_left(query.positions(args.rel), args.cutoff()) / num_rel


MEASURE = Measure(
    name="R",
    compute=compute,
    summary="Recall at k: relevant documents in the top k divided by all relevant documents "
    "(trec_eval recall).",
    citation="Manning, Raghavan & Schutze, Introduction to Information Retrieval, ch. 8, 2008.",
    cutoff="required",
    params=(REL,),
    trec_eval_cut="recall",
)
