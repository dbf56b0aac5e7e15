"""HNSW in pure Python: hnswlib's rules (M0 = 2M, max(ef, k), the heuristic), recall and memory."""

import math
import random
from collections import Counter

import pytest

from rankcards.demos.cache import build_once
from rankcards.demos.hnsw import HNSW, hnswlib_bytes_per_element
from rankcards.demos.vectors import exact_knn, ground_truth, synthetic

# Harder than the IVF card's default data: more, wider clusters, so recall depends on ef.
VECTORS = synthetic(count=500, dim=16, clusters=40, queries=30, spread=1.0)


def _recall(index, ef, vectors=VECTORS, k=10):
    truth = ground_truth(vectors, k)
    found = [index.search(q, k, ef).ids for q in vectors.queries]
    return sum(len(set(f) & set(t)) for f, t in zip(found, truth, strict=True)) / (k * len(truth))


@pytest.fixture(scope="module")
def index():
    return HNSW(VECTORS.data, m=8, ef_construction=40, seed=1)


def test_recall_rises_with_ef_and_reaches_one(index):
    recalls = [_recall(index, ef) for ef in (10, 20, 40, 80, 500)]
    assert recalls == sorted(recalls)  # on this seeded set, never lower at a larger ef
    assert recalls[0] < 0.95  # ef = k is visibly approximate here
    assert recalls[-1] == 1.0  # ef >= n: the whole (connected) layer 0 is searched


def test_search_with_ef_of_n_is_exact_search(index):
    for query in VECTORS.queries[:10]:
        result = index.search(query, 10, ef=len(VECTORS.data))
        assert result.ids == exact_knn(VECTORS.data, query, 10)
        assert result.distances == [math.dist(query, VECTORS.data[i]) for i in result.ids]


def test_recall_rises_with_ef_on_average_over_seeds():
    """Monotone in expectation: over several seeded graphs, more ef never costs recall."""
    small = large = 0.0
    vectors = synthetic(count=300, dim=16, clusters=40, queries=30, spread=1.0)
    for seed in range(4):
        built = HNSW(vectors.data, m=4, ef_construction=20, seed=seed)
        small += _recall(built, 10, vectors)
        large += _recall(built, 60, vectors)
    assert large > small
    assert large / 4 >= 0.95


def test_cost_rises_with_ef(index):
    def cost(ef):
        return sum(index.search(q, 10, ef).computations for q in VECTORS.queries)

    costs = [cost(ef) for ef in (10, 20, 40, 80)]
    assert costs == sorted(costs) and costs[0] < costs[-1]
    assert costs[-1] / len(VECTORS.queries) < len(VECTORS.data)  # still below brute force


def test_ef_below_k_is_raised_to_k(index):
    query = VECTORS.queries[0]
    assert index.search(query, 10, ef=1) == index.search(query, 10, ef=10)
    assert len(index.search(query, 10, ef=1).ids) == 10


def test_ef_construction_is_raised_to_m():
    assert HNSW(VECTORS.data[:50], m=8, ef_construction=3).ef_construction == 8


def test_link_lists_respect_m_and_2m(index):
    assert (index.m, index.m0) == (8, 16)
    for level, layer in enumerate(index.links):
        cap = 16 if level == 0 else 8
        assert max(len(links) for links in layer.values()) <= cap
        for point, links in layer.items():
            assert point not in links
            assert all(index.levels[other] >= level for other in links)
    # layer 0 lists fill past M (back-links), which the upper layers' cap forbids
    assert max(len(links) for links in index.links[0].values()) > 8


def test_every_point_is_on_layer_zero_and_layers_thin_out_like_m_to_the_minus_l(index):
    assert sorted(index.links[0]) == list(range(500))
    counts = Counter(index.levels)
    on_layer = [sum(c for lv, c in counts.items() if lv >= top) for top in range(3)]
    assert on_layer[0] == 500
    # P(level >= l) = M^-l = 1/8, 1/64: 62.5 and 7.8 expected of 500
    assert 40 <= on_layer[1] <= 85
    assert 1 <= on_layer[2] <= 20
    assert index.max_level == max(index.levels)
    assert index.levels[index.entry] == index.max_level


def test_layer_draw_follows_one_over_ln_m():
    """The draw floor(-ln U / ln M) puts a share M^-l of the points at level >= l."""
    rng = random.Random(3)
    mult = 1 / math.log(4)
    levels = [int(-math.log(1.0 - rng.random()) * mult) for _ in range(40000)]
    for level, expected in ((1, 1 / 4), (2, 1 / 16)):
        share = sum(lv >= level for lv in levels) / len(levels)
        assert share == pytest.approx(expected, rel=0.05)


def test_heuristic_keeps_diverse_neighbours():
    """Algorithm 4 as getNeighborsByHeuristic2: a candidate nearer to a kept neighbour than to
    the base point is pruned, and pruned candidates are not added back to reach M."""
    data = [(0.0, 0.0), (1.0, 0.0), (1.1, 0.0), (-1.2, 0.0), (0.0, 1.3)]
    index = HNSW(data, m=3, ef_construction=10)
    candidates = [(math.dist(data[0], data[i]), i) for i in (1, 2, 3, 4)]
    # 1 is kept; 2 is 0.1 from 1 but 1.1 from the base: pruned; 3 and 4 are kept
    assert index._select_neighbours(candidates, 3) == [1, 3, 4]
    # with M = 2 the first two survivors are taken, and no pruned candidate comes back
    assert index._select_neighbours(candidates, 2) == [1, 3]
    # fewer candidates than M: all kept, nearest first
    assert index._select_neighbours(candidates[:2], 3) == [1, 2]


def test_seeded_builds_are_reproducible():
    data = VECTORS.data[:200]
    first, second = HNSW(data, m=6, ef_construction=30, seed=4), HNSW(data, 6, 30, seed=4)
    assert first.links == second.links and first.levels == second.levels
    assert first.build_computations == second.build_computations
    other = HNSW(data, m=6, ef_construction=30, seed=5)
    assert other.levels != first.levels


def test_build_once_reuses_an_index_only_for_equal_parameters():
    first = build_once(HNSW, VECTORS.data[:100], m=4, ef_construction=20)
    assert build_once(HNSW, VECTORS.data[:100], ef_construction=20, m=4) is first
    assert build_once(HNSW, VECTORS.data[:100], m=4, ef_construction=21) is not first
    assert build_once(HNSW, VECTORS.data[:99], m=4, ef_construction=20) is not first


def test_filtered_search_returns_only_allowed_points(index):
    allowed = set(range(0, 500, 7))
    for query in VECTORS.queries[:5]:
        result = index.search(query, 10, 40, allowed=allowed.__contains__)
        assert result.ids and set(result.ids) <= allowed
        # a narrow filter walks far more of the graph than the unfiltered search
        assert result.computations > index.search(query, 10, 40).computations


def test_bad_parameters_are_clear_errors():
    with pytest.raises(ValueError, match=r"M must be >= 2, got 1"):
        HNSW(VECTORS.data[:10], m=1)
    with pytest.raises(ValueError, match=r"need k >= 1 and ef >= 1, got k=0, ef=5"):
        HNSW(VECTORS.data[:10], m=2).search(VECTORS.queries[0], 0, 5)
    assert HNSW([], m=4).search(VECTORS.queries[0], 3, 10).ids == []


# hnswlib 0.8.0, hnswalg.h: size_links_level0_ = maxM0_ * sizeof(tableint) +
# sizeof(linklistsizeint) with maxM0_ = 2 M; size_data_per_element_ = size_links_level0_ +
# data_size_ + sizeof(labeltype); size_links_per_element_ = maxM_ * sizeof(tableint) +
# sizeof(linklistsizeint); indexFileSize() adds, per element, size_data_per_element_ +
# sizeof(unsigned int) + size_links_per_element_ * level.
@pytest.mark.parametrize(
    ("dim", "m", "levels", "expected"),
    [
        (128, 16, 0.0, (2 * 16 * 4 + 4) + 128 * 4 + 8 + 4),
        (128, 16, 2.0, (2 * 16 * 4 + 4) + 128 * 4 + 8 + 4 + 2 * (16 * 4 + 4)),
        (768, 32, 0.5, (2 * 32 * 4 + 4) + 768 * 4 + 8 + 4 + 0.5 * (32 * 4 + 4)),
    ],
)
def test_bytes_per_element_is_hnswlibs_layout(dim, m, levels, expected):
    assert hnswlib_bytes_per_element(dim, m, levels) == expected


def test_bytes_per_element_expects_one_over_m_minus_one_upper_layers():
    # sum over l >= 1 of P(level >= l) = sum M^-l = 1 / (M - 1)
    expected_levels = sum(16.0**-level for level in range(1, 40))
    assert hnswlib_bytes_per_element(128, 16) == pytest.approx(
        hnswlib_bytes_per_element(128, 16, expected_levels), abs=1e-9
    )


def test_index_bytes_use_its_own_levels(index):
    mean_levels = sum(index.levels) / len(index.levels)
    assert index.bytes_per_element() == hnswlib_bytes_per_element(16, 8, mean_levels)
    assert 16 * 4 < index.bytes_per_element() < 16 * 4 + 8 * 10 + 50


def test_bytes_per_element_rejects_bad_input():
    with pytest.raises(ValueError, match=r"need dim >= 1 and M >= 2, got 16, 1"):
        hnswlib_bytes_per_element(16, 1)
