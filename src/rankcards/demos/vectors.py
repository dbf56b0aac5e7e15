"""Seeded synthetic vectors and exact k-nearest-neighbour search (the ground truth of ANN).

The index-benchmarking card needs a data set whose true neighbours are known. Real embeddings
are clustered, so the vectors are drawn around ``clusters`` random centres (Gaussian noise of
standard deviation ``spread``); the queries are drawn the same way from a separate random stream,
as ann-benchmarks holds out its query set from the indexed points.

Everything is pure Python: :func:`math.dist` (implemented in C) computes the Euclidean distance,
which keeps a 2,000 x 16 brute-force scan fast enough for Pyodide. ``random.Random`` with an
integer seed produces the same numbers in CPython and Pyodide, so recall values are exact and
reproducible; only timings differ between machines.

>>> vectors = synthetic(count=300, dim=4, clusters=3, queries=5, seed=1)
>>> len(vectors.data), len(vectors.data[0]), len(vectors.queries)
(300, 4, 5)
>>> exact_knn(vectors.data, vectors.data[7], k=1)
[7]
"""

from __future__ import annotations

import functools
import heapq
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat

Vector = tuple[float, ...]


@dataclass(frozen=True)
class Vectors:
    """Indexed points, held-out queries and the parameters that generated them."""

    data: tuple[Vector, ...]
    queries: tuple[Vector, ...]
    dim: int
    clusters: int
    seed: int


def _point(rng: random.Random, centre: Vector, spread: float) -> Vector:
    return tuple(c + rng.gauss(0.0, spread) for c in centre)


@functools.cache
def synthetic(
    count: int = 2000,
    dim: int = 16,
    clusters: int = 12,
    queries: int = 50,
    seed: int = 42,
    spread: float = 0.6,
) -> Vectors:
    """``count`` clustered points and ``queries`` query points in ``[-1, 1]^dim`` (+ noise).

    Cached per parameters: the page recomputes views often, the data never changes.
    """
    if min(count, dim, clusters, queries) < 1:
        raise ValueError(
            "synthetic: count, dim, clusters and queries must be >= 1, got "
            f"{count}, {dim}, {clusters}, {queries}"
        )
    rng = random.Random(seed)
    centres = [tuple(rng.uniform(-1.0, 1.0) for _ in range(dim)) for _ in range(clusters)]
    data = tuple(_point(rng, rng.choice(centres), spread) for _ in range(count))
    query_rng = random.Random(seed + 1)
    held_out = tuple(_point(query_rng, query_rng.choice(centres), spread) for _ in range(queries))
    return Vectors(data, held_out, dim, clusters, seed)


def exact_knn(data: Sequence[Vector], query: Vector, k: int) -> list[int]:
    """Indices of the ``k`` points nearest to ``query`` by brute force (ties: lower index)."""
    distances = list(map(math.dist, repeat(query), data))
    return heapq.nsmallest(k, range(len(data)), key=distances.__getitem__)


@functools.cache
def ground_truth(vectors: Vectors, k: int) -> tuple[tuple[int, ...], ...]:
    """The exact ``k`` nearest neighbours of every query (computed once per data set and k)."""
    return tuple(tuple(exact_knn(vectors.data, query, k)) for query in vectors.queries)
