"""bpref: binary preference, robust to incomplete judgments (trec_eval ``bpref``)."""

from __future__ import annotations

from ._measure import REL, Measure
from ._query import Args, Query
from ._terms import Term, Terms, labels_by_rank


def compute(query: Query, args: Args) -> float:
    """Mean over relevant docs of 1 - min(n, R) / min(N, R), n = judged non-relevant above it.

    Unjudged retrieved documents are skipped; R = relevant, N = judged non-relevant documents.
    """
    rel = args.rel
    num_rel = query.num_rel(rel)
    if num_rel == 0:
        return 0.0
    denominator = min(query.num_nonrel(rel), num_rel)
    nonrel_above = 0
    total = 0.0
    for label in query.labels:  # judged retrieved documents, in rank order
        if label < rel:
            nonrel_above += 1
        elif nonrel_above > 0:
            total += 1.0 - min(nonrel_above, num_rel) / denominator
        else:
            total += 1.0
    return total / num_rel


def explain(query: Query, args: Args) -> Terms:
    """Each relevant document adds 1 - min(n, R)/min(N, R), n the judged non-relevant above it."""
    rel = args.rel
    num_rel = query.num_rel(rel)
    num_nonrel = query.num_nonrel(rel)
    denominator = min(num_nonrel, num_rel)
    steps = []
    nonrel_above = 0
    for index, label in enumerate(labels_by_rank(query)):
        if label is None:  # unjudged: bpref skips it
            steps.append(Term(index, 0.0, "0", {"nonrel_above": nonrel_above}))
        elif label < rel:
            nonrel_above += 1
            steps.append(Term(index, 0.0, "0", {"nonrel_above": nonrel_above}))
        elif nonrel_above > 0:
            capped = min(nonrel_above, num_rel)
            term = 1.0 - capped / denominator
            detail = {"nonrel_above": nonrel_above}
            steps.append(Term(index, term, f"1-{capped}/{denominator}", detail))
        else:
            steps.append(Term(index, 1.0, "1", {"nonrel_above": 0}))
    numerator = 0.0
    for step in steps:
        numerator += step.contribution
    quantities = {"R": float(num_rel), "N": float(num_nonrel), "min(N,R)": float(denominator)}
    return Terms(tuple(steps), numerator, float(num_rel), quantities)


MEASURE = Measure(
    name="bpref",
    compute=compute,
    explain=explain,
    summary="Binary preference: how often judged relevant documents rank above judged "
    "non-relevant ones; unjudged documents are ignored (trec_eval bpref).",
    citation="Buckley & Voorhees, Retrieval evaluation with incomplete information, SIGIR 2004.",
    params=(REL,),
    trec_eval="bpref",
)
