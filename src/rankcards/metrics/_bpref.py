"""bpref: binary preference, robust to incomplete judgments (trec_eval ``bpref``)."""

from __future__ import annotations

from ._measure import REL, Measure
from ._query import Args, Query


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


MEASURE = Measure(
    name="bpref",
    compute=compute,
    summary="Binary preference: how often judged relevant documents rank above judged "
    "non-relevant ones; unjudged documents are ignored (trec_eval bpref).",
    citation="Buckley & Voorhees, Retrieval evaluation with incomplete information, SIGIR 2004.",
    params=(REL,),
    trec_eval="bpref",
)
