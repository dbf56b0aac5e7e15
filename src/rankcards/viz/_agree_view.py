"""The worker entry point of the evaluate page's comparison of two qrels
(``web/evaluate_agree.js``).

The page hands the worker the qrels (A, the one evaluated above it; B, the second upload) and,
when two or more are loaded, the runs, all as ``File`` objects mounted read-only (WORKERFS)
under names of the worker's own (``run0``, ``run1``, ...: the keyword arguments ``runs``
collects), with the names the reader knows them by in ``qrels_a_name``, ``qrels_b_name`` and
``run_names``. :func:`agree_files` reads them and computes
:func:`rankcards.metrics.agreement`: the numbers of ``rankcards agree --format json``, run in a
folder holding files of those names.

Why errors come back as data: a malformed line, no pair judged in both, one run only or an
unknown measure must be one line on the page (naming the file and line, or the reason), never a
Python exception crossing the worker boundary.

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "a").write_text("q1 0 d1 1\\nq1 0 d2 0\\nq1 0 d3 2\\n")
>>> _ = (folder / "b").write_text("q1 0 d1 1\\nq1 0 d2 1\\nq1 0 d3 2\\n")
>>> reply = agree_files(folder / "a", folder / "b", "human.qrels", "llm.qrels")
>>> reply["result"]["documents"], reply["result"]["confusion"]
(3, [[0, 1, 0], [0, 1, 0], [0, 0, 1]])
>>> agree_files(folder / "a", folder / "a", run_names=["only.run"], run0=folder / "a")["error"]
'ordering systems needs at least two runs, got 1 (only.run)'
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

from rankcards.metrics import MeasureError, Run, TrecFormatError, agreement, read_qrels, read_run
from rankcards.metrics._agree import DEFAULT_MEASURE

__all__ = ["agree_files"]

Path = str | os.PathLike[str]


def agree_files(
    qrels_a: Path,
    qrels_b: Path,
    qrels_a_name: str = "A",
    qrels_b_name: str = "B",
    run_names: list[str] | None = None,
    measure: str = DEFAULT_MEASURE,
    progress: Callable[[int, int], None] | None = None,
    **runs: Path,
) -> dict[str, Any]:
    """Compare the qrels ``qrels_a`` and ``qrels_b``, and order the runs ``run0``, ``run1``,
    ... (named ``run_names``) under each, when there are any.

    Returns ``{"ok": True, "result", "json"}``: ``result`` is
    :func:`rankcards.metrics.agreement`'s dict and ``json`` the text ``rankcards agree
    --format json`` prints (without its final newline). Or ``{"ok": False, "error": "one
    line"}``: a file's malformed line (``name:line: message``), no pair judged in both, one
    run only, a name given twice, an unknown measure or a counter, or a run with no query in
    common with a qrels. ``progress(done, total)`` is told the bytes read of all the files.
    """
    names = list(run_names or [])
    problem = _problem(names, sum(path is not None for path in runs.values()))
    if problem:
        return {"ok": False, "error": problem}
    paths = [runs[f"run{index}"] for index in range(len(names))]
    files = [qrels_a, qrels_b, *paths]
    sizes = [os.path.getsize(path) for path in files]
    total = sum(sizes)

    def reporter(index: int) -> Callable[[int], None] | None:
        if progress is None:
            return None
        before = sum(sizes[:index])
        return lambda done: progress(before + done, total)

    try:
        first = read_qrels(qrels_a, qrels_a_name, on_read=reporter(0))
        second = read_qrels(qrels_b, qrels_b_name, on_read=reporter(1))
        parsed: dict[str, Run] = {
            name: read_run(path, name, on_read=reporter(index + 2))
            for index, (name, path) in enumerate(zip(names, paths, strict=True))
        }
        result = agreement(first, second, parsed or None, measure.strip() or DEFAULT_MEASURE)
    except (TrecFormatError, MeasureError, ValueError) as error:
        return {"ok": False, "error": str(error)}
    if progress is not None:
        progress(total, total)
    return {"ok": True, "result": result, "json": json.dumps(result, indent=2)}


def _problem(run_names: list[str], given: int) -> str | None:
    """The first problem with the runs, before reading anything (as the CLI)."""
    if given != len(run_names):
        return f"{len(run_names)} run names for {given} run files"
    if len(run_names) == 1:
        return f"ordering systems needs at least two runs, got 1 ({run_names[0]})"
    repeated = sorted({name for name in run_names if run_names.count(name) > 1})
    if repeated:
        return f"run {repeated[0]} is given twice; each run is named by its file name"
    return None
