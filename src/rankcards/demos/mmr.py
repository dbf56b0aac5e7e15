"""Maximal marginal relevance (MMR): a greedy reranker that trades relevance for novelty.

Carbonell & Goldstein (SIGIR 1998) pick, one at a time, the candidate ``d`` maximising

    λ · sim(d, query) - (1 - λ) · max over the picked documents p of sim(d, p)

so ``lam = 1`` is the relevance order and ``lam = 0`` pure novelty. As in the libraries the
mmr card reads (LangChain, Haystack, Qdrant, Elasticsearch), the first pick is the candidate
most similar to the query whatever ``lam`` is, so that ``lam = 0`` means pure novelty *after*
the first pick. Equal scores go to the candidate listed first (LangChain's loop keeps the first
maximum with a strict ``>``; here the order of the ``candidates`` mapping decides).

Libraries disagree on the direction of their parameter (Qdrant's and OpenSearch's
``diversity`` is 1 - λ): the mmr card lists them. :data:`TOY` holds the card's 2-D points.

>>> picks = mmr((1.0, 0.0), {"a": (1.0, 0.1), "b": (1.0, 0.12), "c": (0.6, 0.8)}, k=2, lam=0.3)
>>> [pick.doc for pick in picks]
['a', 'c']
>>> [pick.doc for pick in mmr(TOY.query, TOY.points, k=3, lam=1.0, similarity=closeness)]
['a1', 'a3', 'a2']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

Vector = Sequence[float]
Similarity = Callable[[Vector, Vector], float]


@dataclass(frozen=True)
class Pick:
    """One step of MMR: the document picked, its two terms and its score at that step.

    ``redundancy`` is the largest similarity to a document picked before (0 for the first
    pick); ``score = lam · relevance - (1 - lam) · redundancy``.
    """

    doc: str
    relevance: float
    redundancy: float
    score: float


def cosine(a: Vector, b: Vector) -> float:
    """Cosine similarity: ``a·b / (|a| |b|)``, in [-1, 1].

    >>> cosine((1.0, 0.0), (0.0, 2.0))
    0.0
    """
    dot = math.fsum(x * y for x, y in zip(a, b, strict=True))
    norms = math.hypot(*a) * math.hypot(*b)
    if norms == 0.0:
        raise ValueError("cosine similarity is undefined for a zero vector")
    return dot / norms


def mmr(
    query: Vector,
    candidates: Mapping[str, Vector],
    k: int,
    lam: float = 0.5,
    similarity: Similarity = cosine,
) -> list[Pick]:
    """Pick ``k`` candidates by maximal marginal relevance, best first.

    Formula: the first pick is ``argmax sim(d, q)``; then each step picks
    ``argmax [lam · sim(d, q) - (1 - lam) · max_{p picked} sim(d, p)]``.

    Args:
        query: the query vector.
        candidates: ``{doc id: vector}``, all of the query's dimension; their order breaks
            ties (the first listed wins).
        k: how many to pick, an integer >= 1 (all of them when there are fewer).
        lam: λ in [0, 1], the weight of relevance: 1 keeps the relevance order, 0 picks the
            most novel candidate at every step after the first.
        similarity: ``sim(a, b)``, cosine by default (LangChain's and Haystack's default).

    Returns:
        The picks in order, each with its relevance, redundancy and score at its step.

    Raises:
        ValueError: ``k`` < 1, ``lam`` outside [0, 1], a vector of another dimension or a zero
            vector (cosine), naming the candidate.

    Reference:
        Carbonell & Goldstein, The use of MMR, diversity-based reranking for reordering
        documents and producing summaries, SIGIR 1998.

    Example:
        >>> points = {"near": (1.0, 0.05), "twin": (1.0, 0.06), "other": (0.5, 0.5)}
        >>> [p.doc for p in mmr((1.0, 0.0), points, k=2, lam=1.0)]  # relevance order
        ['near', 'twin']
        >>> [p.doc for p in mmr((1.0, 0.0), points, k=2, lam=0.3)]  # twin repeats near
        ['near', 'other']
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be an integer >= 1, got {k!r}")
    if isinstance(lam, bool) or not isinstance(lam, int | float) or not 0 <= lam <= 1:
        raise ValueError(f"lam must be a number with 0 <= lam <= 1, got {lam!r}")
    relevance: dict[str, float] = {}
    for doc, vector in candidates.items():
        if len(vector) != len(query):
            raise ValueError(
                f"candidate {doc!r} has {len(vector)} dimensions, the query {len(query)}"
            )
        try:
            relevance[doc] = similarity(vector, query)
        except ValueError as error:
            raise ValueError(f"candidate {doc!r}: {error}") from None
    left = list(candidates)
    redundancy = dict.fromkeys(left, 0.0)
    picks: list[Pick] = []
    while left and len(picks) < k:
        if picks:
            best = max(left, key=lambda d: lam * relevance[d] - (1 - lam) * redundancy[d])
        else:
            best = max(left, key=relevance.__getitem__)
        # max() keeps the first of equal keys: the candidate listed first wins a tie
        term = redundancy[best] if picks else 0.0
        picks.append(Pick(best, relevance[best], term, lam * relevance[best] - (1 - lam) * term))
        left.remove(best)
        for doc in left:
            redundancy[doc] = (
                similarity(candidates[doc], candidates[best])
                if len(picks) == 1
                else max(redundancy[doc], similarity(candidates[doc], candidates[best]))
            )
    return picks


def closeness(a: Vector, b: Vector) -> float:
    """``1 / (1 + |a - b|)``: 1 for the same point, towards 0 far apart (Euclidean distance).

    The toy set is drawn in the plane, where cosine would see only directions; with closeness
    what looks near on the figure is similar.

    >>> closeness((0.0, 0.0), (3.0, 4.0))
    0.16666666666666666
    """
    return 1.0 / (1.0 + math.dist(a, b))


@dataclass(frozen=True)
class ToySet:
    """The mmr card's toy collection: 2-D points, the aspect each covers, the query's point."""

    query: tuple[float, float]
    points: dict[str, tuple[float, float]]
    aspects: dict[str, frozenset[str]]


# Around the query at the origin: a tight cluster of four near-duplicates on aspect "A", two
# smaller aspects "B" and "C" further away, and two off-topic points far out ("x", no aspect).
TOY = ToySet(
    query=(0.0, 0.0),
    points={
        "a1": (0.55, 0.45),
        "a2": (0.95, 0.25),
        "a3": (0.3, 0.85),
        "a4": (0.9, 0.7),
        "b1": (-1.1, 0.6),
        "b2": (-1.3, 0.9),
        "c1": (0.2, -1.2),
        "c2": (0.5, -1.4),
        "x1": (2.6, 2.4),
        "x2": (-2.4, -2.2),
    },
    aspects={
        **dict.fromkeys(("a1", "a2", "a3", "a4"), frozenset({"A"})),
        **dict.fromkeys(("b1", "b2"), frozenset({"B"})),
        **dict.fromkeys(("c1", "c2"), frozenset({"C"})),
        **dict.fromkeys(("x1", "x2"), frozenset()),
    },
)
