"""nERR-IA@k: intent-aware ERR divided by the greedy ideal ranking's, as ndeval computes it.

The run's sum of gain/rank to k (see ``_err_ia``, stop probability 0.5) over the same sum on
ndeval's greedy ideal ranking (``_subtopics``): a collection-dependent normalisation. Both
are first divided by ndeval's ideal-ideal sum, which cancels up to rounding.
"""

from __future__ import annotations

from ._err_ia import reciprocal_terms
from ._measure import REL, Measure
from ._query import Args, Query
from ._subtopics import cumulated, judgments, normalised
from ._terms import Term, Terms, number


def compute(query: Query, args: Args) -> float:
    """ERR-IA@k of the run over ERR-IA@k of the greedy ideal; 0 when the run gains nothing."""
    count = judgments(query).count(args.rel)
    run = cumulated(reciprocal_terms(query, args))
    if count == 0 or run == 0.0:
        return 0.0
    k = args.cutoff()
    best = normalised(
        cumulated(reciprocal_terms(query, args, ideal=True)), count, args.alpha, k, "err"
    )
    return normalised(run, count, args.alpha, k, "err") / best


def explain(query: Query, args: Args) -> Terms:
    """Each rank adds gain / rank; the ideal ranking's sum divides."""
    count = judgments(query).count(args.rel)
    terms = reciprocal_terms(query, args)
    ideal = cumulated(reciprocal_terms(query, args, ideal=True))
    steps = tuple(
        Term(rank, term, f"{number(term * (rank + 1))}/{rank + 1}", {"gain": term * (rank + 1)})
        for rank, term in enumerate(terms)
    )
    quantities = {"k": float(args.cutoff()), "alpha": args.alpha, "N": float(count)}
    return Terms(steps, cumulated(terms), ideal, quantities)


MEASURE = Measure(
    name="nERR_IA",
    compute=compute,
    explain=explain,
    summary="Intent-aware ERR@k over the same on ndeval's greedy ideal ranking "
    "(collection-dependent normalisation; stop probability 0.5 per subtopic).",
    citation="Chapelle, Ji, Liao, Velipasaoglu, Lai & Wu, Intent-based diversification of web "
    "search results: metrics and algorithms, Information Retrieval 14(6), 2011; ndeval 4.5.",
    cutoff="required",
    params=(REL,),
    subtopics=True,
)
