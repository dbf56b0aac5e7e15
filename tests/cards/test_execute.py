"""The subprocesses that run card code: each job's time limit, what a dead process answers, the
workers sharing the jobs, and the disk cache."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rankcards.cards import _execute

ANSWER = '{"output": "x\\n", "error": null}'
# A fake worker: ready, then one answer per job line (``{ANSWER}`` for every job).
ECHO = (
    "import sys\n"
    "print('{\"ready\": true}', flush=True)\n"
    f"for line in sys.stdin: print({ANSWER!r}, flush=True)\n"
)


@pytest.fixture(autouse=True)
def _fresh_memory_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test sees an empty in-process cache (a fake worker's answers must not leak)."""
    monkeypatch.setattr(_execute, "_cache", {})


def _fake_worker(monkeypatch: pytest.MonkeyPatch, script: str) -> list[int]:
    """Make run_jobs spawn ``script`` (Python source) instead of the real worker; the list
    returned counts the processes started."""
    started: list[int] = []

    def spawn() -> subprocess.Popen[bytes]:
        started.append(1)
        command = [sys.executable, "-c", script]
        return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    monkeypatch.setattr(_execute, "_spawn", spawn)
    return started


def _job(source: str, **more: Any) -> dict[str, Any]:
    return {"kind": "example", "source": source} | more


def test_a_slow_start_does_not_count_against_the_first_job(monkeypatch):
    # Starting took 1.5 s, the job none: a 1 s limit is not exceeded.
    _fake_worker(monkeypatch, "import time; time.sleep(1.5)\n" + ECHO)
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
    jobs = [_job("print(6 * 7)"), looping, _job("1 + 1"), _job("print(input())")]
    answers = _execute.run_jobs(jobs, timeout=1, workers=1)
    assert answers[:3] == [
        {"output": "42\n", "error": None, "figures": [], "tables": []},
        {"timeout": 1},
        {"output": "2\n", "error": None, "figures": [], "tables": []},  # a fresh process took over
    ]
    # card code reads an empty stdin, never the next job
    assert answers[3]["error"].endswith("EOFError: EOF when reading a line\n")


def test_workers_share_the_jobs_and_answers_keep_the_jobs_order(monkeypatch):
    started = _fake_worker(monkeypatch, ECHO)
    jobs = [_job(f"print({n})") for n in range(7)]
    assert _execute.run_jobs(jobs, timeout=5, workers=3) == [{"output": "x\n", "error": None}] * 7
    assert len(started) == 3  # each process took several jobs, one after another


def test_claims_are_evaluated_in_the_examples_namespace():
    job = _job(
        "total = 3\nprint('shown')",
        claims=[
            "total / 4",
            "from math import sqrt\ndef half(x):\n    return x / 2\nprint('hidden')\nsqrt(total)",
            "half(total)",  # a helper an earlier claim defined
            "undefined",
            "'text'",
            "x = 1",
        ],
    )
    [answer] = _execute.run_jobs([job], timeout=10)
    assert answer["output"] == "shown\n"  # what the claims print is not the example's
    assert 0 < answer["seconds"] < 10  # the example's own time, apart from the claims'
    assert answer["claims"] == [
        {"repr": "0.75"},
        {"repr": repr(3**0.5)},
        {"repr": "1.5"},
        {"error": "raised NameError: name 'undefined' is not defined"},
        {"error": "gives str 'text', not a number"},
        {"error": "its last line must be an expression: the value it claims"},
    ]


def test_no_claim_runs_after_an_example_that_raised():
    [answer] = _execute.run_jobs([_job("total = 1 / 0", claims=["1"])], timeout=10)
    assert answer["error"].endswith("ZeroDivisionError: division by zero\n")
    assert answer["claims"] == []


def test_a_job_may_carry_its_own_time_limit(monkeypatch):
    _fake_worker(monkeypatch, "import time; print('{\"ready\": true}', flush=True); time.sleep(30)")
    assert _execute.run_jobs([_job("slow", timeout=2)], timeout=1) == [{"timeout": 2}]


def test_answers_are_kept_on_disk_per_package_fingerprint(monkeypatch, tmp_path: Path):
    jobs = [_job("print('cached')")]
    [answer] = _execute.run_jobs(jobs, timeout=10, cache_dir=tmp_path)
    assert answer["output"] == "cached\n"
    [folder] = [path for path in tmp_path.iterdir() if path.is_dir()]
    assert folder.name == _execute._fingerprint()[:16]
    # A later run reads the disk: no process starts, and the stored answer is what it gets.
    monkeypatch.setattr(_execute, "_cache", {})
    [stored] = folder.glob("*.json")
    stored.write_text(json.dumps({**answer, "output": "from disk\n"}), encoding="utf-8")
    started = _fake_worker(monkeypatch, ECHO)
    assert _execute.run_jobs(jobs, timeout=10, cache_dir=tmp_path)[0]["output"] == "from disk\n"
    assert started == []
    # Another package fingerprint (a changed module) runs again.
    monkeypatch.setattr(_execute, "_cache", {})
    monkeypatch.setattr(_execute, "_fingerprint", lambda: "f" * 64)
    assert _execute.run_jobs(jobs, timeout=10, cache_dir=tmp_path)[0]["output"] == "x\n"
    assert started == [1]


def test_a_timeout_is_never_kept_on_disk(monkeypatch, tmp_path: Path):
    _fake_worker(monkeypatch, "import time; print('{\"ready\": true}', flush=True); time.sleep(30)")
    assert _execute.run_jobs([_job("slow")], timeout=1, cache_dir=tmp_path) == [{"timeout": 1}]
    assert list(tmp_path.rglob("*.json")) == []


def test_a_timeout_beside_other_jobs_is_confirmed_alone(monkeypatch):
    """Two workers shared the CPUs: each job that timed out runs again in a process of its own,
    one after the other, before it is reported."""
    started = _fake_worker(
        monkeypatch, "import time; print('{\"ready\": true}', flush=True); time.sleep(30)"
    )
    jobs = [_job("first"), _job("second")]
    assert _execute.run_jobs(jobs, timeout=1, workers=2) == [{"timeout": 1}, {"timeout": 1}]
    assert len(started) == 4  # two side by side, then each alone
