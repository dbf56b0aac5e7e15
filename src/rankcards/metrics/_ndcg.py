"""nDCG / nDCG@k: normalised discounted cumulative gain (trec_eval ``ndcg``, ``ndcg_cut``).

The discount of rank r is log2(r + 1); the ideal ranking orders all judged documents by label.
The gain follows ir_measures' ``dcg`` parameter: ``log2`` (the default, trec_eval's) takes the
label itself (linear gain); ``exp-log2`` takes 2^label - 1, as gdeval (TREC Web track) does.
The relevance level does not apply: every positive label is a gain.
"""

from __future__ import annotations

from math import log2

from ._measure import Measure, Param
from ._query import Args, Query
from ._terms import Term, Terms, labels_by_rank

DCG = Param("dcg", str, "log2", 0, None, "log2 or exp-log2", choices=("log2", "exp-log2"))


def gain(label: int, dcg: str) -> float:
    """The gain of a label: itself (``log2``) or 2^label - 1 (``exp-log2``); labels > 0."""
    return float(2**label - 1) if dcg == "exp-log2" else float(label)


def compute(query: Query, args: Args) -> float:
    """DCG of the run (top k) divided by the DCG of the ideal ranking (top k); 0 if no gain."""
    k = args.k
    exponential = args.dcg == "exp-log2"
    dcg = 0.0
    for rank, label in zip(query.ranks, query.labels, strict=True):
        if k is not None and rank >= k:
            break
        if label > 0:
            dcg += (2**label - 1 if exponential else label) / log2(rank + 2)
    ideal = 0.0
    rank = 0
    levels = query.levels
    for label in range(len(levels) - 1, 0, -1):
        value = 2**label - 1 if exponential else label
        for _ in range(levels[label]):
            if k is not None and rank >= k:
                break
            ideal += value / log2(rank + 2)
            rank += 1
    return dcg / ideal if ideal > 0.0 else 0.0


def explain(query: Query, args: Args) -> Terms:
    """Gain over discount at each rank of the run and of the ideal ranking (its sum: IDCG)."""
    steps = []
    dcg = 0.0
    for index, label in enumerate(labels_by_rank(query, args.k)):
        discount = log2(index + 2)
        if label is None or label <= 0:
            steps.append(Term(index, 0.0, "0", {"gain": 0.0, "discount": discount}))
            continue
        term = gain(label, args.dcg) / discount
        dcg += term
        steps.append(
            Term(index, term, _expression(label, index, args.dcg), _detail(label, index, args.dcg))
        )
    ideal = []
    idcg = 0.0
    for index, label in enumerate(_ideal_labels(query, args.k)):
        term = gain(label, args.dcg) / log2(index + 2)
        idcg += term
        ideal.append(
            Term(
                index,
                term,
                _expression(label, index, args.dcg),
                _detail(label, index, args.dcg),
                label,
            )
        )
    quantities = {"DCG": dcg, "IDCG": idcg}
    if args.k is not None:
        quantities["k"] = float(args.k)
    return Terms(tuple(steps), dcg, idcg, quantities, tuple(ideal))


def _ideal_labels(query: Query, k: int | None) -> list[int]:
    """The positive labels of all judged documents, highest first, cut at k."""
    labels = []
    levels = query.levels
    for label in range(len(levels) - 1, 0, -1):
        labels.extend([label] * levels[label])
        if k is not None and len(labels) >= k:
            return labels[:k]
    return labels


def _expression(label: int, index: int, dcg: str) -> str:
    shown = f"(2^{label}-1)" if dcg == "exp-log2" else str(label)
    return f"{shown}/log2({index + 2})"


def _detail(label: int, index: int, dcg: str) -> dict[str, float]:
    return {"gain": gain(label, dcg), "discount": log2(index + 2)}


MEASURE = Measure(
    name="nDCG",
    compute=compute,
    explain=explain,
    summary="Normalised DCG with log2(rank + 1) discount; gains linear (dcg=log2, trec_eval "
    "ndcg, ndcg_cut) or 2^g - 1 (dcg=exp-log2, gdeval); nDCG@k cuts run and ideal at k.",
    citation="Jarvelin & Kekalainen, Cumulated gain-based evaluation of IR techniques, "
    "ACM TOIS 20(4), 2002; Burges et al., Learning to rank using gradient descent, ICML 2005.",
    cutoff="optional",
    params=(DCG,),
    trec_eval="ndcg",
    trec_eval_cut="ndcg_cut",
)
