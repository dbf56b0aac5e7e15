"""P-IA@k: intent-aware precision, as ndeval computes it.

The mean over the N subtopics (those with a relevant document) of each subtopic's P@k: the
(document, subtopic) relevant pairs in the top k divided by k·N, k even when fewer documents
are ranked (as P@k). Agrawal et al. (WSDM 2009) weight each intent by its probability; ndeval
weights them equally.
"""

from __future__ import annotations

from ._measure import REL, Measure
from ._query import Args, Query
from ._subtopics import judgments, ranked_subtopics
from ._terms import Term, Terms


def compute(query: Query, args: Args) -> float:
    """Relevant (document, subtopic) pairs in the top k, over k·N."""
    count = judgments(query).count(args.rel)
    if count == 0:
        return 0.0
    k = args.cutoff()
    return sum(map(len, ranked_subtopics(query, args.rel, k))) / (k * count)


def explain(query: Query, args: Args) -> Terms:
    """Each rank adds the number of subtopics its document is relevant to."""
    k = args.cutoff()
    count = judgments(query).count(args.rel)
    steps = tuple(
        Term(rank, float(len(found)), str(len(found)), {"subtopics": float(len(found))})
        for rank, found in enumerate(ranked_subtopics(query, args.rel, k))
    )
    numerator = float(sum(step.contribution for step in steps))
    return Terms(steps, numerator, float(k * count), {"k": float(k), "N": float(count)})


MEASURE = Measure(
    name="P_IA",
    compute=compute,
    explain=explain,
    summary="Intent-aware precision@k: relevant (document, subtopic) pairs in the top k over "
    "k times the subtopics with a relevant document (ndeval, intents weighted equally).",
    citation="Agrawal, Gollapudi, Halverson & Ieong, Diversifying search results, WSDM 2009; "
    "ndeval 4.5.",
    cutoff="required",
    params=(REL,),
    subtopics=True,
)
