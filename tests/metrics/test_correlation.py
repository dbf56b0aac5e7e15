"""Kendall's τ-b against scipy, and τ_AP against direct transcriptions of its definitions.

τ_AP has no reference implementation to import, so each test below transcribes a published
definition literally and compares on seeded random orderings:
- without ties, the SIGIR 2008 paper's formula, walking the candidate list rank by rank;
- with ties, Urbano & Marrero's one-sided τ_AP,b term, through ranks as their R package
  ``ircor`` computes it (``R/tauAP.R``, ``tauAP_b_ties``).
"""

from __future__ import annotations

import math
import random
from itertools import permutations

import pytest

from ci_gate import require_module
from rankcards.metrics import kendall_tau, tau_ap


def _random_cases(seed: int) -> list[tuple[list[float], list[float]]]:
    """Pairs of score lists: continuous, few distinct values (many ties), one side constant."""
    generator = random.Random(seed)
    cases = []
    for n in (2, 3, 4, 5, 8, 13, 30, 100, 400):
        for _ in range(6):
            continuous = [generator.random() for _ in range(2 * n)]
            cases.append((continuous[:n], continuous[n:]))
            levels = generator.randint(2, 4)
            cases.append(
                (
                    [float(generator.randrange(levels)) for _ in range(n)],
                    [float(generator.randrange(levels)) for _ in range(n)],
                )
            )
            base = [generator.random() for _ in range(n)]
            cases.append((base, [round(b + generator.gauss(0, 0.2), 1) for b in base]))
    cases.append(([1.0, 1.0, 1.0], [1.0, 2.0, 3.0]))
    return cases


CASES = _random_cases(2008)


def test_kendall_tau_equals_scipy_tau_b_with_ties() -> None:
    stats = require_module("scipy.stats", "pip install -e '.[dev]'")
    tied_cases = 0
    for x, y in CASES:
        expected = float(stats.kendalltau(x, y).statistic)
        ours = kendall_tau(x, y)
        if math.isnan(expected):
            assert math.isnan(ours), (x, y)
        else:
            assert abs(ours - expected) <= 1e-12, (x, y, ours, expected)
        tied_cases += len(set(x)) < len(x) or len(set(y)) < len(y)
    assert tied_cases > len(CASES) / 2  # the ties correction is exercised


def _paper_tau_ap(reference: list[float], candidate: list[float]) -> float:
    """Yilmaz, Aslam & Robertson (SIGIR 2008), section 3, for orderings without ties.

    The candidate list is the items sorted by candidate score, best first. For each rank
    i = 2..n, C(i) is the number of items above rank i in the candidate list that the
    reference also ranks above the item at rank i (correctly ordered with respect to it);
    p = (2 / (n - 1)) * sum_i C(i) / (i - 1) - 1.
    """
    n = len(reference)
    listed = sorted(range(n), key=lambda item: -candidate[item])
    total = 0.0
    for i in range(2, n + 1):
        item = listed[i - 1]
        correct = sum(1 for above in listed[: i - 1] if reference[above] > reference[item])
        total += correct / (i - 1)
    return 2.0 / (n - 1) * total - 1.0


def test_tau_ap_equals_the_papers_definition_without_ties() -> None:
    generator = random.Random(31)
    for n in (2, 3, 4, 5, 7, 10, 25, 60):
        for _ in range(40):
            reference = generator.sample(range(1000), n)
            candidate = generator.sample(range(1000), n)
            assert abs(tau_ap(reference, candidate) - _paper_tau_ap(reference, candidate)) <= 1e-12


def _ranks(values: list[float], method: str) -> list[float]:
    """R's ``rank`` (ascending) with ties.method "average", "first" or "min"."""
    order = sorted(range(len(values)), key=values.__getitem__)  # stable: "first" keeps order
    ranks = [0.0] * len(values)
    position = 0
    while position < len(order):
        end = position
        while end + 1 < len(order) and values[order[end + 1]] == values[order[position]]:
            end += 1
        for offset, item in enumerate(order[position : end + 1]):
            if method == "average":
                ranks[item] = (position + end) / 2 + 1
            elif method == "first":
                ranks[item] = position + offset + 1
            else:
                ranks[item] = position + 1
        position = end + 1
    return ranks


def _ircor_tau_ap_b_one_side(x: list[float], y: list[float]) -> float:
    """ircor's ``tauAP_b_ties(x, y)`` after its ``decreasing`` negation: the pivot items are
    those not in y's first tie group (p != 1); each counts the items of earlier y groups
    (p_j < p_i) ordered the same way by the ranks of x and y, divided by p_i - 1."""
    x, y = [-v for v in x], [-v for v in y]
    rx, ry, p = _ranks(x, "average"), _ranks(y, "first"), _ranks(y, "min")
    not_top = [i for i in range(len(x)) if p[i] != 1]
    total = 0.0
    for i in not_top:
        concordant = sum(
            1
            for j in range(len(x))
            if p[j] < p[i]
            and (rx[i] > rx[j]) - (rx[i] < rx[j]) == (ry[i] > ry[j]) - (ry[i] < ry[j])
        )
        total += concordant / (p[i] - 1)
    return 2.0 / len(not_top) * total - 1.0


def test_tau_ap_with_ties_is_urbano_and_marreros_one_sided_term() -> None:
    tied = 0
    for reference, other in CASES:
        if len(set(other)) == 1:
            assert math.isnan(tau_ap(reference, other))
            continue
        expected = _ircor_tau_ap_b_one_side(reference, other)
        assert abs(tau_ap(reference, other) - expected) <= 1e-12, (reference, other)
        tied += len(set(other)) < len(other) and len(set(reference)) < len(reference)
    assert tied > 40  # ties on both sides are exercised


@pytest.mark.parametrize(
    "scores", [[0.9, 0.7, 0.5, 0.2], [3.0, 1.0, 2.0, 2.0, 0.0], [1.0, 1.0, 0.0], [5.0, 4.0]]
)
def test_identical_orderings_give_1_and_reversed_give_minus_1(scores: list[float]) -> None:
    reversed_scores = [-s for s in scores]
    assert tau_ap(scores, scores) == 1.0
    assert tau_ap(scores, reversed_scores) == -1.0
    assert kendall_tau(scores, scores) == pytest.approx(1.0, abs=1e-15)
    assert kendall_tau(scores, reversed_scores) == pytest.approx(-1.0, abs=1e-15)


def test_tau_ap_is_asymmetric_and_tau_is_not() -> None:
    a, b = [4.0, 3.0, 2.0, 1.0], [3.0, 1.0, 4.0, 2.0]
    assert tau_ap(a, b) != pytest.approx(tau_ap(b, a))
    assert kendall_tau(a, b) == kendall_tau(b, a)


def test_a_swap_at_the_top_costs_tau_ap_more_than_one_at_the_bottom() -> None:
    # the point of the paper: Kendall's τ counts both swaps alike
    for n in range(3, 12):
        truth = list(range(n, 0, -1))
        top = [truth[1], truth[0], *truth[2:]]
        bottom = [*truth[:-2], truth[-1], truth[-2]]
        assert kendall_tau(truth, top) == kendall_tau(truth, bottom)
        assert tau_ap(truth, top) < tau_ap(truth, bottom)


def test_both_average_zero_over_every_ordering_of_five_items() -> None:
    truth = [5.0, 4.0, 3.0, 2.0, 1.0]
    orderings = [list(map(float, p)) for p in permutations(range(5))]
    assert abs(math.fsum(tau_ap(truth, o) for o in orderings)) <= 1e-9
    assert abs(math.fsum(kendall_tau(truth, o) for o in orderings)) <= 1e-9


def test_undefined_cases_are_nan_and_bad_input_raises() -> None:
    assert math.isnan(kendall_tau([], []))
    assert math.isnan(kendall_tau([1.0], [2.0]))
    assert math.isnan(kendall_tau([1.0, 1.0, 1.0], [1.0, 2.0, 3.0]))
    assert math.isnan(tau_ap([1.0], [1.0]))
    assert math.isnan(tau_ap([1.0, 2.0, 3.0], [0.5, 0.5, 0.5]))
    assert tau_ap([0.5, 0.5, 0.5], [1.0, 2.0, 3.0]) == -1.0  # every ordered pair unsupported
    with pytest.raises(ValueError, match="3 and 2 items"):
        kendall_tau([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match=r"tau_ap: .* NaN"):
        tau_ap([1.0, math.nan], [1.0, 2.0])
