"""Product quantization and IVF-PQ: compression, asymmetric distances, recall by bits, re-rank."""

import math

import pytest

from rankcards.demos.pq import (
    IVFPQIndex,
    PQIndex,
    ProductQuantizer,
    compression_ratio,
    rerank_exact,
)
from rankcards.demos.vectors import exact_knn, ground_truth, synthetic

VECTORS = synthetic(count=1000, dim=16, clusters=40, queries=30, spread=1.0)


def _recall(found, k=10):
    truth = ground_truth(VECTORS, k)
    return sum(len(set(f) & set(t)) for f, t in zip(found, truth, strict=True)) / (k * len(truth))


@pytest.fixture(scope="module")
def indexes():
    return {bits: PQIndex(VECTORS.data, m=4, bits=bits, seed=0) for bits in (2, 4, 6)}


@pytest.mark.parametrize(
    ("dim", "m", "bits", "ratio"),
    [(16, 4, 8, 16.0), (128, 8, 8, 64.0), (768, 96, 8, 32.0), (16, 4, 4, 32.0)],
)
def test_compression_ratio_is_float32_bits_over_code_bits(dim, m, bits, ratio):
    assert compression_ratio(dim, m, bits) == ratio
    assert compression_ratio(dim, m, bits) == (dim * 4) / (m * bits / 8)  # bytes over bytes


def test_recall_rises_with_bits(indexes):
    recalls = [_recall([indexes[b].search(q, 10) for q in VECTORS.queries]) for b in (2, 4, 6)]
    assert recalls == sorted(recalls) and recalls[0] < recalls[-1]
    assert recalls[-1] < 1.0  # ADC alone stays approximate


def test_rerank_raises_recall_and_full_rerank_is_exact(indexes):
    index = indexes[4]
    recalls = [
        _recall([index.search(q, 10, rerank=r) for q in VECTORS.queries]) for r in (10, 50, 200)
    ]
    plain = _recall([index.search(q, 10) for q in VECTORS.queries])
    assert recalls[0] == plain  # re-ranking the top k only re-orders them
    assert recalls == sorted(recalls) and recalls[-1] > plain
    for query in VECTORS.queries[:5]:
        assert index.search(query, 10, rerank=1000) == exact_knn(VECTORS.data, query, 10)


def test_as_many_centroids_as_points_reconstructs_exactly():
    points = VECTORS.data[:16]
    pq = ProductQuantizer(points, m=4, bits=4, seed=3)  # 16 centroids per subspace
    for point in points:
        assert pq.decode(pq.encode(point)) == point


def test_adc_is_the_squared_distance_to_the_reconstruction(indexes):
    pq = indexes[4].pq
    query = VECTORS.queries[0]
    tables = pq.distance_tables(query)
    assert [len(t) for t in tables] == [16] * 4
    for vector in VECTORS.data[:20]:
        code = pq.encode(vector)
        adc = sum(tables[j][c] for j, c in enumerate(code))
        assert adc == pytest.approx(math.dist(query, pq.decode(code)) ** 2, rel=1e-12)


def test_codes_name_the_nearest_centroid_of_each_subspace(indexes):
    pq = indexes[2].pq
    vector = VECTORS.data[7]
    for j, c in enumerate(pq.encode(vector)):
        sub = vector[4 * j : 4 * j + 4]
        distances = [math.dist(sub, centroid) for centroid in pq.codebooks[j]]
        assert distances[c] == min(distances)
    assert pq.code_bytes == 4 * 2 / 8


def test_search_is_the_adc_shortlist_then_the_exact_rerank(indexes):
    index = indexes[4]
    for query in VECTORS.queries[:5]:
        shortlist = index.shortlist(query, 50)
        assert index.search(query, 10) == shortlist[:10]
        reranked = rerank_exact(VECTORS.data, query, shortlist, 10)
        assert index.search(query, 10, rerank=50) == reranked
        exact = sorted(shortlist, key=lambda i: math.dist(query, VECTORS.data[i]))
        assert reranked == exact[:10]


def test_seeded_quantizers_are_reproducible():
    first = PQIndex(VECTORS.data[:300], m=4, bits=3, seed=5)
    second = PQIndex(VECTORS.data[:300], m=4, bits=3, seed=5)
    assert first.pq.codebooks == second.pq.codebooks and first.columns == second.columns
    assert PQIndex(VECTORS.data[:300], m=4, bits=3, seed=6).pq.codebooks != first.pq.codebooks


def test_ivfpq_encodes_residuals():
    index = IVFPQIndex(VECTORS.data, n_lists=8, m=4, bits=4, seed=0)
    assert sorted(i for cell in index.lists for i in cell) == list(range(1000))
    for cell, members in enumerate(index.lists[:3]):
        for position, point in enumerate(members[:5]):
            code = tuple(index.columns[cell][j][position] for j in range(4))
            residual = index.pq.decode(code)
            rebuilt = tuple(c + r for c, r in zip(index.centroids[cell], residual, strict=True))
            vector = VECTORS.data[point]
            # the code approximates vector - centroid: adding the centroid back lands near it
            assert math.dist(rebuilt, vector) < math.dist(index.centroids[cell], vector) + 1e-12


def test_ivfpq_recall_rises_with_nprobe_and_full_scan_with_rerank_is_exact():
    index = IVFPQIndex(VECTORS.data, n_lists=8, m=4, bits=4, seed=0)
    recalls = [_recall([index.search(q, 10, p) for q in VECTORS.queries]) for p in (1, 2, 8)]
    assert recalls == sorted(recalls) and recalls[0] < recalls[-1]
    for query in VECTORS.queries[:5]:
        assert index.search(query, 10, 8, rerank=1000) == exact_knn(VECTORS.data, query, 10)


def test_bad_parameters_are_clear_errors():
    with pytest.raises(ValueError, match=r"m must divide the dimension 16, got m=5"):
        ProductQuantizer(VECTORS.data[:50], m=5, bits=2)
    with pytest.raises(ValueError, match=r"256 centroids \(bits=8\) need at least 256"):
        ProductQuantizer(VECTORS.data[:50], m=4, bits=8)
    with pytest.raises(ValueError, match=r"need k >= 1 and rerank 0 or >= k, got 10, 5"):
        PQIndex(VECTORS.data[:50], m=4, bits=2).search(VECTORS.queries[0], 10, rerank=5)
    with pytest.raises(ValueError, match=r"nprobe must be in 1..4, got 5"):
        IVFPQIndex(VECTORS.data[:100], 4, m=4, bits=2).search(VECTORS.queries[0], 5, 5)
    with pytest.raises(ValueError, match=r"need dim, m, bits >= 1, got 16, 4, 0"):
        compression_ratio(16, 4, 0)
