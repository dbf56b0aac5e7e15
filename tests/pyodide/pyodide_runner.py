"""Runs inside Pyodide: the metrics doctests and the pytest-free metrics test modules.

Kept free of pytest so the browser's interpreter checks the very code the suite checks:
each ``test_*`` function of the listed modules is called directly (``unittest.SkipTest``
counts as a skip), and every module of ``rankcards.metrics`` goes through ``doctest``.
"""

from __future__ import annotations

import doctest
import importlib
import json
import os
import pkgutil
import sys

from _inside import call_tests

# Modules of tests/metrics that need nothing beyond the standard library.
MODULES = (
    "test_metrics_measures",
    "test_metrics_parse",
    "test_metrics_readers",
    "test_metrics_teaching",
    "test_metrics_conformance",
    "test_metrics_new_measures",
    "test_agreement_exact",
    "test_metrics_dcg_fbeta",
)


def main(tests_dir: str, reference_dir: str) -> str:
    """Run everything; return a JSON summary with counts and failure descriptions."""
    if reference_dir:
        os.environ["RANKCARDS_TREC_EVAL_REF"] = reference_dir
    else:
        os.environ["RANKCARDS_TREC_EVAL_REF"] = "/nonexistent"
    import rankcards.metrics

    summary: dict[str, object] = {
        "python": sys.version.split()[0],
        "platform": sys.platform,
        "module": rankcards.metrics.__file__,
    }
    failures: list[str] = []
    summary["doctests"] = _doctests(rankcards.metrics, failures)
    sys.path.insert(0, tests_dir)
    passed = skipped = 0
    ran: list[str] = []  # the tests that passed, by name
    for name in MODULES:
        for attribute, outcome, detail in call_tests(importlib.import_module(name), skips=True):
            if outcome == "skipped":
                skipped += 1
                summary.setdefault("skip_reasons", []).append(f"{name}.{attribute}: {detail}")  # type: ignore[union-attr]
            elif outcome == "failed":
                failures.append(f"{name}.{attribute}: {detail}")
            else:
                passed += 1
                ran.append(f"{name}.{attribute}")
    summary.update(passed=passed, skipped=skipped, failures=failures, ran=ran)
    return json.dumps(summary)


def _doctests(package: object, failures: list[str]) -> int:
    """Run the doctests of every module in the package; return how many examples ran."""
    attempted = 0
    names = [package.__name__] + [  # type: ignore[attr-defined]
        info.name
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")  # type: ignore[attr-defined]
    ]
    for name in names:
        module = importlib.import_module(name)
        result = doctest.testmod(module, verbose=False, report=False)
        attempted += result.attempted
        if result.failed:
            failures.append(f"doctest {name}: {result.failed} of {result.attempted} failed")
    return attempted
