"""The metrics tests, run inside Pyodide under Node on the archive the site ships.

Proves that the module the browser loads (``rankcards.web``'s package archive, unpacked by
``pyodide.unpackArchive`` as the page's worker does) passes the same doctests, unit tests and
trec_eval conformance checks as CPython. Skips without Node or the npm ``pyodide`` package,
except under ``CI=true`` where that is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

_SCRIPT = Path(__file__).with_name("run_metrics.mjs")


def _reference(repo_root: Path) -> Path | None:
    configured = os.environ.get("RANKCARDS_TREC_EVAL_REF")
    folder = Path(configured) if configured else repo_root.parent / "shared/reference/trec_eval"
    return folder if (folder / "out.test").is_file() else None


@pytest.mark.pyodide
def test_metrics_suite_inside_pyodide(repo_root: Path, tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None or not (repo_root / "node_modules/pyodide/pyodide.mjs").is_file():
        reason = "needs node on PATH and node_modules/pyodide (run `npm ci`)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    from rankcards.web._build import package_archive

    name, data = package_archive(repo_root / "node_modules", repo_root / ".cache/rankcards-web")
    archive = tmp_path / name
    archive.write_bytes(data)
    reference = _reference(repo_root)
    command = [node, str(_SCRIPT), str(archive), str(repo_root / "tests")]
    if reference is not None:
        command.append(str(reference))
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    summary = json.loads(lines[-1])
    assert summary["platform"] == "emscripten"
    assert summary["module"].startswith("/home/pyodide/rankcards/")  # from the archive
    assert summary["failures"] == 0
    assert summary["doctests"] >= 20
    # The whole suite ran; only the 9 conformance tests skip, when ../shared is not beside the clone
    assert summary["skipped"] == (0 if reference is not None else 9)
    assert summary["passed"] + summary["skipped"] >= 30
