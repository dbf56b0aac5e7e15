"""The worker entry point of the "Evaluate your own run" page (``web/evaluate.js``).

The page hands the worker the reader's files as they are (``File`` objects, or the pasted text
as one), and the worker mounts them read-only in Pyodide's file system (WORKERFS, which reads a
file's bytes only when Python asks for them): :func:`evaluate_run_files` then evaluates them
with :func:`rankcards.metrics.evaluate_files`, the very path of ``rankcards eval -j 1``, which
reads the run in blocks and measures each query as soon as its lines are read. Nothing is
decoded to text or copied whole: gzip files are inflated as they are read, and ``progress``
is told how far the reading has gone.

Why a separate function instead of calling ``evaluate_files`` from JavaScript: every failure
— a malformed line, a truncated gzip file, an unknown measure, no query in common — must come
back as data (one line naming the file as the reader knows it, and the line) rather than as a
Python exception crossing the worker boundary. The result is plain JSON: the measures in the
order given and one row per query after the aggregate row, which is what the table, the CSV
and the JSON download are made from.

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "q").write_text("q1 0 a 1\\nq1 0 b 0\\nq2 0 x 1\\n")
>>> _ = (folder / "r").write_text("q1 Q0 a 1 0.2 t\\nq1 Q0 b 2 0.9 t\\nq2 Q0 y 1 1.0 t\\n")
>>> evaluate_run_files(folder / "q", folder / "r", measures="RR P@2")["rows"]
[{'qid': 'all', 'values': [0.25, 0.25]}, {'qid': 'q1', 'values': [0.5, 0.5]}, \
{'qid': 'q2', 'values': [0.0, 0.0]}]
>>> _ = (folder / "bad").write_text("q1 0 a x\\n")
>>> evaluate_run_files(folder / "bad", folder / "r", "my.qrels")["error"]
"my.qrels:1: relevance 'x' is not an integer"
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from typing import Any

from rankcards.metrics import (
    Evaluation,
    MeasureError,
    SubtopicWarning,
    TrecFormatError,
    evaluate_files,
)

__all__ = ["DEFAULT_MEASURES", "evaluate_run_files"]

DEFAULT_MEASURES = "RR P@5 P@10 R@100 AP Rprec nDCG@10 Success@10"

Path = str | os.PathLike[str]


def _number(value: float | None, counter: bool) -> float | int | None:
    if value is None:
        return None
    return int(value) if counter else value


def evaluate_run_files(
    qrels: Path,
    run: Path,
    qrels_name: str = "qrels",
    run_name: str = "run",
    measures: str | list[str] = DEFAULT_MEASURES,
    complete: bool = False,
    level: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Evaluate TREC files: ``{"ok": True, "measures", "counters", "rows", "json", "warnings"}``
    or an error.

    ``qrels`` and ``run`` are paths (plain or gzip); errors name them ``qrels_name`` and
    ``run_name``, the names the reader gave them. ``measures`` is a list or a
    whitespace-separated string of names (ir_measures notation); ``complete`` and ``level``
    are trec_eval's ``-c`` and ``-l``; ``progress(done, total)`` is told the bytes read of both
    files (see :func:`rankcards.metrics.evaluate_files`). The first row has qid ``"all"`` (the
    aggregate); per-query values are ``None`` where a measure has none (``num_q``); counters
    are integers and listed in ``counters`` (JSON cannot tell ``1`` from ``1.0``, and the page
    shows counters as integers, the rest with 4 decimals like trec_eval). ``warnings`` holds
    the one-line warnings ``rankcards eval`` prints (a diversity measure asked of a qrels
    whose queries have one subtopic each). Errors are
    ``{"ok": False, "error": "file:line: message"}``, as ``rankcards eval`` prints them.
    """
    names = measures.split() if isinstance(measures, str) else list(measures)
    if not names:
        return {"ok": False, "error": "measures: give at least one measure name, e.g. RR P@10"}
    shown = {os.fspath(qrels): qrels_name, os.fspath(run): run_name}
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", SubtopicWarning)
            result = evaluate_files(
                qrels, run, names, complete=bool(complete), rel_level=int(level), progress=progress
            )
    except TrecFormatError as error:
        named = TrecFormatError(shown.get(error.path, error.path), error.line, error.message)
        return {"ok": False, "error": str(named)}
    except MeasureError as error:
        return {"ok": False, "error": str(error)}
    except ValueError as error:  # no query in common, or a level below 0: as the CLI says it
        return {"ok": False, "error": f"{run_name}: {error}"}
    reply = _reply(result)
    reply["warnings"] = [
        str(warning.message).replace(os.fspath(qrels), qrels_name) for warning in caught
    ]
    return reply


def _reply(result: Evaluation) -> dict[str, Any]:
    """The page's JSON for an evaluation."""
    specs = [(spec.name, spec.measure.is_counter) for spec in result.measures]
    rows = [{"qid": "all", "values": [_number(result.aggregate.get(n), c) for n, c in specs]}]
    for qid, values in result.per_query.items():
        rows.append({"qid": qid, "values": [_number(values.get(n), c) for n, c in specs]})
    return {
        "ok": True,
        "measures": [name for name, _ in specs],
        "counters": [name for name, counter in specs if counter],
        "rows": rows,
        "json": result.to_json(),  # the download: what `rankcards eval --format json` prints
    }
