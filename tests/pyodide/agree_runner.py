"""Runs inside Pyodide: the agreement tests that need no pytest, and a set of computations.

``main`` calls every ``test_*`` function of ``tests/metrics/test_agreement_exact.py`` and
computes :func:`cases` with the public functions of ``rankcards.metrics`` (``agreement`` with
runs, Cohen's κ, Krippendorff's alpha, Fleiss' κ, Kendall's τ-b, τ_AP); the CPython side of
``test_agree_pyodide.py`` computes the same cases and compares the two JSON results.
"""

from __future__ import annotations

import math
import random

from _inside import run_tests, summary


def _qrels(generator: random.Random, queries: int) -> dict[str, dict[str, int]]:
    return {
        f"q{q}": {
            f"d{d}": generator.choice([-1, 0, 0, 0, 1, 1, 2, 3])
            for d in range(20)
            if generator.random() < 0.8
        }
        for q in range(queries)
    }


def cases() -> list[dict[str, object]]:
    """Calls as ``{"function", "args"}``: each public agreement and correlation function on
    generated data with ties, graded labels, missing values and pairs judged on one side."""
    generator = random.Random(21)
    calls: list[dict[str, object]] = []
    for measure in ("nDCG@10", "AP", "P@5"):
        a, b = _qrels(generator, 8), _qrels(generator, 8)
        scores = [0.5, 1.0, generator.random()]  # ties within and across runs
        runs = {
            f"run{n}": {
                f"q{q}": {f"d{d}": generator.choice(scores) for d in range(20)} for q in range(8)
            }
            for n in range(5)
        }
        calls.append({"function": "agreement", "args": [a, b, runs, measure]})
    for _ in range(4):
        size = generator.randint(5, 60)
        x = [generator.choice([0, 1, 1, 2, 3]) for _ in range(size)]
        y = [generator.choice([0, 1, 2, 3]) for _ in range(size)]
        for weights in (None, "linear", "quadratic"):
            calls.append({"function": "cohen_kappa", "args": [x, y, weights]})
        calls.append({"function": "cohen_kappa", "args": [x, y, "linear", [0, 1, 2, 3, 4]]})
        calls.append({"function": "confusion_matrix", "args": [x, y]})
        coders = [
            [None if generator.random() < 0.2 else generator.choice([0, 1, 2, 3]) for _ in x]
            for _ in range(generator.randint(2, 5))
        ]
        for level in ("nominal", "ordinal", "interval", "ratio"):
            calls.append({"function": "krippendorff_alpha", "args": [coders, level]})
        ratings = [[generator.choice("abc") for _ in range(4)] for _ in range(size)]
        calls.append({"function": "fleiss_kappa", "args": [ratings]})
        scores = [generator.choice([0.1, 0.2, generator.random()]) for _ in range(size)]
        other = [generator.choice([0.1, generator.random()]) for _ in range(size)]
        calls.append({"function": "kendall_tau", "args": [scores, other]})
        calls.append({"function": "tau_ap", "args": [scores, other]})
    return calls


def compute(case: dict[str, object]) -> object:
    """One call; NaN as the string "nan" (JSON has no NaN)."""
    import rankcards.metrics

    function = getattr(rankcards.metrics, str(case["function"]))
    value = function(*case["args"])  # type: ignore[misc]
    return "nan" if isinstance(value, float) and math.isnan(value) else value


def main(tests_dir: str) -> str:
    """Run the tests and the cases; return a JSON summary with the results."""
    passed, failures = run_tests(tests_dir, "test_agreement_exact")
    return summary([compute(case) for case in cases()], passed, failures)
