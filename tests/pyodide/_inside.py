"""Runs inside Pyodide: what the runners of this folder share (standard library only).

A runner's ``main`` returns :func:`summary` of its results; the runners that also run a module
of ``tests/metrics`` call its tests with :func:`run_tests` first.
"""

from __future__ import annotations

import importlib
import json
import sys
import traceback


def run_tests(tests_dir: str, name: str) -> tuple[int, list[str]]:
    """Call every ``test_*`` function of the module ``name`` of ``tests_dir``; return how many
    passed and a description of each failure."""
    sys.path.insert(0, tests_dir)
    module = importlib.import_module(name)
    passed, failures = 0, []
    for attribute in sorted(vars(module)):
        test = getattr(module, attribute)
        if not attribute.startswith("test_") or not callable(test):
            continue
        try:
            test()
        except Exception:  # a failing test of any kind is reported, not raised
            failures.append(f"{attribute}: {traceback.format_exc(limit=-2)}")
        else:
            passed += 1
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
