"""ERR / ERR@k: expected reciprocal rank, as gdeval computes it (TREC Web track 2010-2014).

A cascade user reads down the ranking and stops at a document of grade g with probability
R(g) = (2^g - 1) / 2^4, 4 being gdeval's maximum grade; ERR is the expected 1/rank of the stop.
gdeval rejects qrels with a grade above 4; here such grades count as 4, so every R stays a
probability. Unjudged documents and labels <= 0 have R = 0; the relevance level does not apply.
"""

from __future__ import annotations

from ._measure import Measure
from ._query import Args, Query
from ._terms import Term, Terms, labels_by_rank, number

#: gdeval's $MAX_JUDGMENT
MAX_GRADE = 4


def stop_probability(label: int) -> float:
    """R(g) = (2^g - 1) / 2^4 for a grade g (capped at 4); 0 for g <= 0."""
    grade = min(label, MAX_GRADE)
    return (2**grade - 1) / 2**MAX_GRADE if grade > 0 else 0.0


def compute(query: Query, args: Args) -> float:
    """Sum over ranks r (<= k) of R_r / r * prod_{i < r} (1 - R_i), as gdeval's ``err``."""
    k = args.k
    score = 0.0
    decay = 1.0
    for rank, label in zip(query.ranks, query.labels, strict=True):
        if k is not None and rank >= k:
            break
        if label > 0:  # R = 0 adds 0 and keeps the decay: skipping it is exact
            stop = stop_probability(label)
            score += stop * decay / (rank + 1)
            decay *= 1 - stop
    return score


def explain(query: Query, args: Args) -> Terms:
    """Each rank r adds R_r * (chance of reaching r) / r; the stop probabilities in detail."""
    steps = []
    decay = 1.0
    score = 0.0
    for index, label in enumerate(labels_by_rank(query, args.k)):
        if label is None or label <= 0:
            steps.append(Term(index, 0.0, "0", {"stop": 0.0, "reach": decay}))
            continue
        stop = stop_probability(label)
        term = stop * decay / (index + 1)
        score += term
        grade = min(label, MAX_GRADE)
        detail = {"stop": stop, "reach": decay}
        steps.append(
            Term(index, term, f"((2^{grade}-1)/2^{MAX_GRADE})·{number(decay)}/{index + 1}", detail)
        )
        decay *= 1 - stop
    quantities = {"max_grade": float(MAX_GRADE), "reach_end": decay}
    if args.k is not None:
        quantities["k"] = float(args.k)
    return Terms(tuple(steps), score, 1.0, quantities)


MEASURE = Measure(
    name="ERR",
    compute=compute,
    explain=explain,
    summary="Expected reciprocal rank: a cascade user stops at grade g with probability "
    "(2^g - 1)/16 (gdeval, maximum grade 4); ERR@k reads the top k.",
    citation="Chapelle, Metzler, Zhang & Grinspan, Expected reciprocal rank for graded "
    "relevance, CIKM 2009.",
    cutoff="optional",
)
