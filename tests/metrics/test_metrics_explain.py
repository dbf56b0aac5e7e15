"""explain(): the terms add up to the value, and the value is exactly evaluate()'s."""

from __future__ import annotations

import random
import warnings

from hypothesis import given, settings
from hypothesis import strategies as st
from metrics_support import raises

from rankcards.metrics import (
    Explanation,
    MeasureError,
    SubtopicWarning,
    evaluate,
    explain,
    parse_measure,
)
from rankcards.metrics._registry import MEASURES

#: every mean measure of the registry, in the forms cards use (checked complete below)
EXPLAINED = [
    "RR",
    "RR@3",
    "RR(rel=2)",
    "Success@1",
    "Success@5",
    "P@1",
    "P@5",
    "P(rel=2)@20",
    "R@3",
    "R(rel=2)@10",
    "F1@3",
    "F1@20",
    "F1(rel=2)@5",
    "F(beta=1)@3",
    "F(beta=0.5)@5",
    "F(beta=2,rel=2)@10",
    "Rprec",
    "Rprec(rel=2)",
    "AP",
    "AP@3",
    "AP(rel=2)@5",
    "IPrec@0.0",
    "IPrec@0.3",
    "IPrec@0.5",
    "IPrec@1.0",
    "IPrec(rel=2)@0.25",
    "nDCG",
    "nDCG@3",
    "nDCG(dcg=exp-log2)",
    "nDCG(dcg=exp-log2)@5",
    "DCG",
    "DCG@3",
    "DCG(dcg=exp-log2)@5",
    "ERR",
    "ERR@1",
    "ERR@5",
    "bpref",
    "bpref(rel=2)",
    "RBP",
    "RBP(p=0.5)",
    "RBP(p=0.95)",
    "Judged",
    "Judged@1",
    "Judged@5",
    "Judged@30",
    # diversity measures; plain labels are one subtopic (test_diversity_ndeval: several)
    "alpha_nDCG@1",
    "alpha_nDCG@5",
    "alpha_nDCG(alpha=0.9,rel=2)@3",
    "ERR_IA@1",
    "ERR_IA@5",
    "nERR_IA@5",
    "P_IA@3",
    "StRecall@5",
]


def test_every_mean_measure_has_an_explanation() -> None:
    means = [m for m in MEASURES if m.aggregate == "mean"]
    assert [m.name for m in means if m.explain is None] == []
    assert {parse_measure(name).measure.name for name in EXPLAINED} == {m.name for m in means}


DOCS = [f"d{i}" for i in range(12)]


def _evaluated(measure: str, ranking: list[str], judgments: dict[str, int], level: int) -> float:
    run = {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}
    with warnings.catch_warnings():  # a diversity measure on one subtopic: right here
        warnings.simplefilter("ignore", SubtopicWarning)
        result = evaluate({"q": judgments}, {"q": run}, [measure], rel_level=level)
    return next(iter(result.per_query["q"].values()))


def _check(result: Explanation, want: float) -> None:
    assert result.value == want, (result.value, want)
    if result.denominator == 0:
        assert result.value == 0.0
    else:
        assert abs(result.numerator / result.denominator - result.value) <= 1e-12
    total = sum(step.contribution for step in result.steps)
    assert abs(total - result.numerator) <= 1e-12, (total, result.numerator)


def _random_case(rng: random.Random) -> tuple[list[str], dict[str, int], int]:
    ranking = rng.sample(DOCS, rng.randint(0, len(DOCS)))
    judged = rng.sample(DOCS, rng.randint(0, len(DOCS)))
    judgments = {doc: rng.choice([-1, 0, 0, 1, 1, 2, 3, 4]) for doc in judged}
    return ranking, judgments, rng.choice([1, 1, 1, 2, 0])


def test_random_cases_add_up_to_evaluate() -> None:
    rng = random.Random(14)
    for _ in range(300):
        ranking, judgments, level = _random_case(rng)
        for measure in EXPLAINED:
            result = explain(measure, ranking, judgments, level=level)
            _check(result, _evaluated(measure, ranking, judgments, level))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(DOCS), unique=True, max_size=len(DOCS)),
    st.dictionaries(st.sampled_from(DOCS), st.integers(-1, 4)),
    st.integers(0, 2),
    st.sampled_from(EXPLAINED),
)
def test_hypothesis_add_up_to_evaluate(
    ranking: list[str], judgments: dict[str, int], level: int, measure: str
) -> None:
    _check(
        explain(measure, ranking, judgments, level=level),
        _evaluated(measure, ranking, judgments, level),
    )


def test_ap_terms_are_the_precision_at_each_relevant_rank() -> None:
    result = explain("AP", ["d1", "d4", "d2"], {"d1": 1, "d2": 2, "d4": 0, "d9": 1})
    assert [(s.rank, s.docno, s.grade, s.expression) for s in result.steps] == [
        (1, "d1", 1, "1/1"),
        (2, "d4", 0, "0"),
        (3, "d2", 2, "2/3"),
    ]
    assert [s.contribution for s in result.steps] == [1.0, 0.0, 2 / 3]
    assert result.denominator == 3.0
    assert result.quantities["R"] == 3.0
    assert result.value == (1 + 2 / 3) / 3
    assert result.measure == "AP"


def test_cutoff_limits_the_steps() -> None:
    result = explain("AP@2", ["d1", "d4", "d2"], {"d1": 1, "d2": 1})
    assert [s.docno for s in result.steps] == ["d1", "d4"]
    assert result.value == 0.5
    assert result.quantities["k"] == 2.0


def test_ties_in_a_score_mapping() -> None:
    scores = {"a": 1.0, "b": 1.0, "c": 2.0}
    judgments = {"a": 1}
    trec = explain("AP", scores, judgments)
    given_order = explain("AP", scores, judgments, ties="run-order")
    assert [s.docno for s in trec.steps] == ["c", "b", "a"]  # docno descending within the tie
    assert [s.docno for s in given_order.steps] == ["c", "a", "b"]
    assert trec.value == 1 / 3
    assert evaluate({"q": judgments}, {"q": scores}, ["AP"]).per_query["q"]["AP"] == trec.value
    assert given_order.value == 1 / 2


def test_errors_are_one_line() -> None:
    with raises(MeasureError):
        explain("num_ret", ["a"], {"a": 1})
    with raises(ValueError, "document 'a' appears twice in the ranking"):
        explain("AP", ["a", "a"], {})
    with raises(ValueError, "ties must be one of 'trec_eval', 'run-order', got 'random'"):
        explain("AP", ["a"], {}, ties="random")  # type: ignore[arg-type]
    with raises(ValueError, "label of 'a' must be an integer, got 0.5"):
        explain("AP", ["a"], {"a": 0.5})  # type: ignore[dict-item]
    with raises(ValueError, "score of 'b' must be a finite number, got nan"):
        explain("AP", {"a": 1.0, "b": float("nan")}, {})
    with raises(ValueError, "level must be an integer >= 0, got -1"):
        explain("AP", ["a"], {}, level=-1)


def _tied_run(rng: random.Random) -> dict[str, float]:
    docs = rng.sample(DOCS, rng.randint(1, len(DOCS)))
    return {doc: rng.choice([0.0, 0.5, 1.0, 1.0, 2.0]) for doc in docs}


def test_score_mappings_rank_as_evaluate_under_both_tie_rules() -> None:
    rng = random.Random(41)
    for _ in range(200):
        run = _tied_run(rng)
        _, judgments, level = _random_case(rng)
        for ties in ("trec_eval", "run-order"):
            result = evaluate({"q": judgments}, {"q": run}, EXPLAINED, rel_level=level, ties=ties)
            for measure, want in result.per_query["q"].items():
                _check(explain(measure, run, judgments, ties=ties, level=level), want)


def test_run_order_is_a_stable_sort_by_score() -> None:
    rng = random.Random(7)
    for _ in range(200):
        run = _tied_run(rng)
        _, judgments, _ = _random_case(rng)
        stable = sorted(run, key=lambda doc: -run[doc])  # an independent reference order
        ranked = explain("AP", run, judgments, ties="run-order")
        assert [step.docno for step in ranked.steps] == stable
        depth = rng.randint(1, 5)
        got = evaluate({"q": judgments}, {"q": run}, ["AP", "P@3"], ties="run-order", depth=depth)
        want = evaluate(
            {"q": judgments},
            {"q": {doc: float(-i) for i, doc in enumerate(stable[:depth])}},
            ["AP", "P@3"],
        )
        assert got.per_query == want.per_query


def test_evaluate_rejects_an_unknown_tie_rule() -> None:
    with raises(ValueError, "ties must be one of 'trec_eval', 'run-order', got 'docno'"):
        evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["AP"], ties="docno")  # type: ignore[arg-type]
