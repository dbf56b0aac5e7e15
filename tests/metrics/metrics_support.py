"""Helpers shared by the metrics tests, free of pytest so they also run inside Pyodide."""

from __future__ import annotations

import json
import os
import unittest
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rankcards.metrics import _stream, evaluate, read_run


@contextmanager
def raises(kind: type[BaseException], message: str | None = None) -> Iterator[None]:
    """Assert that the block raises ``kind`` and, if given, that ``str(error) == message``."""
    try:
        yield
    except kind as error:
        if message is not None:
            assert str(error) == message, f"{str(error)!r} != {message!r}"
        return
    raise AssertionError(f"{kind.__name__} not raised")


def record_whole_run_readings(monkeypatch: Any) -> list[str]:
    """The names of the runs ``evaluate_files`` reads whole (its general path, taken on anything
    unusual), recorded from now on through ``monkeypatch`` (pytest's fixture)."""
    readings: list[str] = []

    def reading(path: str | os.PathLike[str], **options: Any) -> Any:
        readings.append(Path(path).name)
        return read_run(path, **options)

    monkeypatch.setattr(_stream, "read_run", reading)
    return readings


def one(qrels: dict[str, int], run: dict[str, float], measure: str, **options: object) -> float:
    """Value of one measure on a single query ``q``."""
    result = evaluate({"q": qrels}, {"q": run}, [measure], **options)  # type: ignore[arg-type]
    return result.per_query["q"][next(iter(result.per_query["q"]))]


def close(got: float, want: float, tolerance: float = 1e-12) -> bool:
    """Float equality for hand-computed values."""
    return abs(got - want) <= tolerance


def reference_dir() -> Path:
    """trec_eval's reference data (tests/data/trec_eval, or env RANKCARDS_TREC_EVAL_REF).

    Missing, it raises SkipTest naming where it was looked for, or AssertionError under CI (the
    conformance must never pass on CI by skipping; ``ci_gate`` is not in Pyodide's copy, where
    the runner's caller counts the skips instead).
    """
    configured = os.environ.get("RANKCARDS_TREC_EVAL_REF")
    repo = Path(__file__).resolve().parents[2]
    folder = Path(configured) if configured else repo / "tests" / "data" / "trec_eval"
    if not (folder / "out.test").is_file():
        reason = f"trec_eval reference data not found in {folder} (set RANKCARDS_TREC_EVAL_REF)"
        try:
            from ci_gate import under_ci
        except ImportError:  # inside Pyodide
            raise unittest.SkipTest(reason) from None
        if under_ci():
            raise AssertionError(f"{reason} (CI is set: what a test needs must be there)")
        raise unittest.SkipTest(reason)
    return folder


def table(cases: list[tuple[object, ...]], check: Callable[..., None]) -> None:
    """Run ``check(*case)`` for every row, naming the failing row."""
    for case in cases:
        try:
            check(*case)
        except AssertionError as error:
            raise AssertionError(f"case {case!r}: {error}") from None


def run_cli(capsys: Any, *argv: str, command: str) -> tuple[int, str, str]:
    """``rankcards COMMAND ARGV...`` in process: its exit status, standard output and error
    (``capsys``: pytest's fixture)."""
    from rankcards.cli import main  # not in the archive the page ships: imported on use

    status = main([command, *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def run_json(capsys: Any, *argv: str, command: str) -> Any:
    """``rankcards COMMAND ARGV... --format json``: its parsed output, once it exited 0 with
    nothing on standard error."""
    status, out, err = run_cli(capsys, *argv, "--format", "json", command=command)
    assert status == 0 and err == "", err
    return json.loads(out)
