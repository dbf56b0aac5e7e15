"""Explanations: the per-query terms behind a measure's value, for the site's measure lab.

:func:`explain` ranks one query as :func:`evaluate` does, computes the measure with the very
``compute`` function ``evaluate`` uses (so ``value`` is the same float), and asks the measure
module for its terms: AP the precision at each relevant rank, nDCG the gains, discounts and
ideal ranking, and so on. Everything here is numbers and symbols; words belong to the views.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import isfinite

from ._errors import MeasureError
from ._evaluate import Ties, check_ties
from ._measure import MeasureSpec
from ._parse import parse_measure
from ._query import Query, level_counts
from ._subtopics import QuerySubtopics
from ._terms import Term


@dataclass(frozen=True)
class Step:
    """One ranked document the measure looked at (``rank`` is 1-based)."""

    rank: int
    docno: str
    #: the document's label in the judgments; None = unjudged (negative labels stay negative
    #: and, as in trec_eval, count as unjudged)
    grade: int | None
    #: what this rank adds to ``Explanation.numerator``
    contribution: float
    #: the term written out, e.g. ``"2/3"`` or ``"(2^3-1)/log2(4)"``
    expression: str
    #: named intermediates, e.g. ``{"precision": 0.667}``
    detail: Mapping[str, float]


@dataclass(frozen=True)
class Explanation:
    """A measure's value on one query, with the terms it is made of.

    ``value == numerator / denominator`` (``value`` is 0 when ``denominator`` is 0), and the
    step contributions add up to ``numerator``.
    """

    #: canonical name, as keys of :func:`evaluate` results
    measure: str
    #: equal to ``evaluate(...)`` for this query, exactly
    value: float
    steps: tuple[Step, ...]
    numerator: float
    denominator: float
    #: named scalars: ``"R"`` (relevant judged documents), ``"k"``, ``"IDCG"`` ...
    quantities: Mapping[str, float]
    #: nDCG: the ideal ranking's terms
    ideal: tuple[Step, ...] = ()


Judgments = Mapping[str, int] | Mapping[str, Mapping[str, int]]


def explain(
    measure: str | MeasureSpec,
    ranking: Sequence[str] | Mapping[str, float],
    judgments: Judgments,
    *,
    ties: Ties = "trec_eval",
    level: int = 1,
) -> Explanation:
    """Explain one measure on one query: its value and the per-rank terms that make it.

    Args:
        measure: a registry name in ir_measures notation, e.g. ``"AP@5"`` or ``"nDCG@10"``.
        ranking: document ids best first, or ``{docno: score}`` ranked as a run is: score
            descending, equal scores by ``ties``.
        judgments: ``{docno: label}``; absent documents are unjudged, negative labels count
            as unjudged (trec_eval). The diversity measures (``alpha_nDCG@k`` ...) also take
            ``{docno: {subtopic: label}}``; plain labels are then one subtopic.
        ties: ``"trec_eval"`` orders equal scores by docno descending (trec_eval, ir_measures);
            ``"run-order"`` keeps them in the order given. Only a score mapping has ties.
        level: minimum label that counts as relevant (trec_eval ``-l``), unless the measure
            sets its own ``rel``.

    Returns:
        Explanation: ``value`` equals :func:`evaluate`'s for the same query and options.

    Raises:
        MeasureError: the name is invalid or the measure has no per-query value (counters).
        ValueError: a repeated document, a label that is not an integer, a bad option.

    Example:
        >>> result = explain("AP", ["d1", "d4", "d2"], {"d1": 1, "d2": 1, "d9": 1})
        >>> [step.expression for step in result.steps]
        ['1/1', '0', '2/3']
        >>> result.numerator, result.denominator, round(result.value, 4)
        (1.6666666666666665, 3.0, 0.5556)
    """
    spec = parse_measure(measure) if isinstance(measure, str) else measure
    explainer = spec.measure.explain
    if explainer is None:
        raise MeasureError(
            f"measure {spec.name!r} has no per-query explanation (it is a counter, not a mean)"
        )
    if isinstance(level, bool) or not isinstance(level, int) or level < 0:
        raise ValueError(f"level must be an integer >= 0, got {level!r}")
    docs = rank_documents(ranking, ties)
    by_subtopic = _subtopic_labels(judgments, spec)
    flat = {doc: max(labels.values(), default=-1) for doc, labels in by_subtopic.items()}
    query = query_of(docs, flat)
    if spec.measure.subtopics:
        query = _with_subtopics(query, docs, by_subtopic)
    args = spec.args(level)
    terms = explainer(query, args)
    return Explanation(
        measure=spec.name,
        value=spec.measure.compute(query, args),
        steps=tuple(_step(term, docs[term.rank], flat) for term in terms.steps),
        numerator=terms.numerator,
        denominator=terms.denominator,
        quantities=dict(terms.quantities),
        ideal=_ideal(terms.ideal, docs, flat),
    )


def rank_documents(ranking: Sequence[str] | Mapping[str, float], ties: Ties) -> list[str]:
    """The ranked document ids: a sequence as given, a score mapping sorted as a run is."""
    check_ties(ties)
    if isinstance(ranking, str):
        raise ValueError(f"ranking must be a list of document ids, got the string {ranking!r}")
    if isinstance(ranking, Mapping):
        scored = list(ranking.items())
        for docno, score in scored:
            if isinstance(score, bool) or not isinstance(score, int | float) or not isfinite(score):
                raise ValueError(f"score of {docno!r} must be a finite number, got {score!r}")
        if ties == "trec_eval":  # docno descending as strcmp compares bytes, then score
            scored.sort(key=lambda item: item[0].encode("utf-8", "surrogateescape"), reverse=True)
        scored.sort(key=lambda item: item[1], reverse=True)  # stable: keeps the tie order
        return [docno for docno, _ in scored]
    docs = list(ranking)
    if len(set(docs)) != len(docs):
        seen: set[str] = set()
        for doc in docs:
            if doc in seen:
                raise ValueError(f"document {doc!r} appears twice in the ranking")
            seen.add(doc)
    return docs


def query_of(docs: Sequence[str], judgments: Mapping[str, int]) -> Query:
    """The prepared query of an ordered ranking, as ``evaluate`` prepares a run's query."""
    ranks, labels = [], []
    for rank, doc in enumerate(docs):
        label = judgments.get(doc)
        if label is not None and label >= 0:
            ranks.append(rank)
            labels.append(label)
    return Query(ranks, labels, len(docs), level_counts(judgments.values()))


def _subtopic_labels(judgments: Judgments, spec: MeasureSpec) -> dict[str, dict[str, int]]:
    """Every document's labels per subtopic (plain labels: subtopic ``"0"``), checked."""
    labelled: dict[str, dict[str, int]] = {}
    for doc, given in judgments.items():
        if isinstance(given, Mapping):
            if not spec.measure.subtopics:
                raise ValueError(
                    f"label of {doc!r} must be an integer ({spec.name} reads one label per "
                    f"document), got {dict(given)!r}"
                )
            labels = {str(subtopic): label for subtopic, label in given.items()}
        else:
            labels = {"0": given}
        for label in labels.values():
            if isinstance(label, bool) or not isinstance(label, int):
                raise ValueError(f"label of {doc!r} must be an integer, got {label!r}")
        labelled[doc] = labels
    return labelled


def _with_subtopics(query: Query, docs: Sequence[str], labels: dict[str, dict[str, int]]) -> Query:
    """The query with its subtopic judgments, numbered by first appearance (as pyndeval)."""
    index: dict[str, int] = {}
    judged = {
        doc.encode("utf-8", "surrogateescape"): {
            index.setdefault(subtopic, len(index)): label for subtopic, label in given.items()
        }
        for doc, given in labels.items()
    }
    docnos = [docs[rank].encode("utf-8", "surrogateescape") for rank in query.ranks]
    return Query(
        query.ranks, query.labels, query.num_ret, query.levels, docnos, QuerySubtopics(judged)
    )


def _step(term: Term, docno: str, judgments: Mapping[str, int]) -> Step:
    return Step(
        rank=term.rank + 1,
        docno=docno,
        grade=judgments.get(docno),
        contribution=term.contribution,
        expression=term.expression,
        detail=dict(term.detail),
    )


def _ideal(
    terms: tuple[Term, ...], docs: Sequence[str], judgments: Mapping[str, int]
) -> tuple[Step, ...]:
    """Ideal-ranking steps: each term's grade filled with a judged document of that grade.

    Among documents of one grade, those the run retrieved come first in run order, then the
    others by docno, so the ideal list changes as little as possible when the run changes.
    """
    if not terms:
        return ()
    position = {doc: rank for rank, doc in enumerate(docs)}
    by_grade: dict[int, list[str]] = {}
    for doc in sorted(judgments, key=lambda d: (position.get(d, len(docs)), d)):
        by_grade.setdefault(judgments[doc], []).append(doc)
    steps = []
    for term in terms:
        grade = term.grade if term.grade is not None else 0
        docno = by_grade[grade].pop(0)
        steps.append(
            Step(term.rank + 1, docno, grade, term.contribution, term.expression, term.detail)
        )
    return tuple(steps)
