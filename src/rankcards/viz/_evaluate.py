"""The worker entry point of the "Evaluate your own run" page (``web/evaluate.js``).

Why a separate function instead of calling :func:`rankcards.metrics.evaluate` from JavaScript:
the page hands over raw file texts, and every failure — a malformed line, an unknown measure,
no query in common — must come back as data (one line naming the file and line) rather than as
a Python exception crossing the worker boundary. The result is plain JSON: the measures in the
order given and one row per query after the aggregate row, which is what the table, the CSV and
the JSON download are made from.

>>> qrels = "q1 0 a 1\\nq1 0 b 0\\nq2 0 x 1\\n"
>>> run = "q1 Q0 a 1 0.2 t\\nq1 Q0 b 2 0.9 t\\nq2 Q0 y 1 1.0 t\\n"
>>> evaluate_texts(qrels, run, measures="RR P@2")["rows"]
[{'qid': 'all', 'values': [0.25, 0.25]}, {'qid': 'q1', 'values': [0.5, 0.5]}, \
{'qid': 'q2', 'values': [0.0, 0.0]}]
>>> evaluate_texts("q1 0 a x\\n", run, "my.qrels")["error"].startswith("my.qrels:1: ")
True
"""

from __future__ import annotations

from typing import Any

from rankcards.metrics import MeasureError, TrecFormatError, evaluate, read_qrels, read_run

__all__ = ["DEFAULT_MEASURES", "evaluate_texts"]

DEFAULT_MEASURES = "RR P@5 P@10 R@100 AP Rprec nDCG@10 Success@10"


def _number(value: float | None, counter: bool) -> float | int | None:
    if value is None:
        return None
    return int(value) if counter else value


def evaluate_texts(
    qrels: str,
    run: str,
    qrels_name: str = "qrels",
    run_name: str = "run",
    measures: str | list[str] = DEFAULT_MEASURES,
    complete: bool = False,
    level: int = 1,
) -> dict[str, Any]:
    """Evaluate TREC texts: ``{"ok": True, "measures", "counters", "rows", "json"}`` or an error.

    ``measures`` is a list or a whitespace-separated string of names (ir_measures notation);
    ``complete`` and ``level`` are trec_eval's ``-c`` and ``-l``. The first row has qid
    ``"all"`` (the aggregate); per-query values are ``None`` where a measure has none
    (``num_q``); counters are integers and listed in ``counters`` (JSON cannot tell ``1`` from
    ``1.0``, and the page shows counters as integers, the rest with 4 decimals like trec_eval).
    Errors are ``{"ok": False, "error": "file:line: message"}``.
    """
    names = measures.split() if isinstance(measures, str) else list(measures)
    if not names:
        return {"ok": False, "error": "measures: give at least one measure name, e.g. RR P@10"}
    try:
        judged = read_qrels(qrels.splitlines(), qrels_name)
        ranked = read_run(run.splitlines(), run_name)
        result = evaluate(judged, ranked, names, complete=bool(complete), rel_level=int(level))
    except (TrecFormatError, MeasureError, ValueError) as error:
        return {"ok": False, "error": str(error)}
    specs = [(spec.name, spec.measure.is_counter) for spec in result.measures]
    rows = [
        {
            "qid": "all",
            "values": [_number(result.aggregate.get(n), c) for n, c in specs],
        }
    ]
    for qid, values in result.per_query.items():
        rows.append({"qid": qid, "values": [_number(values.get(n), c) for n, c in specs]})
    return {
        "ok": True,
        "measures": [name for name, _ in specs],
        "counters": [name for name, counter in specs if counter],
        "rows": rows,
        "json": result.to_json(),  # the download: what `rankcards eval --format json` prints
    }
