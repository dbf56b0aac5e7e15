"""Subprocess side of :mod:`rankcards.cards._execute`: runs card code away from the build.

Writes ``{"ready": true}`` once started (a job's time limit counts from there), then reads one
JSON job per line on stdin and answers each with one JSON line, until stdin closes. Both go
through private copies of the file descriptors: card code sees an empty stdin, and its stdout
is pointed at stderr, so it can neither eat the next job nor corrupt the protocol. Jobs:

* ``{"kind": "example", "source": str, "claims": [str]}`` -> ``{"output": str, "error": str |
  null, "figures": [str | null], "tables": [str | null], "seconds": float, "claims": [{"repr":
  str} | {"error": str}]}``, captured by :func:`rankcards.runner.run_example` in a fresh
  namespace (the rule the page uses too), timed; each figure sanitized by
  :func:`rankcards.web.svg.sanitize_svg`, each table by
  :func:`rankcards.web.table.sanitize_table` (null when rejected); then each claim's Python
  (:mod:`rankcards.cards._numbers`) run in order in one copy of the example's namespace, its
  value's ``repr`` answered (``claims`` is optional, answered only when given, and empty after
  an example that raised);
* ``{"kind": "demo", "demo": {...}}`` -> ``{"problems": [str], "views": {lang: html}}`` via
  :func:`rankcards.viz.validate` and :func:`rankcards.viz.render`;
* ``{"kind": "exercise", "source": str, "spec": {...}}`` -> :func:`rankcards.exercises.check`'s
  result plus ``"message"`` (:func:`rankcards.exercises.describe`), or ``{"spec_error": str,
  "field": str}`` when the card's own reference or cases are broken.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import numbers
import os
import sys
import time
from typing import Any

from rankcards.runner import run_example
from rankcards.web.svg import sanitize_svg
from rankcards.web.table import sanitize_table

_LANGS = ("es", "en")
_CLAIM = "<claim>"


def _claim(expr: str, namespace: dict[str, Any]) -> dict[str, Any]:
    """A claim's value (``{"repr": ...}``), or one line saying why there is none."""
    try:
        tree = ast.parse(expr, _CLAIM, "exec")
        if not tree.body or not isinstance(tree.body[-1], ast.Expr):
            return {"error": "its last line must be an expression: the value it claims"}
        last = ast.Expression(tree.body.pop().value)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            exec(compile(tree, _CLAIM, "exec"), namespace)
            value = eval(compile(last, _CLAIM, "eval"), namespace)
    except SyntaxError as error:
        return {"error": f"invalid Python: {error.msg}"}
    except ModuleNotFoundError as error:  # a claim about another tool computes with that tool
        return {"error": f"needs {error.name}, which is not installed: pip install -e '.[dev]'"}
    except Exception as error:  # the claim's own mistake, stated in one line
        return {"error": f"raised {type(error).__name__}: {error}"}
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return {"error": f"gives {type(value).__name__} {value!r:.60}, not a number"}
    return {"repr": repr(value if isinstance(value, int) else float(value))}


def _example(source: str, claims: list[str] | None = None) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "__main__"}
    start = time.perf_counter()
    result = run_example(source, namespace=namespace)
    seconds = time.perf_counter() - start
    figures = [sanitize_svg(svg) for svg in result.figures]
    tables = [sanitize_table(html) for html in result.tables]
    answer = {"output": result.output, "error": result.error, "figures": figures, "tables": tables}
    if claims is not None:
        answer["seconds"] = seconds  # the job's limit covers the claims: the example's is here
        # Claims run in order, like a notebook's cells after the example's (one may define a
        # helper the next ones use), in a copy: the example's own names stay as it left them.
        shared = dict(namespace)
        answer["claims"] = [_claim(expr, shared) for expr in claims] if result.error is None else []
    return answer


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
        return _example(job["source"], job.get("claims"))
    if job["kind"] == "exercise":
        return _exercise(job["source"], job["spec"])
    return _demo(job["demo"])


def main() -> None:
    jobs = os.fdopen(os.dup(0), "r", encoding="utf-8")
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    with open(os.devnull, "rb") as nothing:
        os.dup2(nothing.fileno(), 0)
    sys.stdin = io.StringIO()
    os.dup2(2, 1)
    answers.write(json.dumps({"ready": True}) + "\n")
    answers.flush()
    for line in jobs:
        answer = _answer(json.loads(line))
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
