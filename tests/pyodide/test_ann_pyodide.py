"""The ANN benchmarking functions (knn_recall, percentile, the frontier) and the demo data of
rankcards.demos.ann give in Pyodide what they give in CPython, on the archive the site ships
(cases: ``ann_runner.cases``). Without Node or the npm ``pyodide`` package it skips locally and
fails under CI (``ci_gate``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _harness import load_runner, run_runner, same


@pytest.mark.pyodide
def test_ann_functions_in_pyodide_as_in_cpython(repo_root: Path, tmp_path: Path, node: str) -> None:
    summary = run_runner(repo_root, tmp_path, node, "ann_runner")
    runner = load_runner("ann_runner")
    cases = runner.cases()
    assert len(summary["results"]) == len(cases) == 13
    for index, case in enumerate(cases):
        want = json.loads(json.dumps(runner.compute(case)))  # the same JSON round trip
        same(summary["results"][index], want, f"case {index}")
    # The tied cases split the conventions, so the comparison covers all three of them.
    results = zip(summary["results"], cases, strict=True)
    recalls = [values for values, case in results if case["kind"] == "recall"]
    assert any(len(set(values)) > 1 for values in recalls)
