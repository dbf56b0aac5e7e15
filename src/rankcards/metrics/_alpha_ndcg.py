"""alpha-nDCG@k: nDCG over subtopics with a novelty discount, as ndeval computes it.

Each document gains, per subtopic it is relevant to, (1 - alpha)^c with c the documents above it
already relevant to that subtopic; gains are discounted by 1/log2(rank + 1), added up to k and
divided by the same sum over ndeval's greedy ideal ranking (see ``_subtopics``). Relevance is
binary per subtopic (label >= rel). Clarke et al. (SIGIR 2008) define the gain the same way
and note that the ideal ranking is NP-hard to find: the greedy one is the usual approximation,
so a run can (rarely) score above 1, as in ndeval.
"""

from __future__ import annotations

from ._measure import ALPHA, REL, Measure
from ._query import Args, Query
from ._subtopics import cumulated, discount, judgments, normalised, novelty_gains, ranked_subtopics
from ._terms import Term, Terms, number


def _terms(query: Query, args: Args) -> tuple[list[float], list[float], list[float], int]:
    """The run's gains, its discounted gains and the ideal's discounted gains, and N."""
    k = args.cutoff()
    gains = novelty_gains(ranked_subtopics(query, args.rel, k), args.alpha)
    ideal = novelty_gains(judgments(query).ideal(args.rel, args.alpha, k), args.alpha)
    return (
        gains,
        [gain * discount(rank) for rank, gain in enumerate(gains)],
        [gain * discount(rank) for rank, gain in enumerate(ideal)],
        judgments(query).count(args.rel),
    )


def compute(query: Query, args: Args) -> float:
    """alpha-DCG@k / ideal alpha-DCG@k, both first divided by ndeval's ideal-ideal (same ulps)."""
    _, run, ideal, count = _terms(query, args)
    dcg = cumulated(run)
    if count == 0 or dcg == 0.0:
        return 0.0
    k = args.cutoff()
    best = normalised(cumulated(ideal), count, args.alpha, k, "dcg")
    return normalised(dcg, count, args.alpha, k, "dcg") / best


def explain(query: Query, args: Args) -> Terms:
    """Each rank adds its novelty gain over log2(rank + 1); the ideal's sum divides."""
    gains, run, ideal, count = _terms(query, args)
    ranked = ranked_subtopics(query, args.rel, args.cutoff())
    seen: dict[int, float] = {}
    steps = []
    for rank, (found, gain, term) in enumerate(zip(ranked, gains, run, strict=True)):
        weights = []
        new = 0
        for index in found:
            new += index not in seen
            weights.append(seen.get(index, 1.0))
            seen[index] = weights[-1] * (1.0 - args.alpha)
        shown = "+".join(number(weight) for weight in weights) or "0"
        if len(weights) > 1:
            shown = f"({shown})"
        detail = {"gain": gain, "discount": discount(rank), "subtopics": len(found), "new": new}
        steps.append(Term(rank, term, f"{shown}/log2({rank + 2})", detail))
    quantities = {"k": float(args.cutoff()), "alpha": args.alpha, "N": float(count)}
    return Terms(tuple(steps), cumulated(run), cumulated(ideal), quantities)


MEASURE = Measure(
    name="alpha_nDCG",
    compute=compute,
    explain=explain,
    summary="alpha-nDCG@k: gain (1-alpha)^c per subtopic a document covers, c = documents above "
    "covering it; over ndeval's greedy ideal (diversity qrels: 'qid subtopic docno rel').",
    citation="Clarke, Kolla, Cormack, Vechtomova, Ashkan, Büttcher & MacKinnon, Novelty and "
    "diversity in information retrieval evaluation, SIGIR 2008; ndeval 4.5.",
    cutoff="required",
    params=(ALPHA, REL),
    subtopics=True,
)
