"""The comparison module inside Pyodide under Node, on the archive the site ships.

Runs ``tests/metrics/test_compare_exact.py`` there (exact enumeration, seeded sampling, hand
computations) and checks that ``compare_runs`` gives there what it gives in CPython, case by
case (``compare_runner.cases``). Skips without Node or the npm ``pyodide`` package, except
under ``CI=true`` where that is a failure.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _harness import defined_tests, load_runner, run_runner, same


@pytest.mark.pyodide
def test_compare_runs_in_pyodide_as_in_cpython(repo_root: Path, tmp_path: Path, node: str) -> None:
    summary = run_runner(repo_root, tmp_path, node, "compare_runner")
    assert summary["failures"] == []
    tests = defined_tests(repo_root / "tests/metrics/test_compare_exact.py")
    assert summary["passed"] == len(tests) >= 15
    runner = load_runner("compare_runner")
    cases = runner.cases()
    assert len(summary["results"]) == len(cases) == 24
    for index, case in enumerate(cases):
        same(summary["results"][index], runner.compute(case), f"case {index}")
