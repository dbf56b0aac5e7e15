"""The prepared per-query structure every measure reads, built once per query.

Following trec_eval's ``form_res_rels``, a query is reduced to the ranks and labels of its
judged retrieved documents plus the number of judged documents at each relevance level.
All measures are pure functions of this structure, so ranking, qrels look-ups and depth cuts
happen exactly once per query however many measures are asked for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ._subtopics import QuerySubtopics


@dataclass(frozen=True, slots=True)
class Args:
    """Resolved parameters of one measure for one evaluation: cutoff, relevance level, p, the
    DCG formulation (``log2``: linear gain; ``exp-log2``: gain 2^g - 1), IPrec's recall, the
    diversity measures' redundancy intolerance alpha (ndeval's default 0.5) and F's beta."""

    k: int | None
    rel: int
    p: float
    dcg: str = "log2"
    recall: float = 0.0
    alpha: float = 0.5
    beta: float = 1.0

    def cutoff(self) -> int:
        """The cutoff of a measure that requires one (the parser enforces it for names)."""
        if self.k is None:
            raise ValueError("this measure needs a cutoff k")
        return self.k


class Query:
    """One query reduced to what the measures read, as trec_eval's ``form_res_rels`` does.

    ``ranks`` are the 0-based ranks (ascending) of the retrieved documents judged with a
    label >= 0, and ``labels`` their labels; unjudged and negatively judged retrieved
    documents never count as relevant, so they are left out. ``num_ret`` is the number of
    retrieved documents (after any depth cut); ``levels[v]`` counts the documents judged
    with value ``v`` (>= 0) for the query, retrieved or not.

    For the diversity measures, ``subtopics`` holds the query's subtopic judgments and
    ``docnos`` the docno at each of ``ranks``; both are None when no such measure is asked.
    """

    __slots__ = ("_positions", "docnos", "labels", "levels", "num_ret", "ranks", "subtopics")

    def __init__(
        self,
        ranks: list[int],
        labels: list[int],
        num_ret: int,
        levels: list[int],
        docnos: list[bytes] | None = None,
        subtopics: QuerySubtopics | None = None,
    ):
        self.ranks = ranks
        self.labels = labels
        self.num_ret = num_ret
        self.levels = levels
        self.docnos = docnos
        self.subtopics = subtopics
        self._positions: dict[int, list[int]] = {}

    def num_rel(self, rel: int) -> int:
        """Number of judged documents with value >= ``rel`` (trec_eval ``num_rel``)."""
        return sum(self.levels[max(rel, 0) :])

    def num_nonrel(self, rel: int) -> int:
        """Number of judged documents with 0 <= value < ``rel``."""
        return sum(self.levels[: max(rel, 0)])

    def positions(self, rel: int) -> list[int]:
        """0-based ranks of the retrieved documents with label >= ``rel`` (cached per level)."""
        found = self._positions.get(rel)
        if found is None:
            found = [r for r, label in zip(self.ranks, self.labels, strict=True) if label >= rel]
            self._positions[rel] = found
        return found


def level_counts(values: Iterable[int]) -> list[int]:
    """Count judged values per non-negative level; negative values are not judgments."""
    counted = Counter(values)  # counts in C
    top = max(counted, default=-1)
    return [counted.get(level, 0) for level in range(top + 1)]
