"""The ANN benchmarking functions (knn_recall, percentile, the frontier) and the demo data of
rankcards.demos.ann give in Pyodide what they give in CPython, on the archive the site ships
(cases: ``ann_runner.cases``). Without Node or the npm ``pyodide`` package it skips locally and
fails under CI (``ci_gate``)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from test_compare_pyodide import _same

from ci_gate import skip_or_fail

_HERE = Path(__file__).parent


def _runner() -> Any:
    spec = importlib.util.spec_from_file_location("ann_runner", _HERE / "ann_runner.py")
    if spec is None or spec.loader is None:
        raise ImportError("ann_runner.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.pyodide
def test_ann_functions_in_pyodide_as_in_cpython(repo_root: Path, tmp_path: Path, node: str) -> None:
    if not (repo_root / "node_modules/pyodide/pyodide.mjs").is_file():
        skip_or_fail("needs node_modules/pyodide (run `npm ci`)")
    from rankcards.web._build import package_archive

    name, data = package_archive(repo_root / "node_modules", repo_root / ".cache/rankcards-web")
    archive = tmp_path / name
    archive.write_bytes(data)
    script = _HERE / "run_compare.mjs"
    command = [node, str(script), str(archive), str(repo_root / "tests"), "ann_runner"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["platform"] == "emscripten"
    assert summary["module"].startswith("/home/pyodide/rankcards/")  # from the archive
    runner = _runner()
    cases = runner.cases()
    assert len(summary["results"]) == len(cases) == 13
    for index, case in enumerate(cases):
        want = json.loads(json.dumps(runner.compute(case)))  # the same JSON round trip
        _same(summary["results"][index], want, f"case {index}")
    # The tied cases split the conventions, so the comparison covers all three of them.
    results = zip(summary["results"], cases, strict=True)
    recalls = [values for values, case in results if case["kind"] == "recall"]
    assert any(len(set(values)) > 1 for values in recalls)
