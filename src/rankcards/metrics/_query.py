"""The prepared per-query structure every measure reads, built once per query.

Following trec_eval's ``form_res_rels``, a query is reduced to the relevance label of each
retrieved document in rank order plus the number of judged documents at each relevance level.
All measures are pure functions of this structure, so sorting, qrels look-ups and depth cuts
happen exactly once per query however many measures are asked for.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Label of a retrieved document that is absent from the qrels (trec_eval RELVALUE_NONPOOL).
NONPOOL = -1
#: Label of a retrieved document judged with a negative value (trec_eval RELVALUE_UNJUDGED).
UNJUDGED = -2


@dataclass(frozen=True, slots=True)
class Args:
    """Resolved parameters of one measure for one evaluation: cutoff, relevance level, p."""

    k: int | None
    rel: int
    p: float

    def cutoff(self) -> int:
        """The cutoff of a measure that requires one (the parser enforces it for names)."""
        if self.k is None:
            raise ValueError("this measure needs a cutoff k")
        return self.k


class Query:
    """Labels of the retrieved documents (rank 1 first) and judged counts per level.

    ``labels[i]`` is the qrels value (>= 0) of the document at rank ``i + 1``, ``NONPOOL``
    when it is not in the qrels, ``UNJUDGED`` when its qrels value is negative.
    ``levels[v]`` counts the documents judged with value ``v`` (>= 0) for the query,
    retrieved or not.
    """

    __slots__ = ("_positions", "labels", "levels")

    def __init__(self, labels: list[int], levels: list[int]) -> None:
        self.labels = labels
        self.levels = levels
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
            found = [i for i, label in enumerate(self.labels) if label >= rel]
            self._positions[rel] = found
        return found


def level_counts(values: list[int]) -> list[int]:
    """Count judged values per non-negative level; negative values are not judgments."""
    top = max(values, default=-1)
    counts = [0] * (top + 1)
    for value in values:
        if value >= 0:
            counts[value] += 1
    return counts
