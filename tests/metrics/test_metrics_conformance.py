"""Conformance with trec_eval's own test outputs (tests/data/trec_eval, NIST's test folder).

Every line of each expected output whose measure we implement is reproduced exactly as
trec_eval prints it (``%6.4f``, integers for counters), per query and for ``all``.
out.test.meas_params sets custom nDCG gains and other parameters that are not our measures:
only its iprec_at_recall (recall levels 0.10, 0.20, 0.25, 0.50, 0.75), P, recall and
success lines are checked.
"""

from __future__ import annotations

from metrics_support import reference_dir

from rankcards.metrics import MeasureSpec, evaluate, read_qrels, read_run
from rankcards.metrics._parse import spec_for_trec_eval

# expected output, qrels, run, evaluate() options (the trec_eval flags of each file)
CASES: list[tuple[str, str, str, dict[str, object]]] = [
    ("out.test", "qrels.test", "results.test", {}),
    ("out.test", "qrels.test.with-comments", "results.test", {}),
    ("out.comment.test", "qrels.comment.test.gz", "results.comment.test.gz", {}),
    ("out.test.a", "qrels.test", "results.test", {}),
    ("out.test.aq", "qrels.test", "results.test", {}),
    ("out.test.aqc", "qrels.test", "results.trunc", {"complete": True}),
    ("out.test.aqcM", "qrels.test", "results.trunc", {"complete": True, "depth": 100}),
    ("out.test.aql", "qrels.rel_level", "results.test", {"rel_level": 2}),
]


def _check(
    expected: str, qrels: str, run: str, options: dict[str, object], only: tuple[str, ...] = ()
) -> int:
    folder = reference_dir()
    wanted: list[tuple[MeasureSpec, str, str]] = []
    for line in (folder / expected).read_text(encoding="utf-8").splitlines():
        name, qid, value = line.split("\t")
        spec = spec_for_trec_eval(name.strip())
        if spec is not None and (not only or name.startswith(only)):
            wanted.append((spec, qid, value))
    specs = list({spec.name: spec for spec, _, _ in wanted}.values())
    result = evaluate(
        read_qrels(folder / qrels),
        read_run(folder / run),
        specs,
        **options,  # type: ignore[arg-type]
    )
    wrong = []
    for spec, qid, value in wanted:
        values = result.aggregate if qid == "all" else result.per_query[qid]
        got = values[spec.name]
        text = str(int(got)) if spec.measure.is_counter else f"{got:6.4f}"
        if text != value:
            wrong.append(f"{spec.name} {qid}: trec_eval {value}, ours {text}")
    assert not wrong, f"{expected}: " + "; ".join(wrong)
    return len(wanted)


def test_out_test() -> None:
    assert _check(*CASES[0]) == 28  # 17 + the 11 iprec_at_recall points


def test_out_test_with_comment_lines_in_qrels() -> None:
    assert _check(*CASES[1]) == 28  # 17 + the 11 iprec_at_recall points


def test_out_comment_test_graded_segment_ids() -> None:
    assert _check(*CASES[2]) == 28  # 17 + the 11 iprec_at_recall points


def test_out_test_a() -> None:
    assert _check(*CASES[3]) == 60  # 49 + the 11 iprec_at_recall points


def test_out_test_aq_per_query() -> None:
    assert _check(*CASES[4]) == 237  # 193 + 11 iprec_at_recall points x 4 rows


def test_out_test_aqc_complete() -> None:
    assert _check(*CASES[5]) == 237  # 193 + 11 iprec_at_recall points x 4 rows


def test_out_test_aqcm_complete_depth_100() -> None:
    assert _check(*CASES[6]) == 237  # 193 + 11 iprec_at_recall points x 4 rows


def test_out_test_aql_relevance_level_2() -> None:
    assert _check(*CASES[7]) == 237  # 193 + 11 iprec_at_recall points x 4 rows


def test_out_test_meas_params_iprec_levels_and_cutoffs() -> None:
    # trec_eval 10.0 -miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 -m recall.20,2000
    # -msuccess.2,5,20: 5 + 3 + 2 + 3 measures x 4 rows
    only = ("iprec_at_recall_", "P_", "recall_", "success_")
    assert _check("out.test.meas_params", "qrels.test", "results.test", {}, only) == 52
