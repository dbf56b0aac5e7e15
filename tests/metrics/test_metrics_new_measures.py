"""ERR, nDCG(dcg=exp-log2), IPrec, Judged, F1 and explain(): hand values, teaching functions
equal to evaluate(), and errors. Free of pytest and hypothesis: it also runs inside Pyodide."""

from __future__ import annotations

import random
from math import log2

from metrics_support import close, raises, table

from rankcards.metrics import (
    err_at_k,
    evaluate,
    explain,
    f1_at_k,
    interpolated_precision,
    judged_at_k,
    ndcg_at_k,
)


def _as_run(ranking: list[str]) -> dict[str, float]:
    return {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}


def _one(measure: str, ranking: list[str], judgments: dict[str, int], **options: object) -> float:
    result = evaluate({"q": judgments}, {"q": _as_run(ranking)}, [measure], **options)  # type: ignore[arg-type]
    return result.per_query["q"][next(iter(result.per_query["q"]))]


def test_hand_values() -> None:
    ranking = ["d1", "d2", "d3", "d4"]
    judgments = {"d1": 1, "d3": 4, "d4": 0, "d9": 2}

    def check(measure: str, want: float) -> None:
        got = _one(measure, ranking, judgments)
        assert close(got, want), got

    table(
        [
            ("ERR", 1 / 16 + (15 / 16) * (15 / 16) / 3),
            ("ERR@2", 1 / 16),
            # exp gains 1, 15, 3 (d9): DCG@3 = 1 + 15/log2(4); IDCG@3 = 15 + 3/log2(3) + 1/2
            ("nDCG(dcg=exp-log2)@3", (1 + 15 / 2) / (15 + 3 / log2(3) + 1 / 2)),
            ("nDCG@3", (1 + 4 / 2) / (4 + 2 / log2(3) + 1 / 2)),  # linear: the label itself
            ("Judged@2", 1 / 2),  # d1 judged, d2 not
            ("Judged", 3 / 4),  # d1, d3, d4 of 4
            ("Judged@10", 3 / 4),  # ir_measures: over the 4 ranked, not 10
            ("F1@2", 2 * (1 / 2) * (1 / 3) / (1 / 2 + 1 / 3)),
            ("F1@4", 2 * (2 / 4) * (2 / 3) / (2 / 4 + 2 / 3)),
            # relevant d1, d3, d9 (R = 3) at ranks 1, 3: precision 1, 2/3
            ("IPrec@0.0", 1.0),
            ("IPrec@0.5", 2 / 3),  # lround(1.5) = 2 relevant needed
            ("IPrec@0.6", 2 / 3),  # lround(1.8) = 2
            ("IPrec@0.9", 0.0),  # lround(2.7) = 3 > 2 retrieved
        ],
        check,
    )
    assert _one("F1@2", ["x", "y"], {"d1": 1}) == 0.0  # nothing relevant retrieved
    assert _one("IPrec@0.5", ["x"], {"x": 0}) == 0.0  # no relevant document at all


def test_err_caps_grades_at_four_and_ignores_the_relevance_level() -> None:
    assert _one("ERR", ["a"], {"a": 7}) == 15 / 16
    assert _one("ERR", ["a"], {"a": 1}, rel_level=2) == 1 / 16
    assert _one("ERR", ["a", "b"], {"a": -1, "b": 0}) == 0.0


def test_f1_divides_precision_by_k_even_on_a_short_ranking() -> None:
    # one relevant of one, found: P@5 = 1/5 (not 1/1 as set_F under -M 5), R@5 = 1
    assert close(_one("F1@5", ["a"], {"a": 1}), 2 * 0.2 * 1.0 / 1.2)


def test_teaching_functions_equal_evaluate() -> None:
    rng = random.Random(3)
    docs = [f"d{i}" for i in range(12)]
    for _ in range(300):
        ranking = rng.sample(docs, rng.randint(1, 12))
        grades = {d: rng.choice([0, 0, 1, 2, 3, 4]) for d in rng.sample(docs, rng.randint(1, 8))}
        relevant = {d for d, g in grades.items() if g >= 1}
        k = rng.choice([1, 3, 5, 20])
        r = rng.choice([0.0, 0.1, 0.25, 0.5, 0.75, 1.0])
        names = [
            f"ERR@{k}",
            "ERR",
            f"nDCG(dcg=exp-log2)@{k}",
            f"F1@{k}",
            f"IPrec@{r}",
            f"Judged@{k}",
        ]
        values = evaluate({"q": grades}, {"q": _as_run(ranking)}, names).per_query["q"]
        assert err_at_k(ranking, grades, k) == values[f"ERR@{k}"]
        assert err_at_k(ranking, grades) == values["ERR"]
        assert ndcg_at_k(ranking, grades, k, dcg="exp-log2") == values[f"nDCG(dcg=exp-log2)@{k}"]
        assert f1_at_k(ranking, relevant, k) == values[f"F1@{k}"]
        assert interpolated_precision(ranking, relevant, r) == values[f"IPrec@{r}"]
        assert judged_at_k(ranking, set(grades), k) == values[f"Judged@{k}"]


def test_teaching_argument_errors() -> None:
    with raises(ValueError, "recall must be a number in [0, 1], got 1.5"):
        interpolated_precision(["a"], {"a"}, 1.5)
    with raises(ValueError, "dcg must be 'log2' or 'exp-log2', got 'exp'"):
        ndcg_at_k(["a"], {"a": 1}, dcg="exp")
    with raises(ValueError, "k must be an integer >= 1, got 0"):
        f1_at_k(["a"], {"a"}, 0)
    with raises(ValueError, "document 'a' appears twice in the ranking"):
        judged_at_k(["a", "a"], {"a"})


def test_explained_terms_by_measure() -> None:
    ranking = ["d1", "d2", "d3", "d4"]
    judgments = {"d1": 1, "d3": 4, "d4": 0, "d9": 2}
    err = explain("ERR", ranking, judgments)
    assert [s.detail["stop"] for s in err.steps] == [1 / 16, 0.0, 15 / 16, 0.0]
    assert [s.detail["reach"] for s in err.steps] == [1.0, 15 / 16, 15 / 16, 15 / 256]
    assert err.steps[2].expression == "((2^4-1)/2^4)·0.9375/3"
    ndcg = explain("nDCG(dcg=exp-log2)@3", ranking, judgments)
    assert [s.expression for s in ndcg.steps] == ["(2^1-1)/log2(2)", "0", "(2^4-1)/log2(4)"]
    assert [(s.docno, s.grade) for s in ndcg.ideal] == [("d3", 4), ("d9", 2), ("d1", 1)]
    assert ndcg.quantities["IDCG"] == ndcg.denominator == sum(s.contribution for s in ndcg.ideal)
    bpref = explain("bpref", ["n1", "r1", "u", "n2", "r2"], {"n1": 0, "n2": 0, "r1": 1, "r2": 1})
    assert [s.expression for s in bpref.steps] == ["0", "1-1/2", "0", "0", "1-2/2"]
    assert [s.detail["nonrel_above"] for s in bpref.steps] == [1, 1, 1, 2, 2]
    rbp = explain("RBP(p=0.5)", ["a", "b"], {"a": 1, "b": 1})
    assert [s.contribution for s in rbp.steps] == [0.5, 0.25]
    assert rbp.steps[1].expression == "(1-0.5)·1·0.5^1"
    rr = explain("RR", ["a", "b", "c"], {"b": 1, "c": 1})
    assert [s.expression for s in rr.steps] == ["0", "1/2"]  # reading stops at the first
    assert (rr.numerator, rr.denominator) == (1.0, 2.0)
    iprec = explain("IPrec@0.5", ["d1", "d4", "d2", "d5", "d3"], {"d1": 1, "d2": 1, "d3": 1})
    assert (iprec.numerator, iprec.denominator) == (2.0, 3.0)  # 2 relevant by rank 3
    assert iprec.quantities["relevant_needed"] == 2.0
    f1 = explain("F1@2", ["d3", "d1", "d2"], {"d1": 1, "d2": 1, "d9": 1})
    assert (f1.numerator, f1.denominator) == (2.0, 5.0)  # 2 * 1 hit / (k + R)
    judged = explain("Judged@10", ["a", "b"], {"a": 0})
    assert (judged.numerator, judged.denominator) == (1.0, 2.0)
    success = explain("Success@3", ["a", "b", "c"], {"b": 1, "c": 1})
    assert [s.contribution for s in success.steps] == [0.0, 1.0, 0.0]
    assert success.quantities["relevant_retrieved"] == 2.0
