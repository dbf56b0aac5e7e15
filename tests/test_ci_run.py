"""`.ci/run`, the CI entry point: CI is set for the tests, and a failing `make test` fails it.

`make` is replaced by a stub on PATH that records what it was given and exits with a chosen
status: pytest's exit 5 ("no tests collected") must fail CI like any other failure.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from repo_paths import ROOT


def _run_ci(tmp_path: Path, status: int, ci: str | None) -> tuple[int, str]:
    stub = tmp_path / "bin"
    stub.mkdir()
    record = tmp_path / "record"
    (stub / "make").write_text(f'#!/bin/sh\necho "$@ CI=$CI" > {record}\nexit {status}\n')
    (stub / "make").chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env.update(PATH=f"{stub}:{env['PATH']}", RANKCARDS_CHROMIUM="/bin/true")
    if ci is not None:
        env["CI"] = ci
    done = subprocess.run([ROOT / ".ci" / "run"], env=env, capture_output=True, check=False)
    return done.returncode, record.read_text().strip()


@pytest.mark.parametrize("ci", [None, "1"])
def test_ci_run_runs_make_test_with_ci_set(tmp_path: Path, ci: str | None) -> None:
    status, record = _run_ci(tmp_path, 0, ci)
    assert status == 0
    assert record == f"test CI={ci or 'true'}"


def test_no_tests_collected_fails_ci(tmp_path: Path) -> None:
    status, _ = _run_ci(tmp_path, 5, None)
    assert status != 0
