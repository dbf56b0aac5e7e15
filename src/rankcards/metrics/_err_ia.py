"""ERR-IA@k: intent-aware expected reciprocal rank, as ndeval computes it.

Per subtopic, a user stops at a relevant document with probability alpha = 0.5 (ndeval's default
alpha, which ir_measures passes for ERR_IA): the document at rank r adds (1 - alpha)^c / r per
subtopic it is relevant to, c being the documents above it relevant to that subtopic. The sum
over ranks up to k is divided by ndeval's "ideal ideal" (N subtopics all covered at every
rank: sum of N(1 - alpha)^(r-1) / r), a collection-independent normalisation; Chapelle et al.
(CIKM 2009) average the per-intent ERR instead, without it. ndeval starts that division at
rank 2, so ERR_IA@1 is the first document's gain itself, up to N.
"""

from __future__ import annotations

from ._measure import REL, Measure
from ._query import Args, Query
from ._subtopics import (
    cumulated,
    ideal_ideal,
    judgments,
    normalised,
    novelty_gains,
    ranked_subtopics,
)
from ._terms import Term, Terms, number


def reciprocal_terms(query: Query, args: Args, ideal: bool = False) -> list[float]:
    """Each rank's novelty gain divided by its rank: the run's, or the greedy ideal's."""
    k = args.cutoff()
    ranked = (
        judgments(query).ideal(args.rel, args.alpha, k)
        if ideal
        else ranked_subtopics(query, args.rel, k)
    )
    return [gain / (rank + 1) for rank, gain in enumerate(novelty_gains(ranked, args.alpha))]


def compute(query: Query, args: Args) -> float:
    """The cumulated gain/rank at k over the ideal-ideal one (raw at k = 1, as ndeval)."""
    count = judgments(query).count(args.rel)
    if count == 0:
        return 0.0
    return normalised(
        cumulated(reciprocal_terms(query, args)), count, args.alpha, args.cutoff(), "err"
    )


def explain(query: Query, args: Args) -> Terms:
    """Each rank adds gain / rank; the denominator is the ideal-ideal sum (1 at k = 1)."""
    k = args.cutoff()
    count = judgments(query).count(args.rel)
    terms = reciprocal_terms(query, args)
    steps = tuple(
        Term(rank, term, f"{number(term * (rank + 1))}/{rank + 1}", {"gain": term * (rank + 1)})
        for rank, term in enumerate(terms)
    )
    denominator = 1.0 if k == 1 else ideal_ideal(count, args.alpha, k, "err")
    quantities = {"k": float(k), "alpha": args.alpha, "N": float(count)}
    return Terms(steps, cumulated(terms), denominator, quantities)


MEASURE = Measure(
    name="ERR_IA",
    compute=compute,
    explain=explain,
    summary="Intent-aware ERR@k with stop probability 0.5 per subtopic, over ndeval's "
    "ideal-ideal normaliser (collection-independent; ERR_IA@1 left unnormalised, as ndeval).",
    citation="Chapelle, Ji, Liao, Velipasaoglu, Lai & Wu, Intent-based diversification of web "
    "search results: metrics and algorithms, Information Retrieval 14(6), 2011; ndeval 4.5.",
    cutoff="required",
    params=(REL,),
    subtopics=True,
)
