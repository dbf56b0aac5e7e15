"""The diversity measures equal ndeval as ir_measures runs it (its pyndeval provider).

References: ir_measures 0.4.3 (``providers/pyndeval_provider.py``) and pyndeval 0.0.8, which
bundles ndeval 4.5 (``src/ndeval.c``). Random diversity qrels (``qid subtopic docno rel``) with
graded and negative labels, documents relevant to no subtopic, queries with no relevant
document; runs with ties, shorter than k, missing queries; several alphas and levels.

Two conventions of the references are worked around, and each is pinned by its own test:
pyndeval breaks equal scores by docno ascending (rankcards: trec_eval's docno descending), so
tied runs reach it re-scored in rankcards' order; ir_measures averages over every qrels query
(rankcards: ``complete=True``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from metrics_support import raises

from ci_gate import require_module
from rankcards.metrics import (
    SubtopicWarning,
    TrecFormatError,
    evaluate,
    evaluate_files,
    explain,
    read_qrels,
)
from rankcards.metrics import read_run as read_trec_run
from rankcards.metrics._registry import MEASURES
from rankcards.metrics._subtopics import SUBTOPIC_MEASURES

CUTOFFS = (1, 2, 3, 5, 10, 20)
ALPHAS = (0.0, 0.3, 0.5, 0.9, 1.0)


@pytest.fixture(scope="module")
def ir_measures() -> Any:
    require_module("pyndeval", "pip install pyndeval")
    return require_module("ir_measures", "pip install ir_measures")


def _random_case(rng: random.Random) -> tuple[list[str], list[str]]:
    """Qrels lines and run lines, each query's run lines together (as pyndeval needs)."""
    subtopic_names = rng.sample(["1", "2", "3", "4", "7", "12"], rng.randint(1, 5))
    docs = [f"d{i:02d}" for i in range(rng.randint(3, 16))]
    qrels, run = [], []
    for q in range(rng.randint(1, 5)):
        qid = f"q{q}"
        for subtopic in rng.sample(subtopic_names, rng.randint(1, len(subtopic_names))):
            for doc in rng.sample(docs, rng.randint(0, len(docs))):
                label = rng.choice([-1, 0, 0, 0, 1, 1, 2, 3])
                qrels.append(f"{qid} {subtopic} {doc} {label}")
        if q and rng.random() < 0.2:
            continue  # a qrels query missing from the run
        ranked = rng.sample([*docs, "u1", "u2", "u3"], rng.randint(1, len(docs) + 3))
        scores = [rng.choice([0.5, 1.0, 1.5, 2.0, rng.random()]) for _ in ranked]
        run.extend(
            f"{qid} Q0 {doc} 0 {score!r} r" for doc, score in zip(ranked, scores, strict=True)
        )
    if not qrels:
        qrels.append("q0 1 d00 1")
    rng.shuffle(qrels)
    run.append("q9 Q0 d00 0 1.0 r")  # a run query missing from the qrels
    return qrels, run


def _untied(run_lines: list[str]) -> list[tuple[str, str, float]]:
    """The run as (qid, docno, score), re-scored in rankcards' order (score descending, docno
    descending) so that pyndeval, which orders ties by docno ascending, ranks it the same."""
    run = read_trec_run(run_lines)
    rows = []
    for qid in run:
        scored = sorted(run[qid].items(), key=lambda item: item[0], reverse=True)
        scored.sort(key=lambda item: item[1], reverse=True)
        rows.extend((qid, doc, float(len(scored) - i)) for i, (doc, _) in enumerate(scored))
    return rows


def _reference(
    ir_measures: Any, qrels_lines: list[str], rows: list[tuple[str, str, float]], name: str
) -> tuple[dict[str, float], float]:
    """ir_measures' per-query values and mean for one measure (one call per measure: a second
    pyndeval invocation in one call, another alpha or rel, gets an exhausted run)."""
    qrels = []
    for line in qrels_lines:
        qid, subtopic, doc, label = line.split()
        qrels.append(ir_measures.Qrel(qid, doc, int(label), subtopic))
    run = [ir_measures.ScoredDoc(qid, doc, score) for qid, doc, score in rows]
    measure = ir_measures.parse_measure(name)
    per_query = {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, run)}
    return per_query, ir_measures.calc_aggregate([measure], qrels, run)[measure]


def _names(rng: random.Random) -> list[str]:
    names = []
    for k in rng.sample(CUTOFFS, 3):
        alpha = rng.choice(ALPHAS)
        names.append(f"alpha_nDCG@{k}" if alpha == 0.5 else f"alpha_nDCG(alpha={alpha})@{k}")
        names += [f"ERR_IA@{k}", f"nERR_IA@{k}", f"P_IA@{k}", f"StRecall@{k}"]
    return names


def test_random_cases_equal_ndeval_through_ir_measures(ir_measures: Any) -> None:
    rng = random.Random(2008)
    compared = 0
    for _ in range(60):
        qrels_lines, run_lines = _random_case(rng)
        level = rng.choice([1, 1, 2])
        names = [
            name.replace("@", f"(rel={level})@") if level != 1 else name for name in _names(rng)
        ]
        names = [name.replace(")(", ",") for name in names]  # alpha_nDCG(alpha=X)(rel=N)
        qrels = read_qrels(qrels_lines)
        run = read_trec_run(run_lines)
        with pytest.warns() if not qrels.has_several_subtopics() else _no_warning():
            ours = evaluate(qrels, run, names)
            complete = evaluate(qrels, run, names, complete=True)
        rows = _untied(run_lines)
        for name in names:
            want, mean = _reference(ir_measures, qrels_lines, rows, name)
            for qid, values in ours.per_query.items():
                assert values[name] == want[qid], (name, qid)  # bit for bit
                compared += 1
            assert complete.aggregate[name] == pytest.approx(mean, abs=1e-12), name
    assert compared > 1000


class _no_warning:
    """A context that fails if a SubtopicWarning is raised inside it."""

    def __enter__(self) -> None:
        import warnings

        self._catcher = warnings.catch_warnings(record=True)
        self._seen = self._catcher.__enter__()
        warnings.simplefilter("always")

    def __exit__(self, *exc: object) -> None:
        self._catcher.__exit__(*exc)
        assert not [w for w in self._seen if issubclass(w.category, SubtopicWarning)]


def test_ties_pyndeval_orders_by_docno_ascending(ir_measures: Any) -> None:
    # a and b tie; rankcards (trec_eval) ranks b first, pyndeval a first: StRecall@1 tells which
    qrels = ["q1 1 a 1", "q1 2 b 1"]
    run = ["q1 Q0 a 1 1.0 r", "q1 Q0 b 2 1.0 r"]
    ours = evaluate(read_qrels(qrels), read_trec_run(run), ["P_IA@1", "ERR_IA@1"])
    tied = [("q1", "a", 1.0), ("q1", "b", 1.0)]
    b_first = [("q1", "b", 2.0), ("q1", "a", 1.0)]
    assert _reference(ir_measures, qrels, tied, "P_IA@1")[0] == {"q1": 0.5}
    assert ours.per_query["q1"]["P_IA@1"] == 0.5
    # an asymmetric case: a covers two subtopics, b one
    qrels = ["q1 1 a 1", "q1 2 a 1", "q1 3 b 1"]
    ours = evaluate(read_qrels(qrels), read_trec_run(run), ["P_IA@1"]).per_query["q1"]["P_IA@1"]
    assert ours == pytest.approx(1 / 3)  # b first, as trec_eval orders ties
    assert _reference(ir_measures, qrels, b_first, "P_IA@1")[0]["q1"] == pytest.approx(1 / 3)
    assert _reference(ir_measures, qrels, tied, "P_IA@1")[0]["q1"] == pytest.approx(2 / 3)


def test_ir_measures_averages_over_every_qrels_query(ir_measures: Any) -> None:
    qrels = ["q1 1 a 1", "q1 2 b 1", "q2 1 x 1", "q2 2 y 1"]
    run = ["q1 Q0 a 1 2.0 r", "q1 Q0 b 2 1.0 r"]
    _, mean = _reference(ir_measures, qrels, [("q1", "a", 2.0), ("q1", "b", 1.0)], "StRecall@2")
    judged, ranked = read_qrels(qrels), read_trec_run(run)
    assert mean == 0.5  # (1 + 0) / 2: q2, missing from the run, scores 0
    assert evaluate(judged, ranked, ["StRecall@2"]).aggregate["StRecall@2"] == 1.0
    assert evaluate(judged, ranked, ["StRecall@2"], complete=True).aggregate["StRecall@2"] == mean


def test_hand_computed_alpha_ndcg() -> None:
    # Clarke et al. 2008's gain, ndeval's greedy ideal: subtopics 1, 2, 3
    qrels = ["q 1 a 1", "q 2 a 1", "q 1 b 1", "q 3 c 1"]
    run = ["q Q0 b 1 3 r", "q Q0 a 2 2 r", "q Q0 c 3 1 r"]
    value = evaluate(read_qrels(qrels), read_trec_run(run), ["alpha_nDCG@3"])
    # run: b gains 1; a gains 0.5 (subtopic 1 seen once) + 1; c gains 1
    dcg = 1 + 1.5 / _log2(3) + 1 / _log2(4)
    # greedy ideal: a (2), then c (1) beats b (0.5), then b (0.5)
    ideal = 2 + 1 / _log2(3) + 0.5 / _log2(4)
    assert value.per_query["q"]["alpha_nDCG@3"] == pytest.approx(dcg / ideal, abs=1e-15)


def _log2(x: float) -> float:
    import math

    return math.log2(x)


def test_err_ia_at_1_is_left_unnormalised_as_ndeval() -> None:
    qrels = ["q 1 a 1", "q 2 a 1", "q 3 a 1"]
    result = evaluate(read_qrels(qrels), {"q": {"a": 1.0}}, ["ERR_IA@1", "ERR_IA@2"])
    assert result.per_query["q"]["ERR_IA@1"] == 3.0  # a covers 3 subtopics: gain 3, not 3/3
    assert result.per_query["q"]["ERR_IA@2"] == pytest.approx(3 / (3 + 1.5 / 2))


def test_only_subtopics_with_a_relevant_document_count() -> None:
    qrels = ["q 1 a 1", "q 2 b 0", "q 3 c 2"]
    result = evaluate(read_qrels(qrels), {"q": {"a": 2.0, "b": 1.0}}, ["StRecall@5", "P_IA@2"])
    assert result.per_query["q"] == {"StRecall@5": 0.5, "P_IA@2": 0.25}  # N = 2, not 3


def test_single_subtopic_qrels_warns_in_one_line() -> None:
    with pytest.warns(SubtopicWarning) as caught:
        evaluate(
            read_qrels(["q 0 a 1", "q 0 b 1"], name="adhoc.qrels"),
            {"q": {"a": 1.0}},
            ["alpha_nDCG@5", "P@5"],
        )
    message = str(caught[0].message)
    assert "\n" not in message
    assert message == (
        "all queries of adhoc.qrels have only 1 subtopic: the diversity measures "
        "(alpha_nDCG@5) are probably not valid; a diversity qrels has the subtopic in its "
        "second column ('qid subtopic docno rel')"
    )


def test_a_docno_under_two_subtopics_refuses_other_measures() -> None:
    qrels = read_qrels(["q 1 a 1", "q 2 a 0"], name="div.qrels")
    message = (
        "div.qrels:2: docno 'a' is judged under two subtopics of query 'q' ('1' and '2'): "
        "nDCG@10 needs one label per document; only the diversity measures (alpha_nDCG, "
        "ERR_IA, nERR_IA, P_IA, StRecall) read a subtopic qrels"
    )
    with raises(TrecFormatError, message):
        evaluate(qrels, {"q": {"a": 1.0}}, ["alpha_nDCG@10", "nDCG@10"])
    result = evaluate(qrels, {"q": {"a": 1.0}}, ["alpha_nDCG@10"])
    assert result.aggregate == {"alpha_nDCG@10": 1.0}


def test_same_subtopic_twice_is_still_an_error() -> None:
    with raises(TrecFormatError, "<lines>:2: docno 'a' appears twice for query 'q'"):
        read_qrels(["q 1 a 1", "q 1 a 0"])


def test_mappings_and_files_give_the_same_values(tmp_path: Any) -> None:
    rng = random.Random(5)
    for _ in range(20):
        qrels_lines, run_lines = _random_case(rng)
        names = _names(rng)
        (tmp_path / "qrels").write_text("\n".join(qrels_lines) + "\n")
        (tmp_path / "run").write_text("\n".join(run_lines) + "\n")
        qrels = read_qrels(qrels_lines)
        nested: dict[str, dict[str, dict[str, int]]] = {}
        for line in qrels_lines:
            qid, subtopic, doc, label = line.split()
            nested.setdefault(qid, {}).setdefault(doc, {})[subtopic] = int(label)
        with _warnings_ignored():
            want = evaluate(qrels, read_trec_run(run_lines), names, complete=True)
            from_files = evaluate_files(tmp_path / "qrels", tmp_path / "run", names, complete=True)
            from_dicts = evaluate(nested, read_trec_run(run_lines), names, complete=True)
        assert from_files.per_query == want.per_query
        # a mapping numbers subtopics per document order: equal up to rounding
        for qid, values in want.per_query.items():
            for name, value in values.items():
                assert from_dicts.per_query[qid][name] == pytest.approx(value, abs=1e-12)


def test_explain_terms_add_up_and_equal_evaluate() -> None:
    rng = random.Random(11)
    for _ in range(100):
        qrels_lines, run_lines = _random_case(rng)
        qrels = read_qrels(qrels_lines)
        run = read_trec_run(run_lines)
        qid = next(q for q in run if q in qrels)
        judgments: dict[str, dict[str, int]] = {}
        for line in qrels_lines:
            q, subtopic, doc, label = line.split()
            if q == qid:
                judgments.setdefault(doc, {})[subtopic] = int(label)
        for name in _names(rng):
            with _warnings_ignored():
                want = evaluate({qid: judgments}, {qid: run[qid]}, [name]).per_query[qid][name]
            got = explain(name, run[qid], judgments)
            assert got.value == want
            assert sum(step.contribution for step in got.steps) == pytest.approx(got.numerator)
            if got.denominator:
                assert got.numerator / got.denominator == pytest.approx(got.value, abs=1e-12)


def test_registry_lists_the_subtopic_measures() -> None:
    assert tuple(m.name for m in MEASURES if m.subtopics) == SUBTOPIC_MEASURES


class _warnings_ignored:
    def __enter__(self) -> None:
        import warnings

        self._catcher = warnings.catch_warnings()
        self._catcher.__enter__()
        warnings.simplefilter("ignore", SubtopicWarning)

    def __exit__(self, *exc: object) -> None:
        self._catcher.__exit__(*exc)


DIVERSE_QRELS = "q1 1 a 1\nq1 2 a 1\nq1 1 b 1\nq1 3 c 2\nq2 1 x 0\n"
DIVERSE_RUN = "q1 Q0 b 1 3 s\nq1 Q0 a 2 2 s\nq1 Q0 c 3 1 s\nq2 Q0 x 1 1 s\n"


def _cli(capsys: Any, *argv: str) -> tuple[int, str, str]:
    from rankcards.cli import main

    status = main(["eval", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_cli_json_equals_evaluate(tmp_path: Any, capsys: Any) -> None:
    import json

    (tmp_path / "div.qrels").write_text(DIVERSE_QRELS)
    (tmp_path / "div.run").write_text(DIVERSE_RUN)
    names = ["alpha_nDCG@3", "alpha_nDCG(alpha=0.2)@2", "ERR_IA@3", "nERR_IA@3", "P_IA@2"]
    args = [str(tmp_path / "div.qrels"), str(tmp_path / "div.run"), "--format", "json"]
    status, out, err = _cli(capsys, *args, *(f"-m{name}" for name in [*names, "StRecall@1"]))
    assert (status, err) == (0, "")
    want = evaluate(
        read_qrels(DIVERSE_QRELS.splitlines()),
        read_trec_run(DIVERSE_RUN.splitlines()),
        [*names, "StRecall@1"],
    )
    assert json.loads(out) == {"per_query": want.per_query, "aggregate": want.aggregate}
    assert want.per_query["q1"]["StRecall@1"] == 1 / 3  # b covers subtopic 1 of 3


def test_cli_warns_in_one_line_on_a_single_subtopic_qrels(tmp_path: Any, capsys: Any) -> None:
    (tmp_path / "adhoc.qrels").write_text("q1 0 a 1\nq1 0 b 1\n")
    (tmp_path / "adhoc.run").write_text("q1 Q0 a 1 1 s\n")
    status, out, err = _cli(
        capsys, str(tmp_path / "adhoc.qrels"), str(tmp_path / "adhoc.run"), "-m", "P_IA@5"
    )
    assert status == 0
    assert out == "P_IA@5                \tall\t0.2000\n"  # a: 1 pair of 5 x 1
    assert err == (
        f"rankcards eval: warning: all queries of {tmp_path / 'adhoc.qrels'} have only 1 "
        "subtopic: the diversity measures (P_IA@5) are probably not valid; a diversity qrels "
        "has the subtopic in its second column ('qid subtopic docno rel')\n"
    )


@pytest.mark.parametrize(
    ("command", "extra"),
    [("compare", ["other.run"]), ("agree", ["adhoc.qrels", "--runs", "adhoc.run", "other.run"])],
)
def test_compare_and_agree_warn_once_in_one_line_as_eval_does(
    tmp_path: Any, capsys: Any, command: str, extra: list[str]
) -> None:
    """Each run evaluated raises the warning again: the command says it once, as its errors."""
    from rankcards.cli import main

    (tmp_path / "adhoc.qrels").write_text("q1 0 a 1\nq1 0 b 1\nq2 0 c 1\n")
    (tmp_path / "adhoc.run").write_text("q1 Q0 a 1 1 s\nq2 Q0 c 1 1 s\n")
    (tmp_path / "other.run").write_text("q1 Q0 b 1 1 t\nq2 Q0 a 1 1 t\n")
    first = ["adhoc.qrels"] if command == "agree" else ["adhoc.qrels", "adhoc.run"]
    paths = [str(tmp_path / name) if not name.startswith("-") else name for name in first + extra]
    status = main([command, *paths, "-m", "P_IA@5"])
    out, err = capsys.readouterr()
    assert status == 0 and out
    assert err == (
        f"rankcards {command}: warning: all queries of {tmp_path / 'adhoc.qrels'} have only 1 "
        "subtopic: the diversity measures (P_IA@5) are probably not valid; a diversity qrels "
        "has the subtopic in its second column ('qid subtopic docno rel')\n"
    )


def test_cli_refuses_a_flat_measure_on_a_subtopic_qrels(tmp_path: Any, capsys: Any) -> None:
    (tmp_path / "div.qrels").write_text(DIVERSE_QRELS)
    (tmp_path / "div.run").write_text(DIVERSE_RUN)
    status, out, err = _cli(capsys, str(tmp_path / "div.qrels"), str(tmp_path / "div.run"))
    assert (status, out) == (1, "")
    assert err.startswith(
        f"rankcards eval: {tmp_path / 'div.qrels'}:2: docno 'a' is judged under two subtopics "
        "of query 'q1' ('1' and '2'): RR needs one label per document"
    )
    assert err.count("\n") == 1


def test_teaching_functions_equal_evaluate() -> None:
    from rankcards.metrics import (
        alpha_ndcg_at_k,
        diverse_ideal_ranking,
        err_ia_at_k,
        nerr_ia_at_k,
        precision_ia_at_k,
        subtopic_recall_at_k,
    )

    rng = random.Random(3)
    docs = [f"d{i}" for i in range(10)]
    for _ in range(200):
        covers = {
            doc: set(rng.sample("abcd", rng.randint(0, 3)))
            for doc in rng.sample(docs, rng.randint(1, 10))
        }
        ranking = rng.sample(docs, rng.randint(0, 10))
        k, alpha = rng.randint(1, 12), rng.choice(ALPHAS)
        # the same judgments as a diversity qrels: subtopics numbered as the teaching ones
        nested = {doc: {s: 1 for s in sorted(found)} or {"-": 0} for doc, found in covers.items()}
        run = {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}
        names = [f"alpha_nDCG(alpha={alpha})@{k}", f"ERR_IA@{k}", f"nERR_IA@{k}", f"P_IA@{k}"]
        names.append(f"StRecall@{k}")
        with _warnings_ignored():
            want = evaluate({"q": nested}, {"q": run}, names, complete=True).per_query["q"]
        got = [
            alpha_ndcg_at_k(ranking, covers, k, alpha),
            err_ia_at_k(ranking, covers, k),
            nerr_ia_at_k(ranking, covers, k),
            precision_ia_at_k(ranking, covers, k),
            subtopic_recall_at_k(ranking, covers, k),
        ]
        for name, value in zip(names, got, strict=True):
            assert value == pytest.approx(want[parse_name(name)], abs=1e-12), name
        ideal = diverse_ideal_ranking(covers, k, alpha)
        assert alpha_ndcg_at_k(ideal, covers, k, alpha) == pytest.approx(1.0) or not ideal
        assert len(ideal) == min(k, sum(1 for found in covers.values() if found))


def parse_name(name: str) -> str:
    from rankcards.metrics import parse_measure

    return parse_measure(name).name
