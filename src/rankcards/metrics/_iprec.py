"""IPrec@r: interpolated precision at recall r (trec_eval ``iprec_at_recall``).

trec_eval turns r into a number of relevant documents, c = lround(r * R), and interpolates:
IPrec = max over ranks i at or below the c-th relevant document of P@i (for c = 0, from the
first relevant document). It is 0 when fewer than c relevant documents were retrieved.
trec_eval prints r = 0.00, 0.10, ..., 1.00 (the 11-point curve); any r in [0, 1] works here.
"""

from __future__ import annotations

from ._measure import REL, Measure, Param
from ._query import Args, Query
from ._terms import Term, Terms, labels_by_rank

RECALL = Param("recall", float, None, 0.0, 1.0, "a number with 0 <= r <= 1")


def compute(query: Query, args: Args) -> float:
    """max_{m >= max(c, 1)} m / rank_m, rank_m the rank of the m-th relevant document."""
    found = query.positions(args.rel)
    needed = relevant_needed(args.recall, query.num_rel(args.rel))
    if needed > len(found):
        return 0.0
    best = 0.0
    for seen in range(len(found), max(needed, 1) - 1, -1):
        precision = seen / (found[seen - 1] + 1)
        if precision > best:
            best = precision
    return best


def relevant_needed(recall: float, num_rel: int) -> int:
    """C's lround(recall * num_rel): halves round away from zero, as trec_eval does."""
    scaled = recall * num_rel
    whole = int(scaled)
    return whole + 1 if scaled - whole >= 0.5 else whole


def explain(query: Query, args: Args) -> Terms:
    """The ranks with P@i and R@i; the relevant ranks down to the best one count 1 each.

    The value is m / rank_m for the relevant document m where the interpolated maximum is
    reached, so the numerator counts the m relevant documents and the denominator is rank_m.
    """
    num_rel = query.num_rel(args.rel)
    needed = relevant_needed(args.recall, num_rel)
    labels = labels_by_rank(query)
    found = query.positions(args.rel)
    best_seen = 0
    best = 0.0
    if needed <= len(found):
        for seen in range(len(found), max(needed, 1) - 1, -1):
            precision = seen / (found[seen - 1] + 1)
            if precision > best:
                best, best_seen = precision, seen
    best_rank = found[best_seen - 1] + 1 if best_seen else 0
    steps = []
    seen = 0
    for index, label in enumerate(labels):
        hit = label is not None and label >= args.rel
        seen += hit
        counts = hit and index < best_rank
        detail = {"precision": seen / (index + 1), "recall": seen / num_rel if num_rel else 0.0}
        steps.append(Term(index, 1.0 if counts else 0.0, "1" if counts else "0", detail))
    quantities = {
        "R": float(num_rel),
        "recall": args.recall,
        "relevant_needed": float(needed),
        "best_rank": float(best_rank),
    }
    return Terms(tuple(steps), float(best_seen), float(best_rank or 1), quantities)


MEASURE = Measure(
    name="IPrec",
    compute=compute,
    explain=explain,
    summary="Interpolated precision at recall r: the best precision at or beyond recall r "
    "(trec_eval iprec_at_recall; IPrec@0.5 is iprec_at_recall_0.50).",
    citation="Manning, Raghavan & Schutze, Introduction to Information Retrieval, ch. 8.4, 2008.",
    cutoff="required",
    params=(REL, RECALL),
    trec_eval_cut="iprec_at_recall",
    at="recall",
)
