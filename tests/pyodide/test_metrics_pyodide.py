"""The metrics tests, run inside Pyodide under Node on the archive the site ships.

Proves that the module the browser loads (``rankcards.web``'s package archive, unpacked by
``pyodide.unpackArchive`` as the page's worker does) passes the same doctests, unit tests and
trec_eval conformance checks (on tests/data/trec_eval) as CPython. Without Node or the npm
``pyodide`` package it skips locally and fails under CI (``ci_gate``); nothing inside may skip.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _harness import run_script, shipped_archive


@pytest.mark.pyodide
def test_metrics_suite_inside_pyodide(
    repo_root: Path, tmp_path: Path, node: str, trec_eval_reference: Path
) -> None:
    archive = shipped_archive(repo_root, tmp_path)
    arguments = [str(archive), str(repo_root / "tests"), str(trec_eval_reference)]
    summary = run_script(node, "run_metrics.mjs", arguments, timeout=300)
    assert summary["failures"] == 0
    assert summary["doctests"] >= 20
    # The whole suite ran, the 9 trec_eval conformance checks included: none may skip.
    assert summary["skipped"] == 0, summary.get("skip_reasons")
    conformance = [name for name in summary["ran"] if "test_metrics_conformance" in name]
    assert len(conformance) == 9, conformance
    assert summary["passed"] >= 30
