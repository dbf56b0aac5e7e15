"""The metrics tests, run inside Pyodide under Node on the archive the site ships.

Proves that the module the browser loads (``rankcards.web``'s package archive, unpacked by
``pyodide.unpackArchive`` as the page's worker does) passes the same doctests, unit tests and
trec_eval conformance checks (on tests/data/trec_eval) as CPython. Without Node or the npm
``pyodide`` package it skips locally and fails under CI (``ci_gate``); nothing inside may skip.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from ci_gate import skip_or_fail

_SCRIPT = Path(__file__).with_name("run_metrics.mjs")


@pytest.mark.pyodide
def test_metrics_suite_inside_pyodide(
    repo_root: Path, tmp_path: Path, node: str, trec_eval_reference: Path
) -> None:
    if not (repo_root / "node_modules/pyodide/pyodide.mjs").is_file():
        skip_or_fail("needs node_modules/pyodide (run `npm ci`)")
    from rankcards.web._build import package_archive

    name, data = package_archive(repo_root / "node_modules", repo_root / ".cache/rankcards-web")
    archive = tmp_path / name
    archive.write_bytes(data)
    command = [node, str(_SCRIPT), str(archive), str(repo_root / "tests"), str(trec_eval_reference)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    summary = json.loads(lines[-1])
    assert summary["platform"] == "emscripten"
    assert summary["module"].startswith("/home/pyodide/rankcards/")  # from the archive
    assert summary["failures"] == 0
    assert summary["doctests"] >= 20
    # The whole suite ran, the 9 trec_eval conformance checks included: none may skip.
    assert summary["skipped"] == 0, summary.get("skip_reasons")
    conformance = [name for name in summary["ran"] if "test_metrics_conformance" in name]
    assert len(conformance) == 9, conformance
    assert summary["passed"] >= 30
