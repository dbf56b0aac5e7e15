"""evaluate_files (the run evaluated while read) equals evaluate(read_qrels(...), read_run(...)).

Same values, same errors, on random runs cut into tiny blocks so that query and block
boundaries fall everywhere; the streaming path must really be the one taken for a regular run,
and the general one for anything else.
"""

from __future__ import annotations

import gzip
import itertools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from metrics_support import record_whole_run_readings

from rankcards.metrics import (
    TrecFormatError,
    _fastrun,
    _parts,
    _readers,
    evaluate,
    evaluate_files,
    read_qrels,
    read_run,
)

MEASURES = ["RR", "RR@3", "P@2", "R@5", "AP", "Rprec", "nDCG", "nDCG@3", "bpref", "Success@1"]
MEASURES += ["RBP(p=0.8)", "P(rel=2)@3", "num_q", "num_ret", "num_rel", "num_rel_ret"]
QRELS = "".join(f"q{q} 0 d{d} {(q + d) % 4 - (d == 7)}\n" for q in range(1, 5) for d in range(12))

# Rows of a run: mostly well formed, in query stretches; sometimes a trap that the streaming
# path must hand to the general one (a duplicate, a bad score, a query coming back).
DOCNOS = st.sampled_from([f"d{i}" for i in range(14)])
SCORES = st.sampled_from(["1", "0.5", "2", "0.25", "1e1", "-3", "2"] * 6 + ["nan", "x", "1_0"])
QUERY = st.tuples(
    st.sampled_from(["q1", "q2", "q3", "q4", "q9"]),
    st.lists(st.tuples(DOCNOS, SCORES), max_size=12),
)


def _run_text(queries: list[tuple[str, list[tuple[str, str]]]], separator: str) -> str:
    return "".join(
        separator.join([qid, "Q0", docno, str(rank), score, "sys"]) + "\n"
        for qid, rows in queries
        for rank, (docno, score) in enumerate(rows, 1)
    )


def _outcome(call: Any) -> Any:
    try:
        result = call()
    except (TrecFormatError, ValueError) as error:
        return ("error", type(error).__name__, str(error))
    return (result.per_query, result.aggregate)


def _write(directory: Path, qrels: str, run: str) -> tuple[str, str]:
    (directory / "qrels").write_text(qrels)
    (directory / "run").write_text(run)
    return str(directory / "qrels"), str(directory / "run")


@settings(max_examples=250, deadline=None)
@given(
    queries=st.lists(QUERY, min_size=0, max_size=6),
    separator=st.sampled_from([" ", " ", "\t"]),
    block=st.sampled_from([16, 64, 300, 1 << 15]),
    complete=st.booleans(),
    depth=st.sampled_from([None, 1, 4]),
    level=st.sampled_from([1, 2]),
    jobs=st.sampled_from([1, 1, 2, 3]),
)
def test_streaming_equals_reading_then_evaluating(
    tmp_path_factory: Any,
    queries: list[tuple[str, list[tuple[str, str]]]],
    separator: str,
    block: int,
    complete: bool,
    depth: int | None,
    level: int,
    jobs: int,
) -> None:
    qrels, run = _write(tmp_path_factory.mktemp("s"), QRELS, _run_text(queries, separator))
    options: dict[str, Any] = {"complete": complete, "depth": depth, "rel_level": level}
    # boundaries everywhere: of blocks, and (with jobs > 1) of the parts read in processes
    saved = _fastrun._BLOCK, _parts.MIN_PART
    _fastrun._BLOCK, _parts.MIN_PART = block, 1
    try:
        streamed = _outcome(lambda: evaluate_files(qrels, run, MEASURES, **options, jobs=jobs))
    finally:
        _fastrun._BLOCK, _parts.MIN_PART = saved
    read = _outcome(lambda: evaluate(read_qrels(qrels), read_run(run), MEASURES, **options))
    assert streamed == read


def test_a_regular_run_is_never_read_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    queries = [(f"q{q}", [(f"d{d}", str(20 - d)) for d in range(12)]) for q in range(1, 5)]
    qrels, run = _write(tmp_path, QRELS, _run_text(queries, " "))
    readings = record_whole_run_readings(monkeypatch)
    monkeypatch.setattr(_fastrun, "_BLOCK", 64)
    result = evaluate_files(qrels, run, ["AP", "RR"])
    assert readings == []
    assert result.per_query == evaluate(read_qrels(qrels), read_run(run), ["AP", "RR"]).per_query
    assert result.per_query["q1"]["RR"] == 1.0  # d0 (score 20, the highest) is judged 1


@pytest.mark.parametrize(
    ("run", "error"),
    [
        # q1 comes back after q2: the general path merges its two stretches
        ("q1 Q0 d1 1 2 s\nq2 Q0 d1 1 2 s\nq1 Q0 d2 2 1 s\n", None),
        ("q1 Q0 d1 1 2 s\n# comment\nq1 Q0 d2 2 1 s\n", None),
        ("q1 Q0 d1 1 2 s\nq1 Q0 d1 2 1 s\n", "run:2: docno 'd1' appears twice for query 'q1'"),
        ("q1 Q0 d1 1 2 s\nq1 Q0 d2 2 inf s\n", "run:2: score 'inf' is not a finite number"),
        ("q1 Q0 d1 1 2\n", "run:1: expected 6 columns 'qid Q0 docno rank score tag', got 5"),
        ("", "run: empty run: no result lines"),
    ],
)
def test_anything_unusual_goes_to_the_general_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: str, error: str | None
) -> None:
    _write(tmp_path, QRELS, run)
    monkeypatch.chdir(tmp_path)
    readings = record_whole_run_readings(monkeypatch)
    if error is None:
        result = evaluate_files("qrels", "run", ["P@2", "num_ret"])
        assert result.per_query["q1"] == {"P@2": 1.0, "num_ret": 2.0}  # d1, d2: labels 2, 3
    else:
        with pytest.raises(TrecFormatError) as raised:
            evaluate_files("qrels", "run", ["P@2"])
        assert str(raised.value) == error
    assert readings == ["run"]


def test_missing_and_gzipped_files(tmp_path: Path) -> None:
    qrels, run = _write(tmp_path, QRELS, "q1 Q0 d3 1 2 s\nq1 Q0 d1 2 1 s\n")
    zipped = tmp_path / "run.gz"
    zipped.write_bytes(gzip.compress((tmp_path / "run").read_bytes()))
    assert (
        evaluate_files(qrels, zipped, ["AP"]).per_query
        == evaluate_files(qrels, run, ["AP"]).per_query
    )
    with pytest.raises(TrecFormatError, match="No such file or directory"):
        evaluate_files(qrels, tmp_path / "absent.run", ["AP"])


def test_reference_run_gives_trec_eval_values(
    trec_eval_reference: Path, out_test_aggregates: dict[str, str]
) -> None:
    result = evaluate_files(
        trec_eval_reference / "qrels.test",
        trec_eval_reference / "results.test",
        ["AP", "RR", "P@5"],
    )
    assert f"{result.aggregate['AP']:.4f}" == out_test_aggregates["AP"]
    assert f"{result.aggregate['RR']:.4f}" == out_test_aggregates["RR"]
    assert f"{result.aggregate['P@5']:.4f}" == out_test_aggregates["P@5"]


def test_the_scorer_leaves_the_measured_queries_it_is_given_as_they_were() -> None:
    from rankcards.metrics._data import Qrels
    from rankcards.metrics._evaluate import Scorer, measure_specs

    qrels = Qrels({"q1": {b"a": 1}, "q2": {b"b": 1}})
    measured = {"q1": {"RR": 1.0}}
    result = Scorer(measure_specs(["RR"]), None, 1).evaluation(qrels, measured, complete=True)
    assert result.per_query == {"q1": {"RR": 1.0}, "q2": {"RR": 0.0}}
    assert measured == {"q1": {"RR": 1.0}}  # q2, scored as an empty ranking, is not added here


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize(("first", "readings"), [("", 1), ("# a comment\n", 2)])
@pytest.mark.parametrize("packed", [False, True])
def test_progress_counts_every_byte_of_both_files(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    first: str,
    readings: int,
    packed: bool,
    jobs: int,
) -> None:
    # streamed; or, after a comment line, read a second time, whole (the count starts again)
    lines = "".join(
        f"q{q} Q0 d{d * 7919 % 9973} 1 {d % 7} s\n" for q in range(1, 5) for d in range(1500)
    )
    qrels_path, run_path = _write(tmp_path, QRELS, first + lines)
    if packed:
        for path in (qrels_path, run_path):
            Path(path).write_bytes(gzip.compress(Path(path).read_bytes()))
    monkeypatch.setattr(_parts, "MIN_PART", 1)  # -j 2 cuts a plain run in two
    monkeypatch.setattr(_fastrun, "_BLOCK", 512)
    monkeypatch.setattr(_readers, "_BUFFER", 1024)  # many reads, many reports
    reports: list[tuple[int, int]] = []
    result = evaluate_files(
        qrels_path, run_path, ["AP"], jobs=jobs, progress=lambda *done: reports.append(done)
    )
    assert result.per_query == evaluate_files(qrels_path, run_path, ["AP"]).per_query
    total = Path(qrels_path).stat().st_size + Path(run_path).stat().st_size
    assert reports[-1] == (total, total) and {whole for _, whole in reports} == {total}
    done = [count for count, _ in reports]
    # the qrels, then the run as read (in two parts: each part's end), up to the total: a
    # second reading counts from the run's start again, never past the total
    assert len(set(done)) > (3 if jobs == 1 else 2) and 0 < done[0] < total
    if readings == 1:
        assert all(earlier < later for earlier, later in itertools.pairwise(done))


def test_a_damaged_gzip_run_gives_the_error_reading_it_gives(tmp_path: Path) -> None:
    lines = "".join(f"q{q} Q0 d{d} 1 {d} s\n" for q in range(1, 5) for d in range(3000))
    qrels, run = _write(tmp_path, QRELS, "")
    packed = gzip.compress(lines.encode())
    for damaged in (packed[: len(packed) // 2], packed[:10] + b"\x07" * 50):
        Path(run).write_bytes(damaged)
        streamed = _outcome(lambda: evaluate_files(qrels, run, ["AP"]))
        read = _outcome(lambda: evaluate(read_qrels(qrels), read_run(run), ["AP"]))
        assert streamed == read and streamed[0] == "error"
        assert streamed[2].startswith(f"{run}: ") and "gzip file" in streamed[2]
