"""F(beta=X)@k: van Rijsbergen's F_beta of P@k and R@k, recall weighted beta times precision.

F_beta@k = (1 + beta^2) * P@k * R@k / (beta^2 * P@k + R@k), 0 when no relevant document is in
the top k; beta = 1 is F1@k. P@k divides by k, as trec_eval's ``P_k``. trec_eval's ``set_F.x``
and ir_measures' ``SetF(beta=x)`` (which calls it) weight by ``x`` itself, not its square:
their ``x`` is this ``beta^2`` (``m_set_F.c``: ``(x + 1) * P * R / (x * P + R)``).
"""

from __future__ import annotations

from bisect import bisect_left

from ._measure import REL, Measure, Param
from ._query import Args, Query
from ._terms import Term, Terms, counted, number

BETA = Param("beta", float, 1.0, 0.0, None, "a number > 0", always_shown=True, exclusive=True)


def compute(query: Query, args: Args) -> float:
    """(1 + beta^2) * hits / (beta^2 * R + k): the F_beta of P = hits / k and R = hits / R."""
    k = args.cutoff()
    hits = bisect_left(query.positions(args.rel), k)
    if hits == 0:
        return 0.0
    weight = args.beta**2
    return (1.0 + weight) * hits / (weight * query.num_rel(args.rel) + k)


def explain(query: Query, args: Args) -> Terms:
    """1 + beta^2 per relevant document of the top k, over beta^2 * R + k."""
    k = args.cutoff()
    weight = args.beta**2
    num_rel = query.num_rel(args.rel)
    steps = tuple(
        Term(step.rank, 1.0 + weight, number(1.0 + weight), step.detail)
        if step.contribution
        else step
        for step in counted(query, k, args.rel)
    )
    hits = sum(1 for step in steps if step.contribution)
    quantities = {
        "k": float(k),
        "R": float(num_rel),
        "relevant_retrieved": float(hits),
        "P@k": hits / k,
        "R@k": hits / num_rel if num_rel else 0.0,
        "beta": args.beta,
    }
    return Terms(steps, (1.0 + weight) * hits, weight * num_rel + k, quantities)


MEASURE = Measure(
    name="F",
    compute=compute,
    explain=explain,
    summary="F_beta at k: (1 + beta^2) P R / (beta^2 P + R) of P@k and R@k, recall weighted beta "
    "times precision; F(beta=1)@k is F1@k (trec_eval's set_F.x weights by x = beta^2).",
    citation="van Rijsbergen, Information Retrieval, 2nd ed., Butterworths, 1979 (ch. 7).",
    cutoff="required",
    params=(REL, BETA),
)
