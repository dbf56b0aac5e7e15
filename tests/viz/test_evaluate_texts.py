"""The evaluate page's worker entry point: trec_eval's reference numbers, errors as data."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from rankcards.viz._evaluate import evaluate_texts


def test_reference_files_give_the_values_of_out_test(
    trec_eval_reference: Path, out_test_aggregates: dict[str, str]
) -> None:
    expected = out_test_aggregates
    assert {"AP", "RR", "P@5", "num_q"} <= set(expected)
    result = evaluate_texts(
        (trec_eval_reference / "qrels.test").read_text(encoding="utf-8"),
        (trec_eval_reference / "results.test").read_text(encoding="utf-8"),
        measures=list(expected),
    )
    assert result["ok"], result
    aggregate = dict(zip(result["measures"], result["rows"][0]["values"], strict=True))
    shown = {
        name: str(value) if isinstance(value, int) else f"{value:.4f}"
        for name, value in aggregate.items()
    }
    assert shown == expected
    assert [row["qid"] for row in result["rows"]] == ["all", "301", "302", "303"]


def test_per_query_rows_complete_and_level() -> None:
    qrels = "q1 0 a 2\nq1 0 b 1\nq2 0 x 1\n"
    run = "q1 Q0 b 1 0.9 t\nq1 Q0 a 2 0.5 t\n"
    result = evaluate_texts(qrels, run, measures="RR num_q", level=2)
    assert json.loads(result.pop("json")) == {
        "per_query": {"q1": {"RR": 0.5}},
        "aggregate": {"RR": 0.5, "num_q": 1},
    }
    assert result == {
        "ok": True,
        "measures": ["RR", "num_q"],
        "counters": ["num_q"],
        "rows": [{"qid": "all", "values": [0.5, 1]}, {"qid": "q1", "values": [0.5, None]}],
    }
    complete = evaluate_texts(qrels, run, measures=["RR"], complete=True)
    assert complete["rows"] == [
        {"qid": "all", "values": [0.5]},
        {"qid": "q1", "values": [1.0]},
        {"qid": "q2", "values": [0.0]},
    ]


@pytest.mark.parametrize(
    ("qrels", "run", "measures", "error"),
    [
        ("q1 0 a x\n", "q1 Q0 a 1 1 t\n", "RR", "my.qrels:1: "),
        ("q1 0 a 1\n", "q1 Q0 a 1 1 t\nq1 Q0 b\n", "RR", "my.run:2: "),
        ("q1 0 a 1\n", "q1 Q0 a 1 1 t\n", "RR@x", "RR@x"),
        ("q1 0 a 1\n", "q1 Q0 a 1 1 t\n", "  ", "measures: give at least one measure name"),
        ("q1 0 a 1\n", "q9 Q0 a 1 1 t\n", "RR", "no query appears in both"),
    ],
)
def test_errors_come_back_as_one_line_of_data(
    qrels: str, run: str, measures: str, error: str
) -> None:
    result = evaluate_texts(qrels, run, "my.qrels", "my.run", measures)
    assert result["ok"] is False
    assert error in result["error"]
    assert "\n" not in result["error"]


def test_gzip_magic_is_the_page_s_job_text_only_here() -> None:
    # The page inflates .gz before calling; compressed bytes decoded as text are a format error.
    garbage = gzip.compress(b"q1 0 a 1\n").decode("latin-1")
    assert evaluate_texts(garbage, "q1 Q0 a 1 1 t\n")["ok"] is False
