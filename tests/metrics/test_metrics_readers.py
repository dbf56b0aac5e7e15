"""TREC readers: accepted syntax, and errors that name the file, the line and the problem."""

from __future__ import annotations

import gzip
import os
import tempfile

from metrics_support import raises, table

from rankcards.metrics import TrecFormatError, read_qrels, read_run


def test_run_reader_basics() -> None:
    run = read_run(
        [
            "# comment line",
            "",
            "q1 Q0 d1 1 0.5 tag",
            "q1\tQ0\td2\t7\t-1e3\ttag extra words are ignored like trec_eval",
            "q2 Q0 d#1 1 2 tag",
            "  # indented comment",
            "q1 Q0 d3 2 0.5 tag",  # q1 again, after q2
        ]
    )
    assert list(run) == ["q1", "q2"]
    assert run["q1"] == {"d1": 0.5, "d2": -1000.0, "d3": 0.5}
    assert run["q2"] == {"d#1": 2.0}
    docnos, scores = run.raw("q1")
    assert docnos == [b"d1", b"d2", b"d3"] and list(scores) == [0.5, -1000.0, 0.5]


def test_qrels_reader_basics() -> None:
    qrels = read_qrels(["q1 0 d1 1", "# comment", "q1 0 d2 -1", "q2 Q0 d1 +3", "q1 0 d3 0"])
    assert dict(qrels) == {"q1": {"d1": 1, "d2": -1, "d3": 0}, "q2": {"d1": 3}}


RUN_ERRORS = [
    (["q1 Q0 d1 1 0.5"], "<lines>:1: expected 6 columns 'qid Q0 docno rank score tag', got 5"),
    (
        ["# c", "q1 Q0 d1 1 0.5 t", "q1 Q0 d2 1 abc t"],
        "<lines>:3: score 'abc' is not a number",
    ),
    (["q1 Q0 d1 1 nan t"], "<lines>:1: score 'nan' is not a finite number"),
    (["q1 Q0 d1 1 -inf t"], "<lines>:1: score '-inf' is not a finite number"),
    (["q1 Q0 d1 1 1_0 t"], "<lines>:1: score '1_0' is not a finite number"),
    (
        ["q1 Q0 d1 1 1 t", "q2 Q0 d1 1 1 t", "q1 Q0 d1 2 0 t"],
        "<lines>:3: docno 'd1' appears twice for query 'q1'",
    ),
    ([], "<lines>: empty run: no result lines"),
    (["# only a comment", "   "], "<lines>: empty run: no result lines"),
]

QRELS_ERRORS = [
    (["q1 0 d1"], "<lines>:1: expected 4 columns 'qid iter docno rel', got 3"),
    (["q1 0 d1 1 extra"], "<lines>:1: expected 4 columns 'qid iter docno rel', got 5"),
    (["q1 0 d1 1", "q1 0 d2 1.0"], "<lines>:2: relevance '1.0' is not an integer"),
    (["q1 0 d1 high"], "<lines>:1: relevance 'high' is not an integer"),
    (["q1 0 d1 1", "q1 0 d1 0"], "<lines>:2: docno 'd1' appears twice for query 'q1'"),
    ([], "<lines>: empty qrels: no judgment lines"),
]


def test_run_errors_name_line_and_problem() -> None:
    def check(lines: list[str], message: str) -> None:
        with raises(TrecFormatError, message):
            read_run(lines)

    table(RUN_ERRORS, check)  # type: ignore[arg-type]


def test_qrels_errors_name_line_and_problem() -> None:
    def check(lines: list[str], message: str) -> None:
        with raises(TrecFormatError, message):
            read_qrels(lines)

    table(QRELS_ERRORS, check)  # type: ignore[arg-type]


def test_error_attributes() -> None:
    try:
        read_run(["q Q0 d 1 1 t", "q Q0 d 1 1 t"], name="my.run")
    except TrecFormatError as error:
        assert (error.path, error.line) == ("my.run", 2)
        assert error.message == "docno 'd' appears twice for query 'q'"
    else:
        raise AssertionError("no error")


def test_files_plain_gzip_and_bad() -> None:
    with tempfile.TemporaryDirectory() as folder:
        plain = os.path.join(folder, "run.txt")
        with open(plain, "w", encoding="utf-8") as handle:
            handle.write("q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.25 t")  # no final newline
        packed = os.path.join(folder, "run.gz")  # gzip found by magic bytes, not the name
        with gzip.open(packed, "wt", encoding="utf-8") as handle:
            handle.write("q1 Q0 d1 1 0.5 t\n")
        bad = os.path.join(folder, "bad.qrels")  # docnos are bytes to trec_eval; qids are text
        with open(bad, "wb") as handle:
            handle.write(b"q1 0 d\xff 1\nq\xff 0 d1 1\n")
        assert read_run(plain)["q1"] == {"d1": 0.5, "d2": 0.25}
        assert read_run(packed)["q1"] == {"d1": 0.5}
        with raises(TrecFormatError, f"{bad}:2: not UTF-8 text (invalid start byte)"):
            read_qrels(bad)
        missing = os.path.join(folder, "missing.run")
        with raises(TrecFormatError, f"{missing}: No such file or directory"):
            read_run(missing)


def test_errors_found_after_the_fast_pass_keep_their_line() -> None:
    # the fast reader checks scores and duplicates per query; the strict re-read locates them
    lines = ["q1 Q0 d1 1 1 t", "q1 Q0 d2 2 0.5 t", "q2 Q0 d1 1 2 t", "q1 Q0 d2 3 0.1 t"]
    with raises(TrecFormatError, "<lines>:4: docno 'd2' appears twice for query 'q1'"):
        read_run(iter(lines))  # a one-shot iterator is kept for the second reading
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "scores.run")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("".join(f"q1 Q0 d{i} {i} {10 - i} t\n" for i in range(5)))
            handle.write("q1 Q0 d9 9 inf t\n")
        with raises(TrecFormatError, f"{path}:6: score 'inf' is not a finite number"):
            read_run(path)


def test_run_docnos_are_bytes_like_trec_eval() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "latin1.run")
        with open(path, "wb") as handle:
            handle.write(b"q1 Q0 d\xe9 1 1 t\nq1 Q0 e 2 1 t\n")  # a Latin-1 docno
        run = read_run(path)
    assert run.raw("q1")[0] == [b"d\xe9", b"e"]
    assert run["q1"] == {"d\udce9": 1.0, "e": 1.0}  # the str view escapes the odd byte


TRUNCATED = (
    "truncated gzip file: the compressed data ends before the end of its stream "
    "(an incomplete download or copy?)"
)
# A gzip header (deflate, no flags) whose first block has type 3, which deflate does not have.
BAD_BLOCK = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + b"\x07 not deflate" * 8


def _broken_gzips(folder: str, text: str) -> dict[str, tuple[str, str]]:
    """Files holding ``text`` gzipped and then damaged: name -> (path, the error's message)."""
    packed = gzip.compress(text.encode())
    flipped = bytearray(packed)
    flipped[-8] ^= 0xFF  # the trailer's CRC-32 no longer matches the inflated bytes
    damaged = {
        "truncated.gz": (packed[: len(packed) * 2 // 3], TRUNCATED),
        "magic-garbage.gz": (b"\x1f\x8b" + bytes(range(7, 200)), "unknown compression method"),
        "bad-block.gz": (BAD_BLOCK, "invalid block type"),
        "flipped.gz": (bytes(flipped), "CRC check failed"),
    }
    found = {}
    for name, (data, message) in damaged.items():
        path = os.path.join(folder, name)
        with open(path, "wb") as handle:
            handle.write(data)
        found[name] = (path, message)
    return found


def _one_line_error(read: object, path: str) -> str:
    """The TrecFormatError's message for ``read(path)``, checked to name the file alone."""
    try:
        read(path)  # type: ignore[operator]
    except TrecFormatError as error:
        assert (error.path, error.line) == (path, None)
        assert "\n" not in str(error) and str(error).startswith(f"{path}: ")
        return error.message
    raise AssertionError(f"no TrecFormatError for {path}")


def test_truncated_or_corrupt_gzip_is_one_line_naming_the_file() -> None:
    lines = "".join(f"q{q} Q0 d{d} {d} {100 - d} t\n" for q in range(40) for d in range(50))
    judgments = "".join(f"q{q} 0 d{d} {d % 3}\n" for q in range(40) for d in range(50))
    with tempfile.TemporaryDirectory() as folder:
        for read, text in ((read_run, lines), (read_qrels, judgments)):
            for path, expected in _broken_gzips(folder, text).values():
                message = _one_line_error(read, path)
                assert message == TRUNCATED if expected == TRUNCATED else expected in message
                assert message.startswith(("truncated gzip file", "corrupt gzip file: "))


def test_on_read_counts_the_bytes_of_the_file() -> None:
    text = "".join(f"q{q} Q0 d{d} {d} {100 - d} t\n" for q in range(30) for d in range(40))
    with tempfile.TemporaryDirectory() as folder:
        plain = os.path.join(folder, "run")
        packed = os.path.join(folder, "run.gz")
        with open(plain, "w", encoding="utf-8") as handle:
            handle.write(text)
        with open(packed, "wb") as handle:
            handle.write(gzip.compress(text.encode()))
        for path in (plain, packed):
            counts: list[int] = []
            assert read_run(path, on_read=counts.append) == read_run(plain)
            assert sum(counts) == os.path.getsize(path) and counts and min(counts) > 0
        judgments = os.path.join(folder, "qrels")
        with open(judgments, "w", encoding="utf-8") as handle:
            handle.write("# judged by hand\nq1 0 d1 1\n")  # a comment: read a second time
        counts = []
        read_qrels(judgments, on_read=counts.append)
        assert sum(counts) == 2 * os.path.getsize(judgments)
