"""A missing tool skips a test locally and fails it under CI (tests/ci_gate.py), whatever true
value CI holds; the browser's Chromium fixture is held to it as it is, and no test reads CI in
its own way.

The fixture is run as pytest runs it: its conftest, with the browser tests' helper modules and
``ci_gate`` beside it, in a throw-away folder whose one test asks for Chromium, with no Chromium
to be found.

A browser test that passed only when run again (tests/browser/conftest.py) is named in the run's
summary, as pytest reads the project's configuration, with the reason its first attempt failed
(tests/conftest.py).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from repo_paths import ROOT

TESTS = ROOT / "tests"

PROBE = """
def test_needs_chromium(chromium_path):
    pass
"""

MODULE_PROBE = """
from ci_gate import require_module

absent = require_module("rankcards_no_such_module", "nothing to install")


def test_never_runs():
    pass
"""


def _run_pytest(folder: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    empty = folder / "bin"  # PATH holds no chromium, chromium-browser or google-chrome
    empty.mkdir(exist_ok=True)
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"CI", "RANKCARDS_CHROMIUM", "PYTEST_ADDOPTS"}
    }
    env["PATH"] = str(empty)
    if ci is not None:
        env["CI"] = ci
    command = [sys.executable, "-m", "pytest", "-q", "-rsf", "-p", "no:cacheprovider"]
    command += ["-o", "addopts=", "--rootdir", str(folder), str(folder)]
    return subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True)


@pytest.fixture
def chromium_probe(tmp_path: Path) -> Path:
    for source in (TESTS / "browser").glob("*.py"):  # the conftest and the helpers it imports
        if not source.name.startswith("test_"):
            shutil.copy(source, tmp_path / source.name)
    shutil.copy(TESTS / "ci_gate.py", tmp_path / "ci_gate.py")
    (tmp_path / "test_probe.py").write_text(PROBE, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("ci", ["1", "yes"])  # not only "true"
def test_no_chromium_fails_the_browser_fixture_under_ci(chromium_probe: Path, ci: str) -> None:
    done = _run_pytest(chromium_probe, ci)
    assert done.returncode == 1, done.stdout
    assert "1 error" in done.stdout  # the fixture's failure: the test never ran
    assert "no Chromium: set RANKCARDS_CHROMIUM or install chromium (CI is set" in done.stdout


@pytest.mark.parametrize("ci", [None, "false"])
def test_no_chromium_skips_the_browser_fixture_locally(
    chromium_probe: Path, ci: str | None
) -> None:
    done = _run_pytest(chromium_probe, ci)
    assert done.returncode == 0, done.stdout
    assert "1 skipped" in done.stdout
    assert "no Chromium: set RANKCARDS_CHROMIUM or install chromium" in done.stdout


# pytest's exit status: 2 for a collection error, 5 when the skipped module left no test to run.
@pytest.mark.parametrize(("ci", "status", "summary"), [("1", 2, "1 error"), (None, 5, "1 skipped")])
def test_a_missing_module_at_a_modules_top_skips_it_or_fails_under_ci(
    tmp_path: Path, ci: str | None, status: int, summary: str
) -> None:
    shutil.copy(TESTS / "ci_gate.py", tmp_path / "ci_gate.py")
    (tmp_path / "test_probe.py").write_text(MODULE_PROBE, encoding="utf-8")
    done = _run_pytest(tmp_path, ci)
    assert done.returncode == status, done.stdout
    assert summary in done.stdout
    assert "needs the Python module 'rankcards_no_such_module'" in done.stdout


FLAKY_ONCE = """
from pathlib import Path

import pytest


@pytest.mark.flaky(reruns=1)
def test_fails_once():
    seen = Path(__file__).with_name("seen")
    if not seen.exists():
        seen.touch()
        raise AssertionError("the first attempt fails")
"""


def test_a_test_passing_on_its_rerun_is_named_in_the_summary_with_its_first_failure(
    tmp_path: Path,
) -> None:
    (tmp_path / "test_flaky.py").write_text(FLAKY_ONCE, encoding="utf-8")
    for name in ("conftest.py", "ci_gate.py", "repo_paths.py"):  # tests/conftest.py's summary
        shutil.copy(TESTS / name, tmp_path / name)
    env = {key: value for key, value in os.environ.items() if key != "PYTEST_ADDOPTS"}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    command += ["-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path), "test_flaky.py"]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout
    assert "1 passed, 1 rerun" in done.stdout
    assert "RERUN test_flaky.py::test_fails_once" in done.stdout
    why = done.stdout.split("why each rerun test failed the first time", 1)[-1]
    assert "test_flaky.py::test_fails_once\n    E " in why
    assert "AssertionError: the first attempt fails" in why


# A read of the CI variable through os.environ (get or item) or os.getenv.
_READS_CI = re.compile(r"""(?:environ\.get|getenv)\(\s*["']CI["']|environ\[\s*["']CI["']\s*\]""")


def test_only_ci_gate_reads_the_ci_variable() -> None:
    readers = sorted(
        path.relative_to(ROOT).as_posix()
        for folder in (ROOT / "tests", ROOT / "bench")
        for path in folder.rglob("*.py")
        if _READS_CI.search(path.read_text(encoding="utf-8"))
    )
    assert readers == ["tests/ci_gate.py"]
