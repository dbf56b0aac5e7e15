"""AP / AP@k: average precision (trec_eval ``map`` and ``map_cut``)."""

from __future__ import annotations

from ._measure import REL, Measure
from ._query import Args, Query
from ._terms import Term, Terms, labels_by_rank


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


def explain(query: Query, args: Args) -> Terms:
    """Precision at each relevant rank (``seen/rank``), 0 elsewhere, over R relevant docs."""
    steps = []
    seen = 0
    for index, label in enumerate(labels_by_rank(query, args.k)):
        if label is not None and label >= args.rel:
            seen += 1
            precision = seen / (index + 1)
            steps.append(
                Term(
                    index, precision, f"{seen}/{index + 1}", {"precision": precision, "seen": seen}
                )
            )
        else:
            steps.append(Term(index, 0.0, "0", {"precision": seen / (index + 1), "seen": seen}))
    num_rel = query.num_rel(args.rel)
    numerator = sum(step.contribution for step in steps)
    quantities = {"R": float(num_rel), "relevant_retrieved": float(seen)}
    if args.k is not None:
        quantities["k"] = float(args.k)
    return Terms(tuple(steps), numerator, float(num_rel), quantities)


MEASURE = Measure(
    name="AP",
    compute=compute,
    explain=explain,
    summary="Average precision: mean of the precision at each relevant document, unretrieved "
    "relevant documents counting 0 (trec_eval map; AP@k is map_cut).",
    citation="Harman, Overview of the Second Text REtrieval Conference (TREC-2), 1993.",
    cutoff="optional",
    params=(REL,),
    trec_eval="map",
    trec_eval_cut="map_cut",
)
