"""An IVF-style approximate nearest-neighbour index (inverted file + k-means) in pure Python.

IVF is the idea behind FAISS's ``IndexIVFFlat``: a coarse quantiser (k-means with ``n_lists``
centroids) splits the data into lists; a query is compared with the centroids, and only the
points in the ``nprobe`` nearest lists are scanned exactly. ``nprobe`` is the speed/recall knob:
``nprobe = 1`` scans about ``1/n_lists`` of the data and can miss neighbours that sit just across
a cell boundary; ``nprobe = n_lists`` scans everything and equals exact search.

Building (training k-means, assigning points) is paid once, searching on every query - which is
why benchmarks report build time separately from queries per second.

>>> from rankcards.demos.vectors import synthetic, exact_knn
>>> vectors = synthetic(count=400, dim=4, clusters=4, queries=3, seed=3)
>>> index = IVFIndex(vectors.data, n_lists=8, seed=0)
>>> query = vectors.queries[0]
>>> index.search(query, k=5, nprobe=8) == exact_knn(vectors.data, query, k=5)
True
"""

from __future__ import annotations

import heapq
import math
import random
import time
from collections.abc import Sequence
from itertools import repeat

from rankcards.demos.vectors import Vector


def _mean(points: Sequence[Vector]) -> Vector:
    count = len(points)
    return tuple(sum(column) / count for column in zip(*points, strict=True))


def _nearest(point: Vector, centroids: Sequence[Vector]) -> int:
    distances = list(map(math.dist, repeat(point), centroids))
    return distances.index(min(distances))


def kmeans(points: Sequence[Vector], clusters: int, seed: int, iterations: int = 8) -> list[Vector]:
    """Lloyd's k-means from ``clusters`` distinct random points; an emptied cell keeps its centroid.

    A fixed, small number of iterations: the quantiser only has to be good enough to route
    queries, and FAISS likewise trains IVF with a handful of iterations on a sample.
    """
    if not 1 <= clusters <= len(points):
        raise ValueError(f"kmeans: need 1 <= clusters <= {len(points)} points, got {clusters}")
    centroids = random.Random(seed).sample(list(points), clusters)
    for _ in range(iterations):
        cells: list[list[Vector]] = [[] for _ in range(clusters)]
        for point in points:
            cells[_nearest(point, centroids)].append(point)
        centroids = [
            _mean(cell) if cell else old for cell, old in zip(cells, centroids, strict=True)
        ]
    return centroids


class IVFIndex:
    """An inverted-file index over ``data``; :attr:`build_seconds` is measured while building.

    ``train_size`` points (a seeded sample) train the quantiser; all points are then assigned.
    """

    def __init__(
        self,
        data: Sequence[Vector],
        n_lists: int,
        seed: int = 0,
        train_size: int = 500,
        iterations: int = 6,
    ) -> None:
        started = time.perf_counter()
        sample = random.Random(seed).sample(range(len(data)), min(train_size, len(data)))
        self.centroids = kmeans([data[i] for i in sample], n_lists, seed, iterations)
        self.lists: list[list[int]] = [[] for _ in range(n_lists)]
        # Each list keeps its points next to their ids, as IndexIVFFlat stores full vectors.
        self._points: list[list[Vector]] = [[] for _ in range(n_lists)]
        for index, point in enumerate(data):
            cell = _nearest(point, self.centroids)
            self.lists[cell].append(index)
            self._points[cell].append(point)
        self.build_seconds = time.perf_counter() - started

    @property
    def n_lists(self) -> int:
        return len(self.centroids)

    def candidates(self, query: Vector, nprobe: int) -> list[int]:
        """Indices of the points in the ``nprobe`` lists whose centroids are nearest ``query``."""
        return [index for cell in self._probe(query, nprobe) for index in self.lists[cell]]

    def search(self, query: Vector, k: int, nprobe: int) -> list[int]:
        """The ``k`` nearest candidates, nearest first (ties: lower index, as exact search)."""
        pairs: list[tuple[float, int]] = []
        for cell in self._probe(query, nprobe):
            distances = map(math.dist, repeat(query), self._points[cell])
            pairs.extend(zip(distances, self.lists[cell], strict=True))
        return [index for _, index in heapq.nsmallest(k, pairs)]

    def distances_per_query(self, queries: Sequence[Vector], nprobe: int) -> float:
        """Mean distance computations per query at ``nprobe``: the centroids plus the probed
        lists' points. A cost that does not depend on the machine (exact search: ``len(data)``).
        """
        scanned = sum(len(self.candidates(query, nprobe)) for query in queries)
        return self.n_lists + scanned / len(queries)

    def _probe(self, query: Vector, nprobe: int) -> list[int]:
        if not 1 <= nprobe <= self.n_lists:
            raise ValueError(f"IVFIndex: nprobe must be in 1..{self.n_lists}, got {nprobe}")
        distances = list(map(math.dist, repeat(query), self.centroids))
        return heapq.nsmallest(nprobe, range(self.n_lists), key=distances.__getitem__)
