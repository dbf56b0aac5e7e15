"""The bootstrap test's type I error: how often it says "significant" when nothing differs.

A seeded simulation at alpha = 0.05: samples of ``n`` = 5 to 20 per-query differences with mean
0, continuous (normal, as AP or nDCG differences) and with ties at 0 (half the queries tied, as
P@k or RR differences often are). A valid test rejects at most about 5% of them. The p read off
the percentile interval (the module's bootstrap p before the studentized shift test) rejected
6-16% at these sizes and is kept here as the contrast. ``SAMPLES`` = 199 resamples make
``alpha (1 + SAMPLES)`` a whole number, so the Monte Carlo test itself has level alpha.
"""

from __future__ import annotations

import random

import pytest

from rankcards.metrics import _stats

SIZES = (5, 10, 15, 20)
SAMPLES = 199
ALPHA = 0.05


def _continuous(n: int) -> list[list[float]]:
    generator = random.Random(f"continuous/{n}")
    return [[generator.gauss(0.0, 0.1) for _ in range(n)] for _ in range(600)]


def _tied(n: int) -> list[list[float]]:
    generator = random.Random(f"tied/{n}")
    return [
        [0.0 if generator.random() < 0.5 else generator.uniform(-1.0, 1.0) for _ in range(n)]
        for _ in range(300)
    ]


def _rejections(samples: list[list[float]], p_value) -> float:  # type: ignore[no-untyped-def]
    return sum(p_value(d, seed) < ALPHA for seed, d in enumerate(samples)) / len(samples)


def _shift_p(differences: list[float], seed: int) -> float:
    return _stats.bootstrap_test(differences, samples=SAMPLES, seed=seed).p


def _percentile_interval_p(differences: list[float], seed: int) -> float:
    """The former p: about the smallest alpha whose percentile interval leaves out 0."""
    means = _stats.bootstrap_means(differences, SAMPLES, seed)
    below = sum(m <= 0.0 for m in means)
    above = sum(m >= 0.0 for m in means)
    return min(1.0, 2 * (1 + min(below, above)) / (1 + SAMPLES))


@pytest.mark.slow
def test_bootstrap_type_i_error_stays_near_alpha_at_5_to_20_queries() -> None:
    shift = {n: _rejections(_continuous(n), _shift_p) for n in SIZES}
    former = {n: _rejections(_continuous(n), _percentile_interval_p) for n in SIZES}
    # 600 samples a size: a rate's standard error is 0.9 points at 5%.
    assert all(rate <= 0.065 for rate in shift.values()), shift
    assert 0.02 <= sum(shift.values()) / len(SIZES) <= 0.06, shift
    assert sum(former.values()) / len(SIZES) >= 0.08 and former[5] >= 0.12, former
    assert all(former[n] > shift[n] for n in SIZES), (former, shift)
    tied = {n: _rejections(_tied(n), _shift_p) for n in SIZES}
    tied_former = {n: _rejections(_tied(n), _percentile_interval_p) for n in SIZES}
    assert all(rate <= 0.065 for rate in tied.values()), tied
    assert sum(tied_former.values()) > sum(tied.values()) + 0.1, (tied_former, tied)
