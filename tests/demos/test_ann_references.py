"""The pure-Python HNSW and PQ against hnswlib 0.8.0 and FAISS, and the tool facts the cards state.

hnswlib: the same recall curve on the same vectors (graphs differ: another random generator),
``max(ef, k)``, the filter, and the index file's bytes per element parsed from a saved index.
FAISS: our codes, ADC tables and ADC ranking with our codebooks loaded into FAISS's
``ProductQuantizer`` / ``IndexPQ``; ``by_residual``, ``k_factor`` and the factory's ``nbits``.
"""

import struct

import pytest

from ci_gate import require_module
from rankcards.demos.hnsw import HNSW, hnswlib_bytes_per_element
from rankcards.demos.pq import PQIndex
from rankcards.demos.vectors import ground_truth, synthetic

np = require_module("numpy", "pip install -e '.[dev]'")
hnswlib = require_module("hnswlib", "pip install -e '.[dev]' (hnswlib 0.8.0)")
faiss = require_module("faiss", "pip install -e '.[dev]' (faiss-cpu)")

VECTORS = synthetic(count=500, dim=16, clusters=40, queries=20, spread=1.0)


def _hnswlib_index(m, ef_construction=40, data=VECTORS.data):
    index = hnswlib.Index(space="l2", dim=len(data[0]))
    index.init_index(max_elements=len(data), M=m, ef_construction=ef_construction)
    index.add_items(np.array(data, dtype=np.float32), num_threads=1)  # one thread: seeded
    return index


def _recall(found, truth):
    return sum(len(set(f) & set(t)) for f, t in zip(found, truth, strict=True)) / (10 * len(truth))


@pytest.mark.parametrize("m", [4, 8, 16])
def test_recall_by_ef_follows_hnswlib(m):
    truth = ground_truth(VECTORS, 10)
    theirs = _hnswlib_index(m)
    ours = HNSW(VECTORS.data, m=m, ef_construction=40)
    queries = np.array(VECTORS.queries, dtype=np.float32)
    for ef in (10, 20, 40, 80):
        theirs.set_ef(ef)
        labels, _ = theirs.knn_query(queries, k=10, num_threads=1)
        reference = _recall(labels.tolist(), truth)
        mine = _recall([ours.search(q, 10, ef).ids for q in VECTORS.queries], truth)
        assert mine == pytest.approx(reference, abs=0.05), (m, ef)


def test_hnswlib_needs_the_same_ef_for_the_cards_target_of_098():
    """The hnsw card: recall@10 >= 0.98 needs ef 80, 40, 20 at M = 4, 8, 16 (ef of 10..80)."""
    truth = ground_truth(VECTORS, 10)
    queries = np.array(VECTORS.queries, dtype=np.float32)
    needed = {}
    for m in (4, 8, 16):
        index = _hnswlib_index(m)
        for ef in (10, 20, 40, 80):
            index.set_ef(ef)
            labels, _ = index.knn_query(queries, k=10, num_threads=1)
            if _recall(labels.tolist(), truth) >= 0.98:
                needed[m] = ef
                break
    assert needed == {4: 80, 8: 40, 16: 20}


def test_hnswlib_searches_with_max_of_ef_and_k():
    index = _hnswlib_index(8)
    queries = np.array(VECTORS.queries, dtype=np.float32)
    index.set_ef(1)
    low, _ = index.knn_query(queries, k=10, num_threads=1)
    index.set_ef(10)
    at_k, _ = index.knn_query(queries, k=10, num_threads=1)
    assert (low == at_k).all()


def test_hnswlib_filter_returns_only_allowed_labels():
    index = _hnswlib_index(8)
    allowed = set(range(0, 500, 10))
    index.set_ef(40)
    labels, _ = index.knn_query(
        np.array(VECTORS.queries[:3], dtype=np.float32),
        k=10,
        num_threads=1,
        filter=lambda label: label in allowed,
    )
    assert set(labels.ravel().tolist()) <= allowed


@pytest.mark.parametrize(("dim", "m"), [(16, 8), (24, 5)])
def test_bytes_per_element_equals_hnswlibs_saved_index(tmp_path, dim, m):
    data = synthetic(count=800, dim=dim, clusters=10, queries=1, seed=3).data
    index = _hnswlib_index(m, data=data)
    path = tmp_path / "index.bin"
    index.save_index(str(path))
    raw = path.read_bytes()
    header = 6 * 8 + 2 * 4 + 3 * 8 + 8 + 8  # saveIndex's fields, hnswalg.h v0.8.0
    (size_data_per_element,) = struct.unpack_from("<Q", raw, 24)
    levels, offset = [], header + len(data) * size_data_per_element
    for _ in data:
        (link_bytes,) = struct.unpack_from("<I", raw, offset)
        offset += 4 + link_bytes
        levels.append(link_bytes // (m * 4 + 4))
    assert offset == len(raw)  # the parse consumed the whole file
    assert hnswlib_bytes_per_element(dim, m, 0.0) == size_data_per_element + 4
    per_element = hnswlib_bytes_per_element(dim, m, sum(levels) / len(levels))
    assert per_element * len(data) + header == pytest.approx(len(raw), abs=1e-6)
    # and hnswlib draws the upper layers with mL = 1/ln(M): mean levels near 1 / (M - 1)
    assert sum(levels) / len(levels) == pytest.approx(1 / (m - 1), abs=0.05)


def test_pq_codes_tables_and_ranking_equal_faiss_with_our_codebooks():
    vectors = synthetic(count=1000, dim=16, clusters=40, queries=5, spread=1.0)
    index = PQIndex(vectors.data, m=4, bits=8, seed=0)
    pq = faiss.ProductQuantizer(16, 4, 8)
    centroids = np.array(index.pq.codebooks, dtype=np.float32)  # (M, ksub, dsub), FAISS's order
    faiss.copy_array_to_vector(centroids.ravel(), pq.centroids)
    data = np.array(vectors.data, dtype=np.float32)
    codes = pq.compute_codes(data)  # 8 bits: one byte per sub-vector
    ours = [[index.columns[j][i] for j in range(4)] for i in range(len(data))]
    assert codes.tolist() == ours
    queries = np.array(vectors.queries, dtype=np.float32)
    tables = np.zeros((len(queries), 4 * 256), dtype=np.float32)
    pq.compute_distance_tables(len(queries), faiss.swig_ptr(queries), faiss.swig_ptr(tables))
    for query, table in zip(vectors.queries, tables, strict=True):
        assert np.allclose(table.reshape(4, 256), index.pq.distance_tables(query), rtol=1e-4)

    flat = faiss.IndexPQ(16, 4, 8)
    faiss.copy_array_to_vector(centroids.ravel(), flat.pq.centroids)
    flat.is_trained = True
    flat.add(data)
    assert flat.search_type == faiss.IndexPQ.ST_PQ  # ADC is FAISS's default
    _, labels = flat.search(np.array(vectors.queries, dtype=np.float32), 10)
    for query, found in zip(vectors.queries, labels.tolist(), strict=True):
        assert set(index.shortlist(query, 10)) == set(found)


def test_faiss_defaults_the_cards_state():
    quantizer = faiss.IndexFlatL2(16)
    assert faiss.IndexIVFPQ(quantizer, 16, 4, 4, 8).by_residual
    assert faiss.IndexRefineFlat(faiss.IndexPQ(16, 4, 8)).k_factor == 1
    factory = faiss.index_factory(16, "PQ4")
    assert faiss.downcast_index(factory).pq.nbits == 8
    assert faiss.ProductQuantizer(16, 4, 6).code_size == 3  # (6 * 4 + 7) // 8
    assert faiss.ProductQuantizer(18, 3, 6).code_size == 3  # 18 bits rounded up to 3 bytes
    graph = faiss.IndexHNSWFlat(16, 8)  # kept alive: .hnsw points into it
    hnsw = graph.hnsw
    assert (hnsw.efConstruction, hnsw.efSearch) == (40, 16)
    assert (hnsw.nb_neighbors(0), hnsw.nb_neighbors(1)) == (16, 8)  # 2M on layer 0
