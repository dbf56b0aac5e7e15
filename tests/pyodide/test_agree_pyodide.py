"""The agreement and rank correlation functions inside Pyodide under Node, on the archive the
site ships: ``tests/metrics/test_agreement_exact.py`` runs there, and every case of
``agree_runner.cases`` gives there what it gives in CPython (floats to 1e-12: sums and libm
differ between CPython builds and Emscripten). Skips without Node or the npm ``pyodide``
package, except under CI, where that is a failure.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _harness import defined_tests, load_runner, run_runner, same


@pytest.mark.pyodide
def test_agreement_in_pyodide_as_in_cpython(repo_root: Path, tmp_path: Path, node: str) -> None:
    summary = run_runner(repo_root, tmp_path, node, "agree_runner")
    assert summary["failures"] == []
    tests = defined_tests(repo_root / "tests/metrics/test_agreement_exact.py")
    assert summary["passed"] == len(tests) >= 10
    runner = load_runner("agree_runner")
    cases = runner.cases()
    assert len(summary["results"]) == len(cases) == 51
    for index, case in enumerate(cases):
        same(summary["results"][index], runner.compute(case), f"case {index} {case['function']}")
    systems = [result["systems"] for result in summary["results"][:3]]
    assert all(isinstance(s, dict) and s["kendall_tau"] is not None for s in systems)
