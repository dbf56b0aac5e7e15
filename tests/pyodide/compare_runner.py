"""Runs inside Pyodide: the comparison module's pytest-free tests and a set of comparisons.

``main`` calls every ``test_*`` function of ``tests/metrics/test_compare_exact.py`` and
computes :func:`rankcards.metrics.compare_runs` on :func:`cases` (every test, correction and
query-set choice, sampled and exact randomization); the CPython side of
``test_compare_pyodide.py`` computes the same cases and compares the two JSON results.
"""

from __future__ import annotations

import random

from _inside import run_tests, summary


def cases() -> list[dict[str, object]]:
    """Comparisons over generated qrels and three runs: 40 queries (randomization sampled) and
    the first 10 of them (exact enumeration)."""
    generator = random.Random(16)
    qrels = {
        f"q{i}": {f"d{j}": generator.choice([0, 0, 1, 2]) for j in range(8)} for i in range(40)
    }
    runs = {}
    for name in ("base", "new", "other"):
        runs[name] = {
            qid: {doc: generator.random() for doc in generator.sample(sorted(docs), 5)}
            for qid, docs in qrels.items()
            if generator.random() < 0.9  # some queries missing from a run: they score 0 there
        }
    small = {name: {q: r for q, r in run.items() if int(q[1:]) < 10} for name, run in runs.items()}
    options = []
    for test in ("t", "wilcoxon", "randomization", "bootstrap"):
        for correction, all_pairs, complete in (
            ("none", False, False),
            ("holm", True, False),
            ("bonferroni", False, True),
        ):
            options.append(
                {
                    "test": test,
                    "correction": correction,
                    "all_pairs": all_pairs,
                    "complete": complete,
                    "samples": 500,
                    "seed": 7,
                }
            )
    return [
        {"qrels": qrels, "runs": chosen, "measures": ["AP", "nDCG@10", "RR"], **option}
        for chosen in (runs, small)
        for option in options
    ]


def compute(case: dict[str, object]) -> dict[str, object]:
    """``compare_runs`` on one case."""
    from rankcards.metrics import compare_runs

    arguments = {key: value for key, value in case.items() if key not in ("qrels", "runs")}
    return compare_runs(case["qrels"], case["runs"], **arguments)  # type: ignore[arg-type]


def main(tests_dir: str) -> str:
    """Run the tests and the cases; return a JSON summary with the results."""
    passed, failures = run_tests(tests_dir, "test_compare_exact")
    return summary([compute(case) for case in cases()], passed, failures)
