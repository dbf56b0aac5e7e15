"""The evaluate page's comparison in CPython: the worker entry point gives the numbers and the
text of `rankcards compare --format json`, errors are one line naming the file or option, and
the per-query difference chart has one labelled, focusable bar per query, sorted, drawn up for
gains and down for losses from a zero line."""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
import re
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from rankcards.cli import main
from rankcards.viz._compare_chart import (
    HEIGHT,
    MARGIN,
    MARGIN_LEFT,
    difference_chart,
    difference_label,
)
from rankcards.viz._compare_view import CSV_COLUMNS, compare_run_files


def _write(folder: Path) -> tuple[Path, list[Path]]:
    """A qrels and three runs over 20 queries (one misses q19), named like a reader's files."""
    qrels = folder / "judged.qrels"
    qrels.write_text(
        "".join(f"q{q} 0 d{d} {(q + d) % 3}\n" for q in range(20) for d in range(0, 30, 2))
    )
    runs = []
    for index, name in enumerate(["base.run", "bm25.run", "dense.run.gz"]):
        lines = "".join(
            f"q{q} Q0 d{(d * (index + 2) + q) % 31} {d + 1} {100 - d} sys{index}\n"
            for q in range(20 if index != 1 else 19)
            for d in range(12)
        )
        path = folder / name
        path.write_bytes(gzip.compress(lines.encode()) if name.endswith(".gz") else lines.encode())
        runs.append(path)
    return qrels, runs


def _cli(folder: Path, *args: str) -> str:
    printed = io.StringIO()
    cwd = os.getcwd()
    os.chdir(folder)  # the run names are the paths as given: the bare file names
    try:
        with redirect_stdout(printed):
            assert main(["compare", *args]) == 0
    finally:
        os.chdir(cwd)
    return printed.getvalue()


@pytest.mark.parametrize(
    ("test", "correction"), [("randomization", "holm"), ("t", "none"), ("bootstrap", "bonferroni")]
)
def test_the_comparison_is_the_cli_s_json(tmp_path: Path, test: str, correction: str) -> None:
    qrels, runs = _write(tmp_path)
    names = [run.name for run in runs]
    reply = compare_run_files(
        qrels,
        names,
        measures="AP nDCG@10 RR",
        test=test,
        correction=correction,
        samples=500,
        seed=7,
        **{f"run{i}": run for i, run in enumerate(runs)},
    )
    assert reply["ok"], reply
    printed = _cli(
        tmp_path, qrels.name, *names, "-m", "AP", "-m", "nDCG@10", "-m", "RR",
        "--format", "json", "--test", test, "--correction", correction,
        "--samples", "500", "--seed", "7",
    )  # fmt: skip
    assert reply["json"] + "\n" == printed
    assert reply["result"] == json.loads(printed)
    assert reply["queries"] == sorted(f"q{q}" for q in range(20))  # trec_eval's order
    missing = reply["queries"].index("q19")
    assert reply["scores"]["bm25.run"]["AP"][missing] == 0.0  # missing from that run: 0
    rows = list(csv.reader(io.StringIO(reply["csv"])))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert len(rows) == 1 + 2 * 3  # two comparisons per measure
    first = reply["result"]["comparisons"][0]
    assert rows[1][:3] == [first["measure"], "base.run", "bm25.run"]
    assert float(rows[1][5]) == first["delta"] and float(rows[1][7]) == first["p_adjusted"]
    assert float(rows[1][3]) == reply["result"]["aggregate"]["base.run"][first["measure"]]


def test_progress_counts_the_bytes_of_every_file(tmp_path: Path) -> None:
    qrels, runs = _write(tmp_path)
    told: list[tuple[int, int]] = []
    reply = compare_run_files(
        qrels,
        [run.name for run in runs],
        measures="RR",
        progress=lambda done, total: told.append((done, total)),
        **{f"run{i}": run for i, run in enumerate(runs)},
    )
    assert reply["ok"]
    total = sum(path.stat().st_size for path in [qrels, *runs])
    assert {t for _, t in told} == {total}
    done = [d for d, _ in told]
    assert done == sorted(done) and done[-1] == total and len(done) >= 4


def test_errors_are_one_line(tmp_path: Path) -> None:
    qrels, runs = _write(tmp_path)
    files = {f"run{i}": run for i, run in enumerate(runs)}
    names = [run.name for run in runs]

    def error(**changes: object) -> str:
        arguments: dict[str, object] = {"run_names": names, **files, "measures": "AP"}
        arguments.update(changes)
        reply = compare_run_files(qrels, **arguments)  # type: ignore[arg-type]
        assert reply["ok"] is False and "\n" not in reply["error"], reply
        return str(reply["error"])

    assert error(run_names=["base.run"], run1=None, run2=None) == (
        "compare needs at least two runs, got 1 (base.run)"
    )
    assert error(run_names=["a.run", "a.run", "b.run"]) == (
        "run a.run is given twice; each run is named by its file name"
    )
    assert error(test="sign") == (
        "test must be one of t, wilcoxon, randomization, bootstrap, got 'sign'"
    )
    assert error(correction="fdr").startswith("correction must be one of none, holm, bonferroni")
    assert error(alpha=0).startswith("alpha must be a number between 0 and 1")
    assert error(samples=0) == "samples must be an integer >= 1, got 0"
    assert error(seed=1.5) == "seed must be an integer, got 1.5"
    assert error(measures="num_q").startswith("num_q is a counter")
    assert error(measures="XYZ@3").startswith("unknown measure 'XYZ@3'")
    bad = tmp_path / "bad.run"
    bad.write_text("q1 Q0 a 1 1 t\nq1 Q0 b 2\n")
    assert error(run1=bad, run_names=["base.run", "bad.run", "dense.run.gz"]).startswith(
        "bad.run:2: "
    )
    elsewhere = tmp_path / "elsewhere.run"
    elsewhere.write_text("z1 Q0 a 1 1 t\n")
    other = {"run0": elsewhere, "run1": elsewhere, "run_names": ["x.run", "y.run"]}
    assert error(**other, run2=None) == "no query of the qrels appears in any run"


def test_difference_chart_bars_are_sorted_labelled_and_focusable() -> None:
    queries = [f"q{i}" for i in range(6)]
    baseline = [0.5, 0.2, 0.9, 0.4, 0.0, 0.3]
    run = [0.6, 0.2, 0.5, 0.4833, 0.0, 0.1]
    chart = difference_chart(queries, baseline, run, title="AP: new - base")
    assert [bar["qid"] for bar in chart["bars"]] == ["q0", "q3", "q1", "q4", "q5", "q2"]
    assert [bar["label"] for bar in chart["bars"]][:2] == ["q0: +0.100", "q3: +0.083"]
    assert (chart["wins"], chart["losses"], chart["ties"]) == (2, 2, 2)
    assert chart["scale"] == pytest.approx(0.4)
    svg = chart["svg"]
    rects = re.findall(r"<rect ([^>]*)>", svg)
    assert len(rects) == 6
    assert all('tabindex="0"' in rect and 'role="img"' in rect for rect in rects)
    labels = re.findall(r'aria-label="([^"]*)"', " ".join(rects))
    assert labels == [bar["label"] for bar in chart["bars"]]
    assert 'aria-label="AP: new - base"' in svg and "<title>q2: -0.400</title>" in svg
    # without colour: gains above the zero line, losses below, ties a mark on it
    zero = float(re.search(r'class="rc-cmp-zero"[^>]* y1="([\d.]+)"', svg).group(1))
    assert zero == (HEIGHT - 2 * MARGIN) / 2 + MARGIN
    for rect in rects:
        y, height = (float(re.search(rf' {k}="([\d.]+)"', rect).group(1)) for k in ["y", "height"])
        value = float(re.search(r'data-value="([^"]+)"', rect).group(1))
        if value > 0:
            assert y + height == pytest.approx(zero) and 'class="rc-cmp-win"' in rect
        elif value < 0:
            assert y == pytest.approx(zero) and 'class="rc-cmp-loss"' in rect
        else:
            assert y < zero < y + height and 'class="rc-cmp-tie"' in rect
    # the largest difference fills its half of the plot
    tallest = max(float(re.search(r' height="([\d.]+)"', rect).group(1)) for rect in rects)
    assert tallest == pytest.approx(zero - MARGIN, abs=0.01)


def test_difference_chart_escapes_and_edges() -> None:
    chart = difference_chart(['<q"1>'], [0.0], [0.0], title="a & <b>")
    assert "<q" not in chart["svg"].replace("<title>", "").replace("<text", "").replace("<rect", "")
    assert "&lt;q&quot;1&gt;: 0.000" in chart["svg"] and "a &amp; &lt;b&gt;" in chart["svg"]
    assert chart["scale"] == 1.0 and chart["ties"] == 1
    assert difference_chart([], [], [])["bars"] == []
    with pytest.raises(ValueError, match="2 queries, 1 baseline values"):
        difference_chart(["a", "b"], [0.1], [0.2, 0.3])
    with pytest.raises(ValueError, match="finite"):
        difference_chart(["a"], [0.1], [float("nan")])
    assert difference_label("q1", -1e-9) == "q1: -0.000"


@pytest.mark.parametrize(("width", "drawn"), [(358, 358), (688, 688), (100, 240), (9000, 2000)])
def test_difference_chart_is_drawn_at_the_width_it_is_shown_at(width: int, drawn: int) -> None:
    """One SVG unit per CSS pixel: the axis' numbers keep their CSS size on a phone."""
    chart = difference_chart(["a", "b", "c", "d"], [0.1] * 4, [0.3, 0.0, 0.1, 0.5], width=width)
    svg = chart["svg"]
    assert f'viewBox="0 0 {drawn} {HEIGHT}"' in svg
    rects = re.findall(r"<rect ([^>]*)>", svg)
    right = max(
        float(re.search(r' x="([\d.]+)"', r).group(1))
        + float(re.search(r' width="([\d.]+)"', r).group(1))
        for r in rects
    )
    step = (drawn - MARGIN_LEFT - MARGIN) / 4  # the bars fill the plot to its margin
    assert right == pytest.approx(drawn - MARGIN - 0.075 * step, abs=0.02)
    assert f'x2="{drawn - MARGIN}"' in svg  # and so does the zero line
