"""Check a reader's answer to a card's exercise against the reference, case by case.

One checker for both sides: `rankcards check` runs it at build time in CPython (the card's
solution must pass, its starter must fail) and the page runs it in the Pyodide worker when the
reader presses Check, through ``runtime.run`` (so the examples' time limit and Stop apply). It
is standard library only, like :mod:`rankcards.runner`.

A *spec* is the card's ``exercise`` block as JSON (``function``, ``reference``, ``cases``,
``random``); see ``card.schema.json``. The cases are, in order, the named edge cases and then
``random.count`` random rankings drawn from ``random.Random(random.seed)`` (so every run, here or
in a browser, draws the same ones). Each case calls the reader's function and the reference on
fresh copies of the same arguments; a float result matches within :data:`TOLERANCE`. The first
case that does not match stops the check and is reported with its input, the expected value and
the reader's value, or the exception with a traceback trimmed to the reader's code.

>>> spec = {"function": "double", "reference": "rankcards.exercises:_double",
...         "cases": [{"name": {"es": "cero", "en": "zero"}, "args": [0]}]}
>>> check("def double(x):\\n    return x + x", spec)["state"]
'pass'
>>> result = check("def double(x):\\n    return x * 3", {**spec, "cases": [{"args": [1]}]})
>>> result["state"], result["failure"]["expected"], result["failure"]["got"]
('fail', '2', '3')
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import io
import json
import linecache
import math
import random
import traceback
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from rankcards.runner import display

FILENAME = "<exercise>"
TOLERANCE = 1e-9
MARKER = "@@rankcards-exercise@@ "  # the line of page_check's output the page reads
_MAX_OUTPUT = 2000  # characters of the reader's prints kept with a failure
_MAX_POOL = 12  # random cases rank documents d1..d12
_MAX_RELEVANT = 5
_MAX_GRADE = 3

Case = dict[str, Any]


class SpecError(Exception):
    """The card's own reference raised on one of its cases: ``field`` is where (for `check`)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def _double(x: float) -> float:
    """The doctest's reference."""
    return x + x


def reference_function(target: str) -> Callable[..., Any]:
    """The reference named ``"rankcards.<module>:<function>"``."""
    module_name, _, name = target.partition(":")
    if not module_name.startswith("rankcards") or not name:
        raise ValueError(f"reference must be 'rankcards.<module>:<function>', got {target!r}")
    function: Callable[..., Any] = getattr(importlib.import_module(module_name), name)
    return function


def random_cases(spec: Mapping[str, Any]) -> Iterator[Case]:
    """The seeded random cases of ``spec`` (``kind``, ``count``, ``seed``, optional ``k``).

    ``binary``: ``(ranking, relevant)``, relevant documents a list that may hold documents the
    ranking missed. ``graded``: ``(ranking, gains)``, gains 0 to 3 for some judged documents.
    With ``k`` (a list of cutoffs), each case also passes ``k=`` one of them.

    >>> case = next(random_cases({"kind": "binary", "count": 1, "seed": 1, "k": [3]}))
    >>> sorted(case), case["kwargs"]
    (['args', 'kwargs', 'random'], {'k': 3})
    """
    rng = random.Random(spec["seed"])
    for number in range(1, spec["count"] + 1):
        docs = [f"d{i}" for i in range(1, rng.randint(1, _MAX_POOL) + 1)]
        ranking = rng.sample(docs, rng.randint(0, len(docs)))
        judged: Any
        if spec["kind"] == "graded":
            chosen = rng.sample(docs, rng.randint(0, len(docs)))
            judged = {doc: rng.randint(0, _MAX_GRADE) for doc in sorted(chosen)}
        else:
            judged = sorted(rng.sample(docs, rng.randint(0, min(len(docs), _MAX_RELEVANT))))
        kwargs = {"k": rng.choice(spec["k"])} if spec.get("k") else {}
        yield {"args": [ranking, judged], "kwargs": kwargs, "random": number}


def all_cases(spec: Mapping[str, Any]) -> Iterator[Case]:
    """The named cases, then the random ones."""
    for index, case in enumerate(spec.get("cases", [])):
        yield {**case, "index": index}
    if spec.get("random"):
        yield from random_cases(spec["random"])


def case_count(spec: Mapping[str, Any]) -> int:
    return len(spec.get("cases", [])) + (spec["random"]["count"] if spec.get("random") else 0)


def call_text(function: str, case: Case) -> str:
    """The call as the reader would type it: ``hit_at_k(['d1'], ['d1'], k=1)``."""
    parts = [repr(arg) for arg in case["args"]]
    parts += [f"{key}={value!r}" for key, value in case.get("kwargs", {}).items()]
    return f"{function}({', '.join(parts)})"


def _trimmed(error: BaseException) -> str:
    """The traceback from the first frame of the reader's code on (the checker's are noise)."""
    frames = traceback.extract_tb(error.__traceback__)
    first = next((i for i, frame in enumerate(frames) if frame.filename == FILENAME), len(frames))
    kept = traceback.StackSummary.from_list(frames[first:])
    lines = ["Traceback (most recent call last):\n", *kept.format()] if kept else []
    lines += traceback.format_exception_only(type(error), error)
    return "".join(lines)


def _matches(got: Any, expected: Any) -> bool:
    if isinstance(expected, float) and not isinstance(expected, bool):
        if isinstance(got, bool) or not isinstance(got, int | float):
            return False
        return math.isclose(got, expected, rel_tol=TOLERANCE, abs_tol=TOLERANCE)
    return bool(got == expected)


def _public(case: Case) -> dict[str, Any]:
    """What the page shows of a case: its name or random number, and its input."""
    return {
        "index": case.get("index"),
        "random": case.get("random"),
        "name": case.get("name"),
        "args": case["args"],
        "kwargs": case.get("kwargs", {}),
    }


def _load(source: str, function: str) -> tuple[Callable[..., Any] | None, str | None, str]:
    """Run the reader's source; their function, or the error (trimmed), and what it printed."""
    linecache.cache[FILENAME] = (len(source), None, source.splitlines(keepends=True), FILENAME)
    # display() as in an example: a figure the reader's code shows goes under the result.
    namespace: dict[str, Any] = {"__name__": "__exercise__", "display": display}
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            exec(compile(source, FILENAME, "exec"), namespace)
    except KeyboardInterrupt:
        raise  # Stop: the page's runtime reports it
    except BaseException as error:  # the reader's code may raise anything, SystemExit included
        return None, _trimmed(error), printed.getvalue()
    found = namespace.get(function)
    if not callable(found):
        return None, f"NameError: define a function named {function!r}\n", printed.getvalue()
    return found, None, printed.getvalue()


def check(source: str, spec: Mapping[str, Any]) -> dict[str, Any]:
    """Run the reader's ``source`` against every case of ``spec``; stop at the first failure.

    Returns ``{"state", "passed", "total", "failure"}``: ``state`` is ``"pass"``, ``"fail"`` (a
    wrong value) or ``"error"`` (the code does not run, lacks the function or raised);
    ``failure`` is ``None`` or ``{"case", "call", "expected", "got", "error", "output"}``, values
    as ``repr`` text, ``case`` ``None`` when the code failed before any case.
    """
    name = spec["function"]
    total = case_count(spec)
    function, error, printed = _load(source, name)
    if function is None:
        failure = {"case": None, "call": None, "expected": None, "got": None, "error": error}
        return {
            "state": "error",
            "passed": 0,
            "total": total,
            "failure": {**failure, "output": printed[:_MAX_OUTPUT]},
        }
    reference = reference_function(spec["reference"])
    for passed, case in enumerate(all_cases(spec)):
        kwargs = case.get("kwargs", {})
        try:
            expected = reference(*copy.deepcopy(case["args"]), **copy.deepcopy(kwargs))
        except Exception as rejected:
            field = f"cases[{case['index']}]" if case.get("index") is not None else "random"
            raised = f"{type(rejected).__name__}: {rejected}"
            message = f"the reference raised {raised} on {call_text(name, case)}"
            raise SpecError(field, message) from rejected
        printed_io = io.StringIO()
        got: Any = None
        error = None
        try:
            with contextlib.redirect_stdout(printed_io), contextlib.redirect_stderr(printed_io):
                got = function(*copy.deepcopy(case["args"]), **copy.deepcopy(kwargs))
        except KeyboardInterrupt:
            raise
        except BaseException as exception:  # anything the reader's code raises is a result
            error = _trimmed(exception)
        if error is None and _matches(got, expected):
            continue
        return {
            "state": "error" if error else "fail",
            "passed": passed,
            "total": total,
            "failure": {
                "case": _public(case),
                "call": call_text(name, case),
                "expected": repr(expected),
                "got": None if error else repr(got),
                "error": error,
                "output": printed_io.getvalue()[:_MAX_OUTPUT],
            },
        }
    return {"state": "pass", "passed": total, "total": total, "failure": None}


def describe(result: Mapping[str, Any]) -> str:
    """One English line for `rankcards check`: which case failed and how."""
    failure = result["failure"]
    if failure is None:
        return f"passes all {result['total']} cases"
    case = failure["case"]
    if case is None:
        return f"does not run: {failure['error'].strip().splitlines()[-1]}"
    label = f"case '{case['name']['en']}'" if case.get("name") else f"random case {case['random']}"
    if failure["error"]:
        return f"{label}: {failure['call']} raised {failure['error'].strip().splitlines()[-1]}"
    return f"{label}: {failure['call']} returned {failure['got']}, expected {failure['expected']}"


def page_check(source: str, spec_json: str) -> None:
    """The page's entry point: prints the result as one JSON line after :data:`MARKER`."""
    print(MARKER + json.dumps(check(source, json.loads(spec_json))))
