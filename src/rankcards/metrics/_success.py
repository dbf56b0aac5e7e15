"""Success@k (alias HitRate@k): 1 if a relevant document is in the top k (trec_eval ``success``)."""

from __future__ import annotations

from ._measure import REL, Measure
from ._query import Args, Query
from ._terms import Term, Terms, counted


def compute(query: Query, args: Args) -> float:
    """1.0 when some document with label >= rel is ranked within the top k, else 0.0."""
    found = query.positions(args.rel)
    return 1.0 if found and found[0] < args.cutoff() else 0.0


def explain(query: Query, args: Args) -> Terms:
    """The top k; the first relevant document contributes 1 (the others are counted only)."""
    k = args.cutoff()
    steps = counted(query, k, args.rel)
    hits = int(sum(step.contribution for step in steps))
    first = next((step.rank for step in steps if step.contribution), None)
    shown = [
        step if step.rank == first else Term(step.rank, 0.0, "0", step.detail) for step in steps
    ]
    quantities = {"k": float(k), "relevant_retrieved": float(hits)}
    return Terms(tuple(shown), 1.0 if hits else 0.0, 1.0, quantities)


MEASURE = Measure(
    name="Success",
    compute=compute,
    explain=explain,
    summary="1 if at least one relevant document is in the top k, else 0 (trec_eval success).",
    citation="Craswell & Hawking, Overview of the TREC-2004 Web Track, TREC 2004.",
    cutoff="required",
    params=(REL,),
    aliases=("HitRate",),
    trec_eval_cut="success",
)
