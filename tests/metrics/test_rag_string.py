"""Ragas' non-LLM (string) context precision and recall equal Ragas' own code on random texts.

The references below are Ragas' scoring code, copied from the named file and lines, with the
async sample plumbing replaced by plain lists and Ragas' default similarity written as it is
computed there: ``1 - rapidfuzz.distance.Levenshtein.normalized_distance`` (rapidfuzz is the
reference, installed by the ``dev`` extra).
"""

from __future__ import annotations

import math
import random

import pytest
from tests.ci_gate import require_module

from rankcards.metrics import (
    levenshtein_similarity,
    ragas_string_context_precision,
    ragas_string_context_recall,
)

distance = require_module("rapidfuzz.distance", "pip install rapidfuzz, in .[dev]")


def ragas_similarity(reference: str, response: str) -> float:
    """Ragas v0.4.0 (commit 3e28e9de), src/ragas/metrics/_string.py, lines 94-96
    (``NonLLMStringSimilarity._single_turn_ascore`` with ``DistanceMeasure.LEVENSHTEIN``)."""
    return float(1 - distance.Levenshtein.normalized_distance(reference, response))


def ragas_nonllm_precision(
    retrieved_contexts: list[str], reference_contexts: list[str], threshold: float = 0.5
) -> float:
    """Ragas v0.4.0, src/ragas/metrics/_context_precision.py, lines 221-247
    (``NonLLMContextPrecisionWithReference._single_turn_ascore`` and
    ``_calculate_average_precision``)."""
    scores = []
    for rc in retrieved_contexts:
        scores.append(max([ragas_similarity(rc, ref) for ref in reference_contexts]))
    verdict_list = [1 if score >= threshold else 0 for score in scores]
    denominator = sum(verdict_list) + 1e-10
    numerator = sum(
        [(sum(verdict_list[: i + 1]) / (i + 1)) * verdict_list[i] for i in range(len(verdict_list))]
    )
    return numerator / denominator


def ragas_nonllm_recall(
    retrieved_contexts: list[str], reference_contexts: list[str], threshold: float = 0.5
) -> float:
    """Ragas v0.4.0, src/ragas/metrics/_context_recall.py, lines 201-223
    (``NonLLMContextRecall._single_turn_ascore`` and ``_compute_score``)."""
    scores = []
    for ref in reference_contexts:
        scores.append(max([ragas_similarity(rc, ref) for rc in retrieved_contexts]))
    response = [1 if score > threshold else 0 for score in scores]
    denom = len(response)
    numerator = sum(response)
    return numerator / denom if denom > 0 else math.nan


def _texts(rng: random.Random, count: int) -> list[str]:
    # short strings over a small alphabet, so that similarities of 0.5 and near it are common
    return ["".join(rng.choice("abc ") for _ in range(rng.randint(0, 6))) for _ in range(count)]


def test_similarity_equals_rapidfuzz() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        first, second = _texts(rng, 2)
        assert levenshtein_similarity(first, second) == pytest.approx(
            ragas_similarity(first, second), abs=1e-12
        )


def test_string_precision_and_recall_equal_ragas() -> None:
    rng = random.Random(8)
    halves = 0
    for _ in range(2000):
        retrieved = _texts(rng, rng.randint(1, 5))
        reference = _texts(rng, rng.randint(1, 4))
        assert ragas_string_context_precision(retrieved, reference) == pytest.approx(
            ragas_nonllm_precision(retrieved, reference), abs=1e-12
        )
        assert ragas_string_context_recall(retrieved, reference) == pytest.approx(
            ragas_nonllm_recall(retrieved, reference), abs=1e-12
        )
        halves += any(ragas_similarity(c, r) == 0.5 for c in retrieved for r in reference)
    assert halves > 100  # the >= / > difference was exercised


def test_a_similarity_of_one_half_matches_for_precision_only() -> None:
    # "ab" and "ax": one substitution over two characters
    assert levenshtein_similarity("ab", "ax") == 0.5
    assert ragas_string_context_precision(["ab"], ["ax"]) == pytest.approx(1.0, abs=1e-9)
    assert ragas_string_context_recall(["ab"], ["ax"]) == 0.0


def test_empty_sides_behave_as_ragas() -> None:
    assert math.isnan(ragas_string_context_recall([], []))
    assert math.isnan(ragas_nonllm_recall([], []))
    assert ragas_string_context_precision([], ["a"]) == ragas_nonllm_precision([], ["a"]) == 0.0
    with pytest.raises(ValueError) as caught:
        ragas_string_context_recall([], ["a"])
    assert str(caught.value) == "retrieved must hold at least one chunk"
    with pytest.raises(ValueError, match="reference must hold at least one context"):
        ragas_string_context_precision(["a"], [])
