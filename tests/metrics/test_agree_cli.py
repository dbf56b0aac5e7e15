"""`rankcards agree`: JSON and text end to end on TREC files, the reference packages on random
pairs of qrels files, and every error path (one line, exit 1 for data, 2 for usage)."""

from __future__ import annotations

import io
import json
import math
import random
import warnings
from functools import partial
from pathlib import Path

import pytest
from metrics_support import run_cli, run_json

from ci_gate import require_module
from rankcards.cli import main

# Counted by hand: A judges 6 pairs (q2 d6 is -1: not a judgment), B 7; both judge q1 d1-d4 and
# q2 d1. A's grades there 2 0 1 0 3, B's 2 1 1 0 2.
QRELS_A = "q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 1\nq1 0 d4 0\nq2 0 d1 3\nq2 0 d5 1\nq2 0 d6 -1\n"
QRELS_B = "q1 0 d1 2\nq1 0 d2 1\nq1 0 d3 1\nq1 0 d4 0\nq2 0 d1 2\nq2 0 d6 0\nq3 0 x 1\n"
RUNS = {
    # P@2 under A: q1 (d1, d3 relevant) 1, q2 (d1) 1/2; under B: q1 1, q2 1/2 -> 0.75, 0.75
    "top.run": "q1 Q0 d1 1 3 r\nq1 Q0 d3 2 2 r\nq2 Q0 d1 1 1 r\n",
    # under A: q1 (d2 0, d1 2) 1/2, q2 (d5) 1/2 -> 0.5; under B: q1 1 (d2 1, d1 2), q2 0 -> 0.5
    "mid.run": "q1 Q0 d2 1 3 r\nq1 Q0 d1 2 2 r\nq2 Q0 d5 1 1 r\n",
    # under A: q1 0, q2 0 (d6 is not judged) -> 0; under B: q1 0, q2 0 (d6 is 0) -> 0
    "low.run": "q1 Q0 d4 1 3 r\nq2 Q0 d6 1 1 r\n",
}


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    texts = {"a.qrels": QRELS_A, "b.qrels": QRELS_B, **RUNS}
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return {name: str(tmp_path / name) for name in texts}


_run = partial(run_cli, command="agree")  # (capsys, *argv) -> (status, out, err)
_json = partial(run_json, command="agree")  # (capsys, *argv) -> the JSON it printed


def test_json_counts_pairs_and_tabulates_grades(files: dict[str, str], capsys) -> None:
    result = _json(capsys, files["a.qrels"], files["b.qrels"])
    assert list(result) == [
        "documents",
        "only_a",
        "only_b",
        "grades",
        "confusion",
        "cohen_kappa",
        "cohen_kappa_linear",
        "cohen_kappa_quadratic",
        "krippendorff_alpha",
        "systems",
    ]
    assert (result["documents"], result["only_a"], result["only_b"]) == (5, 1, 2)
    assert result["grades"] == [0, 1, 2, 3]
    # rows A 0..3, columns B 0..3: (0,1) (0,0) | (1,1) | (2,2) | (3,2)
    assert result["confusion"] == [[1, 1, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 1, 0]]
    # p_o = 3/5; rows 2 1 1 1, columns 1 2 2 0: p_e = (2 + 2 + 2 + 0) / 25;
    # κ = (3/5 - 6/25) / (1 - 6/25) = 9/19
    assert result["cohen_kappa"] == pytest.approx(9 / 19, abs=1e-12)
    assert set(result["krippendorff_alpha"]) == {"nominal", "ordinal", "interval"}
    assert result["systems"] is None


def test_systems_with_runs_and_a_measure(files: dict[str, str], capsys) -> None:
    runs = [files["top.run"], files["mid.run"], files["low.run"]]
    result = _json(capsys, files["a.qrels"], files["b.qrels"], "--runs", *runs, "-m", "P@2")
    systems = result["systems"]
    assert systems["measure"] == "P@2"
    assert systems["scores"] == {runs[0]: [0.75, 0.75], runs[1]: [0.5, 0.5], runs[2]: [0.0, 0.0]}
    assert systems["kendall_tau"] == pytest.approx(1.0, abs=1e-15)
    assert systems["tau_ap"] == 1.0
    default = _json(capsys, files["a.qrels"], files["b.qrels"], "--runs", *runs)
    assert default["systems"]["measure"] == "nDCG@10"


def test_text_shows_the_confusion_table_with_grade_headers(files: dict[str, str], capsys) -> None:
    runs = [files["top.run"], files["mid.run"]]
    status, out, err = _run(capsys, files["a.qrels"], files["b.qrels"], "--runs", *runs)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"A: {files['a.qrels']}" and lines[1] == f"B: {files['b.qrels']}"
    assert "pairs judged in both: 5 (only in A: 1, only in B: 2;" in lines[2]
    header = lines.index("confusion: A's grade in rows, B's in columns")
    assert lines[header + 1].split() == ["A", "\\", "B", "0", "1", "2", "3"]
    assert lines[header + 2].split() == ["0", "1", "1", "0", "0"]
    assert lines[header + 5].split() == ["3", "0", "0", "1", "0"]
    assert f"Cohen's kappa {9 / 19:.4f}" in " ".join(out.split())
    assert "systems: mean nDCG@10 under A and under B" in out
    assert "tau_AP (A's ordering as the reference)" in out


def test_undefined_coefficients_read_undefined_and_null(tmp_path: Path, capsys) -> None:
    same = tmp_path / "same.qrels"
    same.write_text("q1 0 d1 1\nq1 0 d2 1\n", encoding="utf-8")
    status, out, _ = _run(capsys, str(same), str(same))
    assert status == 0
    assert "Cohen's kappa undefined" in " ".join(out.split())
    assert _json(capsys, str(same), str(same))["cohen_kappa"] is None


def test_help_says_which_pairs_and_queries(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["agree", "--help"])
    assert exit_info.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "usage: rankcards agree QRELS_A QRELS_B [--runs RUN RUN ...] [-m MEASURE]" in text
    assert "a negative label is not a judgment" in text
    assert "over the queries in both the run and that qrels" in text
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "agree" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--runs", "top.run"], "--runs needs at least two runs to order, got 1"),
        (["--runs", "top.run", "top.run"], "run top.run is given twice"),
        (["-m", "AP"], "-m/--measure orders the runs: give them with --runs"),
        (["--runs", "top.run", "mid.run", "-m", "nDGC@10"], "unknown measure"),
        (["--runs", "top.run", "mid.run", "-m", "num_rel"], "num_rel is a counter"),
        (["--format", "csv"], "--format must be one of text, json, got 'csv'"),
    ],
)
def test_usage_errors_exit_2_with_one_line(
    files: dict[str, str], capsys, monkeypatch, extra: list[str], message: str
) -> None:
    monkeypatch.chdir(Path(files["top.run"]).parent)
    status, out, err = _run(capsys, "a.qrels", "b.qrels", *extra)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("rankcards agree: ")
    assert message in err


def test_data_errors_exit_1_naming_the_file_or_the_reason(
    files: dict[str, str], tmp_path: Path, capsys
) -> None:
    cases = {
        "missing": (["missing.qrels", files["b.qrels"]], "missing.qrels: No such file"),
        "malformed": (["bad.qrels", files["b.qrels"]], "bad.qrels:2: relevance 'x' is not"),
        "disjoint": (
            [files["a.qrels"], "other.qrels"],
            f"no (query, document) pair is judged in both {files['a.qrels']} and",
        ),
        "bad run": (
            [files["a.qrels"], files["b.qrels"], "--runs", files["top.run"], "bad.run"],
            "bad.run:1: score 'high' is not a number",
        ),
        "run elsewhere": (
            [files["a.qrels"], files["b.qrels"], "--runs", files["top.run"], "stray.run"],
            "stray.run: no query appears in both the run and the qrels",
        ),
    }
    (tmp_path / "bad.qrels").write_text("q1 0 d1 1\nq1 0 d2 x\n", encoding="utf-8")
    (tmp_path / "other.qrels").write_text("q1 0 z 1\nq9 0 d1 1\n", encoding="utf-8")
    (tmp_path / "bad.run").write_text("q1 Q0 d1 1 high r\n", encoding="utf-8")
    (tmp_path / "stray.run").write_text("q7 Q0 d1 1 1 r\n", encoding="utf-8")
    for name, (argv, message) in cases.items():
        paths = [arg if "/" in arg or arg.startswith("-") else str(tmp_path / arg) for arg in argv]
        status, out, err = _run(capsys, *paths)
        assert status == 1 and out == "", name
        assert err.count("\n") == 1 and err.startswith("rankcards agree: "), name
        assert message in err, (name, err)
        assert "Traceback" not in err


def test_one_file_from_standard_input(files: dict[str, str], capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(QRELS_B.encode())))
    from_stdin = _json(capsys, files["a.qrels"], "-")
    assert from_stdin == _json(capsys, files["a.qrels"], files["b.qrels"])
    status, _, err = _run(capsys, "-", "-")
    assert status == 2 and "only one of the files can be -" in err


def _random_qrels(generator: random.Random) -> tuple[str, str]:
    lines_a, lines_b = [], []
    for query in range(generator.randint(1, 5)):
        for doc in range(generator.randint(1, 20)):
            grade = generator.choice([0, 0, 0, 1, 1, 2, 3])
            if generator.random() < 0.9:
                lines_a.append(f"q{query} 0 d{doc} {grade}")
            if generator.random() < 0.9:
                other = grade if generator.random() < 0.6 else generator.choice([0, 1, 2, 3, -1])
                lines_b.append(f"q{query} 0 d{doc} {other}")
    return "\n".join(lines_a) + "\n", "\n".join(lines_b) + "\n"


def test_random_qrels_files_equal_sklearn_krippendorff_and_scipy(tmp_path: Path, capsys) -> None:
    metrics = require_module("sklearn.metrics", "pip install -e '.[dev]'")
    krippendorff = require_module("krippendorff", "pip install -e '.[dev]'")
    stats = require_module("scipy.stats", "pip install -e '.[dev]'")
    generator = random.Random(2008)
    compared = 0
    for case in range(25):
        text_a, text_b = _random_qrels(generator)
        a, b = tmp_path / f"{case}.a", tmp_path / f"{case}.b"
        a.write_text(text_a, encoding="utf-8")
        b.write_text(text_b, encoding="utf-8")
        runs = []
        for number in range(4):
            run = tmp_path / f"{case}.run{number}"
            lines = [
                f"q{q} Q0 d{d} 1 {generator.choice([0.5, 1.0, generator.random()])} r"
                for q in range(5)
                for d in range(20)
                if generator.random() < 0.5
            ]
            run.write_text("\n".join(lines) + "\n", encoding="utf-8")
            runs.append(str(run))
        status, out, err = _run(capsys, str(a), str(b), "--runs", *runs, "--format", "json")
        if status == 1:  # a run with no query of a qrels: said in one line
            assert "no query appears in both" in err
            continue
        result = json.loads(out)
        judged_a = _judged(text_a)
        judged_b = _judged(text_b)
        both = sorted(judged_a.keys() & judged_b.keys())
        labels_a, labels_b = [judged_a[k] for k in both], [judged_b[k] for k in both]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for key, weights in (("cohen_kappa", None), ("cohen_kappa_quadratic", "quadratic")):
                theirs = float(metrics.cohen_kappa_score(labels_a, labels_b, weights=weights))
                assert _close(result[key], theirs), key
            for level in ("nominal", "ordinal", "interval"):
                try:
                    theirs = float(
                        krippendorff.alpha([labels_a, labels_b], level_of_measurement=level)
                    )
                except ValueError:  # one grade only: the package refuses, agree says null
                    theirs = math.nan
                assert _close(result["krippendorff_alpha"][level], theirs), level
            scores = list(result["systems"]["scores"].values())
            tau = float(stats.kendalltau(*zip(*scores, strict=True)).statistic)
        assert _close(result["systems"]["kendall_tau"], tau, 1e-12)
        compared += 1
    assert compared >= 20


def _judged(text: str) -> dict[tuple[str, str], int]:
    judged = {}
    for line in text.splitlines():
        qid, _, doc, grade = line.split()
        if int(grade) >= 0:
            judged[qid, doc] = int(grade)
    return judged


def _close(ours: float | None, theirs: float, tolerance: float = 1e-9) -> bool:
    if math.isnan(theirs):
        return ours is None
    return ours is not None and abs(ours - theirs) <= tolerance
