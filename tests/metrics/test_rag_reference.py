"""The RAG scores equal their reference implementations, quoted here from the tools' source.

Ragas (LLM stack) and nuggetizer are not installed for the tests: each reference below is the
tool's own scoring code, copied from the named file and lines with only the verdict objects
replaced by plain values, and compared with rankcards on random verdicts.
"""

from __future__ import annotations

import math
import random
from statistics import mean

import pytest

from rankcards.metrics import (
    NuggetScores,
    nugget_scores,
    ragas_context_precision,
    ragas_context_recall,
    ragas_id_context_precision,
    ragas_id_context_recall,
)


def ragas_calculate_average_precision(verdict_list: list[int]) -> float:
    """Ragas v0.4.0 (commit 3e28e9de), src/ragas/metrics/_context_precision.py, lines 118-126
    (``LLMContextPrecisionWithReference._calculate_average_precision``)."""
    denominator = sum(verdict_list) + 1e-10
    numerator = sum(
        [(sum(verdict_list[: i + 1]) / (i + 1)) * verdict_list[i] for i in range(len(verdict_list))]
    )
    score = numerator / denominator
    return score


def ragas_compute_recall(response: list[int]) -> float:
    """Ragas v0.4.0, src/ragas/metrics/_context_recall.py, lines 115-118
    (``LLMContextRecall._compute_score``; ``np.nan`` as ``math.nan``)."""
    denom = len(response)
    numerator = sum(response)
    score = numerator / denom if denom > 0 else math.nan
    return score


def ragas_id_precision(
    retrieved_context_ids: list[object], reference_context_ids: list[object]
) -> float:
    """Ragas v0.4.0, src/ragas/metrics/_context_precision.py, lines 286-303
    (``IDBasedContextPrecision._single_turn_ascore``)."""
    retrieved_ids_set = set(str(id) for id in retrieved_context_ids)
    reference_ids_set = set(str(id) for id in reference_context_ids)
    total_retrieved = len(retrieved_ids_set)
    if total_retrieved == 0:
        return math.nan
    hits = sum(1 for ret_id in retrieved_ids_set if str(ret_id) in reference_ids_set)
    score = hits / total_retrieved
    return score


def ragas_id_recall(
    retrieved_context_ids: list[object], reference_context_ids: list[object]
) -> float:
    """Ragas v0.4.0, src/ragas/metrics/_context_recall.py, lines 262-272
    (``IDBasedContextRecall._single_turn_ascore``)."""
    retrieved_ids_set = set(str(id) for id in retrieved_context_ids)
    reference_ids_set = set(str(id) for id in reference_context_ids)
    hits = sum(1 for ref_id in reference_ids_set if str(ref_id) in retrieved_ids_set)
    total_refs = len(reference_ids_set)
    score = hits / total_refs if total_refs > 0 else math.nan
    return score


def nuggetizer_calculate_nugget_scores(nuggets: list[dict[str, str]]) -> dict[str, float]:
    """nuggetizer 0.0.6 (commit d00dc3eb), src/nuggetizer/core/metrics.py, lines 16-39
    (``calculate_nugget_scores``; its NuggetMetrics as a dict)."""
    vital_nuggets = [n for n in nuggets if n["importance"] == "vital"]
    all_nuggets = nuggets
    strict_vital_supported = sum(1 for n in vital_nuggets if n["assignment"] == "support")
    strict_all_supported = sum(1 for n in all_nuggets if n["assignment"] == "support")
    vital_supported = strict_vital_supported + sum(
        0.5 for n in vital_nuggets if n["assignment"] == "partial_support"
    )
    all_supported = strict_all_supported + sum(
        0.5 for n in all_nuggets if n["assignment"] == "partial_support"
    )
    strict_vital_score = strict_vital_supported / len(vital_nuggets) if vital_nuggets else 0.0
    strict_all_score = strict_all_supported / len(all_nuggets) if all_nuggets else 0.0
    vital_score = vital_supported / len(vital_nuggets) if vital_nuggets else 0.0
    all_score = all_supported / len(all_nuggets) if all_nuggets else 0.0
    return {
        "strict_vital_score": strict_vital_score,
        "strict_all_score": strict_all_score,
        "vital_score": vital_score,
        "all_score": all_score,
    }


def _same(got: float, want: float) -> bool:
    return (math.isnan(got) and math.isnan(want)) or got == want


def test_context_precision_and_recall_equal_ragas() -> None:
    rng = random.Random(4)
    for _ in range(2000):
        verdicts = [rng.choice([0, 1]) for _ in range(rng.randint(0, 12))]
        assert ragas_context_precision(verdicts) == ragas_calculate_average_precision(verdicts)
        assert _same(ragas_context_recall(verdicts), ragas_compute_recall(verdicts))
        as_bools = [bool(v) for v in verdicts]
        assert ragas_context_precision(as_bools) == ragas_calculate_average_precision(verdicts)


def test_id_based_variants_equal_ragas() -> None:
    rng = random.Random(5)
    pool: list[object] = ["c1", "c2", "c3", 4, "4", 5, "c6"]
    for _ in range(2000):
        retrieved = [rng.choice(pool) for _ in range(rng.randint(0, 6))]
        reference = [rng.choice(pool) for _ in range(rng.randint(0, 6))]
        assert _same(
            ragas_id_context_precision(retrieved, reference),
            ragas_id_precision(retrieved, reference),
        )
        assert _same(
            ragas_id_context_recall(retrieved, reference), ragas_id_recall(retrieved, reference)
        )


def test_nugget_scores_equal_autonuggetizer() -> None:
    rng = random.Random(6)
    for _ in range(2000):
        nuggets = [
            {
                "text": "a fact",
                "importance": rng.choice(["vital", "okay"]),
                "assignment": rng.choice(["support", "partial_support", "not_support"]),
            }
            for _ in range(rng.randint(0, 8))
        ]
        want = nuggetizer_calculate_nugget_scores(nuggets)
        assert nugget_scores(nuggets) == NuggetScores(**want)


def test_ragas_context_precision_is_not_average_precision() -> None:
    # one useful chunk at rank 1 of 3 retrieved, while 2 more useful chunks were never
    # retrieved: Ragas divides by the useful chunks it saw (1), AP by all relevant ones (3)
    assert ragas_context_precision([1, 0, 0]) == pytest.approx(1.0, abs=1e-9)
    assert ragas_context_precision([1]) == 0.9999999999  # the 1e-10 keeps it below 1
    assert ragas_context_precision([0, 1]) == pytest.approx(0.5, abs=1e-9)


def test_a_query_without_vital_nuggets_scores_zero_on_the_vital_scores() -> None:
    scores = nugget_scores([{"importance": "okay", "assignment": "support"}])
    assert (scores.strict_vital_score, scores.vital_score) == (0.0, 0.0)
    assert (scores.strict_all_score, scores.all_score) == (1.0, 1.0)
    # the mean over queries, as calculate_global_metrics (lines 50-62) takes it
    other = nugget_scores([{"importance": "vital", "assignment": "partial_support"}])
    assert mean([scores.vital_score, other.vital_score]) == 0.25


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: ragas_context_precision([1, 2]), "verdicts[1] must be 0, 1, True or False, got 2"),
        (
            lambda: ragas_context_precision("101"),
            "verdicts must be a sequence of 0/1 verdicts, got '101'",
        ),
        (lambda: ragas_context_recall([0.5]), "attributed[0] must be 0, 1, True or False, got 0.5"),
        (
            lambda: nugget_scores([{"importance": "Vital", "assignment": "support"}]),
            "nuggets[0]['importance'] must be one of vital, okay, got 'Vital'",
        ),
        (
            lambda: nugget_scores([{"importance": "okay"}]),
            "nuggets[0]['assignment'] must be one of support, partial_support, not_support, "
            "got None",
        ),
    ],
)
def test_bad_verdicts_are_one_line_errors(call: object, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        call()  # type: ignore[operator]
    assert str(caught.value) == message
