"""Subprocess side of :mod:`rankcards.cards._execute`: runs card code away from the build.

Reads ``{"jobs": [...]}`` as JSON on stdin, writes ``{"ready": true}`` once started (each job's
time limit counts from there), then answers one JSON line per job, in order, on a private copy of
stdout (the real stdout is pointed at stderr, so card code writing to file descriptor 1 cannot
corrupt the protocol). Jobs:

* ``{"kind": "example", "source": str}`` -> ``{"output": str, "error": str | null, "figures":
  [str | null], "tables": [str | null]}``, captured by :func:`rankcards.runner.run_example` in a
  fresh namespace (the rule the page uses too); each figure sanitized by
  :func:`rankcards.web.svg.sanitize_svg`, each table by
  :func:`rankcards.web.table.sanitize_table` (null when rejected);
* ``{"kind": "demo", "demo": {...}}`` -> ``{"problems": [str], "views": {lang: html}}`` via
  :func:`rankcards.viz.validate` and :func:`rankcards.viz.render`;
* ``{"kind": "exercise", "source": str, "spec": {...}}`` -> :func:`rankcards.exercises.check`'s
  result plus ``"message"`` (:func:`rankcards.exercises.describe`), or ``{"spec_error": str,
  "field": str}`` when the card's own reference or cases are broken.
"""

from __future__ import annotations

import io
import json
import os
import sys
from typing import Any

from rankcards.runner import run_example
from rankcards.web.svg import sanitize_svg
from rankcards.web.table import sanitize_table

_LANGS = ("es", "en")


def _example(source: str) -> dict[str, Any]:
    result = run_example(source)
    figures = [sanitize_svg(svg) for svg in result.figures]
    tables = [sanitize_table(html) for html in result.tables]
    return {"output": result.output, "error": result.error, "figures": figures, "tables": tables}


def _demo(demo: dict[str, Any]) -> dict[str, Any]:
    try:
        from rankcards import viz
    except Exception as error:  # a broken viz package is the card's problem, stated in one line
        return {"problems": [f"demo.compute: cannot import rankcards.viz: {error!r}"], "views": {}}
    problems = viz.validate(demo)
    if problems:
        return {"problems": problems, "views": {}}
    try:
        return {"problems": [], "views": {lang: viz.render(demo, lang) for lang in _LANGS}}
    except viz.DemoError as error:
        return {"problems": [str(error)], "views": {}}


def _exercise(source: str, spec: dict[str, Any]) -> dict[str, Any]:
    from rankcards import exercises

    try:
        result = exercises.check(source, spec)
    except exercises.SpecError as error:  # the reference raised on one of the card's cases
        return {"spec_error": str(error), "field": error.field}
    except Exception as error:  # the reference cannot be imported
        return {"spec_error": f"{type(error).__name__}: {error}", "field": "reference"}
    return {**result, "message": exercises.describe(result)}


def _answer(job: dict[str, Any]) -> dict[str, Any]:
    if job["kind"] == "example":
        return _example(job["source"])
    if job["kind"] == "exercise":
        return _exercise(job["source"], job["spec"])
    return _demo(job["demo"])


def main() -> None:
    jobs = json.loads(sys.stdin.read())["jobs"]
    sys.stdin = io.StringIO()
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    answers.write(json.dumps({"ready": True}) + "\n")
    answers.flush()
    for job in jobs:
        answer = _answer(job)
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
