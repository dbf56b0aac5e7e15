"""`rankcards eval`: formats, options, exit codes and one-line errors."""

from __future__ import annotations

import gzip
import io
import json
from functools import partial
from math import log2
from pathlib import Path

import pytest
from metrics_support import record_whole_run_readings, run_cli

from rankcards.cli import main
from rankcards.metrics import _parts

QRELS = "q1 0 a 1\nq1 0 b 0\nq1 0 c 2\nq2 0 x 1\n"
RUN = "q1 Q0 b 1 0.9 s\nq1 Q0 c 2 0.7 s\nq1 Q0 a 3 0.5 s\nq3 Q0 x 1 1.0 s\n"


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    qrels = tmp_path / "test.qrels"
    run = tmp_path / "test.run"
    qrels.write_text(QRELS, encoding="utf-8")
    run.write_text(RUN, encoding="utf-8")
    return str(qrels), str(run)


_run = partial(run_cli, command="eval")  # (capsys, *argv) -> (status, out, err)


def test_default_measures_trec_format(files: tuple[str, str], capsys) -> None:
    status, out, err = _run(capsys, *files)
    assert status == 0 and err == ""
    names = [line.split("\t")[0].strip() for line in out.splitlines()]
    assert names == ["RR", "P@5", "P@10", "R@100", "AP", "Rprec", "nDCG@10", "Success@10"]
    assert out.splitlines()[0] == "RR                    \tall\t0.5000"  # c at rank 2


def test_per_query_complete_depth_level(files: tuple[str, str], capsys) -> None:
    status, out, _ = _run(capsys, *files, "-m", "RR", "-m", "num_q", "-q", "-c", "-l", "2")
    assert status == 0
    assert out.splitlines() == [
        "RR                    \tq1\t0.5000",
        "RR                    \tq2\t0.0000",
        "RR                    \tall\t0.2500",
        "num_q                 \tall\t2",
    ]
    status, out, _ = _run(capsys, *files, "-m", "num_ret", "-m", "RR", "-M", "1")
    assert out.splitlines() == [
        "num_ret               \tall\t1",
        "RR                    \tall\t0.0000",
    ]


def test_json_format_full_precision(files: tuple[str, str], capsys) -> None:
    status, out, _ = _run(capsys, *files, "-m", "HitRate@1", "-m", "AP", "--format", "json")
    assert status == 0
    document = json.loads(out)
    # AP of q1: relevant c@2 and a@3 -> (1/2 + 2/3) / 2
    assert document == {
        "per_query": {"q1": {"Success@1": 0.0, "AP": (1 / 2 + 2 / 3) / 2}},
        "aggregate": {"Success@1": 0.0, "AP": (1 / 2 + 2 / 3) / 2},
    }


def test_unknown_measure_is_usage_error(files: tuple[str, str], capsys) -> None:
    status, out, err = _run(capsys, *files, "-m", "MRR@10")
    assert status == 2 and out == ""
    assert err.startswith("rankcards eval: unknown measure 'MRR@10'; known measures: num_q, ")
    assert len(err.splitlines()) == 1


def test_bad_depth_and_level_are_usage_errors(files: tuple[str, str], capsys) -> None:
    assert _run(capsys, *files, "-M", "0")[2] == (
        "rankcards eval: -M/--depth must be an integer >= 1, got 0\n"
    )
    assert _run(capsys, *files, "-l", "-1")[0] == 2
    assert _run(capsys, *files, "-j", "0")[2] == (
        "rankcards eval: -j/--jobs must be an integer >= 1, got 0\n"
    )


def test_data_errors_exit_1_with_file_and_line(files: tuple[str, str], tmp_path, capsys) -> None:
    qrels, _ = files
    bad = tmp_path / "bad.run"
    bad.write_text("q1 Q0 a 1 0.5 s\nq1 Q0 b 2 high s\n", encoding="utf-8")
    status, out, err = _run(capsys, qrels, str(bad))
    assert (status, out) == (1, "")
    assert err == f"rankcards eval: {bad}:2: score 'high' is not a number\n"
    status, _, err = _run(capsys, qrels, str(tmp_path / "none.run"))
    assert status == 1 and err.endswith("none.run: No such file or directory\n")
    other = tmp_path / "other.run"
    other.write_text("q9 Q0 a 1 0.5 s\n", encoding="utf-8")
    status, _, err = _run(capsys, qrels, str(other))
    assert status == 1
    assert err == f"rankcards eval: {other}: no query appears in both the run and the qrels\n"


def test_reference_files_like_trec_eval(trec_eval_reference: Path, capsys) -> None:
    folder = trec_eval_reference
    status, out, _ = _run(
        capsys, str(folder / "qrels.test"), str(folder / "results.test"), "-m", "AP", "-m", "bpref"
    )
    assert status == 0
    assert out == "AP                    \tall\t0.1785\nbpref                 \tall\t0.1981\n"


@pytest.mark.skipif(not _parts.can_fork(), reason="this platform cannot fork")
def test_jobs_read_the_run_in_processes_with_the_same_output(
    trec_eval_reference: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = [str(trec_eval_reference / name) for name in ("qrels.test", "results.test")]
    alone = _run(capsys, *files, "-q", "-j", "1")
    monkeypatch.setattr(_parts, "MIN_PART", 1)  # cut even this small run (3 queries)
    forks: list[object] = []
    fork = _parts._fork
    monkeypatch.setattr(_parts, "_fork", lambda *args: forks.append(args) or fork(*args))
    assert _run(capsys, *files, "-q", "-j", "2") == alone
    assert len(forks) == 1
    qids = {line.split("\t")[1] for line in alone[1].splitlines()}
    assert alone[0] == 0 and qids == {"301", "302", "303", "all"}


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_run_or_qrels_from_standard_input(
    files: tuple[str, str], monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    qrels, run = files
    expected = _run(capsys, qrels, run, "-m", "RR", "-q")
    _stdin(monkeypatch, RUN.encode())
    assert _run(capsys, qrels, "-", "-m", "RR", "-q") == expected
    _stdin(monkeypatch, QRELS.encode())
    assert _run(capsys, "-", run, "-m", "RR", "-q") == expected
    assert _run(capsys, "-", "-") == (
        2,
        "",
        "rankcards eval: only one of QRELS and RUN can be - (standard input)\n",
    )


def test_standard_input_errors_name_the_line(
    files: tuple[str, str], monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    qrels, _ = files
    _stdin(monkeypatch, b"q1 Q0 a 1 0.5 s\nq1 Q0 b 2 0.4\n")
    assert _run(capsys, qrels, "-")[0::2] == (
        1,
        "rankcards eval: <stdin>:2: expected 6 columns 'qid Q0 docno rank score tag', got 5\n",
    )
    _stdin(monkeypatch, b"q1 Q0 a 1 0.5 s\nq\xff Q0 b 2 0.4 s\n")
    status, _, err = _run(capsys, qrels, "-")
    assert status == 1 and err.startswith("rankcards eval: <stdin>:2: not UTF-8 text")


TRUNCATED = (
    "truncated gzip file: the compressed data ends before the end of its stream "
    "(an incomplete download or copy?)"
)
DAMAGES = {
    # the first two thirds of the compressed bytes: the decompressor meets the end early
    "truncated": (lambda packed: packed[: len(packed) * 2 // 3], TRUNCATED),
    # gzip's magic, then bytes that are not a gzip header
    "magic+garbage": (
        lambda packed: b"\x1f\x8b" + bytes(range(7, 200)),
        "corrupt gzip file: unknown compression method",
    ),
    # a valid header, then a deflate block of type 3 (there is none): zlib.error
    "header+garbage": (
        lambda packed: packed[:10] + b"\x07 not deflate" * 8,
        "corrupt gzip file: invalid block type",
    ),
}


@pytest.fixture(scope="module")
def large_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A plain qrels and run of 1 MB each: dozens of the streaming reader's 32 KiB blocks."""
    folder = tmp_path_factory.mktemp("large")
    run = "".join(f"q{q} Q0 doc{d} {d} {5000 - d} sys\n" for q in range(60) for d in range(600))
    qrels = "".join(f"q{q} 0 doc{d} {d % 3}\n" for q in range(60) for d in range(0, 1200, 2))
    for part, text in (("run", run), ("qrels", qrels)):
        (folder / part).write_text(text, encoding="utf-8")
    return {"run": folder / "run", "qrels": folder / "qrels"}


def test_the_large_files_are_streamed_and_cut(
    large_files: dict[str, Path], capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    # what the test below damages is read by the stream, and -j 2 reads it in two processes
    monkeypatch.setattr(_parts, "MIN_PART", 1)
    readings = record_whole_run_readings(monkeypatch)
    forks: list[object] = []
    fork = _parts._fork
    monkeypatch.setattr(_parts, "_fork", lambda *args: forks.append(args) or fork(*args))
    files = [str(large_files["qrels"]), str(large_files["run"])]
    alone = _run(capsys, *files, "-j", "1")
    assert alone[0] == 0 and _run(capsys, *files, "-j", "2") == alone
    assert readings == [] and len(forks) == (1 if _parts.can_fork() else 0)


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("size", ["small", "large"])
@pytest.mark.parametrize("damage", sorted(DAMAGES))
@pytest.mark.parametrize("broken", ["run", "qrels"])
def test_truncated_or_corrupt_gzip_exits_1_with_one_line_naming_the_file(
    broken: str,
    damage: str,
    size: str,
    jobs: str,
    large_files: dict[str, Path],
    tmp_path: Path,
    capsys,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    paths = {}
    for part, small in (("run", RUN), ("qrels", QRELS)):
        data = large_files[part].read_bytes() if size == "large" else small.encode()
        paths[part] = tmp_path / f"{part}.gz"
        paths[part].write_bytes(gzip.compress(data, compresslevel=1))
    cut, message = DAMAGES[damage]
    paths[broken].write_bytes(cut(paths[broken].read_bytes()))
    monkeypatch.setattr(_parts, "MIN_PART", 1)  # -j 2 would cut any plain run in two
    readings = record_whole_run_readings(monkeypatch)
    status, out, err = _run(capsys, str(paths["qrels"]), str(paths["run"]), "-j", jobs)
    assert (status, out) == (1, "")
    assert err == f"rankcards eval: {paths[broken]}: {message}\n"
    assert readings == []  # the run's stream stopped at the damage: not read a second time


def test_level_0_counts_documents_judged_0_as_relevant(files: tuple[str, str], capsys) -> None:
    """`-l 0` is not `-l 1`: b (judged 0, ranked first) becomes relevant, as in trec_eval."""
    level_0 = _run(capsys, *files, "-m", "RR", "-m", "num_rel", "-q", "-l", "0")[1]
    level_1 = _run(capsys, *files, "-m", "RR", "-m", "num_rel", "-q", "-l", "1")[1]
    assert level_0.splitlines()[:2] == [
        "RR                    \tq1\t1.0000",
        "num_rel               \tq1\t3",
    ]
    assert level_1.splitlines()[:2] == [
        "RR                    \tq1\t0.5000",
        "num_rel               \tq1\t2",
    ]
    assert _run(capsys, *files, "-m", "RR", "-l", "1")[1] == _run(capsys, *files, "-m", "RR")[1]


UNSORTED_QRELS = "q2 0 a 1\nq10 0 b 1\nq1 0 c 1\n"
UNSORTED_RUN = "q2 Q0 a 1 1.0 s\nq10 Q0 x 1 1.0 s\nq10 Q0 b 2 0.5 s\nq1 Q0 c 1 1.0 s\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_per_query_results_are_sorted_by_query_id(tmp_path: Path, capsys, jobs: str) -> None:
    """Queries come out in trec_eval's order (qid strings sorted), not the run's."""
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(UNSORTED_QRELS, encoding="utf-8")
    run.write_text(UNSORTED_RUN, encoding="utf-8")
    status, out, _ = _run(capsys, str(qrels), str(run), "-m", "RR", "-q", "-j", jobs)
    assert status == 0
    assert [line.split("\t")[1] for line in out.splitlines()] == ["q1", "q10", "q2", "all"]
    status, out, _ = _run(capsys, str(qrels), str(run), "-m", "RR", "--format", "json", "-j", jobs)
    assert list(json.loads(out)["per_query"]) == ["q1", "q10", "q2"]


def test_new_measures_by_name_and_in_help(files: tuple[str, str], capsys) -> None:
    names = ["ERR@10", "nDCG(dcg=exp-log2)@10", "IPrec@0.5", "Judged@2", "F1@2"]
    status, out, err = _run(capsys, *files, *(f"-m{name}" for name in names))
    assert status == 0 and err == ""
    # q1 ranks b (0), c (2), a (1): ERR = (3/16)/2 + (13/16)(1/16)/3; exp gains 3 and 1
    err_value = (3 / 16) / 2 + (13 / 16) * (1 / 16) / 3
    ndcg = (3 / log2(3) + 1 / 2) / (3 + 1 / log2(3))
    assert out.splitlines() == [
        f"ERR@10                \tall\t{err_value:6.4f}",
        f"nDCG(dcg=exp-log2)@10 \tall\t{ndcg:6.4f}",
        "IPrec@0.5             \tall\t0.6667",  # 1 of 2 relevant needed: best of 1/2, 2/3
        "Judged@2              \tall\t1.0000",
        "F1@2                  \tall\t0.5000",  # P@2 = R@2 = 1/2
    ]
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    for form in ("ERR[@k]", "IPrec[(rel=N)]@r", "Judged[@k]", "F1[(rel=N)]@k", "exp-log2"):
        assert form in shown
