"""The running example: one small toy ranking shared by every metric card.

Readers compare metrics best when the numbers come from the same data, so the MRR, Hit Rate@K
and Recall@K cards all start from these four queries. They are chosen so that each metric shows
its character: ``q1`` has its first hit at rank 2 and a relevant document that was never
retrieved, ``q2`` is perfect at rank 1, ``q3`` finds both relevant documents but late, and
``q4`` retrieves nothing relevant (it still counts, as a 0).

Judgments are graded (0-3, as in TREC) so later cards (nDCG) can reuse the same example;
binary metrics treat any grade >= 1 as relevant.

>>> [query.id for query in TOY]
['q1', 'q2', 'q3', 'q4']
>>> sorted(TOY[0].relevant)
['d1', 'd4', 'd8']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ToyQuery:
    """One query of the running example: a system's ranking and the graded judgments."""

    id: str
    ranking: tuple[str, ...]
    judgments: dict[str, int]

    @property
    def relevant(self) -> set[str]:
        """Documents judged relevant (grade >= 1), as binary metrics see them."""
        return {doc for doc, grade in self.judgments.items() if grade >= 1}


TOY: tuple[ToyQuery, ...] = (
    ToyQuery("q1", ("d3", "d1", "d7", "d4", "d9"), {"d1": 3, "d4": 1, "d8": 2}),
    ToyQuery("q2", ("d2", "d5", "d9", "d1", "d6"), {"d2": 3}),
    ToyQuery("q3", ("d4", "d8", "d6", "d2", "d3"), {"d6": 2, "d3": 1}),
    ToyQuery("q4", ("d5", "d7", "d1", "d8", "d2"), {"d9": 1}),
)


def toy_rankings() -> list[list[str]]:
    """The four rankings, in query order (the shape the teaching functions take)."""
    return [list(query.ranking) for query in TOY]


def toy_relevant() -> list[set[str]]:
    """The relevant sets (grade >= 1), aligned with :func:`toy_rankings`."""
    return [query.relevant for query in TOY]


def toy_state() -> list[dict[str, Any]]:
    """The example as plain JSON-like data, the form cards keep in ``demo.state``.

    >>> toy_state()[1]
    {'query': 'q2', 'ranking': ['d2', 'd5', 'd9', 'd1', 'd6'], 'relevant': ['d2']}
    """
    return [
        {"query": q.id, "ranking": list(q.ranking), "relevant": sorted(q.relevant)} for q in TOY
    ]
