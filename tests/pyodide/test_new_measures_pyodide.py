"""The diversity measures, rank fusion and the RAG scores give in Pyodide what they give in
CPython, on the archive the site ships (cases: ``new_measures_runner.cases``). Without Node or
the npm ``pyodide`` package it skips locally and fails under CI (``ci_gate``)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from _harness import load_runner, run_runner, same


@pytest.mark.pyodide
def test_new_measures_in_pyodide_as_in_cpython(repo_root: Path, tmp_path: Path, node: str) -> None:
    summary = run_runner(repo_root, tmp_path, node, "new_measures_runner")
    runner = load_runner("new_measures_runner")
    cases = runner.cases()
    assert len(summary["results"]) == len(cases) == 18
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for index, case in enumerate(cases):
            want = json.loads(json.dumps(runner.compute(case)))  # the same JSON round trip
            same(summary["results"][index], want, f"case {index}")
