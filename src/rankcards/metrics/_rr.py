"""RR / RR@k: reciprocal rank of the first relevant document (trec_eval ``recip_rank``)."""

from __future__ import annotations

from ._measure import REL, Measure
from ._query import Args, Query


def compute(query: Query, args: Args) -> float:
    """1 / rank of the first document with label >= rel, within the top k if k is set; else 0."""
    found = query.positions(args.rel)
    if not found or (args.k is not None and found[0] >= args.k):
        return 0.0
    return 1.0 / (found[0] + 1)


MEASURE = Measure(
    name="RR",
    compute=compute,
    summary="Reciprocal rank of the first relevant document; RR@k looks only at the top k "
    "(trec_eval recip_rank, with -M k for the cutoff).",
    citation="Kantor & Voorhees, The TREC-5 Confusion Track, Information Retrieval 2(2-3), 2000.",
    cutoff="optional",
    params=(REL,),
    trec_eval="recip_rank",
)
