"""Comparing runs: paired per-query scores and significance tests, as JSON-able results.

Two steps, both pure functions on standard-library types, so the CLI (``rankcards compare``)
and the evaluate page (Pyodide) give the same numbers:

1. :func:`paired_scores` evaluates every run over one query set: the qrels queries that any
   of the runs retrieved (a query missing from a run scores there what an empty ranking
   scores, 0), or with ``complete`` every qrels query.
2. :func:`compare_scores` compares every run with the first (the baseline), or every pair,
   per measure, with one of the tests of ``_stats``, and corrects the p-values over all the
   comparisons of the call.

:func:`compare_runs` does both. Each comparison draws its random numbers from a fresh
``random.Random(seed)``, so its result does not depend on the other comparisons of the call.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from . import _stats
from ._evaluate import QrelsLike, RunLike, evaluate, measure_specs
from ._measure import MeasureSpec

Test = Literal["t", "wilcoxon", "randomization", "bootstrap"]
TESTS: tuple[Test, ...] = ("t", "wilcoxon", "randomization", "bootstrap")
Correction = Literal["none", "holm", "bonferroni"]
CORRECTIONS: tuple[Correction, ...] = ("none", "holm", "bonferroni")

#: Confidence level of the interval every comparison reports.
CONFIDENCE = 0.95


@dataclass(frozen=True)
class PairedScores:
    """Per-query values of several runs over the same queries.

    ``scores[run][measure][i]`` is the value of ``run`` on ``queries[i]``.
    """

    queries: tuple[str, ...]
    scores: dict[str, dict[str, list[float]]]


def paired_scores(
    qrels: QrelsLike,
    runs: Mapping[str, RunLike],
    measures: Iterable[str | MeasureSpec],
    complete: bool = False,
    depth: int | None = None,
    rel_level: int = 1,
) -> PairedScores:
    """Evaluate each run (trec_eval rules, see :func:`evaluate`) over one shared query set.

    The queries are the qrels queries that at least one run retrieved, in trec_eval's order;
    a run that lacks one of them is scored on it as an empty ranking (0 for every measure).
    With ``complete`` they are all the qrels queries. Counters (``num_q``, ``num_ret``, ...)
    are not means of per-query values and are refused.

    Raises:
        MeasureError: a measure name is invalid.
        ValueError: a counter among the measures, no run, or no qrels query in any run.

    Example:
        >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}}
        >>> runs = {"base": {"q1": {"a": 1.0}}, "new": {"q2": {"b": 1.0}}}
        >>> paired = paired_scores(qrels, runs, ["RR"])
        >>> paired.queries, paired.scores["base"]["RR"], paired.scores["new"]["RR"]
        (('q1', 'q2'), [1.0, 0.0], [0.0, 1.0])
    """
    specs = measure_specs(measures)
    for spec in specs:
        if spec.measure.is_counter:
            raise ValueError(
                f"{spec.name} is a counter, not a per-query measure: it cannot be compared"
            )
    if not runs:
        raise ValueError("no run to compare")
    evaluations = {
        name: evaluate(qrels, run, specs, True, depth, rel_level) for name, run in runs.items()
    }
    every_query = next(iter(evaluations.values())).per_query.keys()
    retrieved = set().union(*(run.keys() for run in runs.values()))
    queries = tuple(q for q in every_query if complete or q in retrieved)
    if not queries:
        raise ValueError("no query of the qrels appears in any run")
    names = [spec.name for spec in specs]
    return PairedScores(
        queries,
        {
            run: {name: [evaluation.per_query[q][name] for q in queries] for name in names}
            for run, evaluation in evaluations.items()
        },
    )


def compare_scores(
    scores: Mapping[str, Mapping[str, Sequence[float]]],
    test: Test = "t",
    alpha: float = 0.05,
    correction: Correction = "none",
    samples: int = 10_000,
    seed: int = 0,
    all_pairs: bool = False,
) -> dict[str, object]:
    """Compare runs on per-query values with a paired two-sided test.

    Every run is compared with the first (the baseline), or every pair in order with
    ``all_pairs`` (the earlier run as baseline). For each comparison and measure, with the
    differences ``d = run - baseline``: ``delta = mean(d)``, the test's ``p``, ``p_adjusted``
    (Holm or Bonferroni over all comparisons of the call, or ``p``), ``significant`` when
    ``p_adjusted < alpha``, the 95% interval of ``delta`` (t-based for ``t``, bootstrap
    percentile from ``samples`` resamples otherwise), the effect size ``mean(d) / sd(d)``
    (None when ``sd(d)`` is 0 and ``mean(d)`` is not) and the per-query wins, losses and ties
    of the run.

    Args:
        scores: ``run -> measure -> per-query values``, every list over the same queries in
            the same order (see :func:`paired_scores`); the first run is the baseline.
        test: ``"t"``, ``"wilcoxon"``, ``"randomization"`` or ``"bootstrap"`` (see ``_stats``).
        alpha: significance level, in (0, 1).
        correction: ``"none"``, ``"holm"`` or ``"bonferroni"``.
        samples: random sign flips (randomization beyond 16 non-zero differences) and
            bootstrap resamples.
        seed: seed of every comparison's ``random.Random``.
        all_pairs: compare every pair of runs, not only each run with the first.

    Returns:
        ``{"runs", "measures", "test", "alpha", "correction", "aggregate": {run: {measure:
        mean}}, "comparisons": [{"baseline", "run", "measure", "delta", "p", "p_adjusted",
        "significant", "ci": [low, high], "effect_size", "wins", "losses", "ties"}]}``,
        plain JSON types; comparisons measure by measure, pairs in order.

    Raises:
        ValueError: an unknown test or correction, ``alpha`` outside (0, 1), ``samples`` < 1,
            fewer than two runs, runs or measures that do not match, fewer than 2 queries,
            or a value that is not a finite number.

    Example:
        >>> scores = {"base": {"AP": [0.2, 0.4, 0.1, 0.3]}, "new": {"AP": [0.3, 0.6, 0.2, 0.6]}}
        >>> result = compare_scores(scores, test="randomization")
        >>> row = result["comparisons"][0]
        >>> round(row["delta"], 4), row["p"], row["wins"], row["losses"], row["ties"]
        (0.175, 0.125, 4, 0, 0)
    """
    _check_options(test, alpha, correction, samples)
    runs = list(scores)
    if len(runs) < 2:
        raise ValueError(f"compare needs at least two runs, got {len(runs)}")
    measures = list(scores[runs[0]])
    size = _check_vectors(scores, runs, measures)
    pairs = (
        [(a, b) for i, a in enumerate(runs) for b in runs[i + 1 :]]
        if all_pairs
        else [(runs[0], run) for run in runs[1:]]
    )
    if test == "t" and size < 2:
        raise ValueError(f"the paired t-test needs at least 2 queries, got {size}")
    keys = [(baseline, run, measure) for measure in measures for baseline, run in pairs]
    differences = [
        [b - a for a, b in zip(scores[base][m], scores[run][m], strict=True)]
        for base, run, m in keys
    ]
    # Every bootstrap of the call in one pass of draws (each as if drawn alone with seed);
    # the tests other than the bootstrap take only its interval.
    bootstraps: list[_stats.TestResult | None] = [None] * len(keys)
    intervals: list[tuple[float, float] | None] = [None] * len(keys)
    if test == "bootstrap":
        bootstraps = list(_stats.bootstrap_tests(differences, samples, seed, CONFIDENCE))
    elif test != "t":
        intervals = list(_stats.bootstrap_intervals(differences, samples, seed, CONFIDENCE))
    comparisons = [
        _compare(key, d, test, samples, seed, bootstrap, interval)
        for key, d, bootstrap, interval in zip(
            keys, differences, bootstraps, intervals, strict=True
        )
    ]
    p_values = [float(row["p"]) for row in comparisons]  # type: ignore[arg-type]
    adjusted = (
        _stats.holm(p_values)
        if correction == "holm"
        else _stats.bonferroni(p_values)
        if correction == "bonferroni"
        else p_values
    )
    for row, p_adjusted in zip(comparisons, adjusted, strict=True):
        row["p_adjusted"] = p_adjusted
        row["significant"] = p_adjusted < alpha
    return {
        "runs": runs,
        "measures": measures,
        "test": test,
        "alpha": alpha,
        "correction": correction,
        "aggregate": {
            run: {measure: _stats.mean(scores[run][measure]) for measure in measures}
            for run in runs
        },
        "comparisons": [_ordered(row) for row in comparisons],
    }


def compare_runs(
    qrels: QrelsLike,
    runs: Mapping[str, RunLike],
    measures: Iterable[str | MeasureSpec],
    complete: bool = False,
    depth: int | None = None,
    rel_level: int = 1,
    test: Test = "t",
    alpha: float = 0.05,
    correction: Correction = "none",
    samples: int = 10_000,
    seed: int = 0,
    all_pairs: bool = False,
) -> dict[str, object]:
    """:func:`paired_scores` then :func:`compare_scores`: what ``rankcards compare`` prints
    with ``--format json``.

    Example:
        >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}}
        >>> runs = {
        ...     "base": {"q1": {"x": 2.0, "a": 1.0}, "q2": {"b": 1.0}, "q3": {"x": 1.0}},
        ...     "new": {"q1": {"a": 1.0}, "q2": {"b": 1.0}, "q3": {"c": 1.0}},
        ... }
        >>> result = compare_runs(qrels, runs, ["RR"], test="wilcoxon")
        >>> result["aggregate"]
        {'base': {'RR': 0.5}, 'new': {'RR': 1.0}}
        >>> row = result["comparisons"][0]
        >>> row["wins"], row["losses"], row["ties"], round(row["p"], 4)
        (2, 0, 1, 0.1797)
    """
    _check_options(test, alpha, correction, samples)  # before the evaluation, the slow part
    paired = paired_scores(qrels, runs, measures, complete, depth, rel_level)
    return compare_scores(paired.scores, test, alpha, correction, samples, seed, all_pairs)


def _compare(
    key: tuple[str, str, str],
    differences: list[float],
    test: Test,
    samples: int,
    seed: int,
    bootstrap: _stats.TestResult | None,
    interval: tuple[float, float] | None,
) -> dict[str, object]:
    """One comparison (``key`` = baseline, run, measure), before the correction;
    ``bootstrap`` is the bootstrap test of ``differences`` (test ``bootstrap``), ``interval``
    their bootstrap percentile interval (Wilcoxon and randomization)."""
    if test == "t":
        result = _stats.paired_t_test(differences, CONFIDENCE)
    elif test == "bootstrap":
        assert bootstrap is not None
        result = bootstrap
    else:
        own = (
            _stats.wilcoxon_signed_rank(differences)
            if test == "wilcoxon"
            else _stats.randomization_test(differences, samples, seed)
        )
        result = _stats.TestResult(own.statistic, own.p, interval)
    ci = result.ci
    assert ci is not None  # every test reports an interval
    baseline, run, measure = key
    return {
        "baseline": baseline,
        "run": run,
        "measure": measure,
        "delta": _stats.mean(differences),
        "p": result.p,
        "ci": [ci[0], ci[1]],
        "effect_size": _stats.effect_size(differences),
        "wins": sum(1 for d in differences if d > 0.0),
        "losses": sum(1 for d in differences if d < 0.0),
        "ties": sum(1 for d in differences if d == 0.0),
    }


_KEYS = (
    "baseline",
    "run",
    "measure",
    "delta",
    "p",
    "p_adjusted",
    "significant",
    "ci",
    "effect_size",
    "wins",
    "losses",
    "ties",
)


def _ordered(row: dict[str, object]) -> dict[str, object]:
    """The comparison's keys in the documented order."""
    return {key: row[key] for key in _KEYS}


def _check_options(test: str, alpha: float, correction: str, samples: int) -> None:
    if test not in TESTS:
        raise ValueError(f"test must be one of {', '.join(TESTS)}, got {test!r}")
    if correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}, got {correction!r}")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    if samples < 1:
        raise ValueError(f"samples must be an integer >= 1, got {samples}")


def _check_vectors(
    scores: Mapping[str, Mapping[str, Sequence[float]]], runs: list[str], measures: list[str]
) -> int:
    """The common number of queries; every run has the same measures and lengths."""
    if not measures:
        raise ValueError("no measure to compare")
    size = len(scores[runs[0]][measures[0]])
    if size == 0:
        raise ValueError("no query to compare on")
    for run in runs:
        if list(scores[run]) != measures:
            raise ValueError(f"run {run!r} has measures {list(scores[run])}, expected {measures}")
        for measure in measures:
            values = scores[run][measure]
            if len(values) != size:
                raise ValueError(
                    f"run {run!r}, {measure}: {len(values)} values, expected {size} (one a query)"
                )
            for value in values:
                if not math.isfinite(value):
                    raise ValueError(f"run {run!r}, {measure}: {value!r} is not a finite number")
    return size
