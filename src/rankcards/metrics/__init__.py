"""rankcards.metrics: trec_eval-exact retrieval measures in pure standard-library Python.

The same code runs the test suite, the ``rankcards eval`` command and, through Pyodide, the
site's visualizers and code examples. Two faces over one implementation:

- collection level: :func:`read_qrels`, :func:`read_run`, :func:`evaluate` (trec_eval rules),
  and :func:`evaluate_files`, which evaluates a run file while reading it;
- teaching level: :func:`reciprocal_rank`, :func:`precision_at_k`, :func:`ndcg_at_k` ...
  over plain ordered lists, computed by the very measure functions ``evaluate`` uses; the
  diversity measures likewise (:func:`alpha_ndcg_at_k` ..., ndeval's definitions);
- explanation: :func:`explain`, the per-rank terms behind one query's value;
- fusion: :func:`fuse` (RRF, CombSUM, CombMNZ over runs, as ranx) and :func:`rrf_fuse`;
- benchmarks: :func:`beir_evaluate` (BEIR's and MTEB's retrieval scores, identical-id rule
  included);
- retrieval for RAG: Ragas' context precision and recall (:func:`ragas_context_precision`
  ...) and AutoNuggetizer's :func:`nugget_scores`, from the verdicts those tools produce;
- comparison: :func:`compare_runs` (:func:`paired_scores` then :func:`compare_scores`), paired
  significance tests between runs (``_stats``: t, Wilcoxon, randomization, bootstrap);
- rank correlation between two orderings of systems: :func:`kendall_tau` (τ-b) and
  :func:`tau_ap` (AP correlation);
- vector-index benchmarking: :func:`knn_recall` and :func:`mean_knn_recall` (approximate
  neighbours against exact ones, as ann-benchmarks, big-ann-benchmarks or by ids),
  :func:`percentile` (latency percentiles, NumPy's default), :func:`pareto_frontier` and
  :func:`best_at_recall` (operating points of an index);
- agreement between assessors: :func:`confusion_matrix`, :func:`cohen_kappa` (unweighted,
  linear, quadratic), :func:`krippendorff_alpha`, :func:`fleiss_kappa`; between two qrels:
  :func:`judged_pairs` and :func:`agreement` (what ``rankcards agree`` prints).

Measure names follow ir_measures notation (``RR@10``, ``P(rel=2)@5``, ``RBP(p=0.8)``); see
:func:`measure_names`. Results are keyed by canonical names: aliases resolve
(``HitRate@10`` -> ``Success@10``) and default parameters are left out.
"""

from ._agree import JudgedPairs, agreement, judged_pairs
from ._agreement import cohen_kappa, confusion_matrix, fleiss_kappa, krippendorff_alpha
from ._beir import beir_evaluate
from ._compare import PairedScores, compare_runs, compare_scores, paired_scores
from ._correlation import kendall_tau, tau_ap
from ._data import Qrels, Run
from ._diversity import (
    alpha_ndcg_at_k,
    diverse_ideal_ranking,
    err_ia_at_k,
    nerr_ia_at_k,
    precision_ia_at_k,
    subtopic_recall_at_k,
)
from ._errors import MeasureError, TrecFormatError
from ._evaluate import Evaluation, SubtopicWarning, evaluate
from ._explain import Explanation, Step, explain
from ._frontier import best_at_recall, pareto_frontier
from ._fuse import fuse, rrf_fuse
from ._knn_recall import knn_recall, mean_knn_recall
from ._means import (
    hit_rate_at_k,
    mean_average_precision,
    mean_ndcg_at_k,
    mean_precision_at_k,
    mean_recall_at_k,
    mean_reciprocal_rank,
)
from ._measure import Measure, MeasureSpec
from ._parse import measure_names, parse_measure
from ._percentile import percentile
from ._rag import (
    NuggetScores,
    levenshtein_similarity,
    nugget_scores,
    ragas_context_precision,
    ragas_context_recall,
    ragas_id_context_precision,
    ragas_id_context_recall,
    ragas_string_context_precision,
    ragas_string_context_recall,
)
from ._readers import read_qrels, read_run
from ._stream import evaluate_files
from ._teaching import (
    average_precision,
    err_at_k,
    f1_at_k,
    hit_at_k,
    interpolated_precision,
    judged_at_k,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
)

__all__ = [
    "Evaluation",
    "Explanation",
    "JudgedPairs",
    "Measure",
    "MeasureError",
    "MeasureSpec",
    "NuggetScores",
    "PairedScores",
    "Qrels",
    "Run",
    "Step",
    "SubtopicWarning",
    "TrecFormatError",
    "agreement",
    "alpha_ndcg_at_k",
    "average_precision",
    "beir_evaluate",
    "best_at_recall",
    "cohen_kappa",
    "compare_runs",
    "compare_scores",
    "confusion_matrix",
    "diverse_ideal_ranking",
    "err_at_k",
    "err_ia_at_k",
    "evaluate",
    "evaluate_files",
    "explain",
    "f1_at_k",
    "fleiss_kappa",
    "fuse",
    "hit_at_k",
    "hit_rate_at_k",
    "interpolated_precision",
    "judged_at_k",
    "judged_pairs",
    "kendall_tau",
    "knn_recall",
    "krippendorff_alpha",
    "levenshtein_similarity",
    "mean_average_precision",
    "mean_knn_recall",
    "mean_ndcg_at_k",
    "mean_precision_at_k",
    "mean_recall_at_k",
    "mean_reciprocal_rank",
    "measure_names",
    "ndcg_at_k",
    "nerr_ia_at_k",
    "nugget_scores",
    "paired_scores",
    "pareto_frontier",
    "parse_measure",
    "percentile",
    "precision_at_k",
    "precision_ia_at_k",
    "ragas_context_precision",
    "ragas_context_recall",
    "ragas_id_context_precision",
    "ragas_id_context_recall",
    "ragas_string_context_precision",
    "ragas_string_context_recall",
    "read_qrels",
    "read_run",
    "recall_at_k",
    "reciprocal_rank",
    "rrf_fuse",
    "subtopic_recall_at_k",
    "tau_ap",
]
