"""The evaluate page's worker entry point: trec_eval's reference numbers, errors as data that
name the files as the reader named them, progress, and the CLI's JSON."""

from __future__ import annotations

import gzip
import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from rankcards.cli import main
from rankcards.viz._evaluate import evaluate_run_files


def _files(folder: Path, qrels: str | bytes, run: str | bytes) -> tuple[Path, Path]:
    """Write the two files (as a worker mounts them: under names of its own)."""
    paths = folder / "mounted-qrels", folder / "mounted-run"
    for path, data in zip(paths, (qrels, run), strict=True):
        path.write_bytes(data.encode() if isinstance(data, str) else data)
    return paths


def test_reference_files_give_the_values_of_out_test(
    trec_eval_reference: Path, out_test_aggregates: dict[str, str]
) -> None:
    expected = out_test_aggregates
    assert {"AP", "RR", "P@5", "num_q"} <= set(expected)
    result = evaluate_run_files(
        trec_eval_reference / "qrels.test",
        trec_eval_reference / "results.test",
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


def test_per_query_rows_complete_and_level(tmp_path: Path) -> None:
    qrels, run = _files(
        tmp_path, "q1 0 a 2\nq1 0 b 1\nq2 0 x 1\n", "q1 Q0 b 1 0.9 t\nq1 Q0 a 2 0.5 t\n"
    )
    result = evaluate_run_files(qrels, run, measures="RR num_q", level=2)
    assert json.loads(result.pop("json")) == {
        "per_query": {"q1": {"RR": 0.5}},
        "aggregate": {"RR": 0.5, "num_q": 1},
    }
    assert result == {
        "ok": True,
        "measures": ["RR", "num_q"],
        "counters": ["num_q"],
        "rows": [{"qid": "all", "values": [0.5, 1]}, {"qid": "q1", "values": [0.5, None]}],
        "warnings": [],
    }
    complete = evaluate_run_files(qrels, run, measures=["RR"], complete=True)
    assert complete["rows"] == [
        {"qid": "all", "values": [0.5]},
        {"qid": "q1", "values": [1.0]},
        {"qid": "q2", "values": [0.0]},
    ]


def test_the_json_is_what_the_cli_prints_and_gzip_is_read_too(tmp_path: Path) -> None:
    lines = "".join(f"q{q} Q0 d{d} {d} {(d * 37) % 11} t\n" for q in range(5) for d in range(40))
    judged = "".join(f"q{q} 0 d{d} {(q + d) % 3}\n" for q in range(5) for d in range(0, 40, 3))
    qrels, run = _files(tmp_path, gzip.compress(judged.encode()), gzip.compress(lines.encode()))
    printed = io.StringIO()
    with redirect_stdout(printed):
        assert (
            main(["eval", "--format", "json", "-m", "AP", "-m", "nDCG@10", str(qrels), str(run)])
            == 0
        )
    result = evaluate_run_files(qrels, run, measures="AP nDCG@10")
    assert result["json"] + "\n" == printed.getvalue()


def test_progress_goes_up_to_both_files_bytes(tmp_path: Path) -> None:
    lines = "".join(f"q{q} Q0 d{d} {d} {(d * 37) % 11} t\n" for q in range(50) for d in range(500))
    qrels, run = _files(tmp_path, "q1 0 d1 1\n", lines)
    reports: list[tuple[int, int]] = []
    result = evaluate_run_files(qrels, run, measures="AP", progress=lambda *r: reports.append(r))
    total = qrels.stat().st_size + run.stat().st_size
    assert result["ok"] and reports[0][0] < total and reports[-1] == (total, total)


# mtime 0: the bytes, and so the test id, are the same in every xdist worker
BROKEN_GZIP = gzip.compress(b"q1 Q0 a 1 1 t\n" * 1000, mtime=0)[:-30]


@pytest.mark.parametrize(
    ("qrels", "run", "measures", "error"),
    [
        ("q1 0 a x\n", "q1 Q0 a 1 1 t\n", "RR", "my.qrels:1: relevance 'x' is not an integer"),
        ("q1 0 a 1\n", "q1 Q0 a 1 1 t\nq1 Q0 b\n", "RR", "my.run:2: expected 6 columns"),
        ("q1 0 a 1\n", "q1 Q0 a 1 1 t\n", "RR@x", "RR@x"),
        ("q1 0 a 1\n", "q1 Q0 a 1 1 t\n", "  ", "measures: give at least one measure name"),
        ("q1 0 a 1\n", "q9 Q0 a 1 1 t\n", "RR", "my.run: no query appears in both"),
        ("q1 0 a 1\n", BROKEN_GZIP, "RR", "my.run: truncated gzip file: "),
        (BROKEN_GZIP, "q1 Q0 a 1 1 t\n", "RR", "my.qrels: truncated gzip file: "),
        (
            "q1 0 a 1\n",
            b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x07garbage",
            "RR",
            "my.run: corrupt gzip file: invalid block type",
        ),
    ],
)
def test_errors_come_back_as_one_line_of_data_naming_the_file(
    tmp_path: Path, qrels: str | bytes, run: str | bytes, measures: str, error: str
) -> None:
    paths = _files(tmp_path, qrels, run)
    result = evaluate_run_files(*paths, "my.qrels", "my.run", measures)
    assert result["ok"] is False
    assert result["error"].startswith(error) if ":" in error else error in result["error"]
    assert "\n" not in result["error"] and "mounted" not in result["error"]


def test_a_diversity_measure_on_one_subtopic_per_query_warns_as_data(tmp_path: Path) -> None:
    qrels, run = _files(tmp_path, "q1 0 a 1\n", "q1 Q0 a 1 1 t\n")
    result = evaluate_run_files(qrels, run, "my.qrels", measures="alpha_nDCG@5 RR")
    assert result["warnings"] == [
        "all queries of my.qrels have only 1 subtopic: the diversity measures (alpha_nDCG@5) "
        "are probably not valid; a diversity qrels has the subtopic in its second column "
        "('qid subtopic docno rel')"
    ]
    assert result["rows"][0] == {"qid": "all", "values": [1.0, 1.0]}
    subtopics, _ = _files(tmp_path, "q1 1 a 1\nq1 2 b 1\n", "q1 Q0 a 1 1 t\n")
    assert evaluate_run_files(subtopics, run, measures="StRecall@5")["warnings"] == []
