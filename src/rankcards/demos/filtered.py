"""Filtered vector search: the k nearest among the vectors that pass a filter, three ways.

A filtered query asks for the ``k`` nearest neighbours *among the vectors whose tags match*
(the NeurIPS'23 big-ann-benchmarks filter track: YFCC images with bags of tags, a query with one
or two tags that a result must all carry). Its ground truth is computed after the filter: exact
search over the matching vectors only (``dataset_preparation/make_filtered_groundtruth.py``).
The share of vectors that pass is the filter's **selectivity**.

* :func:`prefilter_search` - filter first, then search the matching vectors exactly: always
  right, and it costs one distance per matching vector (the track's FAISS baseline does this when
  a query's estimated selectivity is below ``1e-3``: ``neurips23/filter/faiss/faiss.py``);
* :func:`postfilter_search` - ask an unfiltered index for ``candidates`` results, then drop those
  that fail the filter: about ``candidates * selectivity`` survive, so recall collapses when the
  filter is selective (pgvector 0.8's HNSW does this, with ``hnsw.ef_search = 40`` by
  default, unless iterative index scans are on);
* :func:`infilter_search` - filter inside the index's search, as hnswlib's ``filter`` argument
  does (:meth:`rankcards.demos.hnsw.HNSW.search` with ``allowed``): the walk goes through
  points that fail the filter too, only matching ones are results; recall holds up, the cost
  grows as the filter narrows.

:func:`tag_filter` draws which vectors carry a tag, independently of where they lie, so that the
demo's selectivity is exact and a narrower filter's vectors are inside a wider one's.

>>> from rankcards.demos.vectors import synthetic
>>> vectors = synthetic(count=200, dim=4, clusters=3, queries=1, seed=2)
>>> tagged = tag_filter(200, 0.1, seed=0)
>>> len(tagged)
20
>>> prefilter_search(vectors.data, vectors.queries[0], 3, tagged).computations
20
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Collection, Sequence
from itertools import repeat

from rankcards.demos.hnsw import HNSW, SearchResult
from rankcards.demos.vectors import Vector

__all__ = [
    "expected_postfilter_recall",
    "infilter_search",
    "postfilter_search",
    "prefilter_search",
    "tag_filter",
]


def tag_filter(count: int, selectivity: float, seed: int = 0) -> frozenset[int]:
    """Ids of the vectors (``0 .. count - 1``) that carry a tag held by a share ``selectivity``.

    Exactly ``round(selectivity * count)`` ids: the first ones of a seeded shuffle, so the tag
    does not depend on a vector's position, and for one seed a lower selectivity's ids are a
    subset of a higher one's.
    """
    if not 0.0 <= selectivity <= 1.0:
        raise ValueError(f"tag_filter: selectivity must be in [0, 1], got {selectivity}")
    order = list(range(count))
    random.Random(seed).shuffle(order)
    return frozenset(order[: round(selectivity * count)])


def prefilter_search(
    data: Sequence[Vector], query: Vector, k: int, allowed: Collection[int]
) -> SearchResult:
    """Exact search over the allowed vectors only: the filtered ground truth (ties: lower id)."""
    ids = sorted(allowed)
    distances = list(map(math.dist, repeat(query), map(data.__getitem__, ids)))
    top = heapq.nsmallest(k, zip(distances, ids, strict=True))
    return SearchResult([i for _, i in top], [d for d, _ in top], len(ids))


def postfilter_search(
    index: HNSW, query: Vector, k: int, candidates: int, allowed: Collection[int]
) -> SearchResult:
    """Search ``index`` unfiltered for ``candidates`` results (``ef = candidates``), keep the
    allowed ones, return the first ``k`` of those (fewer when fewer survive)."""
    found = index.search(query, k=candidates, ef=candidates)
    kept = [(i, d) for i, d in zip(found.ids, found.distances, strict=True) if i in allowed][:k]
    return SearchResult([i for i, _ in kept], [d for _, d in kept], found.computations)


def expected_postfilter_recall(count: int, tagged: int, k: int, candidates: int) -> float:
    """Expected recall@k of post-filtering ``candidates`` exact neighbours, for a tag carried by
    ``tagged`` of ``count`` vectors independently of where they lie.

    Formula: the ``candidates`` nearest vectors hold ``X`` tagged ones,
    ``X ~ Hypergeometric(count, tagged, candidates)``, and they are the ``X`` nearest tagged
    vectors, so the query's recall is ``min(k, X) / k`` (with ``k <= tagged``) and

        E[recall@k] = sum_x P(X = x) * min(k, x) / k  <=  min(1, selectivity * candidates / k)

    An approximate index only loses more. For ``count`` much larger than ``candidates``, ``X``
    is close to ``Binomial(candidates, tagged / count)``.

    Args:
        count: vectors in the collection.
        tagged: vectors that pass the filter, ``k <= tagged <= count``.
        k: results wanted, >= 1.
        candidates: results asked of the unfiltered search, ``<= count``.

    Returns:
        the expected recall, in [0, 1].

    Example:
        >>> round(expected_postfilter_recall(500, 50, 10, 40), 3)  # selectivity 0.1
        0.4

        About 40 * 0.1 = 4 of the 40 candidates pass: recall near 4 / 10.
    """
    if not (1 <= k <= tagged <= count and 0 <= candidates <= count):
        raise ValueError(
            "expected_postfilter_recall: need 1 <= k <= tagged <= count and "
            f"0 <= candidates <= count, got count={count}, tagged={tagged}, k={k}, "
            f"candidates={candidates}"
        )
    total = math.comb(count, candidates)
    expected = 0.0
    for found in range(max(0, candidates - (count - tagged)), min(candidates, tagged) + 1):
        ways = math.comb(tagged, found) * math.comb(count - tagged, candidates - found)
        expected += ways / total * min(k, found)
    return expected / k


def infilter_search(
    index: HNSW, query: Vector, k: int, ef: int, allowed: Collection[int]
) -> SearchResult:
    """hnswlib's filtered search: the walk goes through every neighbour, only allowed ones are kept,
    and the search stops once ``max(ef, k)`` allowed results are held and no nearer candidate
    is left."""
    return index.search(query, k=k, ef=ef, allowed=allowed.__contains__)
