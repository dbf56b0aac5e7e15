"""Shared pytest fixtures, kept small and generic (parts add their own with care).

What a test needs and may not find (Chromium, Node, pytrec_eval, reference data) goes through
``ci_gate.skip_or_fail``: skipped locally, a failure under CI (any true ``CI`` value).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ci_gate import require_node, skip_or_fail
from repo_paths import DATA, ROOT

# ranx, a reference the fusion and bpref tests compare with, is numba-compiled on first call:
# about 45 s per pytest worker on a fresh clone (its on-disk cache lives in the new venv), for
# queries of a few documents. Its functions then run as the Python they are written in, the
# same source and float64 arithmetic. Read when numba is first imported, so it is set here.
os.environ.setdefault("NUMBA_DISABLE_JIT", "1")

TREC_EVAL_DATA = DATA / "trec_eval"

# pytest-rerunfailures names a test it ran again but not why its first attempt failed: a
# flaky failure then leaves no trace. The summary adds that reason (the controller gets every
# worker's reports under xdist).
_first_failures: list[tuple[str, list[str]]] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.outcome == "rerun":
        lines = report.longreprtext.splitlines()
        said = [line for line in lines if line.startswith("E ")][:20]
        _first_failures.append((report.nodeid, [*said, *lines[-1:]]))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _first_failures:
        terminalreporter.section("why each rerun test failed the first time")
        for nodeid, lines in _first_failures:
            terminalreporter.write_line(nodeid)
            for line in lines:
                terminalreporter.write_line(f"    {line}")


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository checkout the tests run from."""
    return ROOT


@pytest.fixture(scope="session")
def trec_eval_reference() -> Path:
    """trec_eval's reference data: tests/data/trec_eval (env RANKCARDS_TREC_EVAL_REF for another
    copy). Missing, it skips locally and fails under CI (see ``ci_gate``)."""
    configured = os.environ.get("RANKCARDS_TREC_EVAL_REF")
    folder = Path(configured) if configured else TREC_EVAL_DATA
    if not (folder / "out.test").is_file():
        skip_or_fail(f"trec_eval reference data not found in {folder}")
    return folder


@pytest.fixture(scope="session")
def node() -> str:
    """The ``node`` binary, or skip (fail under CI)."""
    return require_node()


@pytest.fixture(scope="session")
def out_test_aggregates(trec_eval_reference: Path) -> dict[str, str]:
    """Our measure name -> the ``all`` value trec_eval prints in out.test, for every measure
    we implement (trec_eval names mapped by the metrics module itself)."""
    from rankcards.metrics._parse import spec_for_trec_eval

    expected = {}
    for line in (trec_eval_reference / "out.test").read_text(encoding="utf-8").splitlines():
        name, qid, value = line.split()
        spec = spec_for_trec_eval(name)
        if qid == "all" and spec is not None:
            expected[spec.name] = value
    return expected


def _mrr_demo_values(state: dict[str, Any]) -> dict[str, float]:
    """What the MRR card's lab must show for ``state``, computed by rankcards.metrics: RR@k per
    query (``value:<qid>``) and their mean, MRR@k (``mean``), each ranking cut at ``state["k"]``
    (every listed query is judged: the lab judges its listed documents)."""
    from rankcards.metrics import mean_reciprocal_rank, reciprocal_rank

    k = state["k"]
    rankings = [item["ranking"][:k] for item in state["queries"]]
    relevant = [set(item["relevant"]) for item in state["queries"]]
    values = {
        f"value:{item['query']}": reciprocal_rank(ranking, rel)
        for item, ranking, rel in zip(state["queries"], rankings, relevant, strict=True)
    }
    values["mean"] = mean_reciprocal_rank(rankings, relevant)
    return values


@pytest.fixture(scope="session")
def mrr_demo_values() -> Callable[[dict[str, Any]], dict[str, float]]:
    """The module's numbers for the MRR card's demo state (shared by the browser tests)."""
    return _mrr_demo_values
