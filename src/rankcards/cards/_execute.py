"""Run card code (examples, demos) with CPython in a subprocess, with a per-job time limit.

A subprocess, not ``exec`` in the build: card code cannot hang or crash the build or `mkdocs
serve`, and each serve rebuild sees the current source of ``rankcards`` (the metrics module may
have just changed). All jobs of a build share one process; when a job times out the process is
killed, that job is reported, and the remaining jobs continue in a fresh process. Answers are
cached by job and by a fingerprint of the package's source files.
"""

from __future__ import annotations

import hashlib
import json
import os
import selectors
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import rankcards

_PACKAGE = Path(rankcards.__file__).parent
_cache: dict[str, dict[str, Any]] = {}
_START_LIMIT = 60.0  # seconds for the subprocess to start and import rankcards


def _fingerprint() -> str:
    digest = hashlib.sha256()
    # The allow-lists decide what the worker keeps of an example's figures and tables.
    allow_lists = [_PACKAGE / "web" / "svg_allow.json", _PACKAGE / "web" / "table_allow.json"]
    for path in [*sorted(_PACKAGE.rglob("*.py")), *allow_lists]:
        stat = path.stat()
        digest.update(f"{path}:{stat.st_mtime_ns}:{stat.st_size}\n".encode())
    return digest.hexdigest()


def _spawn(jobs: list[dict[str, Any]]) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONHASHSEED": "0"}
    process = subprocess.Popen(
        [sys.executable, "-m", "rankcards.cards._worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert process.stdin is not None
    process.stdin.write(json.dumps({"jobs": jobs}).encode())
    process.stdin.close()
    return process


def _read_answers(
    process: subprocess.Popen[bytes], count: int, timeout: float
) -> tuple[list[dict[str, Any]], bool]:
    """Answers until ``count`` arrived, a job exceeded ``timeout`` (True) or the process died.

    The first job's time starts once the process is ready (its first line): the interpreter's
    start-up is not the card's, and takes over a second on a loaded machine."""
    assert process.stdout is not None
    answers: list[dict[str, Any]] = []
    buffer = b""
    timed_out = False
    ready = False
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + _START_LIMIT
        while len(answers) < count:
            if not selector.select(max(0.0, deadline - time.monotonic())):
                timed_out = True
                break
            chunk = os.read(process.stdout.fileno(), 65536)
            if not chunk:
                break
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                if ready:
                    answers.append(json.loads(line))
                else:
                    ready = True  # the worker's first line: it has started
                deadline = time.monotonic() + timeout
    process.kill()
    process.wait()
    process.stdout.close()
    return answers, timed_out


def run_jobs(jobs: list[dict[str, Any]], *, timeout: float = 10.0) -> list[dict[str, Any]]:
    """Answer each job (see :mod:`rankcards.cards._worker`); a job over ``timeout`` s answers
    ``{"timeout": timeout}``, one that crashed the interpreter ``{"crashed": true}``."""
    fingerprint = _fingerprint()
    keys = [
        hashlib.sha256((fingerprint + json.dumps(job, sort_keys=True)).encode()).hexdigest()
        for job in jobs
    ]
    first = {key: i for i, key in reversed(list(enumerate(keys)))}  # identical jobs run once
    pending = sorted(i for key, i in first.items() if key not in _cache)
    while pending:
        answers, timed_out = _read_answers(
            _spawn([jobs[i] for i in pending]), len(pending), timeout
        )
        for i, answer in zip(pending, answers, strict=False):
            _cache[keys[i]] = answer
        if len(answers) < len(pending):
            stuck = pending[len(answers)]
            # Not kept in the cache (below): a slow machine may pass next time.
            _cache[keys[stuck]] = {"timeout": timeout} if timed_out else {"crashed": True}
        pending = pending[len(answers) + 1 :]
    results = [_cache[key] for key in keys]
    for key, result in zip(keys, results, strict=True):
        if "timeout" in result or "crashed" in result:
            _cache.pop(key, None)
    return results
