"""Runs inside Pyodide: what the runners of this folder share (standard library only).

A runner's ``main`` returns :func:`summary` of its results; the runners that also run a module
of ``tests/metrics`` call its tests with :func:`run_tests` first (``pyodide_runner``, which
counts skips and runs several modules, with :func:`call_tests`).
"""

from __future__ import annotations

import importlib
import json
import sys
import traceback
import unittest
from types import ModuleType


def call_tests(module: ModuleType, skips: bool = False) -> list[tuple[str, str, str]]:
    """Call every ``test_*`` function of ``module`` in name order; return ``(name, outcome,
    detail)`` for each: ``"passed"``, ``"failed"`` (detail: the traceback) or, when ``skips``,
    ``"skipped"`` for a ``unittest.SkipTest`` (detail: its reason; else a skip is a failure)."""
    outcomes = []
    for attribute in sorted(vars(module)):
        test = getattr(module, attribute)
        if not attribute.startswith("test_") or not callable(test):
            continue
        try:
            test()
        except unittest.SkipTest as reason:
            if skips:
                outcomes.append((attribute, "skipped", str(reason)))
            else:
                outcomes.append((attribute, "failed", traceback.format_exc(limit=-2)))
        except Exception:  # a failing test of any kind is reported, not raised
            outcomes.append((attribute, "failed", traceback.format_exc(limit=-2)))
        else:
            outcomes.append((attribute, "passed", ""))
    return outcomes


def run_tests(tests_dir: str, name: str) -> tuple[int, list[str]]:
    """Call every ``test_*`` function of the module ``name`` of ``tests_dir``; return how many
    passed and a description of each failure."""
    sys.path.insert(0, tests_dir)
    outcomes = call_tests(importlib.import_module(name))
    passed = sum(outcome == "passed" for _, outcome, _ in outcomes)
    failures = [f"{test}: {detail}" for test, outcome, detail in outcomes if outcome == "failed"]
    return passed, failures


def summary(results: list[object], passed: int = 0, failures: list[str] | None = None) -> str:
    """The JSON summary a runner's ``main`` returns: where it ran (the platform and the
    package's file), the tests' outcome and the results of its cases."""
    import rankcards.metrics

    return json.dumps(
        {
            "python": sys.version.split()[0],
            "platform": sys.platform,
            "module": rankcards.metrics.__file__,
            "passed": passed,
            "failures": failures or [],
            "results": results,
        }
    )
