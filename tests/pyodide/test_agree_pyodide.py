"""The agreement and rank correlation functions inside Pyodide under Node, on the archive the
site ships: ``tests/metrics/test_agreement_exact.py`` runs there, and every case of
``agree_runner.cases`` gives there what it gives in CPython (floats to 1e-12: sums and libm
differ between CPython builds and Emscripten). Skips without Node or the npm ``pyodide``
package, except under CI, where that is a failure.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import math
import subprocess
from pathlib import Path

import pytest

from ci_gate import skip_or_fail

_HERE = Path(__file__).parent


def _runner():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("agree_runner", _HERE / "agree_runner.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _same(inside: object, outside: object, where: str = "") -> None:
    if isinstance(outside, float) and isinstance(inside, (int, float)):
        assert math.isclose(inside, outside, rel_tol=1e-12, abs_tol=1e-12), where
    elif isinstance(outside, dict):
        assert isinstance(inside, dict) and list(inside) == list(outside), where
        for key in outside:
            _same(inside[key], outside[key], f"{where}/{key}")
    elif isinstance(outside, (list, tuple)):
        assert isinstance(inside, list) and len(inside) == len(outside), where
        for index, (a, b) in enumerate(zip(inside, outside, strict=True)):
            _same(a, b, f"{where}[{index}]")
    else:
        assert inside == outside, where


@pytest.mark.pyodide
def test_agreement_in_pyodide_as_in_cpython(repo_root: Path, tmp_path: Path, node: str) -> None:
    if not (repo_root / "node_modules/pyodide/pyodide.mjs").is_file():
        skip_or_fail("needs node_modules/pyodide (run `npm ci`)")
    from rankcards.web._build import package_archive

    name, data = package_archive(repo_root / "node_modules", repo_root / ".cache/rankcards-web")
    archive = tmp_path / name
    archive.write_bytes(data)
    script = _HERE / "run_compare.mjs"
    command = [node, str(script), str(archive), str(repo_root / "tests"), "agree_runner"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["platform"] == "emscripten"
    assert summary["module"].startswith("/home/pyodide/rankcards/")  # from the archive
    assert summary["failures"] == []
    source = (repo_root / "tests/metrics/test_agreement_exact.py").read_text(encoding="utf-8")
    tests = [
        node.name
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    ]
    assert summary["passed"] == len(tests) >= 10
    runner = _runner()
    cases = runner.cases()
    assert len(summary["results"]) == len(cases) == 51
    for index, case in enumerate(cases):
        _same(summary["results"][index], runner.compute(case), f"case {index} {case['function']}")
    systems = [result["systems"] for result in summary["results"][:3]]
    assert all(isinstance(s, dict) and s["kendall_tau"] is not None for s in systems)
