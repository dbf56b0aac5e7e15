"""DCG and F(beta=X)@k: each equals its textbook definition, computed here from the judgments
without the measure modules, and agrees with the measures it generalises (nDCG = DCG / IDCG;
F(beta=1) = F1). Free of pytest and hypothesis: it also runs inside Pyodide."""

from __future__ import annotations

import random
from math import isclose, log2

from metrics_support import raises

from rankcards.metrics import MeasureError, evaluate, explain, parse_measure

DOCS = [f"d{i}" for i in range(15)]


def _random_case(rng: random.Random) -> tuple[list[str], dict[str, int]]:
    ranking = rng.sample(DOCS, rng.randint(1, len(DOCS)))
    judged = rng.sample(DOCS, rng.randint(0, len(DOCS)))
    return ranking, {doc: rng.choice([-1, 0, 0, 1, 1, 2, 3]) for doc in judged}


def _values(measures: list[str], ranking: list[str], judgments: dict[str, int]) -> list[float]:
    run = {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}
    result = evaluate({"q": judgments}, {"q": run}, measures)
    per_query = result.per_query.get("q", {})
    return [per_query.get(spec.name, 0.0) for spec in result.measures]


def _dcg(grades: list[int], exponential: bool) -> float:
    """sum of gain / log2(rank + 1), ranks from 1; gain = grade or 2^grade - 1 (positive only)."""
    return sum(
        ((2**g - 1) if exponential else g) / log2(rank + 1)
        for rank, g in enumerate(grades, 1)
        if g > 0
    )


def test_dcg_is_the_discounted_sum_and_ndcg_divides_it_by_the_ideal() -> None:
    rng = random.Random(19)
    for _ in range(400):
        ranking, judgments = _random_case(rng)
        k = rng.randint(1, 12)
        for exponential in (False, True):
            option = "(dcg=exp-log2)" if exponential else ""
            grades = [judgments.get(doc, 0) for doc in ranking]
            ideal = sorted((g for g in judgments.values() if g > 0), reverse=True)
            dcg, dcg_k, ndcg_k = _values(
                [f"DCG{option}", f"DCG{option}@{k}", f"nDCG{option}@{k}"], ranking, judgments
            )
            assert isclose(dcg, _dcg(grades, exponential), rel_tol=1e-12, abs_tol=1e-15)
            assert isclose(dcg_k, _dcg(grades[:k], exponential), rel_tol=1e-12, abs_tol=1e-15)
            idcg_k = _dcg(ideal[:k], exponential)
            want = dcg_k / idcg_k if idcg_k else 0.0
            assert isclose(ndcg_k, want, rel_tol=1e-12, abs_tol=1e-15)
            found = explain(f"DCG{option}@{k}", ranking, judgments)
            assert found.value == dcg_k and found.denominator == 1.0
            assert isclose(found.quantities["IDCG"], idcg_k, rel_tol=1e-12, abs_tol=1e-15)
            assert [step.grade for step in found.ideal] == ideal[:k]


def test_f_beta_is_van_rijsbergens_weighted_harmonic_mean() -> None:
    rng = random.Random(20)
    for _ in range(400):
        ranking, judgments = _random_case(rng)
        k = rng.randint(1, 12)
        beta = rng.choice([0.25, 0.5, 1.0, 2.0, 3.0])
        f_beta, f1, p, r = _values(
            [f"F(beta={beta})@{k}", f"F1@{k}", f"P@{k}", f"R@{k}"], ranking, judgments
        )
        want = (1 + beta**2) * p * r / (beta**2 * p + r) if p + r else 0.0
        assert isclose(f_beta, want, rel_tol=1e-12, abs_tol=1e-15), (beta, p, r)
        if beta == 1.0:
            assert isclose(f_beta, f1, rel_tol=1e-12, abs_tol=1e-15)


def test_f_beta_weights_recall_above_one_and_precision_below() -> None:
    # top 5 holds 1 of 4 relevant documents: P@5 = 0.2, R@5 = 0.25
    judgments = {"a": 1, "x": 1, "y": 1, "z": 1}
    ranking = ["a", "b", "c", "d", "e"]
    low, one, high = _values(["F(beta=0.5)@5", "F(beta=1)@5", "F(beta=2)@5"], ranking, judgments)
    assert isclose(one, 2 * 0.2 * 0.25 / 0.45)
    assert low < one < high  # recall (0.25) is the larger: weighting it raises F
    assert isclose(high, 5 * 0.2 * 0.25 / (4 * 0.2 + 0.25))


def test_f_beta_name_and_errors() -> None:
    assert parse_measure("F(beta=2)@5").name == "F(beta=2.0)@5"
    assert parse_measure("F@5").name == "F(beta=1.0)@5"  # beta is always shown
    with raises(MeasureError, "invalid value in 'F(beta=0)@5': beta must be a number > 0, got '0'"):
        parse_measure("F(beta=0)@5")
    with raises(MeasureError):
        parse_measure("F(beta=2)")  # F needs a cutoff, as F1
