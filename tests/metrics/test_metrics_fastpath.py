"""The fast readers (block by block, C calls per block) agree with the strict line readers.

The fast paths only ever answer for well-formed input and hand anything unusual to the strict
reader (``Fallback``); this test holds them to that on random, often malformed, files split
into tiny blocks so that block boundaries fall everywhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rankcards.metrics import TrecFormatError, _fastrun, _readers, read_qrels, read_run
from rankcards.metrics._data import Qrels, Run

# Ordinary values dominate: one trap (a comment-like qid, an underscore, a bad number, a
# duplicate) anywhere sends the whole file to the strict reader, so traps must stay rare for the
# fast path to be exercised at all.
QIDS = st.sampled_from(["q1"] * 8 + ["q2"] * 8 + ["10", "#q", "é", "q_1"])
DOCNOS = st.sampled_from([f"d{i}" for i in range(30)] + ["doc_1", "D#4"])
SCORES = st.sampled_from(["1", "0.5", "-2.25", "1e3", "3"] * 4 + ["1_0", "nan", "inf", "x"])
LABELS = st.sampled_from(["0", "1", "2", "-1", "3"] * 4 + ["1_0", "x"])
BLOCKS = st.sampled_from([7, 40, 200, 1 << 15])
SEPARATORS = st.sampled_from([" ", " ", "\t", "  ", " \t"])


@st.composite
def _lines(draw: Any, columns: Any) -> bytes:
    lines = []
    for _ in range(draw(st.integers(1, 12))):
        # mostly regular rows: a single irregular line sends the whole file to the strict reader
        kind = draw(st.sampled_from(["row"] * 12 + ["comment", "blank", "long", "short"]))
        if kind == "comment":
            lines.append("# a comment")
            continue
        if kind == "blank":
            lines.append("")
            continue
        row = draw(columns)
        if kind == "long":
            row.append("extra")
        elif kind == "short":
            row.pop()
        sep = draw(SEPARATORS)
        lines.append(sep.join(row))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    text = end.join(lines) + draw(st.sampled_from(["", end]))
    return text.encode()


RUN_ROWS = st.builds(lambda q, d, s: [q, "Q0", d, "1", s, "sys"], QIDS, DOCNOS, SCORES)
# the subtopic column: one value (one subtopic per query) or, rarely, a second one
SUBTOPICS = st.sampled_from(["0"] * 12 + ["1"])
QRELS_ROWS = st.builds(lambda q, s, d, r: [q, s, d, r], QIDS, SUBTOPICS, DOCNOS, LABELS)


def _as_dicts(mapping: Any) -> dict[str, dict[str, Any]]:
    return {qid: dict(mapping[qid]) for qid in mapping}


def _error(error: TrecFormatError) -> tuple[str, int | None, str]:
    return ("error", error.line, str(error).rsplit(": ", 1)[-1])


def _qrels_view(qrels: Qrels) -> Any:
    """What a Qrels holds: the labels, the subtopic labels, whether it has several."""
    return _as_dicts(qrels), {q: qrels.subtopics(q) for q in qrels}, qrels.has_several_subtopics()


def _fast(reader: Any, data: bytes, directory: Path, block: int, view: Any = _as_dicts) -> Any:
    """The public reader given a file: the block fast path, falling back when it must."""
    path = directory / "input.txt"
    path.write_bytes(data)
    saved, _fastrun._BLOCK = _fastrun._BLOCK, block  # tiny blocks: boundaries everywhere
    try:
        return view(reader(str(path)))
    except TrecFormatError as error:
        return _error(error)
    finally:
        _fastrun._BLOCK = saved


def _strict_run(data: bytes) -> Any:
    try:
        found = _readers._strict_run(data.splitlines(), "input.txt")
    except TrecFormatError as error:
        return _error(error)
    return _as_dicts(Run(found, "input.txt")) if found else ("error", None, "no result lines")


def _strict_qrels(data: bytes) -> Any:
    try:
        found = _readers._read_qrels_lines(data.splitlines(), "input.txt")
    except TrecFormatError as error:
        return _error(error)
    return _qrels_view(found) if found else ("error", None, "no judgment lines")


@settings(max_examples=300, deadline=None)
@given(data=_lines(RUN_ROWS), block=BLOCKS)
def test_run_file_fast_path_equals_strict_reading(
    tmp_path_factory: Any, data: bytes, block: int
) -> None:
    fast = _fast(read_run, data, tmp_path_factory.mktemp("run"), block)
    assert fast == _strict_run(data)


@settings(max_examples=300, deadline=None)
@given(data=_lines(QRELS_ROWS), block=BLOCKS)
def test_qrels_file_fast_path_equals_strict_reading(
    tmp_path_factory: Any, data: bytes, block: int
) -> None:
    fast = _fast(read_qrels, data, tmp_path_factory.mktemp("qrels"), block, _qrels_view)
    assert fast == _strict_qrels(data)


@settings(max_examples=200, deadline=None)
@given(data=_lines(RUN_ROWS))
def test_run_lines_fast_path_equals_strict_reading(data: bytes) -> None:
    try:
        fast = _as_dicts(read_run(data.decode().splitlines(), name="input.txt"))
    except TrecFormatError as error:
        fast = _error(error)
    assert fast == _strict_run(data)
