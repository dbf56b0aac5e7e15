"""The worker entry point of the evaluate page's comparison (``web/evaluate.js``, two or more runs).

The page hands the worker the qrels and every run as ``File`` objects, mounted read-only
(WORKERFS) under names of the worker's own (``run0``, ``run1``, ...: the keyword arguments
``runs`` collects), with the names the reader knows them by in ``run_names`` (the file names,
or the names given to pasted runs). :func:`compare_run_files` reads them, tells ``progress``
how many bytes it has read of all of them, and compares the runs with
:func:`rankcards.metrics.compare_runs`: the numbers of ``rankcards compare --format json`` with
the same options and seed, run in a folder holding files of those names.

Why errors come back as data: a malformed line, one run only, runs with no query in common or an
unknown option must be one line on the page (naming the file and line, or the option), never
a Python exception crossing the worker boundary.

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "q").write_text("q1 0 a 1\\nq2 0 b 1\\n")
>>> _ = (folder / "r0").write_text("q1 Q0 x 1 1 t\\nq1 Q0 a 2 0 t\\nq2 Q0 b 1 1 t\\n")
>>> _ = (folder / "r1").write_text("q1 Q0 a 1 1 t\\nq2 Q0 b 1 1 t\\n")
>>> reply = compare_run_files(folder / "q", ["base.run", "new.run"], measures="RR",
...                           run0=folder / "r0", run1=folder / "r1")
>>> reply["result"]["aggregate"], reply["scores"]["new.run"]["RR"]
({'base.run': {'RR': 0.75}, 'new.run': {'RR': 1.0}}, [1.0, 1.0])
>>> compare_run_files(folder / "q", ["base.run"], run0=folder / "r0")["error"]
'compare needs at least two runs, got 1 (base.run)'
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from typing import Any

from rankcards.metrics import (
    MeasureError,
    Qrels,
    Run,
    TrecFormatError,
    compare_scores,
    paired_scores,
    read_qrels,
    read_run,
)

__all__ = ["CSV_COLUMNS", "compare_run_files", "comparison_csv"]

Path = str | os.PathLike[str]

#: The CSV download's header: one row per comparison, the means of both runs beside it.
CSV_COLUMNS = (
    "measure",
    "baseline",
    "run",
    "baseline_mean",
    "run_mean",
    "delta",
    "p",
    "p_adjusted",
    "significant",
    "ci_low",
    "ci_high",
    "effect_size",
    "wins",
    "losses",
    "ties",
)


def compare_run_files(
    qrels: Path,
    run_names: list[str],
    qrels_name: str = "qrels",
    measures: str | list[str] = "AP nDCG@10 RR P@10",
    complete: bool = False,
    level: int = 1,
    test: str = "t",
    alpha: float = 0.05,
    correction: str = "none",
    samples: int = 10_000,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    **runs: Path,
) -> dict[str, Any]:
    """Compare the runs ``run0``, ``run1``, ... (named ``run_names``; the first is the baseline).

    Returns ``{"ok": True, "result", "queries", "scores", "json", "csv"}``: ``result`` is
    :func:`rankcards.metrics.compare_runs`'s dict, ``json`` the text ``rankcards compare
    --format json`` prints (without its final newline), ``scores`` the per-query values of
    every run over ``queries`` (for the difference chart), ``csv`` the comparison as CSV. Or
    ``{"ok": False, "error": "one line"}``: a file's malformed line (``name:line: message``),
    fewer than two runs, a name given twice, an option out of range, an unknown measure or a
    counter, or no query in common.
    """
    names = measures.split() if isinstance(measures, str) else list(measures)
    paths = [runs.get(f"run{index}") for index in range(len(run_names))]
    problem = _problem(
        run_names,
        paths,
        sum(p is not None for p in runs.values()),
        names,
        test,
        correction,
        alpha,
        samples,
        level,
        seed,
    )
    if problem:
        return {"ok": False, "error": problem}
    files = [qrels, *(path for path in paths if path is not None)]
    sizes = [os.path.getsize(path) for path in files]
    total = sum(sizes)

    def reporter(before: int) -> Callable[[int], None] | None:
        if progress is None:
            return None
        return lambda done: progress(before + done, total)

    try:
        read: Qrels = read_qrels(qrels, qrels_name, on_read=reporter(0))
        parsed: dict[str, Run] = {}
        for index, (name, path) in enumerate(zip(run_names, paths, strict=True)):
            assert path is not None
            parsed[name] = read_run(path, name, on_read=reporter(sum(sizes[: index + 1])))
        paired = paired_scores(read, parsed, names, bool(complete), None, int(level))
        result = compare_scores(
            paired.scores,
            test,
            float(alpha),
            correction,
            int(samples),
            int(seed),  # type: ignore[arg-type]
        )
    except TrecFormatError as error:
        return {"ok": False, "error": str(error)}
    except MeasureError as error:
        return {"ok": False, "error": str(error)}
    except ValueError as error:  # a counter, no query in common, too few queries for t
        return {"ok": False, "error": str(error)}
    if progress is not None:
        progress(total, total)
    return {
        "ok": True,
        "result": result,
        "queries": list(paired.queries),
        "scores": paired.scores,
        "json": json.dumps(result, indent=2),
        "csv": comparison_csv(result),
    }


def _problem(
    run_names: list[str],
    paths: list[Path | None],
    given: int,
    measures: list[str],
    test: str,
    correction: str,
    alpha: float,
    samples: int,
    level: int,
    seed: int,
) -> str | None:
    """The first problem with the runs and options, before reading anything (as the CLI)."""
    from rankcards.metrics._compare import CORRECTIONS, TESTS

    if len(run_names) < 2:
        listed = f" ({', '.join(run_names)})" if run_names else ""
        return f"compare needs at least two runs, got {len(run_names)}{listed}"
    if None in paths or given != len(run_names):
        return f"{len(run_names)} run names for {given} run files"
    repeated = sorted({name for name in run_names if run_names.count(name) > 1})
    if repeated:
        return f"run {repeated[0]} is given twice; each run is named by its file name"
    if not measures:
        return "measures: give at least one measure name, e.g. AP nDCG@10"
    if test not in TESTS:
        return f"test must be one of {', '.join(TESTS)}, got {test!r}"
    if correction not in CORRECTIONS:
        return f"correction must be one of {', '.join(CORRECTIONS)}, got {correction!r}"
    if not isinstance(alpha, int | float) or not 0.0 < alpha < 1.0:
        return f"alpha must be a number between 0 and 1 (exclusive), got {alpha}"
    if not isinstance(samples, int) or samples < 1:
        return f"samples must be an integer >= 1, got {samples}"
    if not isinstance(level, int) or level < 0:
        return f"relevance level must be an integer >= 0, got {level}"
    if not isinstance(seed, int):
        return f"seed must be an integer, got {seed}"
    return None


def comparison_csv(result: Mapping[str, Any]) -> str:
    """The comparisons as CSV (``CSV_COLUMNS``), full-precision numbers (Python's ``repr``).

    >>> result = {"aggregate": {"a": {"AP": 0.5}, "b": {"AP": 0.75}}, "comparisons": [
    ...     {"baseline": "a", "run": "b", "measure": "AP", "delta": 0.25, "p": 0.5,
    ...      "p_adjusted": 1.0, "significant": False, "ci": [-0.1, 0.6], "effect_size": None,
    ...      "wins": 1, "losses": 0, "ties": 1}]}
    >>> print(comparison_csv(result))
    measure,baseline,run,baseline_mean,run_mean,delta,p,p_adjusted,significant,ci_low,ci_high,effect_size,wins,losses,ties
    AP,a,b,0.5,0.75,0.25,0.5,1.0,false,-0.1,0.6,,1,0,1
    """
    import csv
    import io

    aggregate = result["aggregate"]
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in result["comparisons"]:
        measure, baseline, run = row["measure"], row["baseline"], row["run"]
        low, high = row["ci"]
        effect = row["effect_size"]
        writer.writerow(
            [
                measure,
                baseline,
                run,
                repr(aggregate[baseline][measure]),
                repr(aggregate[run][measure]),
                repr(row["delta"]),
                repr(row["p"]),
                repr(row["p_adjusted"]),
                "true" if row["significant"] else "false",
                repr(low),
                repr(high),
                "" if effect is None else repr(effect),
                row["wins"],
                row["losses"],
                row["ties"],
            ]
        )
    return text.getvalue().rstrip("\n")
