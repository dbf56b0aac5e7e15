"""A large run file measured in several processes: cut at query boundaries, one fork per part.

Reading a run is per-line work that Python cannot batch further (see ``_fastrun``), but the
queries of a run are independent: a plain run file is cut into byte ranges that each start
on a line whose qid differs from the line before it, and each range is measured by its own
process, forked so that it shares the qrels already read. Each process returns its values
and the qids it read. A cut can only be wrong if the run lists a query in several places,
and then two parts report the same qid: the caller falls back to reading the whole run, as
it does for any other irregularity, so a cut never changes a result.

Only where forking is safe (Linux and other POSIX systems; not Windows, macOS or the
browser), and for a plain file large enough that the fork and the transfer of the values cost
less than they save.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
from collections.abc import Callable
from contextlib import suppress
from itertools import pairwise
from typing import BinaryIO, TypeVar

from ._fastrun import Fallback
from ._readers import is_gzip

MIN_PART = 4 << 20  # bytes per part: a fork and its pickled values cost a few milliseconds
MAX_JOBS = 8  # the CLI's default is at most this many processes

_Result = TypeVar("_Result")


def can_fork() -> bool:
    """Whether this platform can fork the process safely: POSIX, but not Emscripten or WASI,
    nor macOS, whose system frameworks are not fork-safe (CPython's multiprocessing stopped
    forking there in 3.8)."""
    return hasattr(os, "fork") and sys.platform not in ("emscripten", "wasi", "darwin")


def default_jobs() -> int:
    """The CLI's default ``-j``: the CPUs this process may run on, at most :data:`MAX_JOBS`.

    Beyond a few processes the serial steps (reading the qrels, merging) dominate, while every
    process adds its own copy of the pages it writes to.
    """
    affinity = getattr(os, "sched_getaffinity", None)  # Linux: the CPUs allowed to this process
    cpus = len(affinity(0)) if affinity else os.cpu_count() or 1
    return min(cpus, MAX_JOBS)


def ranges(
    path: str | os.PathLike[str], parts: int, min_part: int | None = None
) -> list[tuple[int, int]]:
    """Byte ranges ``(start, stop)`` cutting a plain file into at most ``parts`` at query
    boundaries, each at least ``min_part`` (:data:`MIN_PART`) long; one range when it cannot
    be cut.

    Example:
        >>> import pathlib, tempfile
        >>> run = pathlib.Path(tempfile.mkdtemp()) / "run"
        >>> lines = [f"q{q} Q0 d{d} {d} 2 s\\n" for q in (1, 2, 3) for d in (1, 2)]
        >>> _ = run.write_text("".join(lines))  # 6 lines of 15 bytes
        >>> ranges(run, 2)  # too small to be worth a process
        [(0, 90)]
        >>> ranges(run, 2, min_part=1)  # from the middle (line 4, q2), on to q3's first line
        [(0, 60), (60, 90)]
    """
    size = os.path.getsize(path)
    count = min(parts, size // (MIN_PART if min_part is None else min_part))
    if count < 2 or is_gzip(path):  # a gzip stream cannot be entered in the middle
        return [(0, size)]
    cuts = [0]
    with open(path, "rb") as handle:
        for index in range(1, count):
            target, next_target = size * index // count, size * (index + 1) // count
            cut = _next_query(handle, target, next_target)
            if cut is not None and cuts[-1] < cut:
                cuts.append(cut)
    cuts.append(size)
    return list(pairwise(cuts))


def _next_query(handle: BinaryIO, offset: int, limit: int) -> int | None:
    """The start of the first line after the one at ``offset`` whose qid differs from its
    previous line's; None if there is none before ``limit`` (a query that long is not cut,
    nor scanned to its end).

    A blank or comment line counts as a change (that part's reader will fall back).
    """
    handle.seek(offset - 1)
    handle.readline()  # up to the start of the line holding the offset
    qid = handle.readline().split(maxsplit=1)[:1]
    while (start := handle.tell()) < limit:
        line = handle.readline()
        if not line:
            return None
        if line.split(maxsplit=1)[:1] != qid:
            return start
    return None


def in_processes(
    work: Callable[[int, int], _Result], parts: list[tuple[int, int]]
) -> list[_Result]:
    """``work(start, stop)`` for every part: the first in this process, the others each in
    a forked child, at the same time; their results in the order of ``parts``.

    A child's :class:`Fallback`, any other error of a child, or a child that dies raises
    Fallback here (the caller then reads the whole file, and meets any real error itself).
    Children still running when this process fails or is interrupted are killed.
    """
    children: list[tuple[int, int]] = []  # (pid, read end of its pipe), not yet reaped
    try:
        for start, stop in parts[1:]:
            children.append(_fork(work, start, stop))
        results = [work(*parts[0])]
        while children:
            pid, pipe = children[0]
            message = _receive(pipe)
            _reap(*children.pop(0), kill=False)
            if not message:  # died without a word: killed, out of memory, any other error
                raise Fallback
            status, result = pickle.loads(message)  # written by our own child, below
            if status != "done":
                raise Fallback
            results.append(result)
        return results
    finally:
        for pid, pipe in children:
            _reap(pid, pipe, kill=True)


def _receive(pipe: int) -> bytes:
    """Everything a child writes on its pipe, until it closes it."""
    chunks = []
    while chunk := os.read(pipe, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


def _reap(pid: int, pipe: int, kill: bool) -> None:
    """Close a child's pipe and wait for its end (killing it first if asked)."""
    os.close(pipe)
    if kill:
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def _fork(work: Callable[[int, int], _Result], start: int, stop: int) -> tuple[int, int]:
    """Start ``work(start, stop)`` in a child; return its pid and the pipe its result comes on."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid:
        os.close(write_end)
        return pid, read_end
    try:  # the child: whatever happens, it ends here and never returns to the caller
        os.close(read_end)
        try:
            message: tuple[str, object] = ("done", work(start, stop))
        except Fallback:
            message = ("fallback", None)
        with open(write_end, "wb") as writer:
            pickle.dump(message, writer, protocol=pickle.HIGHEST_PROTOCOL)
    finally:
        os._exit(0)
