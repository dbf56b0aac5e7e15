"""F1@k: the harmonic mean of P@k and R@k, P@k dividing by k as trec_eval's ``P_k``.

F1@k = 2 * P@k * R@k / (P@k + R@k), 0 when both are 0. trec_eval's ``set_F`` under ``-M k``
divides its precision by the documents retrieved, min(k, retrieved): both agree whenever the
ranking has at least k documents; on a shorter one set_F is the larger.
"""

from __future__ import annotations

from bisect import bisect_left

from ._measure import REL, Measure
from ._query import Args, Query
from ._terms import Term, Terms, counted


def compute(query: Query, args: Args) -> float:
    """2PR / (P + R) with P = hits / k and R = hits / R (relevant documents)."""
    k = args.cutoff()
    num_rel = query.num_rel(args.rel)
    hits = bisect_left(query.positions(args.rel), k)
    if hits == 0:
        return 0.0
    precision = hits / k
    recall = hits / num_rel
    return 2.0 * precision * recall / (precision + recall)


def explain(query: Query, args: Args) -> Terms:
    """F1@k = 2 * hits / (k + R): 2 per relevant document of the top k, over k + R."""
    k = args.cutoff()
    num_rel = query.num_rel(args.rel)
    steps = tuple(
        Term(step.rank, 2.0, "2", step.detail) if step.contribution else step
        for step in counted(query, k, args.rel)
    )
    hits = sum(step.contribution for step in steps) / 2
    quantities = {
        "k": float(k),
        "R": float(num_rel),
        "relevant_retrieved": hits,
        "P@k": hits / k,
        "R@k": hits / num_rel if num_rel else 0.0,
    }
    return Terms(steps, 2 * hits, float(k + num_rel), quantities)


MEASURE = Measure(
    name="F1",
    compute=compute,
    explain=explain,
    summary="F1 at k: harmonic mean of P@k (dividing by k) and R@k; trec_eval's set_F under "
    "-M k divides by min(k, retrieved) instead.",
    citation="van Rijsbergen, Information Retrieval, 2nd ed., Butterworths, 1979 (ch. 7).",
    cutoff="required",
    params=(REL,),
)
