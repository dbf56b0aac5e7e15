"""`rankcards compare`: table and JSON end to end on small TREC files, and every error path."""

from __future__ import annotations

import io
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest
from metrics_support import run_cli, run_json

from rankcards.cli import main
from rankcards.metrics import _stats

QRELS = "q1 0 a 1\nq1 0 b 0\nq1 0 c 2\nq2 0 x 1\nq2 0 y 1\nq3 0 z 1\nq4 0 w 1\n"
RUNS = {
    # RR per query: q1 1/2 (b, c, a), q2 1, q3 0 (k only); q4 missing
    "a.run": "q1 Q0 b 1 0.9 s\nq1 Q0 c 2 0.7 s\nq1 Q0 a 3 0.5 s\nq2 Q0 y 1 0.4 s\nq3 Q0 k 1 1 s\n",
    # RR: q1 1, q2 1, q3 1
    "b.run": "q1 Q0 c 1 0.9 s\nq1 Q0 a 2 0.7 s\nq2 Q0 x 1 0.4 s\nq2 Q0 y 2 0.3 s\nq3 Q0 z 1 1 s\n",
    # RR: q1 1, q2 0 (k only), q3 missing: 0; q5 is not in the qrels
    "c.run": "q1 Q0 a 1 0.9 s\nq2 Q0 k 1 0.4 s\nq5 Q0 z 1 1 s\n",
}


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    paths = {"qrels": tmp_path / "test.qrels"}
    paths["qrels"].write_text(QRELS, encoding="utf-8")
    for name, text in RUNS.items():
        paths[name] = tmp_path / name
        paths[name].write_text(text, encoding="utf-8")
    return {name: str(path) for name, path in paths.items()}


_run = partial(run_cli, command="compare")  # (capsys, *argv) -> (status, out, err)
_json = partial(run_json, command="compare")  # (capsys, *argv) -> the JSON it printed


def test_json_has_the_documented_keys_and_numbers(files: dict[str, str], capsys) -> None:
    a, b, c = files["a.run"], files["b.run"], files["c.run"]
    result = _json(capsys, files["qrels"], a, b, c, "-m", "RR", "-m", "P@1")
    assert list(result) == [
        "runs", "measures", "test", "alpha", "correction", "aggregate", "comparisons",
    ]  # fmt: skip
    assert result["runs"] == [a, b, c]  # the paths as given
    assert result["measures"] == ["RR", "P@1"]
    assert (result["test"], result["alpha"], result["correction"]) == ("t", 0.05, "none")
    # queries q1, q2, q3 (retrieved by some run); q4 by none, q5 not judged
    assert result["aggregate"][a] == {"RR": 0.5, "P@1": 1 / 3}
    assert result["aggregate"][b] == {"RR": 1.0, "P@1": 1.0}
    assert result["aggregate"][c] == {"RR": 1 / 3, "P@1": 1 / 3}
    rows = result["comparisons"]
    assert [(r["measure"], r["baseline"], r["run"]) for r in rows] == [
        ("RR", a, b), ("RR", a, c), ("P@1", a, b), ("P@1", a, c),
    ]  # fmt: skip
    first = rows[0]
    assert list(first) == [
        "baseline", "run", "measure", "delta", "p", "p_adjusted", "significant", "ci",
        "effect_size", "wins", "losses", "ties",
    ]  # fmt: skip
    # RR differences b - a: 0.5, 0, 1 (t-test by hand through the module's functions)
    expected = _stats.paired_t_test([0.5, 0.0, 1.0])
    assert first["delta"] == 0.5 and first["p"] == expected.p == first["p_adjusted"]
    assert first["ci"] == list(expected.ci)
    assert first["effect_size"] == 1.0  # mean 0.5 / sd 0.5
    assert (first["wins"], first["losses"], first["ties"]) == (2, 0, 1)
    assert first["significant"] is False
    # c against a on RR: 0.5, -1, 0 (c lacks q3: 0 there, as a had)
    assert (rows[1]["wins"], rows[1]["losses"], rows[1]["ties"]) == (1, 1, 1)


def test_complete_uses_every_qrels_query(files: dict[str, str], capsys) -> None:
    a, b = files["a.run"], files["b.run"]
    result = _json(capsys, files["qrels"], a, b, "-m", "RR", "-c")
    assert result["aggregate"] == {a: {"RR": 1.5 / 4}, b: {"RR": 3 / 4}}  # q4 scores 0 in both
    assert result["comparisons"][0]["ties"] == 2


def test_options_reach_the_comparison(files: dict[str, str], capsys) -> None:
    a, b, c = files["a.run"], files["b.run"], files["c.run"]
    result = _json(
        capsys, files["qrels"], a, b, c, "-m", "RR", "--test", "randomization",
        "--correction", "holm", "--all-pairs", "--alpha", "0.5", "--samples", "50",
    )  # fmt: skip
    rows = result["comparisons"]
    assert [(r["baseline"], r["run"]) for r in rows] == [(a, b), (a, c), (b, c)]
    p = [r["p"] for r in rows]
    # exact enumeration (3 queries, zeros dropped): b - a = 0.5, 0, 1 -> 2 of 4 flips reach
    # |1.5|; c - a = 0.5, -1, 0 -> all 4 reach |-0.5|; c - b = 0, -1, -1 -> 2 of 4 reach |-2|
    assert p == [0.5, 1.0, 0.5]
    assert [r["p_adjusted"] for r in rows] == _stats.holm(p) == [1.0, 1.0, 1.0]
    assert (result["test"], result["alpha"], result["correction"]) == ("randomization", 0.5, "holm")
    # bootstrap intervals are seeded: the same seed gives the same JSON, another seed another
    args = [files["qrels"], a, b, "-m", "AP", "--test", "bootstrap", "--samples", "200"]
    assert _json(capsys, *args, "--seed", "3") == _json(capsys, *args, "--seed", "3")
    assert _json(capsys, *args, "--seed", "3") != _json(capsys, *args, "--seed", "4")
    # -M 1 and -l 2 reach the evaluation: at depth 1 a's RR on q1 is 0 (b ranks first)
    depth = _json(capsys, files["qrels"], a, b, "-m", "RR", "-M", "1")
    assert depth["aggregate"][a] == {"RR": 1 / 3}
    level = _json(capsys, files["qrels"], a, b, "-m", "RR", "-l", "2")
    assert level["aggregate"][b] == {"RR": 1 / 3}  # only c (label 2) is relevant


def test_table_reads_like_ranx(files: dict[str, str], capsys) -> None:
    a, b = files["a.run"], files["b.run"]
    status, out, err = _run(capsys, files["qrels"], a, b, "-m", "RR", "--correction", "bonferroni")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == (
        "paired t-test, two-sided; Bonferroni correction over 1 comparisons; 3 queries "
        "(the qrels queries any run retrieved; a missing one scores 0)"
    )
    header = lines[2].split()
    assert header == [
        "measure", "run", "mean", "baseline", "delta", "p", "p_adj", "sig", "95%", "CI",
        "effect", "W/L/T",
    ]  # fmt: skip
    assert lines[3].split() == ["RR", a, "0.5000"]
    p = _stats.paired_t_test([0.5, 0.0, 1.0])
    assert lines[4].split()[:7] == ["RR", b, "1.0000", a, "+0.5000", f"{p.p:.4f}", f"{p.p:.4f}"]
    assert lines[4].split()[-2:] == ["+1.00", "2/0/1"]
    assert lines[-2:] == [
        "* p_adj < 0.05; delta, CI, W/L/T: run - baseline; 95% CI: t-based",
        "effect: mean(d) / sd(d) of the per-query differences d",
    ]


def test_table_shows_an_infinite_effect_a_zero_p_and_the_bootstrap_settings(
    tmp_path: Path, capsys
) -> None:
    (tmp_path / "q").write_text("q1 0 a 1\nq2 0 b 1\n", encoding="utf-8")
    (tmp_path / "miss.run").write_text("q1 Q0 x 1 1 s\nq2 Q0 x 1 1 s\n", encoding="utf-8")
    (tmp_path / "hit.run").write_text("q1 Q0 a 1 1 s\nq2 Q0 b 1 1 s\n", encoding="utf-8")
    paths = [str(tmp_path / name) for name in ("q", "hit.run", "miss.run")]
    status, out, _ = _run(capsys, *paths, "-m", "RR")  # differences -1, -1: t is infinite
    assert status == 0
    row = out.splitlines()[4].split()
    assert row[4:8] == ["-1.0000", "0.0000", "0.0000", "*"] and row[-2:] == ["-inf", "0/2/0"]
    status, out, _ = _run(capsys, *paths, "-m", "RR", "--test", "wilcoxon", "--samples", "99")
    assert out.splitlines()[-2].endswith("95% CI: bootstrap percentile, 99 resamples, seed 0")
    status, out, _ = _run(capsys, *paths, "-m", "RR", "--test", "randomization", "--seed", "5")
    assert out.startswith(
        "Fisher's paired randomization test (all sign flips up to 16 non-zero differences, "
        "else 10000 samples), two-sided; no correction; 2 queries"
    )
    assert out.splitlines()[-2].endswith("10000 resamples, seed 5")


def test_table_marks_significant_rows_and_continues_all_pairs(tmp_path: Path, capsys) -> None:
    # 20 queries, run "good" finds the relevant document first everywhere, "bad" second.
    qrels = "".join(f"q{i} 0 rel 1\n" for i in range(20))
    good = "".join(f"q{i} Q0 rel 1 2 s\nq{i} Q0 other 2 1 s\n" for i in range(20))
    bad = "".join(f"q{i} Q0 other 1 2 s\nq{i} Q0 rel 2 1 s\n" for i in range(20))
    paths = []
    for name, text in (("q.txt", qrels), ("bad.run", bad), ("good.run", good), ("bad2.run", bad)):
        (tmp_path / name).write_text(text, encoding="utf-8")
        paths.append(str(tmp_path / name))
    status, out, _ = _run(capsys, *paths, "-m", "RR", "--test", "wilcoxon", "--all-pairs")
    assert status == 0
    rows = [line.split() for line in out.splitlines()[3:6]]
    assert rows[0] == ["RR", paths[1], "0.5000"]
    assert rows[1][:5] == ["RR", paths[2], "1.0000", paths[1], "+0.5000"]
    assert "*" in rows[1] and rows[1][-1] == "20/0/0"
    assert rows[2][:4] == ["RR", paths[3], "0.5000", paths[1]]
    assert "*" not in rows[2] and rows[2][-1] == "0/0/20"
    continued = out.splitlines()[6].split()  # bad2 against good: on a row of its own
    assert continued[:2] == [paths[2], "-0.5000"] and "*" in continued
    assert "Wilcoxon signed-rank test" in out.splitlines()[0]


def test_help_says_how_the_queries_are_chosen(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["compare", "--help"])
    assert exit_info.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "the qrels queries that any of the runs retrieved" in text
    assert "a query missing from a run scoring 0 there (with -c: every qrels query)" in text
    assert "usage: rankcards compare QRELS RUN_A RUN_B [RUN ...]" in text
    for option in ("--test", "--alpha", "--correction", "--samples", "--seed", "--all-pairs"):
        assert option in text
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "compare" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            ["--test", "anova"],
            "--test must be one of t, wilcoxon, randomization, bootstrap, got 'anova'",
        ),
        (["--correction", "fdr"], "--correction must be one of none, holm, bonferroni, got 'fdr'"),
        (["--format", "csv"], "--format must be one of table, json, got 'csv'"),
        (["--alpha", "1"], "--alpha must be a number between 0 and 1 (exclusive), got 1.0"),
        (["--alpha", "0"], "--alpha must be a number between 0 and 1 (exclusive), got 0.0"),
        (["--samples", "0"], "--samples must be an integer >= 1, got 0"),
        (["-M", "0"], "-M/--depth must be an integer >= 1, got 0"),
        (["-l", "-1"], "-l/--level must be an integer >= 0, got -1"),
        (["-m", "NoSuchMeasure"], "unknown measure"),
        (["-m", "num_ret"], "num_ret is a counter, not a per-query measure"),
    ],
)
def test_usage_errors_exit_2_with_one_line(
    files: dict[str, str], capsys, extra: list[str], message: str
) -> None:
    status, out, err = _run(capsys, files["qrels"], files["a.run"], files["b.run"], *extra)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("rankcards compare: ")
    assert message in err


def test_run_count_and_query_set_errors_exit_2(
    files: dict[str, str], tmp_path: Path, capsys
) -> None:
    status, _, err = _run(capsys, files["qrels"], files["a.run"])
    assert status == 2
    assert err == "rankcards compare: give at least two runs to compare (RUN_A RUN_B ...), got 1\n"
    status, _, err = _run(capsys, files["qrels"], files["a.run"], files["a.run"])
    assert status == 2 and "is given twice" in err and err.count("\n") == 1
    stray = tmp_path / "stray.run"
    stray.write_text("q9 Q0 a 1 1 s\n", encoding="utf-8")
    other = tmp_path / "stray2.run"
    other.write_text("q8 Q0 a 1 1 s\n", encoding="utf-8")
    status, _, err = _run(capsys, files["qrels"], str(stray), str(other))
    assert (status, err) == (2, "rankcards compare: no query of the qrels appears in any run\n")
    one, two = tmp_path / "one.run", tmp_path / "two.run"
    one.write_text("q1 Q0 a 1 1 s\n", encoding="utf-8")
    two.write_text("q1 Q0 c 1 1 s\n", encoding="utf-8")
    status, _, err = _run(capsys, files["qrels"], str(one), str(two), str(stray))  # q1 only
    assert status == 2 and "at least 2 queries" in err and err.count("\n") == 1
    status, _, err = _run(capsys, "-", "-", files["a.run"])
    assert status == 2 and "only one of QRELS and the runs can be -" in err


def test_data_errors_exit_1_naming_file_and_line(
    files: dict[str, str], tmp_path: Path, capsys
) -> None:
    bad = tmp_path / "bad.run"
    bad.write_text("q1 Q0 a 1 0.5 s\nq1 Q0 b 2 high s\n", encoding="utf-8")
    status, out, err = _run(capsys, files["qrels"], files["a.run"], str(bad))
    assert status == 1 and out == ""
    assert err.startswith(f"rankcards compare: {bad}:2") and err.count("\n") == 1
    status, _, err = _run(capsys, files["qrels"], files["a.run"], str(tmp_path / "missing.run"))
    assert status == 1 and "missing.run" in err and err.count("\n") == 1
    qrels = tmp_path / "bad.qrels"
    qrels.write_text("q1 0 a 1\nq1 0 b x\n", encoding="utf-8")
    status, _, err = _run(capsys, str(qrels), files["a.run"], files["b.run"])
    assert status == 1 and err.startswith(f"rankcards compare: {qrels}:2") and err.count("\n") == 1


def test_a_run_from_standard_input(files: dict[str, str], capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(RUNS["b.run"].encode())))
    from_stdin = _json(capsys, files["qrels"], files["a.run"], "-", "-m", "RR")
    from_file = _json(capsys, files["qrels"], files["a.run"], files["b.run"], "-m", "RR")
    assert from_stdin["runs"] == [files["a.run"], "-"]
    assert from_stdin["aggregate"]["-"] == from_file["aggregate"][files["b.run"]]
    assert from_stdin["comparisons"][0]["p"] == from_file["comparisons"][0]["p"]


def test_importing_the_metrics_does_not_import_random() -> None:
    # The page imports rankcards.metrics at boot; the tests import random only when they run.
    code = "import sys, rankcards.metrics; print('random' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
