"""BEIR's evaluation of a retrieval run, as ``EvaluateRetrieval.evaluate`` computes it.

BEIR (github.com/beir-cellar/beir, v2.2.0, commit ef83d29, ``beir/retrieval/evaluation.py``)
hands the run to pytrec_eval (trec_eval 9.x) for ``ndcg_cut``, ``map_cut``, ``recall`` and
``P`` at each cutoff, averages each over the queries pytrec_eval scored, rounds to 5 decimals
and, by default, first deletes from the run every document whose id equals its query's id
(``ignore_identical_ids=True``), *in the dictionary it was given*. MTEB's
``RetrievalEvaluator.evaluate`` (mteb 2.20, ``mteb/_evaluators/retrieval_evaluator.py`` and
``retrieval_metrics.py``) computes the same four numbers the same way, with
``ignore_identical_ids=False`` by default since mteb 1.12.53 (PR #833).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableMapping

from ._evaluate import evaluate

#: BEIR's result names and the trec_eval measure behind each (rankcards' name for it)
BEIR_MEASURES = (("NDCG", "nDCG"), ("MAP", "AP"), ("Recall", "R"), ("P", "P"))


def beir_evaluate(
    qrels: Mapping[str, Mapping[str, int]],
    results: MutableMapping[str, MutableMapping[str, float]],
    k_values: Iterable[int],
    ignore_identical_ids: bool = True,
) -> tuple[dict[str, float], dict[str, float], dict[str, float], dict[str, float]]:
    """nDCG@k, MAP@k, Recall@k and P@k of a run, as BEIR's ``EvaluateRetrieval.evaluate``.

    Formula: for each cutoff k, ``round(sum_q m_k(q) / |Q|, 5)``, where ``m_k`` is trec_eval's
    ``ndcg_cut_k``, ``map_cut_k``, ``recall_k`` or ``P_k`` and ``Q`` the queries of the run that
    the qrels judge (trec_eval's default: qrels queries missing from the run are left out).
    With ``ignore_identical_ids`` a document whose id equals the query's id is first removed
    from that query's results, **in place**: ``results`` stays without it afterwards, as in
    BEIR, so a second call with ``ignore_identical_ids=False`` on the same dictionary gives
    the same numbers as the first.

    Args:
        qrels: ``qid -> {doc_id: grade}`` (BEIR's ``GenericDataLoader`` qrels).
        results: ``qid -> {doc_id: score}``, the run; mutated when ``ignore_identical_ids``.
        k_values: the cutoffs (BEIR's ``EvaluateRetrieval`` uses 1, 3, 5, 10, 100, 1000).
        ignore_identical_ids: drop documents whose id is the query's id (BEIR's default
            ``True``; MTEB's default is ``False``).

    Returns:
        ``(ndcg, _map, recall, precision)``: dicts keyed ``"NDCG@k"``, ``"MAP@k"``,
        ``"Recall@k"`` and ``"P@k"``, values rounded to 5 decimals, as BEIR returns them.

    Raises:
        ValueError: no query of the run is in the qrels (BEIR divides by zero there).

    Reference:
        BEIR v2.2.0 (commit ef83d29), ``beir/retrieval/evaluation.py``,
        ``EvaluateRetrieval.evaluate``; Thakur et al., BEIR, NeurIPS 2021 Datasets and
        Benchmarks, https://arxiv.org/abs/2104.08663.

    Example:
        >>> qrels = {"a1": {"a1-counter": 1}}
        >>> results = {"a1": {"a1": 0.9, "a1-counter": 0.8, "x": 0.1}}  # the query finds itself
        >>> beir_evaluate(qrels, results, [1], ignore_identical_ids=False)[0]
        {'NDCG@1': 0.0}
        >>> beir_evaluate(qrels, results, [1])[0]  # the default drops "a1" from the run...
        {'NDCG@1': 1.0}
        >>> results  # ...for good
        {'a1': {'a1-counter': 0.8, 'x': 0.1}}
    """
    cutoffs = list(dict.fromkeys(k_values))  # BEIR's order; a repeated cutoff once
    if ignore_identical_ids:
        for qid, ranked in results.items():
            ranked.pop(qid, None)
    measures = [f"{ours}@{k}" for _, ours in BEIR_MEASURES for k in cutoffs]
    means = evaluate(qrels, results, measures).aggregate
    ndcg, _map, recall, precision = (
        {f"{theirs}@{k}": round(means[f"{ours}@{k}"], 5) for k in cutoffs}
        for theirs, ours in BEIR_MEASURES
    )
    return ndcg, _map, recall, precision
