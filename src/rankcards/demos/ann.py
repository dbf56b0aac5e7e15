"""Small seeded vector-search setups for the ANN benchmarking cards (recall, latency, frontier).

Everything here is standard-library Python that runs in Pyodide: data sets, exact neighbours
with their distances (the ground truth ANN benchmarks store), and IVF indexes built once per
process and cached, so that a card's example can be re-run on every control change while only
the part it teaches (counting recall, timing queries, sweeping a parameter) runs again.

- :func:`integer_vectors`: vectors of small integer coordinates, like BIGANN's ``uint8``
  vectors, so that many points lie at exactly the same distance from a query.
- :func:`exact_neighbours`: brute force, ``(id, distance)`` pairs nearest first; ties by id.
- :func:`true_neighbours`: every query's exact neighbours, computed once per data set and depth
  (the ground-truth file a benchmark stores).
- :func:`with_distances`: an index's ids paired with their true distances to the query, as
  ann-benchmarks' runner recomputes them before scoring.
- :func:`ivf_index`: the IVF index of :mod:`rankcards.demos.ivf` over one of these data sets,
  built once per parameters.
- :func:`operating_point`: the recall@k and distance computations per query of one IVF
  setting, for parameter sweeps.

>>> data = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (2.0, 2.0)]
>>> exact_neighbours(data, (0.0, 0.0), 2)  # points 1 and 2 tie at distance 1
[(0, 0.0), (1, 1.0)]
>>> exact_neighbours(data, (0.0, 0.0), 2, highest_id_first=True)
[(0, 0.0), (2, 1.0)]
"""

from __future__ import annotations

import functools
import heapq
import math
import random
from collections.abc import Sequence
from itertools import repeat

from rankcards.demos.ivf import IVFIndex
from rankcards.demos.vectors import Vector, Vectors, synthetic
from rankcards.metrics import mean_knn_recall

__all__ = [
    "exact_neighbours",
    "integer_vectors",
    "ivf_index",
    "operating_point",
    "true_neighbours",
    "with_distances",
]

Neighbour = tuple[int, float]


@functools.cache
def integer_vectors(
    count: int = 500, dim: int = 8, levels: int = 4, queries: int = 20, seed: int = 7
) -> Vectors:
    """``count`` points and ``queries`` queries whose coordinates are integers ``0..levels-1``.

    Uniform, not clustered: the point is the ties. With 8 coordinates of 4 levels the squared
    distance is an integer from 0 to 72, so a query's k-th neighbour usually shares its
    distance with several other points, and which of them is "the" k-th is a tie-break.
    """
    if min(count, dim, queries) < 1 or levels < 2:
        raise ValueError(
            "integer_vectors: count, dim and queries must be >= 1 and levels >= 2, got "
            f"{count}, {dim}, {queries}, {levels}"
        )
    rng = random.Random(seed)

    def point() -> Vector:
        return tuple(float(rng.randrange(levels)) for _ in range(dim))

    data = tuple(point() for _ in range(count))
    held_out = tuple(point() for _ in range(queries))
    return Vectors(data, held_out, dim, levels, seed)


def exact_neighbours(
    data: Sequence[Vector], query: Vector, depth: int, *, highest_id_first: bool = False
) -> list[Neighbour]:
    """The ``depth`` points nearest to ``query`` by brute force, as ``(id, distance)``.

    Equal distances are ordered by id, lowest first (as :func:`~rankcards.demos.vectors.exact_knn`)
    or, with ``highest_id_first``, highest first: another exact search, equally right.
    """
    distances = map(math.dist, repeat(query), data)
    if highest_id_first:
        nearest = sorted(zip(distances, range(0, -len(data), -1), strict=True))[:depth]
        return [(-negated, distance) for distance, negated in nearest]
    nearest = sorted(zip(distances, range(len(data)), strict=True))[:depth]
    return [(i, distance) for distance, i in nearest]


def with_distances(data: Sequence[Vector], query: Vector, ids: Sequence[int]) -> list[Neighbour]:
    """The ids an index returned, each with its true distance to ``query``, in the given order.

    ann-benchmarks does this in its runner (``ann_benchmarks/runner.py``): it recomputes the
    distance of every returned point rather than trusting the index's own.
    """
    return [(i, math.dist(query, data[i])) for i in ids]


@functools.cache
def ivf_index(vectors: Vectors, n_lists: int, seed: int = 0) -> IVFIndex:
    """An :class:`~rankcards.demos.ivf.IVFIndex` over ``vectors.data``, built once per process."""
    return IVFIndex(vectors.data, n_lists=n_lists, seed=seed)


@functools.cache
def true_neighbours(
    vectors: Vectors, depth: int, *, highest_id_first: bool = False
) -> tuple[tuple[Neighbour, ...], ...]:
    """:func:`exact_neighbours` of each of ``vectors.queries`` (``depth`` of them, same tie
    order), computed once per process: the ground truth a benchmark computes once and stores,
    so that an example re-run on a control change only scores again."""
    return tuple(
        tuple(exact_neighbours(vectors.data, q, depth, highest_id_first=highest_id_first))
        for q in vectors.queries
    )


def operating_point(
    n_lists: int, nprobe: int, k: int = 10, count: int = 1000, dim: int = 8, queries: int = 20
) -> tuple[float, float]:
    """``(recall@k, distance computations per query)`` of an IVF index with ``n_lists`` lists
    searched with ``nprobe``, on ``synthetic(count, dim, queries=queries)``.

    Recall is :func:`~rankcards.metrics.mean_knn_recall` (ann-benchmarks' convention; these
    clustered float vectors have no ties, so every convention agrees); the cost counts the
    centroids compared plus the candidates scanned, a measure of work that no machine changes.
    The whole ``nprobe`` sweep of an index is computed at its first call and cached.
    """
    if not 1 <= nprobe <= n_lists:
        raise ValueError(f"operating_point: nprobe must be in 1..{n_lists}, got {nprobe}")
    return _sweep(n_lists, k, count, dim, queries)[nprobe - 1]


@functools.cache
def _sweep(
    n_lists: int, k: int, count: int, dim: int, queries: int
) -> tuple[tuple[float, float], ...]:
    """Every nprobe's operating point in one pass per query: the lists are visited in the
    order the search probes them, and the top k so far is merged with each new list, which
    gives exactly ``index.search(query, k, nprobe)`` for every ``nprobe`` at the cost of one."""
    vectors = synthetic(count=count, dim=dim, queries=queries)
    index = ivf_index(vectors, n_lists)
    found: list[list[list[Neighbour]]] = [[] for _ in range(n_lists)]  # [nprobe - 1][query]
    scanned = [0] * n_lists
    for query in vectors.queries:
        to_centroids = list(map(math.dist, repeat(query), index.centroids))
        order = sorted(range(n_lists), key=to_centroids.__getitem__)
        top: list[tuple[float, int]] = []
        seen = 0
        for probes, cell in enumerate(order):
            members = index.lists[cell]
            distances = map(math.dist, repeat(query), (vectors.data[i] for i in members))
            top = heapq.nsmallest(k, [*top, *zip(distances, members, strict=True)])
            seen += len(members)
            found[probes].append([(i, distance) for distance, i in top])
            scanned[probes] += seen
    truth = true_neighbours(vectors, k)
    return tuple(
        (mean_knn_recall(truth, found[p], k), n_lists + scanned[p] / queries)
        for p in range(n_lists)
    )
