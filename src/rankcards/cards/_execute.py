"""Run card code (examples, claims, demos, exercises) with CPython in subprocesses, in parallel,
with a per-job time limit and a cache.

Subprocesses, not ``exec`` in the build: card code cannot hang or crash the build or `mkdocs
serve`, and each serve rebuild sees the current source of ``rankcards`` (the metrics module may
have just changed). A few worker processes (one per CPU, at most :data:`MAX_WORKERS`) each take
the next job as soon as they answer the last, so one slow card does not hold the rest back.
When a job times out its process is killed and a fresh process takes over; the job runs again
alone, once the others are done (beside them it shared the CPUs), and only then is reported.

Answers are cached by job and by a fingerprint of every file of the ``rankcards`` package (its
content, so a change of any module, data file or the figures' allow-list starts afresh): in
memory for the life of the process (`mkdocs serve`), and, given a ``cache_dir``, on disk
between runs (`rankcards check`, builds). A timeout or a crash is never cached: a slow machine
may pass next time.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import selectors
import shutil
import subprocess
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rankcards

_PACKAGE = Path(rankcards.__file__).parent
_cache: dict[str, dict[str, Any]] = {}
_START_LIMIT = 60.0  # seconds for a subprocess to start and import rankcards
MAX_WORKERS = 8
# On disk, answers live in a folder per fingerprint of the package; the folders of other
# fingerprints (an older rankcards, another branch) go once unused for this long.
_STALE_SECONDS = 2 * 86400


def _fingerprint() -> str:
    digest = hashlib.sha256(sys.version.encode())
    for path in sorted(_PACKAGE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(f"{path.relative_to(_PACKAGE).as_posix()}\n".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def worker_count() -> int:
    """How many processes run card code at once: the CPUs this process may use."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_WORKERS))


def _spawn() -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONHASHSEED": "0"}
    return subprocess.Popen(
        [sys.executable, "-m", "rankcards.cards._worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )


@dataclass
class _Worker:
    """One worker process and the job it is answering (its time counts once it is ready)."""

    process: subprocess.Popen[bytes]
    job: int
    deadline: float
    ready: bool = False
    buffer: bytes = field(default=b"", repr=False)

    def send(self, job: dict[str, Any]) -> None:
        """Write one job; a process that already died is noticed when its output ends."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(job).encode() + b"\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            pass

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(BrokenPipeError):
                    stream.close()


def _run_pending(
    jobs: list[dict[str, Any]], pending: list[int], timeout: float, workers: int
) -> dict[int, dict[str, Any]]:
    """Answer the jobs at indices ``pending`` with up to ``workers`` processes."""
    answers: dict[int, dict[str, Any]] = {}
    queue = deque(pending)
    running: dict[int, _Worker] = {}  # by the fileno of its stdout
    with selectors.DefaultSelector() as selector:

        def limit(job: int) -> float:
            """A job's own time limit (``"timeout"`` in the job), else ``timeout``."""
            return float(jobs[job].get("timeout", timeout))

        def start() -> None:
            worker = _Worker(_spawn(), queue.popleft(), time.monotonic() + _START_LIMIT)
            worker.send(jobs[worker.job])  # read once the worker is ready
            assert worker.process.stdout is not None
            running[worker.process.stdout.fileno()] = worker
            selector.register(worker.process.stdout, selectors.EVENT_READ)

        def finish(worker: _Worker, answer: dict[str, Any] | None) -> None:
            """Record the answer of ``worker``'s job; None: the process is done for."""
            if answer is not None:
                answers[worker.job] = answer
                if queue:
                    worker.job = queue.popleft()
                    worker.deadline = time.monotonic() + limit(worker.job)
                    worker.send(jobs[worker.job])
                    return
            assert worker.process.stdout is not None
            selector.unregister(worker.process.stdout)
            del running[worker.process.stdout.fileno()]
            worker.stop()

        while queue or running:
            while queue and len(running) < workers:
                start()
            now = time.monotonic()
            wait = max(0.0, min(worker.deadline for worker in running.values()) - now)
            for key, _ in selector.select(wait):
                worker = running.get(key.fd)
                if worker is None:  # stopped earlier in this round
                    continue
                chunk = os.read(key.fd, 65536)
                if not chunk:  # the process died: its job crashed the interpreter
                    answers[worker.job] = {"crashed": True}
                    finish(worker, None)
                    continue
                worker.buffer += chunk
                while b"\n" in worker.buffer and key.fd in running:
                    line, worker.buffer = worker.buffer.split(b"\n", 1)
                    if worker.ready:
                        finish(worker, json.loads(line))
                    else:  # the worker's first line: it has started; the job's time starts
                        worker.ready = True
                        worker.deadline = time.monotonic() + limit(worker.job)
            now = time.monotonic()
            for worker in [w for w in running.values() if w.deadline <= now]:
                answers[worker.job] = {"timeout": limit(worker.job)}
                finish(worker, None)
    return answers


def _load_disk(folder: Path, key: str) -> dict[str, Any] | None:
    try:
        answer: dict[str, Any] = json.loads((folder / f"{key}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return answer


def _store_disk(folder: Path, key: str, answer: dict[str, Any]) -> None:
    path = folder / f"{key}.json"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(answer), encoding="utf-8")
        partial.replace(path)  # atomic: a concurrent run never reads half an answer
    except OSError:
        pass  # a read-only tree still checks, without the cache


def _prune_disk(cache_dir: Path, current: Path) -> None:
    """Mark ``current`` as used; remove the other fingerprints' folders unused for a while."""
    limit = time.time() - _STALE_SECONDS
    try:
        if current.is_dir():
            os.utime(current)
        for folder in cache_dir.iterdir():
            if folder != current and folder.is_dir() and folder.stat().st_mtime < limit:
                shutil.rmtree(folder, ignore_errors=True)
    except OSError:
        pass


def run_jobs(
    jobs: list[dict[str, Any]],
    *,
    timeout: float = 10.0,
    cache_dir: Path | None = None,
    workers: int | None = None,
) -> list[dict[str, Any]]:
    """Answer each job (see :mod:`rankcards.cards._worker`); a job over ``timeout`` s (or its
    own ``"timeout"``) answers ``{"timeout": seconds}``, one that crashed the interpreter
    ``{"crashed": true}``.

    ``cache_dir`` keeps answers on disk between runs; ``workers`` is the number of processes
    (default :func:`worker_count`)."""
    fingerprint = _fingerprint()
    keys = [
        hashlib.sha256((fingerprint + json.dumps(job, sort_keys=True)).encode()).hexdigest()
        for job in jobs
    ]
    folder = None if cache_dir is None else cache_dir / fingerprint[:16]
    if folder is not None:
        for key in set(keys) - set(_cache):
            answer = _load_disk(folder, key)
            if answer is not None:
                _cache[key] = answer
    first = {key: i for i, key in reversed(list(enumerate(keys)))}  # identical jobs run once
    pending = sorted(i for key, i in first.items() if key not in _cache)
    failed: dict[str, dict[str, Any]] = {}  # timeouts and crashes: answered, never cached
    if pending:
        count = min(workers or worker_count(), len(pending))
        answers = _run_pending(jobs, pending, timeout, count)
        slow = [i for i, answer in answers.items() if "timeout" in answer]
        if count > 1 and slow:
            # Jobs that ran beside others shared the CPUs: a timeout counts once run alone.
            answers.update(_run_pending(jobs, slow, timeout, 1))
        for i, answer in answers.items():
            if "timeout" in answer or "crashed" in answer:
                failed[keys[i]] = answer
                continue
            _cache[keys[i]] = answer
            if folder is not None:
                _store_disk(folder, keys[i], answer)
    if cache_dir is not None and folder is not None:
        _prune_disk(cache_dir, folder)
    return [failed.get(key) or _cache[key] for key in keys]
