"""`fuse` and `rankcards fuse` give ranx 0.3.21's fused scores; the output order is trec_eval's.

Reference: ranx 0.3.21, ``ranx/meta/fuse.py`` (``fuse(runs, norm, method, params)``),
``ranx/fusion/{rrf,comb_sum,comb_mnz}.py``, ``ranx/normalization/{min_max,zmuv,sum}_norm.py``.
ranx needs every run to have the same queries, and ranks a run with an unstable argsort, so
the RRF cases give each run distinct scores within a query (the Comb cases may tie). ranx's
numba functions run uncompiled here (``NUMBA_DISABLE_JIT``, set in conftest.py: the compile cost
more than the comparisons).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from ci_gate import require_module
from rankcards.cli import main
from rankcards.metrics import fuse, read_run, rrf_fuse

RANX_NAMES = {"rrf": "rrf", "combsum": "sum", "combmnz": "mnz"}  # ranx.fuse(method=...)
RANX_NORMS = {"minmax": "min-max", "zmuv": "zmuv", "sum": "sum", "none": None}


@pytest.fixture(scope="module")
def ranx() -> Any:
    return require_module("ranx", "pip install ranx==0.3.21")


def _random_runs(rng: random.Random, ties: bool) -> list[dict[str, dict[str, float]]]:
    qids = [f"q{i}" for i in range(rng.randint(1, 4))]
    pool = [f"d{i:02d}" for i in range(rng.randint(3, 25))]
    runs = []
    for _ in range(rng.randint(2, 4)):
        run = {}
        for qid in qids:
            docs = rng.sample(pool, rng.randint(1, len(pool)))
            if ties:
                scores = [rng.choice([0.0, 0.5, 1.0, 2.5, rng.uniform(-3, 30)]) for _ in docs]
            else:
                scores = rng.sample(range(-50, 1000), len(docs))
                scores = [score / rng.choice([1, 7, 3.5]) for score in scores]
                scores = [s + i * 1e-6 for i, s in enumerate(scores)]  # distinct after scaling
            run[qid] = dict(zip(docs, scores, strict=True))
        runs.append(run)
    return runs


def _cut(run: dict[str, dict[str, float]], depth: int | None) -> dict[str, dict[str, float]]:
    """A run's top ``depth`` per query, trec_eval's order (what `fuse` keeps before fusing)."""
    if depth is None:
        return run
    kept = {}
    for qid, scores in run.items():
        ranked = sorted(scores.items(), key=lambda item: item[0], reverse=True)
        ranked.sort(key=lambda item: item[1], reverse=True)
        kept[qid] = dict(ranked[:depth])
    return kept


def test_random_runs_equal_ranx_fuse(ranx: Any) -> None:
    rng = random.Random(2009)
    compared = 0
    for case in range(120):
        method = ("rrf", "combsum", "combmnz")[case % 3]
        norm = "none" if method == "rrf" else rng.choice(list(RANX_NORMS))
        runs = _random_runs(rng, ties=method != "rrf")
        if method == "rrf":  # distinct scores per run and query: ranx's argsort is unstable
            assert all(len(set(s.values())) == len(s) for run in runs for s in run.values())
        depth = rng.choice([None, None, 1, 3, 10])
        k = rng.choice([60, 60, 0, 1, 10])
        ours = fuse(runs, method, k=k, norm=norm, depth=depth)
        reference = ranx.fuse(
            [ranx.Run(_cut(run, depth)) for run in runs],
            norm=RANX_NORMS[norm],
            method=RANX_NAMES[method],
            params={"k": k} if method == "rrf" else {},
        ).to_dict()
        assert set(ours) == set(reference)
        for qid, scores in ours.items():
            want = reference[qid]
            assert len(scores) == (len(want) if depth is None else min(depth, len(want)))
            for docno, score in scores.items():
                assert score == pytest.approx(want[docno], rel=1e-12, abs=1e-9), (case, docno)
                compared += 1
            if depth is not None:  # the kept ones are ranx's best (ties aside)
                assert (
                    min(scores.values())
                    >= sorted(want.values(), reverse=True)[len(scores) - 1] - 1e-12
                )
    assert compared > 1500


def test_output_order_is_score_then_docno_descending() -> None:
    runs = [{"q": {"a": 1.0, "b": 2.0, "c": 3.0}}, {"q": {"c": 1.0, "b": 2.0, "a": 3.0}}]
    fused = fuse(runs, "rrf")["q"]  # b: 2/62; a and c: 1/61 + 1/63 each, a tie
    assert list(fused) == ["c", "a", "b"]
    assert fused["a"] == fused["c"] == 1 / 61 + 1 / 63
    assert fused["b"] == 1 / 62 + 1 / 62


def test_inputs_are_ranked_as_trec_eval_ranks_ties() -> None:
    # a and b tie in the first run: trec_eval's order puts b (greater docno) at rank 1
    fused = fuse([{"q": {"a": 1.0, "b": 1.0}}, {"q": {"z": 5.0}}], "rrf", k=0)["q"]
    assert fused == {"b": 1.0, "z": 1.0, "a": 0.5}


def test_combmnz_counts_the_runs_that_retrieved_a_document() -> None:
    runs = [{"q": {"a": 3.0, "b": 1.0}}, {"q": {"a": 0.0, "c": 2.0}}, {"q": {"b": 4.0}}]
    fused = fuse(runs, "combmnz", norm="none")["q"]
    assert fused == {"b": (1.0 + 4.0) * 2, "a": (3.0 + 0.0) * 2, "c": 2.0}
    minmax = fuse(runs, "combsum")["q"]  # run 3 has one document: (4 - 4) / 1e-9 = 0
    assert minmax == {"a": 1.0 + 0.0, "c": 1.0, "b": 0.0 + 0.0}


def test_missing_query_contributes_nothing() -> None:
    fused = fuse([{"q1": {"a": 1.0}}, {"q2": {"b": 1.0}}], "rrf")
    assert fused == {"q1": {"a": 1 / 61}, "q2": {"b": 1 / 61}}


def test_rrf_fuse_of_lists_equals_fuse() -> None:
    got = rrf_fuse([["d1", "d2", "d3"], ["d3", "d1", "d4"]])
    assert got == {
        "d1": 1 / 61 + 1 / 62,
        "d3": 1 / 63 + 1 / 61,
        "d2": 1 / 62,
        "d4": 1 / 63,
    }
    assert list(got) == ["d1", "d3", "d2", "d4"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"method": "borda"}, "method must be one of rrf, combsum, combmnz, got 'borda'"),
        (
            {"method": "rrf", "norm": "minmax"},
            "norm 'minmax' does not apply to rrf, which fuses ranks, not scores",
        ),
        (
            {"method": "combsum", "norm": "max"},
            "norm must be one of minmax, zmuv, sum, none, got 'max'",
        ),
        ({"k": -1}, "k must be a number >= 0, got -1"),
        ({"depth": 0}, "depth must be an integer >= 1, got 0"),
    ],
)
def test_bad_arguments_are_one_line_errors(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as caught:
        fuse([{"q": {"a": 1.0}}, {"q": {"a": 1.0}}], **arguments)
    assert str(caught.value) == message


def _write_runs(tmp_path: Path) -> list[str]:
    (tmp_path / "bm25.run").write_text(
        "q1 Q0 d1 1 12 bm25\nq1 Q0 d2 2 9.5 bm25\nq1 Q0 d3 3 7 bm25\n"
    )
    (tmp_path / "dense.run").write_text(
        "q1 Q0 d3 1 0.91 e5\nq1 Q0 d1 2 0.85 e5\nq1 Q0 d4 3 0.8 e5\n"
    )
    return [str(tmp_path / "bm25.run"), str(tmp_path / "dense.run")]


def test_cli_writes_a_trec_run_that_reads_back_in_its_order(tmp_path: Path, capsys: Any) -> None:
    runs = _write_runs(tmp_path)
    assert main(["fuse", *runs]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert [line.split()[:4] for line in lines] == [
        ["q1", "Q0", "d1", "1"],
        ["q1", "Q0", "d3", "2"],
        ["q1", "Q0", "d2", "3"],
        ["q1", "Q0", "d4", "4"],
    ]
    assert all(line.split()[5] == "rrf" for line in lines)
    assert float(lines[0].split()[4]) == 1 / 61 + 1 / 62  # full precision
    read = read_run(lines)
    assert read["q1"] == fuse([read_run(path) for path in runs], "rrf")["q1"]


def test_cli_output_file_norm_depth_and_tag(tmp_path: Path, capsys: Any) -> None:
    runs = _write_runs(tmp_path)
    out = tmp_path / "fused.run"
    args = ["fuse", *runs, "--method", "combmnz", "--norm", "sum", "--depth", "2"]
    assert main([*args, "--tag", "hybrid", "-o", str(out)]) == 0
    assert capsys.readouterr().out == ""
    lines = out.read_text().splitlines()
    want = fuse([read_run(path) for path in runs], "combmnz", norm="sum", depth=2)["q1"]
    assert [(line.split()[2], float(line.split()[4])) for line in lines] == list(want.items())
    assert len(lines) == 2 and lines[0].endswith(" hybrid")


@pytest.mark.parametrize(
    ("extra", "status", "message"),
    [
        ([], 2, "rankcards fuse: give at least two runs to fuse (RUN RUN ...), got 1\n"),
        (
            ["RUN2", "--method", "mnz"],
            2,
            "rankcards fuse: --method must be one of rrf, combsum, combmnz, got 'mnz'\n",
        ),
        (
            ["RUN2", "--norm", "zmuv"],
            2,
            "rankcards fuse: --norm zmuv does not apply to rrf, which fuses ranks\n",
        ),
        (["RUN2", "--depth", "0"], 2, "rankcards fuse: --depth must be an integer >= 1, got 0\n"),
        (["RUN2", "--k", "-5"], 2, "rankcards fuse: --k must be a number >= 0, got -5.0\n"),
        (["BAD"], 1, "rankcards fuse: BAD:2: score 'high' is not a number\n"),
    ],
)
def test_cli_errors(
    tmp_path: Path, capsys: Any, extra: list[str], status: int, message: str
) -> None:
    first, second = _write_runs(tmp_path)
    bad = tmp_path / "bad.run"
    bad.write_text("q1 Q0 d1 1 1 s\nq1 Q0 d2 2 high s\n")
    argv = [{"RUN2": second, "BAD": str(bad)}.get(arg, arg) for arg in extra]
    assert main(["fuse", first, *argv]) == status
    assert capsys.readouterr().err == message.replace("BAD", str(bad))
