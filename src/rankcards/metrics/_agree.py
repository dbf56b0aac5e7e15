"""Two sets of judgments of the same queries (e.g. human and LLM labels), compared.

:func:`judged_pairs` pairs the labels that two qrels give to the same (query, document);
:func:`agreement` adds the coefficients of ``_agreement`` over those pairs and, given runs,
the rank correlation of the runs' two orderings (``_correlation``). Its result is what
``rankcards agree --format json`` prints and what the evaluate page shows.

What counts as judged: a qrels line with a label ``>= 0``. A negative label is trec_eval's
"in the pool but unjudged" (``form_res_rels.c``: ``rel < 0`` becomes ``RELVALUE_UNJUDGED``),
so such a line is not a judgment: the pair is compared only if both sides judged it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from ._agreement import cohen_kappa, confusion_matrix, krippendorff_alpha
from ._correlation import kendall_tau, tau_ap
from ._data import Qrels
from ._evaluate import QrelsLike, RunLike, _qrels_from_mapping, evaluate, measure_specs

#: The measure that orders the runs when none is given.
DEFAULT_MEASURE = "nDCG@10"


@dataclass(frozen=True)
class JudgedPairs:
    """The (query, document) pairs two qrels both judged, with each side's label.

    ``pairs[n]`` got ``a[n]`` from the first qrels and ``b[n]`` from the second; pairs are in
    query order, then document order (both sorted). ``only_a`` and ``only_b`` count the pairs
    judged on one side only.
    """

    pairs: tuple[tuple[str, str], ...]
    a: tuple[int, ...]
    b: tuple[int, ...]
    only_a: int
    only_b: int


def judged_pairs(qrels_a: QrelsLike, qrels_b: QrelsLike) -> JudgedPairs:
    """Pair the labels two qrels give to the same (query, document).

    A label below 0 is not a judgment (trec_eval's judged-unjudged): that side did not judge
    the pair.

    Args:
        qrels_a: from :func:`read_qrels`, or a mapping ``qid -> {docno: label}``.
        qrels_b: the other judgments, in the same forms.

    Returns:
        JudgedPairs: the pairs judged in both, their labels, and the counts judged on one
        side only.

    Example:
        >>> a = {"q1": {"d1": 2, "d2": 0, "d3": 1}, "q2": {"d9": 1}}
        >>> b = {"q1": {"d1": 1, "d2": 0, "d4": 1, "d3": -1}}
        >>> paired = judged_pairs(a, b)
        >>> paired.pairs, paired.a, paired.b, paired.only_a, paired.only_b
        ((('q1', 'd1'), ('q1', 'd2')), (2, 0), (1, 0), 2, 1)
    """
    first, second = _qrels(qrels_a), _qrels(qrels_b)
    pairs: list[tuple[str, str]] = []
    labels_a: list[int] = []
    labels_b: list[int] = []
    judged_a = judged_b = 0
    for qid in sorted(set(first) | set(second)):
        left = first.raw(qid) if qid in first else {}
        right = second.raw(qid) if qid in second else {}
        judged_a += len(left)
        judged_b += len(right)
        for docno in sorted(left.keys() & right.keys()):
            pairs.append((qid, docno.decode("utf-8", "surrogateescape")))
            labels_a.append(left[docno])
            labels_b.append(right[docno])
    both = len(pairs)
    return JudgedPairs(
        tuple(pairs), tuple(labels_a), tuple(labels_b), judged_a - both, judged_b - both
    )


def agreement(
    qrels_a: QrelsLike,
    qrels_b: QrelsLike,
    runs: Mapping[str, RunLike] | None = None,
    measure: str = DEFAULT_MEASURE,
) -> dict[str, object]:
    """How far two sets of judgments agree, on labels and on the ordering of runs.

    Over the pairs both judged (:func:`judged_pairs`): their count ``documents``,
    ``only_a`` and ``only_b``, the ``grades`` either side used (sorted), the ``confusion``
    table over them (A's grades in rows, B's in columns), Cohen's κ unweighted, linear and
    quadratic (:func:`cohen_kappa`), and Krippendorff's alpha nominal, ordinal and interval
    (:func:`krippendorff_alpha`, A and B as two coders).

    With ``runs`` (two or more), ``systems``: each run's mean ``measure`` under A and under B
    (:func:`evaluate`'s defaults, as ``rankcards eval``: the mean over the queries of both
    the run and that qrels), and between the two orderings of the runs, Kendall's τ-b
    (:func:`kendall_tau`) and τ_AP with A's ordering as the reference (:func:`tau_ap`).

    Args:
        qrels_a: the reference judgments (e.g. human), as :func:`read_qrels` gives or a
            mapping ``qid -> {docno: label}``.
        qrels_b: the judgments compared with them (e.g. an LLM's).
        runs: ``name -> run`` (from :func:`read_run`, or ``qid -> {docno: score}``); None
            for no ``systems``.
        measure: the measure that orders the runs, a name such as ``"AP"`` or ``"P@10"``.

    Returns:
        ``{"documents", "only_a", "only_b", "grades", "confusion", "cohen_kappa",
        "cohen_kappa_linear", "cohen_kappa_quadratic", "krippendorff_alpha": {"nominal",
        "ordinal", "interval"}, "systems": {"measure", "scores": {run: [a, b]},
        "kendall_tau", "tau_ap"} or None}``, plain JSON types; a coefficient that is
        undefined (e.g. every pair got the same grade on both sides) is ``None``.

    Raises:
        ValueError: no pair judged in both; fewer than two runs; a run with no query in
            common with one of the qrels; a counter as ``measure``.
        MeasureError: ``measure`` is not a measure name.

    Example:
        >>> a = {"q1": {"d1": 2, "d2": 0, "d3": 1, "d4": 0}}
        >>> b = {"q1": {"d1": 2, "d2": 1, "d3": 1, "d4": 0}}
        >>> result = agreement(a, b)
        >>> result["documents"], result["grades"], result["confusion"]
        (4, [0, 1, 2], [[1, 1, 0], [0, 1, 0], [0, 0, 1]])
        >>> round(result["cohen_kappa"], 4), round(result["cohen_kappa_quadratic"], 4)
        (0.6364, 0.8)
    """
    first, second = _qrels(qrels_a, "A"), _qrels(qrels_b, "B")
    paired = judged_pairs(first, second)
    if not paired.pairs:
        raise ValueError(
            f"no (query, document) pair is judged in both {first.name} and {second.name} "
            "(a negative label is not a judgment)"
        )
    systems = None if runs is None else _systems(first, second, runs, measure)
    grades = sorted(set(paired.a) | set(paired.b))
    coders = [list(paired.a), list(paired.b)]
    return {
        "documents": len(paired.pairs),
        "only_a": paired.only_a,
        "only_b": paired.only_b,
        "grades": grades,
        "confusion": confusion_matrix(paired.a, paired.b, grades),
        "cohen_kappa": _defined(cohen_kappa(paired.a, paired.b)),
        "cohen_kappa_linear": _defined(cohen_kappa(paired.a, paired.b, "linear")),
        "cohen_kappa_quadratic": _defined(cohen_kappa(paired.a, paired.b, "quadratic")),
        "krippendorff_alpha": {
            level: _defined(krippendorff_alpha(coders, level))
            for level in ("nominal", "ordinal", "interval")
        },
        "systems": systems,
    }


def _systems(
    qrels_a: Qrels, qrels_b: Qrels, runs: Mapping[str, RunLike], measure: str
) -> dict[str, object]:
    """Each run's mean under both qrels and the correlation of the two orderings."""
    if len(runs) < 2:
        raise ValueError(f"ordering systems needs at least two runs, got {len(runs)}")
    (spec,) = measure_specs([measure])
    if spec.measure.is_counter:
        raise ValueError(f"{spec.name} is a counter, not a per-query measure: it orders no runs")
    scores: dict[str, list[float]] = {}
    for name, run in runs.items():
        scores[name] = []
        for qrels in (qrels_a, qrels_b):
            try:
                result = evaluate(qrels, run, [spec])
            except ValueError as error:  # no query in common
                raise ValueError(f"{name}: {error} ({qrels.name})") from None
            scores[name].append(result.aggregate[spec.name])
    under_a = [pair[0] for pair in scores.values()]
    under_b = [pair[1] for pair in scores.values()]
    return {
        "measure": spec.name,
        "scores": scores,
        "kendall_tau": _defined(kendall_tau(under_a, under_b)),
        "tau_ap": _defined(tau_ap(under_a, under_b)),
    }


def _qrels(qrels: QrelsLike, name: str | None = None) -> Qrels:
    """``qrels`` as :class:`Qrels`; a mapping is named ``name`` in messages."""
    if isinstance(qrels, Qrels):
        return qrels
    converted = _qrels_from_mapping(qrels)
    if name is not None:
        converted.name = name
    return converted


def _defined(value: float) -> float | None:
    """``None`` for an undefined coefficient (nan): JSON has no NaN."""
    return None if math.isnan(value) else value
