"""HNSW (hierarchical navigable small world graphs) in pure Python, as hnswlib builds it.

Malkov and Yashunin (TPAMI 2020, arXiv:1603.09320) stack proximity graphs like a skip list:
every point is on layer 0, and each point's top layer is drawn as
``floor(-ln(U) * mL)`` with ``U`` uniform in (0, 1] and ``mL = 1 / ln(M)``, so a point reaches
layer ``l`` with probability ``M ** -l``. A search walks greedily down the sparse upper layers to
a good entry point, then runs a best-first search on layer 0 that keeps the ``ef`` nearest points
seen so far. The choices below follow hnswlib 0.8.0 (``hnswlib/hnswalg.h``, commit
c1b9b79), checked line by line:

* a new point is linked to at most ``M`` neighbours on every layer, chosen from
  ``ef_construction`` candidates by the paper's heuristic (Algorithm 4, as hnswlib's
  ``getNeighborsByHeuristic2``: take candidates nearest first, keep one unless it is closer to
  an already kept neighbour than to the new point; pruned candidates are not added back);
* a point keeps at most ``M`` links on upper layers and ``M0 = 2 M`` on layer 0 (``maxM0_``);
  when a back-link overflows a full list, the list is re-chosen by the same heuristic;
* ``ef_construction`` is raised to ``M`` when smaller, and the search uses ``max(ef, k)``
  (``searchKnn``), so ``ef`` below ``k`` is never in effect;
* with an ``allowed`` filter, layer 0 is searched as hnswlib's ``searchBaseLayerST<false>``
  does: the walk goes through points that fail the filter too, only allowed points enter the
  results.

Distances are Euclidean (:func:`math.dist`); hnswlib's L2 space uses the squared distance, which
orders points the same way. :attr:`HNSW.distance_computations` (and, of those,
:attr:`HNSW.build_computations` spent building) and the counts that :meth:`HNSW.search` returns
are the distances actually computed, a cost that does not depend on the machine. The layers are
drawn from ``random.Random(seed)``, so an index and its recall are the same in CPython and
Pyodide (not the graph hnswlib builds: its random generator differs).

>>> from rankcards.demos.vectors import exact_knn, synthetic
>>> vectors = synthetic(count=300, dim=4, clusters=3, queries=2, seed=5)
>>> index = HNSW(vectors.data, m=6, ef_construction=30, seed=1)
>>> query = vectors.queries[0]
>>> index.search(query, k=5, ef=300).ids == exact_knn(vectors.data, query, 5)
True
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Callable, Sequence
from itertools import repeat
from typing import NamedTuple

from rankcards.demos.vectors import Vector

__all__ = ["HNSW", "SearchResult", "hnswlib_bytes_per_element"]

# hnswlib's C types (hnswlib.h, hnswalg.h): tableint and linklistsizeint are unsigned int,
# labeltype is size_t, vectors are float32.
_LINK_BYTES = 4
_COUNT_BYTES = 4
_LABEL_BYTES = 8
_FLOAT_BYTES = 4


def hnswlib_bytes_per_element(dim: int, m: int, upper_levels: float | None = None) -> float:
    """Bytes hnswlib's index file spends per element, for float32 vectors of ``dim`` dimensions.

    Formula (hnswlib 0.8.0, ``hnswalg.h``: the constructor and ``indexFileSize``)::

        level 0:  size_data_per_element_ = (2M * 4 + 4) + 4 dim + 8
                  (2M links of 4 bytes and their count, the vector, the 8-byte label)
        upper:    size_links_per_element_ = M * 4 + 4 per upper layer of the element
        file:     size_data_per_element_ + 4 + size_links_per_element_ * levels

    ``levels`` is the element's number of upper layers; by default its expectation,
    ``sum_{l >= 1} M^-l = 1 / (M - 1)`` with hnswlib's ``mL = 1 / ln M``. The index in memory
    adds per-element bookkeeping (a pointer, a lock, the label map) that this leaves out.

    Args:
        dim: vector dimension, >= 1.
        m: hnswlib's ``M``, >= 2.
        upper_levels: mean number of upper layers per element; ``None`` for ``1 / (M - 1)``.

    Returns:
        bytes per element, a float because the upper layers are an average.

    Reference:
        hnswlib, https://github.com/nmslib/hnswlib/blob/v0.8.0/hnswlib/hnswalg.h

    Example:
        >>> round(hnswlib_bytes_per_element(128, 16), 3)  # SIFT-like vectors, hnswlib's M
        660.533

        652 bytes on layer 0 (132 of links, 512 of vector, 8 of label), 4 for the upper
        links' size, and (16 * 4 + 4) / 15 for the expected 1/15 upper layers.
    """
    if dim < 1 or m < 2:
        raise ValueError(f"hnswlib_bytes_per_element: need dim >= 1 and M >= 2, got {dim}, {m}")
    levels = 1.0 / (m - 1) if upper_levels is None else upper_levels
    level0 = (2 * m * _LINK_BYTES + _COUNT_BYTES) + dim * _FLOAT_BYTES + _LABEL_BYTES
    upper = m * _LINK_BYTES + _COUNT_BYTES
    return level0 + _COUNT_BYTES + upper * levels


class SearchResult(NamedTuple):
    """One query's answer: ids nearest first, their distances, and the distances computed."""

    ids: list[int]
    distances: list[float]
    computations: int


class HNSW:
    """A hierarchical navigable small world graph over ``data``, built point by point.

    Args:
        data: the vectors, indexed by position (the ids the search returns).
        m: links per point and layer (hnswlib's ``M``, default 16); layer 0 keeps ``2 M``.
        ef_construction: candidates kept while linking a new point (raised to ``m``).
        seed: seed of the layer draws (hnswlib's ``random_seed``, default 100).
    """

    def __init__(
        self,
        data: Sequence[Vector],
        m: int = 16,
        ef_construction: int = 200,
        seed: int = 100,
    ) -> None:
        if m < 2:
            raise ValueError(f"HNSW: M must be >= 2, got {m}")
        if ef_construction < 1:
            raise ValueError(f"HNSW: ef_construction must be >= 1, got {ef_construction}")
        self.data = list(data)
        self.m = m
        self.m0 = 2 * m
        self.ef_construction = max(ef_construction, m)
        self.level_mult = 1.0 / math.log(m)
        self.levels: list[int] = []
        # links[layer][point] = that point's neighbours on the layer (points on the layer only)
        self.links: list[dict[int, list[int]]] = []
        self.entry = -1
        self.distance_computations = 0
        rng = random.Random(seed)
        for point in range(len(self.data)):
            self._insert(point, int(-math.log(1.0 - rng.random()) * self.level_mult))
        self.build_computations = self.distance_computations

    @property
    def max_level(self) -> int:
        """The top layer (that of the entry point); -1 for an empty index."""
        return len(self.links) - 1

    def bytes_per_element(self) -> float:
        """:func:`hnswlib_bytes_per_element` with this index's own upper layers."""
        count = max(len(self.data), 1)
        dim = len(self.data[0]) if self.data else 1
        return hnswlib_bytes_per_element(dim, self.m, sum(self.levels) / count)

    def search(
        self,
        query: Vector,
        k: int,
        ef: int,
        allowed: Callable[[int], bool] | None = None,
    ) -> SearchResult:
        """The ``k`` nearest points found with ``max(ef, k)`` candidates (hnswlib's ``searchKnn``).

        With ``allowed``, only points it accepts are returned, and the layer-0 search stops as
        hnswlib's filtered search does: when the nearest unexpanded candidate is farther than
        the worst result and ``ef`` allowed results are held.
        """
        if k < 1 or ef < 1:
            raise ValueError(f"HNSW.search: need k >= 1 and ef >= 1, got k={k}, ef={ef}")
        if self.entry < 0:
            return SearchResult([], [], 0)
        before = self.distance_computations
        node, distance = self._descend(query, self.entry, self.max_level, 0)
        found = self._search_layer(query, node, distance, max(ef, k), 0, allowed)
        top = heapq.nsmallest(k, found)
        return SearchResult(
            [point for _, point in top],
            [dist for dist, _ in top],
            self.distance_computations - before,
        )

    def _distance_to(self, query: Vector, point: int) -> float:
        self.distance_computations += 1
        return math.dist(query, self.data[point])

    def _descend(self, query: Vector, node: int, top: int, stop: int) -> tuple[int, float]:
        """Greedy walk from ``node`` on layers ``top`` down to ``stop`` + 1: on each layer, move
        to a nearer neighbour while there is one. Returns the point reached and its distance."""
        distance = self._distance_to(query, node)
        for level in range(top, stop, -1):
            layer = self.links[level]
            changed = True
            while changed:
                changed = False
                for neighbour in layer[node]:
                    candidate = self._distance_to(query, neighbour)
                    if candidate < distance:
                        node, distance, changed = neighbour, candidate, True
        return node, distance

    def _search_layer(
        self,
        query: Vector,
        entry: int,
        entry_distance: float,
        ef: int,
        level: int,
        allowed: Callable[[int], bool] | None = None,
    ) -> list[tuple[float, int]]:
        """Best-first search on one layer; returns up to ``ef`` ``(distance, point)`` pairs."""
        layer, data = self.links[level], self.data
        push, pop = heapq.heappush, heapq.heappop
        visited = {entry}
        candidates = [(entry_distance, entry)]
        # the results as a max-heap (negated distances); bound = the worst, +inf while empty
        results: list[tuple[float, int]] = []
        bound = math.inf
        if allowed is None or allowed(entry):
            results.append((-entry_distance, entry))
            bound = entry_distance
        computed = 0
        while candidates:
            distance, node = candidates[0]
            if distance > bound and (allowed is None or len(results) == ef):
                break
            pop(candidates)
            fresh = [n for n in layer[node] if n not in visited]
            if not fresh:
                continue
            visited.update(fresh)
            computed += len(fresh)
            distances = map(math.dist, repeat(query), map(data.__getitem__, fresh))
            if len(results) >= ef:  # full: only those nearer than the worst can enter
                pairs = [(d, n) for d, n in zip(distances, fresh, strict=True) if d < bound]
            else:
                pairs = list(zip(distances, fresh, strict=True))
            for dist, neighbour in pairs:
                if dist < bound or len(results) < ef:
                    push(candidates, (dist, neighbour))
                    if allowed is None or allowed(neighbour):
                        push(results, (-dist, neighbour))
                        if len(results) > ef:
                            pop(results)
                        bound = -results[0][0]
        self.distance_computations += computed
        return [(-negated, point) for negated, point in results]

    def _select_neighbours(self, candidates: list[tuple[float, int]], limit: int) -> list[int]:
        """hnswlib's ``getNeighborsByHeuristic2``: fewer than ``limit`` candidates are all kept;
        otherwise, nearest first, a candidate is kept unless a kept one is nearer to it than the
        base point is. Returns ids nearest first (at most ``limit``)."""
        ordered = sorted(candidates)
        if len(ordered) < limit:
            return [point for _, point in ordered]
        data, dist = self.data, math.dist
        kept: list[int] = []
        kept_vectors: list[Vector] = []
        computed = 0
        for distance, point in ordered:
            vector = data[point]
            for other in kept_vectors:
                computed += 1
                if dist(other, vector) < distance:
                    break
            else:
                kept.append(point)
                kept_vectors.append(vector)
                if len(kept) == limit:
                    break
        self.distance_computations += computed
        return kept

    def _insert(self, point: int, level: int) -> None:
        previous_top = self.max_level
        self.levels.append(level)
        for layer in self.links[: level + 1]:
            layer[point] = []
        while len(self.links) <= level:
            self.links.append({point: []})
        if previous_top < 0:
            self.entry = point
            return
        query = self.data[point]
        node, distance = self._descend(query, self.entry, previous_top, level)
        for current in range(min(level, previous_top), -1, -1):
            found = self._search_layer(query, node, distance, self.ef_construction, current)
            neighbours = self._select_neighbours(found, self.m)
            self.links[current][point] = neighbours
            self._link_back(point, neighbours, current)
            # the next layer down starts from the nearest neighbour kept (hnswlib does the same)
            node = neighbours[0]
            distance = min(found)[0]
        if level > previous_top:
            self.entry = point

    def _link_back(self, point: int, neighbours: list[int], level: int) -> None:
        """Add ``point`` to each neighbour's list; a full list is re-chosen by the heuristic."""
        capacity = self.m0 if level == 0 else self.m
        layer, data = self.links[level], self.data
        for neighbour in neighbours:
            links = layer[neighbour]
            if len(links) < capacity:
                links.append(point)
                continue
            base = data[neighbour]
            pool = [(math.dist(data[other], base), other) for other in (*links, point)]
            self.distance_computations += len(pool)
            layer[neighbour] = self._select_neighbours(pool, capacity)
