"""The subprocess that runs card code: each job's time limit, and what a dead process answers."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from rankcards.cards import _execute

ANSWER = '{"output": "x\\n", "error": null}'


def _fake_worker(monkeypatch: pytest.MonkeyPatch, script: str) -> None:
    """Make run_jobs spawn ``script`` (Python source) instead of the real worker."""

    def spawn(jobs: list[dict[str, Any]]) -> subprocess.Popen[bytes]:
        command = [sys.executable, "-c", script]
        return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)

    monkeypatch.setattr(_execute, "_spawn", spawn)


def _job(source: str) -> dict[str, Any]:
    return {"kind": "example", "source": source}


def test_a_slow_start_does_not_count_against_the_first_job(monkeypatch):
    # Starting took 1.5 s, the job none: a 1 s limit is not exceeded.
    script = f"import time; time.sleep(1.5); print('{{\"ready\": true}}'); print({ANSWER!r})"
    _fake_worker(monkeypatch, script)
    assert _execute.run_jobs([_job("print('slow start')")], timeout=1) == [
        {"output": "x\n", "error": None}
    ]


def test_a_job_over_the_limit_answers_timeout(monkeypatch):
    script = "import time; print('{\"ready\": true}', flush=True); time.sleep(30)"
    _fake_worker(monkeypatch, script)
    assert _execute.run_jobs([_job("print('over the limit')")], timeout=1) == [{"timeout": 1}]


def test_a_process_that_dies_before_it_is_ready_answers_crashed(monkeypatch):
    _fake_worker(monkeypatch, "raise SystemExit(3)")
    assert _execute.run_jobs([_job("print('never run')")], timeout=1) == [{"crashed": True}]


def test_the_real_worker_answers_and_keeps_the_limit():
    looping = _job("while True: pass")
    assert _execute.run_jobs([_job("print(6 * 7)"), looping, _job("1 + 1")], timeout=1) == [
        {"output": "42\n", "error": None, "figures": [], "tables": []},
        {"timeout": 1},
        {"output": "2\n", "error": None, "figures": [], "tables": []},
    ]
