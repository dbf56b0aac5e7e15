"""evaluate_files with jobs > 1: a plain run cut at query boundaries and read in forked processes.

The results must be those of one process (the property test in test_metrics_stream.py checks
that on random runs); here: the cuts, that the processes are really used, and what happens
when a part meets something unusual, a child dies, or this process fails while children run.
"""

from __future__ import annotations

import gzip
import os
import time
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from metrics_support import record_whole_run_readings

from rankcards.metrics import (
    TrecFormatError,
    _parts,
    _stream,
    evaluate,
    evaluate_files,
    read_qrels,
    read_run,
)

pytestmark = pytest.mark.skipif(not _parts.can_fork(), reason="this platform cannot fork")

MEASURES = ["AP", "RR", "nDCG@3", "num_ret"]


def _run(queries: range, docs: int = 6) -> str:
    return "".join(f"q{q} Q0 d{d} {d} {docs - d} s\n" for q in queries for d in range(1, docs + 1))


def _qrels(queries: range) -> str:
    return "".join(f"q{q} 0 d{d} {(q * d) % 3}\n" for q in queries for d in range(1, 7))


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A qrels and a run of 8 queries, cut into parts of one byte at least (any size is cut)."""
    monkeypatch.setattr(_parts, "MIN_PART", 1)
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(_qrels(range(1, 9)))
    run.write_text(_run(range(1, 9)))
    return qrels, run


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pids of the children forked (each reaped by the time the call returns)."""
    pids: list[int] = []
    fork = _parts._fork

    def counted(*args: Any) -> tuple[int, int]:
        pid, pipe = fork(*args)
        pids.append(pid)
        return pid, pipe

    monkeypatch.setattr(_parts, "_fork", counted)
    return pids


@pytest.fixture
def readings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The general path's whole-run readings: a fallback shows here."""
    return record_whole_run_readings(monkeypatch)


def _reaped(pids: list[int]) -> bool:
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            continue
        return False  # still a child of ours: running or a zombie
    return True


def _expected(qrels: Path, run: Path) -> dict[str, dict[str, float]]:
    return evaluate(read_qrels(qrels), read_run(run), MEASURES).per_query


def test_the_cuts_fall_where_a_query_starts(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.write_text(_run(range(1, 9)))
    size = run.stat().st_size
    cuts = _parts.ranges(run, 4, min_part=1)
    assert len(cuts) == 4 and cuts[0][0] == 0 and cuts[-1][1] == size
    assert all(stop == start for (_, stop), (start, _) in pairwise(cuts))
    text = run.read_bytes()
    for start, _ in cuts[1:]:
        assert text[start - 1 : start] == b"\n"  # a line starts there,
        qid = text[start:].split(maxsplit=1)[0]
        assert b"\n" + qid + b" " not in text[:start]  # the first one of its query


@pytest.mark.parametrize(
    ("content", "parts"),
    [
        (_run(range(1, 2), docs=40), 1),  # one query: nowhere to cut
        (_run(range(1, 9)), 3),
    ],
)
def test_a_file_is_cut_only_between_queries(tmp_path: Path, content: str, parts: int) -> None:
    run = tmp_path / "run"
    run.write_text(content)
    assert len(_parts.ranges(run, 3, min_part=1)) == parts


def test_a_long_query_is_not_scanned_past_the_next_part(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.write_text(_run(range(1, 2), docs=40) + _run(range(2, 3), docs=2))
    q2 = run.read_text().index("q2")
    with run.open("rb") as handle:
        assert _parts._next_query(handle, 100, limit=q2 + 1) == q2
        assert _parts._next_query(handle, 100, limit=q2) is None


def test_small_and_gzipped_runs_are_not_cut(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.write_text(_run(range(1, 9)))
    assert _parts.ranges(run, 2) == [(0, run.stat().st_size)]  # below MIN_PART per part
    zipped = tmp_path / "run.gz"
    zipped.write_bytes(gzip.compress(run.read_bytes()))
    assert _parts.ranges(zipped, 2, min_part=1) == [(0, zipped.stat().st_size)]


def test_parts_are_read_in_child_processes(
    files: tuple[Path, Path], forks: list[int], readings: list[str]
) -> None:
    qrels, run = files
    result = evaluate_files(qrels, run, MEASURES, jobs=3)
    assert len(forks) == 2 and readings == []  # this process read the first part itself
    assert result.per_query == _expected(qrels, run)
    assert len(result.per_query) == 8
    assert _reaped(forks)


def test_a_query_in_two_parts_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: list[int], readings: list[str]
) -> None:
    monkeypatch.setattr(_parts, "MIN_PART", 1)
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(_qrels(range(1, 5)))
    run.write_text(_run(range(1, 5)) + _run(range(1, 2)).replace(" d", " e"))  # q1 comes back
    result = evaluate_files(qrels, run, MEASURES, jobs=2)
    assert len(forks) == 1 and readings == ["run"]
    assert result.per_query == _expected(qrels, run)
    assert result.per_query["q1"]["num_ret"] == 12.0


def test_a_bad_line_in_a_childs_part_is_named(
    files: tuple[Path, Path], forks: list[int], readings: list[str]
) -> None:
    qrels, run = files
    lines = run.read_text().splitlines(keepends=True)
    lines[45] = lines[45].replace(" 2 s", " nan s")  # q8 d4
    run.write_text("".join(lines))
    with pytest.raises(TrecFormatError) as raised:
        evaluate_files(qrels, run, MEASURES, jobs=2)
    assert str(raised.value) == f"{run}:46: score 'nan' is not a finite number"
    assert len(forks) == 1 and readings == ["run"]
    assert _reaped(forks)


def test_a_child_that_dies_is_replaced_by_reading_the_run_here(
    files: tuple[Path, Path],
    monkeypatch: pytest.MonkeyPatch,
    forks: list[int],
    readings: list[str],
) -> None:
    parent = os.getpid()
    measure = _stream._measure_blocks

    def dying(*args: Any) -> Any:
        if os.getpid() != parent:
            os._exit(3)  # as a child killed by the system would, without a word
        return measure(*args)

    monkeypatch.setattr(_stream, "_measure_blocks", dying)
    qrels, run = files
    result = evaluate_files(qrels, run, MEASURES, jobs=2)
    assert len(forks) == 1 and readings == ["run"]
    assert result.per_query == _expected(qrels, run)
    assert _reaped(forks)


def test_children_are_killed_when_this_process_fails(
    files: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, forks: list[int], tmp_path: Path
) -> None:
    parent = os.getpid()
    finished = tmp_path / "finished"

    def interrupted(*args: Any) -> Any:
        if os.getpid() != parent:  # a child: still working when this process fails
            time.sleep(3)
            finished.touch()
        raise KeyboardInterrupt  # the reader pressed Ctrl-C during this process's part

    monkeypatch.setattr(_stream, "_measure_blocks", interrupted)
    qrels, run = files
    with pytest.raises(KeyboardInterrupt):
        evaluate_files(qrels, run, MEASURES, jobs=3)
    assert len(forks) == 2
    assert _reaped(forks)
    assert not finished.exists()  # killed, not waited for


def test_jobs_below_one_are_refused(files: tuple[Path, Path]) -> None:
    with pytest.raises(ValueError, match="jobs must be an integer >= 1, got 0"):
        evaluate_files(*files, MEASURES, jobs=0)


def test_the_default_is_one_process_per_usable_cpu_up_to_eight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(3)), raising=False)
    assert _parts.default_jobs() == 3
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(64)), raising=False)
    assert _parts.default_jobs() == _parts.MAX_JOBS == 8
