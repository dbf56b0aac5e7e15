"""Evaluate a run file while reading it: ``rankcards eval``'s path, in the memory of one query.

Retrieval systems write a run query by query. Each query can then be checked, ranked and
measured as soon as its last line is read, while its docnos are still in the CPU cache, and
dropped: the run is never held in memory, however large. The run is read in blocks as
``_fastrun`` reads it (one ``bytes.split`` per block); what that reader would not take fast,
a query whose lines come back after another query's, a docno twice or a score that is not
finite raises :class:`~._fastrun.Fallback`, and the run is read again by :func:`read_run`
and evaluated by :func:`evaluate`, which name the bad line. Results and errors are therefore
exactly those of ``evaluate(read_qrels(qrels), read_run(run), ...)``, which the tests check.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from itertools import groupby
from math import isfinite

from . import _parts
from ._data import Qrels
from ._evaluate import (
    Evaluation,
    Scorer,
    check_options,
    check_subtopics,
    evaluate_checked,
    measure_specs,
    prepare,
)
from ._fastrun import Fallback, blocks, parse_scores, qid_text, regular
from ._measure import MeasureSpec
from ._readers import OnRead, open_bytes, read_qrels, read_run, unreadable

Path = str | os.PathLike[str]
#: told the bytes read so far and the bytes to read in all
Progress = Callable[[int, int], None]
_Measured = dict[str, dict[str, float]]  # qid -> measure -> value


def evaluate_files(
    qrels: Path,
    run: Path,
    measures: Iterable[str | MeasureSpec],
    complete: bool = False,
    depth: int | None = None,
    rel_level: int = 1,
    jobs: int = 1,
    *,
    progress: Progress | None = None,
) -> Evaluation:
    """Evaluate a TREC run file against a qrels file, reading the run query by query.

    The same as ``evaluate(read_qrels(qrels), read_run(run), measures, ...)`` (see
    :func:`evaluate` for the measures' means and the options), in less time and in the memory
    of the qrels plus one query when the run lists each query's lines together, as runs do.

    Args:
        qrels: path of a qrels file (plain or gzip).
        run: path of a run file (plain or gzip).
        measures, complete, depth, rel_level: as for :func:`evaluate`.
        jobs: processes reading the run at once. Above 1, a plain (not gzip) run of at least
            4 MiB per process is cut at query boundaries and its parts are read in forked
            processes, where the platform can fork: the same result in less time on several
            cores. Fork from a program with no other thread running (the CLI has none).
        progress: called as the files are read, with the bytes read so far and the bytes to
            read in all (both files; a gzip file counts its compressed bytes). A run with an
            unusual line is read a second time (see the module's docstring): the count goes
            back to the qrels' size, and on to the total again.

    Returns:
        Evaluation: per-query values and aggregates.

    Raises:
        TrecFormatError: a bad line in either file, named by path and line; a file that
            cannot be read (missing, or a truncated or corrupt gzip file), named by path.
        MeasureError: a measure name is invalid.
        ValueError: ``depth`` < 1, ``rel_level`` < 0, ``jobs`` < 1, or no query in common
            (without ``complete``).

    Reference:
        trec_eval v10.0 (``trec_eval.c``), which also reads both files before evaluating.

    Example:
        >>> import pathlib, tempfile
        >>> folder = pathlib.Path(tempfile.mkdtemp())
        >>> _ = (folder / "qrels").write_text("q1 0 a 1\\nq1 0 c 2\\n")
        >>> _ = (folder / "run").write_text("q1 Q0 b 1 0.9 s\\nq1 Q0 c 2 0.5 s\\n")
        >>> evaluate_files(folder / "qrels", folder / "run", ["RR", "R@2"]).aggregate
        {'RR': 0.5, 'R@2': 0.5}
    """
    check_options(depth, rel_level)
    if jobs < 1:
        raise ValueError(f"jobs must be an integer >= 1, got {jobs}")
    specs = measure_specs(measures)
    on_qrels = on_run = None
    if progress:
        qrels_size = _size(qrels)
        total = qrels_size + _size(run)
        on_qrels = lambda count: progress(count, total)  # noqa: E731 - two one-liners
        on_run = lambda count: progress(qrels_size + count, total)  # noqa: E731
    judged = read_qrels(qrels, on_read=on_qrels)
    check_subtopics(judged, specs)
    scorer = Scorer(specs, depth, rel_level)
    try:
        measured = _measure_run(run, judged, scorer, depth, jobs, on_run)
    except Fallback:
        ranked = read_run(run, on_read=on_run)
        return evaluate_checked(judged, ranked, specs, complete, depth, rel_level)
    return scorer.evaluation(judged, measured, complete)


def _size(path: Path) -> int:
    """A file's size; 0 for one that cannot be read (its reader says why)."""
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _measure_run(
    path: Path,
    qrels: Qrels,
    scorer: Scorer,
    depth: int | None,
    jobs: int,
    on_read: OnRead | None = None,
) -> _Measured:
    """The values of every query of both the run and the qrels; Fallback on anything unusual.

    With ``jobs`` > 1, a large plain run is cut at query boundaries into parts measured in
    parallel processes (``_parts``); a qid read by two parts falls back like any other query
    that comes back. A file that turns out unreadable (a truncated or corrupt gzip file)
    raises TrecFormatError at once: reading it again would meet the same end.
    """
    try:
        parts = _parts.ranges(path, jobs) if jobs > 1 and _parts.can_fork() else []
    except OSError:
        raise Fallback from None  # read_run says why, as it always does

    def measure_part(start: int, stop: int | None) -> tuple[_Measured, set[bytes]]:
        try:  # in parts, the parts' ends are the progress (a read goes on past its part's end)
            handle = open_bytes(path, on_read if stop is None else None)
        except OSError:
            raise Fallback from None
        with handle:
            try:
                handle.seek(start)
                size = None if stop is None else stop - start
                return _measure_blocks(blocks(handle, size), qrels, scorer, depth)
            except OSError as error:  # e.g. a truncated or corrupt gzip file
                raise unreadable(os.fspath(path), error) from None

    if len(parts) < 2:
        measured, read = measure_part(0, None)
    else:
        measured, read = {}, set()
        results = _parts.in_processes(measure_part, parts)
        for (_, stop), (part_measured, part_read) in zip(parts, results, strict=True):
            if not read.isdisjoint(part_read):  # a query in two parts: not grouped by query
                raise Fallback
            read |= part_read
            measured |= part_measured
            if on_read:
                on_read(stop)
    if not read:  # nothing read: read_run says the run is empty
        raise Fallback
    return measured


def _measure_blocks(
    run_blocks: Iterable[bytes], qrels: Qrels, scorer: Scorer, depth: int | None
) -> tuple[_Measured, set[bytes]]:
    """The values of the queries in these blocks that the qrels have, and every qid read."""
    measured: _Measured = {}
    done: set[bytes] = set()  # qids whose lines have ended

    def finish(raw: bytes, docnos: list[bytes], scores: list[float]) -> None:
        if raw in done:  # the query comes back: it needs the whole run
            raise Fallback
        done.add(raw)
        total = len(docnos)
        positions = dict(zip(docnos, range(total), strict=True))  # the duplicate check, in C
        if len(positions) != total:
            raise Fallback
        # a non-finite score makes the sum non-finite; a finite sum may overflow, so confirm
        if not isfinite(sum(scores)) and not all(map(isfinite, scores)):
            raise Fallback
        qid = qid_text(raw)
        if qid in qrels:
            subtopics = scorer.subtopics(qrels, qid)
            query = prepare(qrels.raw(qid), docnos, scores, depth, positions, subtopics=subtopics)
            measured[qid] = scorer.score(query)

    current = b""  # the qid being read, b"" before the first line
    docnos: list[bytes] = []
    scores: list[float] = []
    for block in run_blocks:
        tokens = block.split()
        if not regular(block, tokens, 6):
            raise Fallback
        qids, block_docnos = tokens[0::6], tokens[2::6]
        block_scores = parse_scores(tokens[4::6], b"_" in block, list)
        del tokens  # the columns nobody reads
        if qids.count(qids[0]) == len(qids):  # one query in the block
            groups = [(qids[0], block_docnos, block_scores)]
        else:
            groups = _groups(qids, block_docnos, block_scores)
        for raw, group_docnos, group_scores in groups:
            if raw == current:
                docnos += group_docnos
                scores += group_scores
                continue
            if current:
                finish(current, docnos, scores)
            current, docnos, scores = raw, group_docnos, group_scores
    if current:
        finish(current, docnos, scores)
    return measured, done


def _groups(
    qids: list[bytes], docnos: list[bytes], scores: list[float]
) -> list[tuple[bytes, list[bytes], list[float]]]:
    """A block's stretches of lines of one query: (qid, docnos, scores) each."""
    groups = []
    start = 0
    for raw, stretch in groupby(qids):
        stop = start + len(list(stretch))
        groups.append((raw, docnos[start:stop], scores[start:stop]))
        start = stop
    return groups
