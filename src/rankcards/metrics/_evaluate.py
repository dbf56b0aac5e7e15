"""Collection-level evaluation with trec_eval's rules, and its trec/json renderings.

Per query: rank the run (score descending, ties by docno descending, or in the run's own order
with ``ties="run-order"``), cut at ``depth``, look
up labels once, then run every measure on that one prepared :class:`Query`. Queries in the run
but not in the qrels are ignored. Without ``complete`` the mean is over queries present in both,
as trec_eval 9.x and pytrec_eval do (trec_eval 10.0 instead stops with "result qid ... not found
in qrels", exit code 4, when a qrels query is missing from the run); with ``complete``
(trec_eval ``-c``, and what ir_measures does by default) every qrels query is evaluated, those
missing from the run as an empty ranking, so they score 0 but still count their relevant
documents.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from math import isfinite, nan
from operator import add, eq, gt, or_, sub
from typing import Literal

from ._data import Qrels, Run
from ._errors import TrecFormatError
from ._measure import MeasureSpec
from ._parse import parse_measure
from ._query import Query, level_counts
from ._subtopics import SUBTOPIC_MEASURES, QuerySubtopics


@dataclass(frozen=True)
class Evaluation:
    """Result of :func:`evaluate`, keyed by canonical measure names (see ``parse_measure``).

    ``per_query[qid][name]`` holds each evaluated query's values (qids in trec_eval's
    order); ``aggregate[name]`` the mean (sums for the counters, the count for ``num_q``,
    which has no per-query value).
    """

    measures: tuple[MeasureSpec, ...]
    per_query: dict[str, dict[str, float]]
    aggregate: dict[str, float]

    def to_trec(self, per_query: bool = False) -> str:
        """trec_eval's text format: ``measure<TAB>qid<TAB>value``, 4 decimals, ``all`` last."""
        lines = []
        if per_query:
            for qid, values in self.per_query.items():
                lines.extend(self._lines(qid, values))
        lines.extend(self._lines("all", self.aggregate))
        return "".join(line + "\n" for line in lines)

    def to_json(self) -> str:
        """``{"per_query": {qid: {measure: value}}, "aggregate": {...}}`` at full precision."""
        counters = {spec.name for spec in self.measures if spec.measure.is_counter}

        def shaped(values: dict[str, float]) -> dict[str, float | int]:
            return {k: int(v) if k in counters else v for k, v in values.items()}

        document = {
            "per_query": {qid: shaped(values) for qid, values in self.per_query.items()},
            "aggregate": shaped(self.aggregate),
        }
        import json  # here: importing it costs more than reading a small run

        return json.dumps(document, indent=2)

    def _lines(self, qid: str, values: dict[str, float]) -> list[str]:
        out = []
        for spec in self.measures:
            name = spec.name
            if name not in values:
                continue
            value = values[name]
            text = str(int(value)) if spec.measure.is_counter else f"{value:6.4f}"
            out.append(f"{name:<22}\t{qid}\t{text}")
        return out


#: How documents with equal scores are ordered: trec_eval's docno descending (``strcmp``, as
#: trec_eval and gdeval do), or ``"run-order"``: as the run lists them (a stable sort).
Ties = Literal["trec_eval", "run-order"]
TIES: tuple[Ties, ...] = ("trec_eval", "run-order")

QrelsLike = Qrels | Mapping[str, Mapping[str, int]]
RunLike = Run | Mapping[str, Mapping[str, float]]


def evaluate(
    qrels: QrelsLike,
    run: RunLike,
    measures: Iterable[str | MeasureSpec],
    complete: bool = False,
    depth: int | None = None,
    rel_level: int = 1,
    ties: Ties = "trec_eval",
) -> Evaluation:
    """Evaluate a run against qrels with trec_eval's semantics.

    The mean of measure ``m`` over the evaluated queries ``Q`` is
    ``sum(m(q) for q in Q) / |Q|``, where ``Q`` is the queries of both the run and the qrels,
    or all qrels queries when ``complete`` (missing ones then score 0).

    Args:
        qrels: from :func:`read_qrels`, or a mapping ``qid -> {docno: int label}``.
        run: from :func:`read_run`, or a mapping ``qid -> {docno: score}``.
        measures: names such as ``"nDCG@10"`` or parsed specs; repeats are dropped.
        complete: average over all qrels queries (trec_eval ``-c``).
        depth: keep only the top ``depth`` documents of each ranking (trec_eval ``-M``).
        rel_level: minimum label that counts as relevant (trec_eval ``-l``), unless a
            measure sets its own ``rel``.
        ties: order of equal scores: ``"trec_eval"`` (docno descending, as trec_eval and
            gdeval) or ``"run-order"`` (as the run lists them; a mapping in its key order).

    Returns:
        Evaluation: ``per_query`` and ``aggregate`` values keyed by canonical names
        (``HitRate@10`` is reported as ``Success@10``).

    Raises:
        MeasureError: a measure name is invalid.
        ValueError: ``depth`` < 1, ``rel_level`` < 0, an unknown ``ties``, a non-finite
            score, or no query in common (without ``complete``).

    Reference:
        trec_eval v10.0 (``trec_eval.c``, ``form_res_rels.c``); see each measure's module.

    Example:
        >>> qrels = {"q1": {"a": 1, "b": 0, "c": 2}, "q2": {"x": 1}}
        >>> run = {"q1": {"a": 0.2, "b": 0.9, "c": 0.5}, "q3": {"x": 1.0}}
        >>> result = evaluate(qrels, run, ["RR", "P@2"])
        >>> result.per_query["q1"]  # ranking b, c, a: first relevant c at rank 2
        {'RR': 0.5, 'P@2': 0.5}
        >>> evaluate(qrels, run, ["RR"], complete=True).aggregate  # (0.5 + 0) / 2 queries
        {'RR': 0.25}
        >>> tied = {"q1": {"a": 1.0, "b": 1.0}}  # equal scores: the tie rule decides
        >>> evaluate(qrels, tied, ["RR"]).per_query["q1"]  # docno descending: b, a
        {'RR': 0.5}
        >>> evaluate(qrels, tied, ["RR"], ties="run-order").per_query["q1"]  # as given: a, b
        {'RR': 1.0}
    """
    check_options(depth, rel_level)
    check_ties(ties)
    specs = measure_specs(measures)
    judged = qrels if isinstance(qrels, Qrels) else _qrels_from_mapping(qrels)
    ranked = run if isinstance(run, Run) else _run_from_mapping(run)
    check_subtopics(judged, specs)
    return evaluate_checked(judged, ranked, specs, complete, depth, rel_level, ties)


def evaluate_checked(
    judged: Qrels,
    ranked: Run,
    specs: tuple[MeasureSpec, ...],
    complete: bool,
    depth: int | None,
    rel_level: int,
    ties: Ties = "trec_eval",
) -> Evaluation:
    """:func:`evaluate` once its arguments are checked (``check_subtopics`` warned)."""
    scorer = Scorer(specs, depth, rel_level)
    measured: dict[str, dict[str, float]] = {}
    for qid in ranked:
        if qid in judged:
            query = prepare(
                judged.raw(qid),
                *ranked.raw(qid),
                depth=depth,
                ties=ties,
                subtopics=scorer.subtopics(judged, qid),
            )
            measured[qid] = scorer.score(query)
    return scorer.evaluation(judged, measured, complete)


class SubtopicWarning(UserWarning):
    """A diversity measure asked of a qrels whose queries each have a single subtopic."""


def check_subtopics(qrels: Qrels, specs: Sequence[MeasureSpec]) -> None:
    """Refuse a measure that needs one label per document on a qrels judging a docno under two
    subtopics (the reader's error, at its line); warn, as ir_measures does, when diversity
    measures are asked of a qrels whose queries all have a single subtopic."""
    diverse = [spec.name for spec in specs if spec.measure.subtopics]
    flat = [spec.name for spec in specs if not spec.measure.subtopics]
    repeated = qrels.repeated
    if repeated is not None and flat:
        raise TrecFormatError(
            repeated.path,
            repeated.line,
            f"{repeated.message}: {flat[0]} needs one label per document; only the diversity "
            f"measures ({', '.join(SUBTOPIC_MEASURES)}) read a subtopic qrels",
        )
    if diverse and not qrels.has_several_subtopics():
        import warnings  # here: only this rare path needs it

        warnings.warn(
            f"all queries of {qrels.name} have only 1 subtopic: the diversity measures "
            f"({', '.join(diverse)}) are probably not valid; a diversity qrels has the "
            "subtopic in its second column ('qid subtopic docno rel')",
            SubtopicWarning,
            stacklevel=3,
        )


def check_ties(ties: str) -> None:
    """Reject a tie convention that is not one of :data:`TIES`, naming the argument."""
    if ties not in TIES:
        raise ValueError(f"ties must be one of {', '.join(map(repr, TIES))}, got {ties!r}")


def check_options(depth: int | None, rel_level: int) -> None:
    """Reject a depth below 1 and a negative relevance level, as trec_eval's -M and -l do."""
    if depth is not None and depth < 1:
        raise ValueError(f"depth must be an integer >= 1, got {depth}")
    if rel_level < 0:
        raise ValueError(f"relevance level must be an integer >= 0, got {rel_level}")


class Scorer:
    """The measures of one evaluation, computed query by query, then gathered as trec_eval does."""

    def __init__(self, specs: tuple[MeasureSpec, ...], depth: int | None, rel_level: int):
        self.specs = specs
        self._depth = depth
        self._diverse = any(spec.measure.subtopics for spec in specs)
        self._computed = [
            (spec.name, spec.measure.compute, spec.args(rel_level))
            for spec in specs
            if spec.measure.aggregate != "count"
        ]

    def subtopics(self, qrels: Qrels, qid: str) -> QuerySubtopics | None:
        """The query's subtopic judgments when a diversity measure is asked, else None."""
        return QuerySubtopics(qrels.subtopics(qid)) if self._diverse else None

    def score(self, query: Query) -> dict[str, float]:
        """Every measure's value for one prepared query."""
        return {name: compute(query, args) for name, compute, args in self._computed}

    def evaluation(
        self, qrels: Qrels, measured: dict[str, dict[str, float]], complete: bool
    ) -> Evaluation:
        """Per-query values in trec_eval's order (sorted qids) and their aggregates.

        ``measured`` holds the queries of both the run and the qrels. With ``complete``, every
        other qrels query is evaluated as an empty ranking.
        """
        if complete:
            per_query = {
                qid: measured[qid] if qid in measured else self._score_missing(qrels, qid)
                for qid in sorted(qrels)
            }
        else:
            if not measured:
                raise ValueError("no query appears in both the run and the qrels")
            per_query = {qid: measured[qid] for qid in sorted(measured)}
        return Evaluation(self.specs, per_query, _aggregate(self.specs, per_query))

    def _score_missing(self, qrels: Qrels, qid: str) -> dict[str, float]:
        """A qrels query the run lacks, as trec_eval -c scores it: an empty ranking."""
        return self.score(
            prepare(qrels.raw(qid), [], [], self._depth, subtopics=self.subtopics(qrels, qid))
        )


def prepare(
    judged: Mapping[bytes, int],
    docnos: list[bytes],
    scores: Sequence[float],
    depth: int | None,
    positions: Mapping[bytes, int] | None = None,
    ties: Ties = "trec_eval",
    subtopics: QuerySubtopics | None = None,
) -> Query:
    """Rank one query trec_eval's way and keep the ranks of its judged documents.

    ``judged`` holds the non-negative labels. trec_eval sorts by score descending, ties by
    docno descending (``strcmp``), then cuts at ``depth``. Only judged documents matter to
    the measures, so instead of sorting every document with its docno, each judged document
    is placed by counting what ranks above it. Runs are nearly always written in score order:
    then a document's rank is its position, except within a tie, where the documents of the
    tie with a greater docno also rank above it. Every step runs in C except for judged
    documents that are tied. ``positions`` (docno -> index in file order), when the caller
    has it, finds the judged documents with one look-up each instead of one per document.
    With ``ties="run-order"`` the stable sort's order is kept: tied documents stay as given.
    ``subtopics``, for the diversity measures, is kept on the query with the docno at each rank.
    """
    levels = level_counts(judged.values())
    total = len(docnos)
    num_ret = total if depth is None else min(total, depth)
    if positions is None:
        at = list(compress(range(total), map(judged.__contains__, docnos)))
    else:
        at = sorted(map(positions.__getitem__, judged.keys() & positions.keys()))
    if not at:
        return Query([], [], num_ret, levels, [], subtopics)
    values = list(scores)  # box each score once, not in every step below
    ranked = sorted(values, reverse=True)  # stable, and linear on a run in score order
    if ranked != values:  # visit the documents in score order (ties in any order)
        docnos = list(
            map(docnos.__getitem__, sorted(range(total), key=values.__getitem__, reverse=True))
        )
        values = ranked
        at = list(compress(range(total), map(judged.__contains__, docnos)))
    hit_scores = list(map(values.__getitem__, at))
    hit_docnos = list(map(docnos.__getitem__, at))
    labels = list(map(judged.__getitem__, hit_docnos))
    values.append(nan)  # NaN equals nothing: the neighbour of the first and of the last
    tied = list(
        map(
            or_,
            map(eq, hit_scores, map(values.__getitem__, map(sub, at, repeat(1)))),  # previous
            map(eq, hit_scores, map(values.__getitem__, map(add, at, repeat(1)))),  # next
        )
    )
    ranks = at
    if ties == "trec_eval" and True in tied:
        ranks = at[:]
        for n in compress(range(len(at)), tied):
            score = hit_scores[n]
            first = end = at[n]
            while values[first - 1] == score:  # ties are short; values[-1] is the NaN
                first -= 1
            while values[end + 1] == score:
                end += 1
            ranks[n] = first + sum(map(gt, docnos[first : end + 1], repeat(hit_docnos[n])))
        order = sorted(range(len(ranks)), key=ranks.__getitem__)  # ranks are distinct
        ranks, labels = sorted(ranks), list(map(labels.__getitem__, order))
        hit_docnos = list(map(hit_docnos.__getitem__, order))
    if num_ret < total:
        cut = bisect_left(ranks, num_ret)
        ranks, labels, hit_docnos = ranks[:cut], labels[:cut], hit_docnos[:cut]
    if subtopics is None:
        return Query(ranks, labels, num_ret, levels)
    return Query(ranks, labels, num_ret, levels, hit_docnos, subtopics)


def measure_specs(measures: Iterable[str | MeasureSpec]) -> tuple[MeasureSpec, ...]:
    """Parse names, keep the first of repeated canonical names, preserve the given order."""
    if isinstance(measures, str):
        measures = [measures]
    unique: dict[str, MeasureSpec] = {}
    for item in measures:
        spec = parse_measure(item) if isinstance(item, str) else item
        unique.setdefault(spec.name, spec)
    return tuple(unique.values())


def _aggregate(
    specs: tuple[MeasureSpec, ...], per_query: dict[str, dict[str, float]]
) -> dict[str, float]:
    """Mean per measure over the evaluated queries; sums for counters; num_q is the count."""
    count = len(per_query)
    aggregate: dict[str, float] = {}
    for spec in specs:
        name = spec.name
        if spec.measure.aggregate == "count":
            aggregate[name] = float(count)
            continue
        total = 0.0
        for values in per_query.values():
            total += values[name]
        aggregate[name] = total if spec.measure.aggregate == "sum" or not count else total / count
    return aggregate


def _qrels_from_mapping(qrels: Mapping[str, Mapping[str, int | Mapping[str, int]]]) -> Qrels:
    """Accept pytrec_eval-style dicts ``{qid: {docno: label}}``, or for a diversity qrels
    ``{qid: {docno: {subtopic: label}}}``; labels must be integers."""
    data: dict[str, dict[bytes, int]] = {}
    topics: dict[str, dict[bytes, dict[int, int]]] = {}
    index: dict[str, int] = {}  # subtopic -> order of first appearance, as pyndeval numbers
    repeated: TrecFormatError | None = None
    for qid, judged in qrels.items():
        flat = data[qid] = {}
        split = topics[qid] = {}
        for docno, given in judged.items():
            labels = given if isinstance(given, Mapping) else {"0": given}
            for subtopic, label in labels.items():
                if isinstance(label, bool) or not isinstance(label, int):
                    where = f"[{docno!r}]" + (f"[{subtopic!r}]" if labels is given else "")
                    raise ValueError(
                        f"qrels[{qid!r}]{where}: relevance must be an integer, got {label!r}"
                    )
            key = docno.encode("utf-8", "surrogateescape")
            split[key] = {index.setdefault(str(s), len(index)): v for s, v in labels.items()}
            flat[key] = max(labels.values(), default=0)
            if len(labels) > 1 and repeated is None:
                first, second = list(labels)[:2]
                repeated = TrecFormatError(
                    "qrels",
                    None,
                    f"docno {docno!r} is judged under two subtopics of query {qid!r} "
                    f"({str(first)!r} and {str(second)!r})",
                )
            if not labels:
                del flat[key], split[key]
    if len(index) < 2:
        return Qrels(data)
    return Qrels(data, topics=topics, repeated=repeated)


def _run_from_mapping(run: Mapping[str, Mapping[str, float]]) -> Run:
    """Accept pytrec_eval-style dicts; scores must be finite numbers."""
    data: dict[str, tuple[list[bytes], array[float]]] = {}
    for qid, scored in run.items():
        scores = array("d")
        for docno, score in scored.items():
            value = float(score)
            if not isfinite(value):
                raise ValueError(f"run[{qid!r}][{docno!r}]: score must be finite, got {score!r}")
            scores.append(value)
        data[qid] = ([docno.encode("utf-8", "surrogateescape") for docno in scored], scores)
    return Run(data)
