"""StRecall@k: subtopic recall, as ndeval computes it (its ``strec``).

The share of the N subtopics (those with a relevant document) that some document of the top k
is relevant to. Zhai, Cohen & Lafferty (SIGIR 2003) count every subtopic of the query; ndeval
counts only those the judges found a relevant document for.
"""

from __future__ import annotations

from ._measure import REL, Measure
from ._query import Args, Query
from ._subtopics import judgments, ranked_subtopics
from ._terms import Term, Terms


def compute(query: Query, args: Args) -> float:
    """Subtopics covered in the top k over N."""
    count = judgments(query).count(args.rel)
    if count == 0:
        return 0.0
    covered = {
        index for found in ranked_subtopics(query, args.rel, args.cutoff()) for index in found
    }
    return len(covered) / count


def explain(query: Query, args: Args) -> Terms:
    """Each rank adds the subtopics it is the first to cover."""
    k = args.cutoff()
    count = judgments(query).count(args.rel)
    covered: set[int] = set()
    steps = []
    for rank, found in enumerate(ranked_subtopics(query, args.rel, k)):
        new = len(set(found) - covered)
        covered.update(found)
        steps.append(Term(rank, float(new), str(new), {"covered": float(len(covered))}))
    numerator = float(len(covered))
    return Terms(tuple(steps), numerator, float(count), {"k": float(k), "N": float(count)})


MEASURE = Measure(
    name="StRecall",
    compute=compute,
    explain=explain,
    summary="Subtopic recall@k: the share of the subtopics with a relevant document that the "
    "top k cover (ndeval's strec).",
    citation="Zhai, Cohen & Lafferty, Beyond independent relevance: methods and evaluation "
    "metrics for subtopic retrieval, SIGIR 2003; ndeval 4.5.",
    cutoff="required",
    params=(REL,),
    subtopics=True,
)
