"""RR / RR@k: reciprocal rank of the first relevant document (trec_eval ``recip_rank``)."""

from __future__ import annotations

from ._measure import REL, Measure
from ._query import Args, Query
from ._terms import Term, Terms, labels_by_rank


def compute(query: Query, args: Args) -> float:
    """1 / rank of the first document with label >= rel, within the top k if k is set; else 0."""
    found = query.positions(args.rel)
    if not found or (args.k is not None and found[0] >= args.k):
        return 0.0
    return 1.0 / (found[0] + 1)


def explain(query: Query, args: Args) -> Terms:
    """The ranks read down to the first relevant one, which contributes 1 over its rank."""
    steps = []
    first = 0
    for index, label in enumerate(labels_by_rank(query, args.k)):
        if label is not None and label >= args.rel:
            first = index + 1
            steps.append(Term(index, 1.0, f"1/{first}", {"rank": first}))
            break
        steps.append(Term(index, 0.0, "0", {}))
    quantities = {"first_relevant_rank": float(first)}
    if args.k is not None:
        quantities["k"] = float(args.k)
    return Terms(tuple(steps), 1.0 if first else 0.0, float(first or 1), quantities)


MEASURE = Measure(
    name="RR",
    compute=compute,
    explain=explain,
    summary="Reciprocal rank of the first relevant document; RR@k looks only at the top k "
    "(trec_eval recip_rank, with -M k for the cutoff).",
    citation="Kantor & Voorhees, The TREC-5 Confusion Track, Information Retrieval 2(2-3), 2000.",
    cutoff="optional",
    params=(REL,),
    trec_eval="recip_rank",
)
