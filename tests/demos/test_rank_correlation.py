"""rankcards.demos._rank_correlation (the rank-correlation card's functions until
rankcards.metrics has kendall_tau and tau_ap): Kendall's τ-b equals scipy.stats.kendalltau on
random scores with ties, to 1e-12; τ_AP equals its paper's definition on random orderings
without ties, computed here from the ranks: (2 / (n - 1)) Σ_{i=2..n} C(i) / (i - 1) - 1, where
C(i) counts the items above rank i of the second ordering that the first also puts above."""

from __future__ import annotations

import math
import random

import pytest

from ci_gate import skip_or_fail
from rankcards.demos._rank_correlation import kendall_tau, tau_ap


def _scipy_kendalltau():  # type: ignore[no-untyped-def]
    try:
        from scipy.stats import kendalltau
    except ImportError:
        skip_or_fail("scipy is needed to compare Kendall's tau (the dev extra installs it)")
    return kendalltau


def test_kendall_tau_b_equals_scipy_on_random_scores_with_ties() -> None:
    kendalltau = _scipy_kendalltau()
    draw = random.Random(20)
    for _ in range(300):
        n = draw.randint(2, 30)
        coarse = draw.choice([1, 2, 10])  # rounding to few decimals makes ties
        x = [round(draw.random(), coarse) for _ in range(n)]
        y = [round(draw.random(), coarse) for _ in range(n)]
        ours, theirs = kendall_tau(x, y), kendalltau(x, y).statistic
        if math.isnan(theirs):
            assert math.isnan(ours)
        else:
            assert abs(ours - theirs) <= 1e-12, (x, y)


def _paper_tau_ap(reference: list[float], other: list[float]) -> float:
    order = sorted(range(len(other)), key=lambda item: -other[item])  # other's ranking
    n = len(order)
    total = 0.0
    for rank in range(2, n + 1):
        item = order[rank - 1]
        above = order[: rank - 1]
        total += sum(reference[j] > reference[item] for j in above) / (rank - 1)
    return 2 * total / (n - 1) - 1


def test_tau_ap_equals_the_papers_definition_on_random_orderings() -> None:
    draw = random.Random(2008)
    for _ in range(300):
        n = draw.randint(2, 25)
        reference = draw.sample(range(1000), n)  # distinct: the paper assumes no ties
        other = draw.sample(range(1000), n)
        assert tau_ap(reference, other) == pytest.approx(_paper_tau_ap(reference, other), abs=1e-12)


def test_tau_ap_weighs_the_top_and_is_not_symmetric() -> None:
    truth = list(range(10, 0, -1))
    top = [truth[1], truth[0], *truth[2:]]
    bottom = [*truth[:8], truth[9], truth[8]]
    assert kendall_tau(truth, top) == kendall_tau(truth, bottom) == pytest.approx(1 - 2 / 45)
    assert tau_ap(truth, top) == pytest.approx(2 * 8 / 9 - 1)  # rank 2: 0 of 1; ranks 3-10: 1
    assert tau_ap(truth, bottom) == pytest.approx(2 * (8 + 8 / 9) / 9 - 1)
    other = [3, 1, 2, 4]
    assert tau_ap([4, 3, 2, 1], other) != tau_ap(other, [4, 3, 2, 1])


def test_undefined_and_bad_input() -> None:
    assert math.isnan(kendall_tau([1], [2])) and math.isnan(tau_ap([1], [2]))
    assert math.isnan(kendall_tau([1, 1, 1], [1, 2, 3])) and math.isnan(tau_ap([1, 2], [5, 5]))
    with pytest.raises(ValueError, match="3 and 2 items"):
        kendall_tau([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="NaN"):
        tau_ap([1.0, math.nan], [1.0, 2.0])
