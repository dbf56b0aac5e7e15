"""The per-query terms a measure module reports next to its value, for explanations.

A measure's ``explain(query, args)`` returns :class:`Terms`: one :class:`Term` per rank it looked
at, the numerator and denominator its value is, and named scalars. Terms know ranks and labels
only; :func:`rankcards.metrics.explain` adds the document ids and grades of the ranking.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ._query import Query


@dataclass(frozen=True)
class Term:
    """What one rank adds: ``rank`` is 0-based; ``grade`` is set only on ideal-ranking terms."""

    rank: int
    contribution: float
    expression: str
    detail: Mapping[str, float] = field(default_factory=dict)
    grade: int | None = None


@dataclass(frozen=True)
class Terms:
    """A measure's value for one query written as ``numerator / denominator``."""

    steps: tuple[Term, ...]
    numerator: float
    denominator: float
    quantities: Mapping[str, float]
    ideal: tuple[Term, ...] = ()


def labels_by_rank(query: Query, k: int | None = None) -> list[int | None]:
    """Label at each retrieved rank (top ``k`` if given); None where the document is unjudged."""
    depth = query.num_ret if k is None else min(k, query.num_ret)
    labels: list[int | None] = [None] * depth
    for rank, label in zip(query.ranks, query.labels, strict=True):
        if rank >= depth:
            break
        labels[rank] = label
    return labels


def number(value: float) -> str:
    """A number as an expression shows it: integers without a point, others to 4 decimals
    (4 significant digits when that would show 0, e.g. a tiny chance of reaching a rank).

    >>> number(2.0), number(0.9375), number(1 / 3), number(15 / 16**4), number(2e-7)
    ('2', '0.9375', '0.3333', '0.0002', '2e-07')
    """
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return f"{value:.4g}" if text in ("0", "-0") else text


def counted(query: Query, depth: int, rel: int) -> list[Term]:
    """One term per rank of the top ``depth``: 1 for a document with label >= ``rel``, else 0."""
    steps = []
    seen = 0
    for index, label in enumerate(labels_by_rank(query, depth)):
        hit = label is not None and label >= rel
        seen += hit
        steps.append(Term(index, 1.0 if hit else 0.0, "1" if hit else "0", {"count": seen}))
    return steps
