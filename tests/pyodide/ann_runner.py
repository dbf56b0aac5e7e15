"""Runs inside Pyodide: the ANN benchmarking functions and demo data on fixed cases.

``main`` computes :func:`cases` with the package the site ships; the CPython side of
``test_ann_pyodide.py`` computes the same cases and compares the two JSON results: the cards'
examples print in the reader's browser what the build printed.
"""

from __future__ import annotations

import random

from _inside import summary

CONVENTIONS = ("ann-benchmarks", "big-ann-benchmarks", "ids")


def cases() -> list[dict[str, object]]:
    """Seeded recall cases with tied distances, latency samples and operating points."""
    rng = random.Random(29)
    found: list[dict[str, object]] = []
    for _ in range(6):
        k = rng.randint(1, 8)
        distances = sorted(float(rng.randint(0, 6)) for _ in range(k + 6))
        exact = [[i, d] for i, d in enumerate(distances)]
        found_ids = rng.sample(range(k + 10), k)
        answer = [[i, distances[i] if i < len(distances) else 9.0] for i in found_ids]
        answer.sort(key=lambda pair: pair[1])
        found.append({"kind": "recall", "k": k, "exact": exact, "found": answer})
    for n in (1, 7, 100):
        found.append({"kind": "percentile", "values": [rng.expovariate(5.0) for _ in range(n)]})
    for _ in range(3):
        points = [[rng.randint(1, 10) / 10, float(rng.randint(1, 9) * 100)] for _ in range(12)]
        found.append({"kind": "frontier", "points": points})
    found.append({"kind": "demo"})
    return found


def compute(case: dict[str, object]) -> object:
    from rankcards.metrics import best_at_recall, knn_recall, pareto_frontier, percentile

    if case["kind"] == "recall":
        exact = [tuple(pair) for pair in case["exact"]]  # type: ignore[attr-defined]
        answer = [tuple(pair) for pair in case["found"]]  # type: ignore[attr-defined]
        return [knn_recall(exact, answer, case["k"], c) for c in CONVENTIONS]  # type: ignore[arg-type]
    if case["kind"] == "percentile":
        return [percentile(case["values"], q) for q in (50, 95, 99, 99.9)]  # type: ignore[arg-type]
    if case["kind"] == "frontier":
        points = [tuple(p) for p in case["points"]]  # type: ignore[attr-defined]
        return [
            pareto_frontier(points),
            pareto_frontier(points, higher_is_better=False),
            best_at_recall(points, 0.7),
        ]
    from rankcards.demos.ann import exact_neighbours, integer_vectors, operating_point

    vectors = integer_vectors()
    return [
        [list(pair) for pair in exact_neighbours(vectors.data, vectors.queries[0], 12)],
        [list(operating_point(8, p)) for p in range(1, 9)],
    ]


def main(tests_dir: str) -> str:
    """Compute every case; return a JSON summary with the results."""
    return summary([compute(case) for case in cases()])
