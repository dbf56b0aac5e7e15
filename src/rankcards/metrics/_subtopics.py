"""What the diversity measures share, as ndeval computes it (TREC Web track 2009-2014).

Source: ndeval 4.5 (``ndeval.c``, 29 Apr 2013) as pyndeval 0.0.8 bundles it, run through
ir_measures' ``pyndeval`` provider. A query's judgments are per subtopic (the qrels' second
column); a document is relevant to subtopic s when its label there is >= ``rel`` (pyndeval's
``relevance_level``: labels are binary to ndeval). Only subtopics with at least one relevant
document count (ndeval's ``actualSubtopics``, N below); a query with none scores 0 on every
diversity measure.

Novelty: going down a ranking, the gain of the document at rank i is the sum, over the
subtopics it is relevant to, of (1 - alpha)^c, c being how many documents above it were
relevant to that subtopic (ndeval's ``subtopicGain``); the sum runs over the subtopics in
pyndeval's order (first appearance in the qrels), so floats round as ndeval's do.

The ideal ranking is ndeval's greedy one (``idealResult``): at each rank, the judged document
with the largest gain given the ranks above; equal gains go to the greatest docno (``strcmp``).
ndeval keeps 20 ranks (``DEPTH``) and pyndeval refuses cutoffs above 20; here any k goes on
with the same definitions, the first 20 ranks unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import log
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # _query imports this module
    from ._query import Query

#: the diversity measures, which read a qrels' subtopics (registry names)
SUBTOPIC_MEASURES = ("alpha_nDCG", "ERR_IA", "nERR_IA", "P_IA", "StRecall")

Subtopics = tuple[int, ...]  # the subtopic indices a document is relevant to, ascending

_LOG2 = log(2.0)


class QuerySubtopics:
    """One query's judgments per subtopic: ``docno -> {subtopic index: label}``.

    Subtopic indices follow the qrels' order of first appearance (pyndeval's numbering).
    Greedy ideal rankings are kept per (relevance level, alpha), as long as asked so far.
    """

    __slots__ = ("_ideals", "_judged")

    def __init__(self, judged: Mapping[bytes, Mapping[int, int]]) -> None:
        self._judged = judged
        self._ideals: dict[tuple[int, float], tuple[list[tuple[bytes, Subtopics]], bool]] = {}

    def relevant(self, docno: bytes, rel: int) -> Subtopics:
        """The subtopics (indices, ascending) to which ``docno`` is relevant at level ``rel``."""
        labels = self._judged.get(docno)
        if not labels:
            return ()
        return tuple(sorted(index for index, label in labels.items() if label >= rel))

    def count(self, rel: int) -> int:
        """N: the subtopics with at least one relevant document (ndeval's actualSubtopics)."""
        return len(
            {
                index
                for labels in self._judged.values()
                for index, label in labels.items()
                if label >= rel
            }
        )

    def ideal(self, rel: int, alpha: float, depth: int) -> list[Subtopics]:
        """The greedy ideal ranking's first ``depth`` relevant documents, as their subtopics.

        ndeval ranks every judged document; those relevant to no subtopic (and any document
        once no gain is left) add 0, so only the documents adding gain are listed.
        """
        return [found for _, found in self.ideal_ranking(rel, alpha, depth)]

    def ideal_ranking(self, rel: int, alpha: float, depth: int) -> list[tuple[bytes, Subtopics]]:
        """:meth:`ideal` with each document's docno."""
        known = self._ideals.get((rel, alpha))
        if known is not None and (len(known[0]) >= depth or known[1]):
            return known[0][:depth]
        picked = self._greedy(rel, alpha, depth)
        self._ideals[(rel, alpha)] = (picked, len(picked) < depth)
        return picked

    def _greedy(self, rel: int, alpha: float, depth: int) -> list[tuple[bytes, Subtopics]]:
        # docno descending: the first of equal gains met is the greatest docno, as strcmp > 0
        left = [
            (docno, found)
            for docno in sorted(self._judged, reverse=True)
            if (found := self.relevant(docno, rel))
        ]
        gains: dict[int, float] = {}
        picked: list[tuple[bytes, Subtopics]] = []
        while left and len(picked) < depth:
            best = -1
            best_gain = 0.0
            for position, (_, found) in enumerate(left):
                gain = 0.0
                for index in found:
                    gain += gains.get(index, 1.0)
                if best < 0 or gain > best_gain:
                    best, best_gain = position, gain
            picked.append(left.pop(best))
            for index in picked[-1][1]:
                gains[index] = gains.get(index, 1.0) * (1.0 - alpha)
        return picked


def judgments(query: Query) -> QuerySubtopics:
    """The query's subtopic judgments, which ``prepare`` attaches for a diversity measure."""
    if query.subtopics is None or query.docnos is None:
        raise ValueError("a diversity measure needs the query's subtopics (see prepare)")
    return query.subtopics


def ranked_subtopics(query: Query, rel: int, k: int) -> list[Subtopics]:
    """The subtopics of the document at each of the top ``k`` ranks (``()`` if unjudged)."""
    depth = min(k, query.num_ret)
    found: list[Subtopics] = [()] * depth
    subtopics = judgments(query)
    for rank, docno in zip(query.ranks, query.docnos or (), strict=True):
        if rank >= depth:
            break
        found[rank] = subtopics.relevant(docno, rel)
    return found


def novelty_gains(ranked: Sequence[Subtopics], alpha: float) -> list[float]:
    """Each rank's gain: sum over its subtopics of (1 - alpha)^(documents above relevant to it)."""
    seen: dict[int, float] = {}
    gains = []
    for found in ranked:
        gain = 0.0
        for index in found:
            weight = seen.get(index, 1.0)
            gain += weight
            seen[index] = weight * (1.0 - alpha)
        gains.append(gain)
    return gains


def discount(rank: int) -> float:
    """ndeval's ``discount``: log(2) / log(rank + 2) for a 0-based rank, i.e. 1/log2(r + 1)."""
    return _LOG2 / log(rank + 2.0)


def cumulated(terms: Sequence[float]) -> float:
    """The terms added from the top, as ndeval's cumulative arrays add them."""
    total = 0.0
    for term in terms:
        total += term
    return total


def ideal_ideal(count: int, alpha: float, k: int, weight: str) -> float:
    """ndeval's "ideal ideal" normaliser at k: N subtopics all covered at every rank, their
    gain N(1 - alpha)^r weighted by ``discount`` (alpha-DCG) or 1/(r + 1) (ERR-IA)."""
    gain = float(count)
    total = 0.0
    for rank in range(k):
        total += gain * discount(rank) if weight == "dcg" else gain / (rank + 1)
        gain *= 1.0 - alpha
    return total


def normalised(value: float, count: int, alpha: float, k: int, weight: str) -> float:
    """A cumulated value divided by the ideal-ideal one, as ndeval does at k >= 2.

    ndeval's loop starts at its second rank, so at k = 1 the value is left as it is: ERR-IA@1
    is the first document's gain, up to N (pyndeval gives the same).
    """
    if k == 1:
        return value
    return value / ideal_ideal(count, alpha, k, weight)
