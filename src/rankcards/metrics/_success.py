"""Success@k (alias HitRate@k): 1 if a relevant document is in the top k (trec_eval ``success``)."""

from __future__ import annotations

from ._measure import REL, Measure
from ._query import Args, Query


def compute(query: Query, args: Args) -> float:
    """1.0 when some document with label >= rel is ranked within the top k, else 0.0."""
    found = query.positions(args.rel)
    return 1.0 if found and found[0] < args.cutoff() else 0.0


MEASURE = Measure(
    name="Success",
    compute=compute,
    summary="1 if at least one relevant document is in the top k, else 0 (trec_eval success).",
    citation="Craswell & Hawking, Overview of the TREC-2004 Web Track, TREC 2004.",
    cutoff="required",
    params=(REL,),
    aliases=("HitRate",),
    trec_eval_cut="success",
)
