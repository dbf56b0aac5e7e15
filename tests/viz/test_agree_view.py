"""The evaluate page's comparison of two qrels in CPython: the worker entry point gives the text
of `rankcards agree --format json` (run in a folder of files named as the reader's), tells its
progress, and returns every error as one line naming the file or the reason."""

from __future__ import annotations

import gzip
import io
import os
from contextlib import redirect_stdout
from pathlib import Path

from rankcards.cli import main
from rankcards.viz._agree_view import agree_files


def _write(folder: Path) -> tuple[Path, Path, list[Path]]:
    """Human and LLM judgments of 10 queries (B gzip, some pairs judged on one side only) and
    three runs."""
    human = folder / "human.qrels"
    human.write_text(
        "".join(f"q{q} 0 d{d} {(q * d) % 4}\n" for q in range(10) for d in range(12) if d != q)
    )
    llm = folder / "llm.qrels.gz"
    lines = "".join(
        f"q{q} 0 d{d} {min(3, (q * d) % 4 + (d % 3 == 0))}\n"
        for q in range(10)
        for d in range(1, 14)
    )
    llm.write_bytes(gzip.compress(lines.encode()))
    runs = []
    for step, name in zip((3, 5, 9), ["bm25.run", "dense.run", "hybrid.run"], strict=True):
        path = folder / name
        path.write_text(
            "".join(
                f"q{q} Q0 d{(d * step + q) % 14} {d + 1} {20 - d} s\n"
                for q in range(10)
                for d in range(10)
            )
        )
        runs.append(path)
    return human, llm, runs


def _cli(folder: Path, *args: str) -> str:
    printed = io.StringIO()
    cwd = os.getcwd()
    os.chdir(folder)  # the run names are the paths as given: the bare file names
    try:
        with redirect_stdout(printed):
            assert main(["agree", *args, "--format", "json"]) == 0
    finally:
        os.chdir(cwd)
    return printed.getvalue()


def test_the_comparison_is_the_cli_s_json(tmp_path: Path) -> None:
    human, llm, runs = _write(tmp_path)
    told: list[tuple[int, int]] = []
    reply = agree_files(
        human,
        llm,
        human.name,
        llm.name,
        [run.name for run in runs],
        "AP",
        lambda done, total: told.append((done, total)),
        **{f"run{index}": run for index, run in enumerate(runs)},
    )
    assert reply["ok"], reply
    expected = _cli(tmp_path, human.name, llm.name, "--runs", *(r.name for r in runs), "-m", "AP")
    assert reply["json"] + "\n" == expected
    assert reply["result"]["systems"]["measure"] == "AP"
    total = sum(path.stat().st_size for path in [human, llm, *runs])
    assert told[-1] == (total, total) and len(told) >= 5
    without_runs = agree_files(human, llm, human.name, llm.name)
    assert without_runs["json"] + "\n" == _cli(tmp_path, human.name, llm.name)


def test_errors_are_one_line_naming_the_file_or_reason(tmp_path: Path) -> None:
    human, llm, runs = _write(tmp_path)
    bad = tmp_path / "bad.qrels"
    bad.write_text("q1 0 d1 1\nq1 0 d2 two\n")
    other = tmp_path / "other.qrels"
    other.write_text("z1 0 d1 1\n")
    stray = tmp_path / "stray.run"
    stray.write_text("z9 Q0 d1 1 1 s\n")
    two = {"run0": runs[0], "run1": runs[1]}
    cases = [
        (agree_files(bad, llm, "mine.qrels"), "mine.qrels:2: relevance 'two' is not an integer"),
        (
            agree_files(human, other, "human", "other"),
            "no (query, document) pair is judged in both human and other",
        ),
        (
            agree_files(human, llm, run_names=["a", "b"], measure="nDGC@10", **two),
            "unknown measure",
        ),
        (agree_files(human, llm, run_names=["a", "a"], **two), "run a is given twice"),
        (agree_files(human, llm, run_names=["a"], run0=runs[0]), "at least two runs, got 1 (a)"),
        (
            agree_files(human, llm, run_names=["a", "s"], run0=runs[0], run1=stray),
            "s: no query appears in both the run and the qrels (A)",
        ),
    ]
    for reply, message in cases:
        assert reply["ok"] is False
        assert message in reply["error"] and "\n" not in reply["error"], reply["error"]
