"""AP / AP@k: average precision (trec_eval ``map`` and ``map_cut``)."""

from __future__ import annotations

from ._measure import REL, Measure
from ._query import Args, Query


def compute(query: Query, args: Args) -> float:
    """Sum of precision at each relevant retrieved rank (<= k), divided by all relevant docs."""
    num_rel = query.num_rel(args.rel)
    if num_rel == 0:
        return 0.0
    total = 0.0
    for seen, index in enumerate(query.positions(args.rel), 1):
        if args.k is not None and index >= args.k:
            break
        total += seen / (index + 1)
    return total / num_rel


MEASURE = Measure(
    name="AP",
    compute=compute,
    summary="Average precision: mean of the precision at each relevant document, unretrieved "
    "relevant documents counting 0 (trec_eval map; AP@k is map_cut).",
    citation="Harman, Overview of the Second Text REtrieval Conference (TREC-2), 1993.",
    cutoff="optional",
    params=(REL,),
    trec_eval="map",
    trec_eval_cut="map_cut",
)
