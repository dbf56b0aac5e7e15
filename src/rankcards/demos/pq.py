"""Product quantization (PQ) and IVF-PQ in pure Python: compressed vectors, asymmetric distances.

Jégou, Douze and Schmid (TPAMI 2011) cut each ``d``-dimensional vector into ``m`` sub-vectors of
``d / m`` dimensions and replace each sub-vector with the id of its nearest centroid in that
subspace's codebook of ``2 ** bits`` centroids (k-means). A vector becomes ``m`` small integers:
``m * bits`` bits instead of ``32 d`` for float32, a compression ratio of ``32 d / (m * bits)``.

A query is *not* quantized (asymmetric distance computation, ADC): for each subspace it gets a
lookup table of its squared distances to the ``2 ** bits`` centroids, and the squared distance to
an encoded vector is the sum of ``m`` table entries, the exact squared distance from the query to
the vector's reconstruction. Ranking by these approximations misses true neighbours, so a
search usually re-ranks its top ``R`` candidates with exact distances (FAISS's ``IndexRefine``,
``k_factor = R / k``), which needs the original vectors at hand.

IVF-PQ (:class:`IVFPQIndex`, FAISS's ``IndexIVFPQ``) first routes each vector to the nearest of
``n_lists`` coarse centroids and encodes its *residual* (vector minus centroid) with PQ; FAISS
does so by default (``by_residual = true`` in ``IndexIVFPQ.cpp``'s constructor, FAISS 1.15.0).
A query scans the ``nprobe`` nearest lists, with one table per list built from its own residual.

Codebooks are trained with :func:`rankcards.demos.ivf.kmeans` (seeded Lloyd iterations), so the
codes, and every recall computed from them, are the same in CPython and Pyodide.

>>> pq = ProductQuantizer([(0.0, 0.0, 4.0, 4.0), (1.0, 1.0, 5.0, 5.0)], m=2, bits=1, seed=0)
>>> len(pq.encode((0.9, 1.2, 4.1, 3.8)))  # m = 2 sub-vectors: 2 codes of 1 bit
2
>>> pq.decode(pq.encode((0.9, 1.2, 4.1, 3.8)))
(1.0, 1.0, 4.0, 4.0)
"""

from __future__ import annotations

import heapq
import math
import operator
import random
from collections.abc import Sequence
from itertools import repeat

from rankcards.demos.ivf import kmeans
from rankcards.demos.vectors import Vector

__all__ = ["IVFPQIndex", "PQIndex", "ProductQuantizer", "compression_ratio", "rerank_exact"]

Code = tuple[int, ...]


def compression_ratio(dim: int, m: int, bits: int) -> float:
    """How many times smaller a PQ code is than the float32 vector it encodes.

    Formula: ``ratio = (32 * dim) / (m * bits)``: a float32 vector takes 32 bits per dimension,
    a PQ code ``bits`` bits for each of its ``m`` sub-vectors (codebooks not counted: they are
    shared by all vectors).

    Args:
        dim: vector dimension, >= 1.
        m: number of sub-vectors, >= 1.
        bits: bits per sub-vector code, >= 1 (``2 ** bits`` centroids per subspace).

    Returns:
        the ratio, a float.

    Reference:
        Jégou, Douze, Schmid, "Product Quantization for Nearest Neighbor Search", IEEE TPAMI
        33(1), 2011, https://doi.org/10.1109/TPAMI.2010.57

    Example:
        >>> compression_ratio(128, 8, 8)  # SIFT: 512 bytes become 8
        64.0
    """
    if min(dim, m, bits) < 1:
        raise ValueError(f"compression_ratio: need dim, m, bits >= 1, got {dim}, {m}, {bits}")
    return 32 * dim / (m * bits)


def _squared(a: Vector, b: Vector) -> float:
    return math.dist(a, b) ** 2


class ProductQuantizer:
    """``m`` codebooks of ``2 ** bits`` centroids, one per subspace, trained on ``train``.

    Args:
        train: training vectors, all of the same dimension ``d``, a multiple of ``m`` (as FAISS
            requires); at least ``2 ** bits`` of them.
        m: number of sub-vectors.
        bits: bits per code; each codebook has ``2 ** bits`` centroids.
        seed: seed of k-means' initial centroids (subspace ``j`` uses ``seed + j``).
        iterations: Lloyd iterations per codebook.
    """

    def __init__(
        self, train: Sequence[Vector], m: int, bits: int, seed: int = 0, iterations: int = 6
    ) -> None:
        if not train:
            raise ValueError("ProductQuantizer: no training vectors")
        dim = len(train[0])
        if m < 1 or dim % m:
            raise ValueError(f"ProductQuantizer: m must divide the dimension {dim}, got m={m}")
        if bits < 1:
            raise ValueError(f"ProductQuantizer: bits must be >= 1, got {bits}")
        centroids = 2**bits
        if len(train) < centroids:
            raise ValueError(
                f"ProductQuantizer: {centroids} centroids (bits={bits}) need at least "
                f"{centroids} training vectors, got {len(train)}"
            )
        self.dim, self.m, self.bits, self.sub_dim = dim, m, bits, dim // m
        self.codebooks: list[list[Vector]] = [
            kmeans([self._sub(vector, j) for vector in train], centroids, seed + j, iterations)
            for j in range(m)
        ]

    def _sub(self, vector: Vector, j: int) -> Vector:
        return vector[j * self.sub_dim : (j + 1) * self.sub_dim]

    @property
    def code_bytes(self) -> float:
        """Bytes per encoded vector: ``m * bits / 8``."""
        return self.m * self.bits / 8

    def encode(self, vector: Vector) -> Code:
        """The id of the nearest centroid of each sub-vector (ties: the lower id)."""
        code = []
        for j, codebook in enumerate(self.codebooks):
            distances = list(map(math.dist, repeat(self._sub(vector, j)), codebook))
            code.append(distances.index(min(distances)))
        return tuple(code)

    def decode(self, code: Code) -> Vector:
        """The reconstruction: the concatenated centroids the code names."""
        return tuple(x for j, c in enumerate(code) for x in self.codebooks[j][c])

    def distance_tables(self, query: Vector) -> list[list[float]]:
        """ADC lookup tables: ``tables[j][c]`` = squared distance from the query's sub-vector
        ``j`` to centroid ``c`` of codebook ``j`` (``m * 2 ** bits`` distances per query)."""
        return [
            list(map(_squared, repeat(self._sub(query, j)), codebook))
            for j, codebook in enumerate(self.codebooks)
        ]


def _adc(tables: list[list[float]], columns: Sequence[Sequence[int]]) -> list[float]:
    """Squared ADC distances of every code, summing one table entry per subspace.

    Codes are stored column-wise (``columns[j][i]`` = code of vector ``i`` in subspace ``j``),
    so each subspace is one pass of C-level lookups.
    """
    total = list(map(tables[0].__getitem__, columns[0]))
    for table, column in zip(tables[1:], columns[1:], strict=True):
        total = list(map(operator.add, total, map(table.__getitem__, column)))
    return total


class PQIndex:
    """A flat PQ index (FAISS's ``IndexPQ``): every vector encoded, every code scanned by ADC.

    The codebooks are trained on a seeded sample of ``train_size`` vectors with ``iterations``
    Lloyd iterations (few, so that the page retrains within its latency budget). The original
    vectors are kept only for the optional exact re-ranking.
    """

    def __init__(
        self,
        data: Sequence[Vector],
        m: int,
        bits: int,
        seed: int = 0,
        train_size: int = 300,
        iterations: int = 4,
    ) -> None:
        self.data = list(data)
        sample = random.Random(seed).sample(range(len(self.data)), min(train_size, len(data)))
        self.pq = ProductQuantizer([self.data[i] for i in sample], m, bits, seed, iterations)
        codes = [self.pq.encode(vector) for vector in self.data]
        self.columns = [list(column) for column in zip(*codes, strict=True)]

    def shortlist(self, query: Vector, depth: int) -> list[int]:
        """The ``depth`` nearest vectors by ADC, nearest first (ties: the lower id)."""
        approximate = _adc(self.pq.distance_tables(query), self.columns)
        return heapq.nsmallest(depth, range(len(approximate)), key=approximate.__getitem__)

    def search(self, query: Vector, k: int, rerank: int = 0) -> list[int]:
        """The ``k`` nearest by ADC; with ``rerank`` = R >= k, the ADC's top R re-ordered by
        exact distance (:func:`rerank_exact`)."""
        _check_rerank(k, rerank)
        if not rerank:
            return self.shortlist(query, k)
        return rerank_exact(self.data, query, self.shortlist(query, rerank), k)


def _check_rerank(k: int, rerank: int) -> None:
    if k < 1 or (rerank and rerank < k):
        raise ValueError(f"search: need k >= 1 and rerank 0 or >= k, got {k}, {rerank}")


def rerank_exact(data: Sequence[Vector], query: Vector, ids: Sequence[int], k: int) -> list[int]:
    """The ``k`` of ``ids`` nearest to ``query`` by exact distance (ties: the lower id): the
    re-ranking step, one exact distance per id, which needs the original vectors."""
    distances = map(math.dist, repeat(query), map(data.__getitem__, ids))
    pairs = sorted(zip(distances, ids, strict=True))
    return [i for _, i in pairs[:k]]


class IVFPQIndex:
    """IVF-PQ as FAISS's ``IndexIVFPQ`` with ``by_residual``: a coarse k-means quantizer of
    ``n_lists`` centroids, and PQ codes of each vector's residual to its list's centroid."""

    def __init__(
        self,
        data: Sequence[Vector],
        n_lists: int,
        m: int,
        bits: int,
        seed: int = 0,
        train_size: int = 300,
        iterations: int = 4,
    ) -> None:
        self.data = list(data)
        sample = random.Random(seed).sample(range(len(self.data)), min(train_size, len(data)))
        train = [self.data[i] for i in sample]
        self.centroids = kmeans(train, n_lists, seed, iterations)
        assigned = [self._nearest_list(vector) for vector in self.data]
        residuals = [self._residual(self.data[i], assigned[i]) for i in sample]
        self.pq = ProductQuantizer(residuals, m, bits, seed, iterations)
        self.lists: list[list[int]] = [[] for _ in range(n_lists)]
        codes: list[list[Code]] = [[] for _ in range(n_lists)]
        for index, (vector, cell) in enumerate(zip(self.data, assigned, strict=True)):
            self.lists[cell].append(index)
            codes[cell].append(self.pq.encode(self._residual(vector, cell)))
        self.columns = [
            [list(column) for column in zip(*cell, strict=True)] if cell else [[] for _ in range(m)]
            for cell in codes
        ]

    def _nearest_list(self, vector: Vector) -> int:
        distances = list(map(math.dist, repeat(vector), self.centroids))
        return distances.index(min(distances))

    def _residual(self, vector: Vector, cell: int) -> Vector:
        return tuple(map(operator.sub, vector, self.centroids[cell]))

    def probe(self, query: Vector, nprobe: int) -> list[int]:
        """The ``nprobe`` lists whose centroids are nearest ``query``, nearest first."""
        if not 1 <= nprobe <= len(self.centroids):
            raise ValueError(
                f"IVFPQIndex: nprobe must be in 1..{len(self.centroids)}, got {nprobe}"
            )
        distances = list(map(math.dist, repeat(query), self.centroids))
        return heapq.nsmallest(nprobe, range(len(distances)), key=distances.__getitem__)

    def shortlist(self, query: Vector, depth: int, nprobe: int) -> list[int]:
        """The ``depth`` nearest by ADC on residuals in the probed lists, one table per list."""
        pairs: list[tuple[float, int]] = []
        for cell in self.probe(query, nprobe):
            if not self.lists[cell]:
                continue
            tables = self.pq.distance_tables(self._residual(query, cell))
            pairs.extend(zip(_adc(tables, self.columns[cell]), self.lists[cell], strict=True))
        return [i for _, i in heapq.nsmallest(depth, pairs)]

    def search(self, query: Vector, k: int, nprobe: int, rerank: int = 0) -> list[int]:
        """The ``k`` nearest by ADC in the ``nprobe`` nearest lists; with ``rerank`` = R >= k,
        their top R re-ordered by exact distance."""
        _check_rerank(k, rerank)
        if not rerank:
            return self.shortlist(query, k, nprobe)
        return rerank_exact(self.data, query, self.shortlist(query, rerank, nprobe), k)
