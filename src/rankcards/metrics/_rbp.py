"""RBP(p=X): rank-biased precision with persistence p (trec_eval ``rbp``).

Like trec_eval, gains are the judged labels, scaled to [0, 1] by the query's highest level
when that level exceeds 1. trec_eval's default p is 0.9 (its ``rbp``); ours follows
ir_measures (0.8), so the canonical name always shows p. No residual is reported.
"""

from __future__ import annotations

from ._measure import Measure, Param
from ._query import Args, Query
from ._terms import Term, Terms, labels_by_rank, number

_P = Param("p", float, 0.8, 0.0, 1.0, "a number with 0 < p < 1", always_shown=True, exclusive=True)


def compute(query: Query, args: Args) -> float:
    """(1 - p) * sum over ranks i (from 0) of gain_i * p**i."""
    scale = _scale(query)
    p = args.p
    total = 0.0
    for rank, label in zip(query.ranks, query.labels, strict=True):
        if label > 0:
            total += (label / scale) * p**rank
    return (1.0 - p) * total


def explain(query: Query, args: Args) -> Terms:
    """Each rank i (1-based) adds (1 - p) * gain * p^(i-1); the sum is the value."""
    scale = _scale(query)
    p = args.p
    steps = []
    for index, label in enumerate(labels_by_rank(query)):
        weight = p**index
        if label is None or label <= 0:
            steps.append(Term(index, 0.0, "0", {"gain": 0.0, "weight": weight}))
            continue
        gain = label / scale
        shown = number(gain) if scale == 1.0 else f"{label}/{number(scale)}"
        steps.append(
            Term(
                index,
                (1.0 - p) * gain * weight,
                f"(1-{number(p)})·{shown}·{number(p)}^{index}",
                {"gain": gain, "weight": weight},
            )
        )
    numerator = 0.0
    for step in steps:
        numerator += step.contribution
    return Terms(tuple(steps), numerator, 1.0, {"p": p, "scale": scale})


def _scale(query: Query) -> float:
    """trec_eval divides gains by the query's highest judged level when it exceeds 1."""
    top = len(query.levels) - 1
    return float(top) if top > 1 else 1.0


MEASURE = Measure(
    name="RBP",
    compute=compute,
    explain=explain,
    summary="Rank-biased precision: expected gain per document of a user who goes on to the "
    "next rank with probability p (trec_eval rbp, whose default p is 0.9).",
    citation="Moffat & Zobel, Rank-biased precision for measurement of retrieval "
    "effectiveness, ACM TOIS 27(1), 2008.",
    params=(_P,),
    trec_eval="rbp",
    trec_eval_params=(("p", 0.9),),
)
