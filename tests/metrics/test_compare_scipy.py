"""The comparison statistics against scipy (a dev dependency; the module never imports it).

Special functions over grids, the paired t-test and the Wilcoxon test to 1e-9 on data with
ties and zero differences, and the bootstrap interval within sampling error.
"""

from __future__ import annotations

import math
import random

import pytest
from scipy import special, stats

from rankcards.metrics import _stats

# Data shaped like per-query scores of two runs: values in [0, 1], many exact ties (binary and
# graded measures), zero differences, and continuous values (AP, nDCG).
_SIZES = (2, 3, 5, 12, 30, 50, 200, 2000)


def _pairs() -> list[tuple[str, list[float], list[float]]]:
    generator = random.Random(2024)
    cases = []
    for n in _SIZES:
        base = [generator.random() for _ in range(n)]
        cases.append(
            (f"continuous-{n}", base, [min(1.0, b + generator.gauss(0.03, 0.1)) for b in base])
        )
        grid = [generator.choice([0.0, 0.25, 0.5, 0.75, 1.0]) for _ in range(n)]
        cases.append(
            (f"ties-zeros-{n}", grid, [generator.choice([g, g, 0.0, 0.5, 1.0]) for g in grid])
        )
        rr = [1.0 / generator.randint(1, 10) for _ in range(n)]
        cases.append((f"rr-{n}", rr, [1.0 / generator.randint(1, 8) for _ in range(n)]))
    cases.append(("one-nonzero", [0.1, 0.2, 0.3], [0.1, 0.2, 0.4]))
    cases.append(("all-tied-abs", [0.5, 0.5, 0.5, 0.5], [0.75, 0.25, 0.75, 0.75]))
    return cases


PAIRS = _pairs()


@pytest.mark.parametrize(("name", "baseline", "run"), PAIRS, ids=[p[0] for p in PAIRS])
def test_paired_t_test_equals_scipy_ttest_rel(
    name: str, baseline: list[float], run: list[float]
) -> None:
    differences = [b - a for a, b in zip(baseline, run, strict=True)]
    if _stats.sample_sd(differences) == 0.0:
        pytest.skip("constant differences: scipy's t is undefined")
    ours = _stats.paired_t_test(differences)
    theirs = stats.ttest_rel(run, baseline)
    assert abs(ours.p - theirs.pvalue) <= 1e-9
    assert math.isclose(ours.statistic, theirs.statistic, rel_tol=1e-9)
    low, high = theirs.confidence_interval(0.95)
    assert ours.ci is not None
    assert abs(ours.ci[0] - low) <= 1e-9 and abs(ours.ci[1] - high) <= 1e-9


@pytest.mark.parametrize(("name", "baseline", "run"), PAIRS, ids=[p[0] for p in PAIRS])
def test_wilcoxon_equals_scipy_asymptotic_without_correction(
    name: str, baseline: list[float], run: list[float]
) -> None:
    differences = [b - a for a, b in zip(baseline, run, strict=True)]
    if all(d == 0.0 for d in differences):
        pytest.skip("no non-zero difference: scipy's p is undefined")
    ours = _stats.wilcoxon_signed_rank(differences)
    theirs = stats.wilcoxon(
        run, baseline, zero_method="wilcox", correction=False, method="asymptotic"
    )
    assert abs(ours.p - theirs.pvalue) <= 1e-9
    assert ours.statistic == theirs.statistic


def test_the_data_has_ties_and_zeros() -> None:
    # the Wilcoxon cases above exercise the tie correction and the dropped zeros
    differences = [b - a for _, base, run in PAIRS for a, b in zip(base, run, strict=True)]
    magnitudes = [abs(d) for d in differences if d != 0.0]
    assert differences.count(0.0) > 100
    assert len(set(magnitudes)) < len(magnitudes) / 2


def test_regularized_beta_equals_scipy_betainc_over_a_grid() -> None:
    worst = 0.0
    for a in (0.05, 0.5, 1.0, 2.5, 10.0, 99.5, 1000.0, 50_000.0):
        for b in (0.1, 0.5, 1.0, 3.0, 40.0, 700.0):
            for x in (0.0, 1e-12, 1e-4, 0.01, 0.2, 0.5, 0.73, 0.99, 1 - 1e-9, 1.0):
                ours = _stats.regularized_beta(a, b, x)
                theirs = float(special.betainc(a, b, x))
                worst = max(worst, abs(ours - theirs))
                assert abs(ours - theirs) <= 1e-12 + 1e-9 * theirs, (a, b, x, ours, theirs)
    assert worst < 1e-10


def test_student_t_cdf_and_quantile_equal_scipy_over_a_grid() -> None:
    for df in (1, 2, 3, 4.5, 9, 29, 99, 499, 1999, 100_000):
        for t in (-1e6, -50.0, -8.0, -2.5, -1.0, -1e-8, 0.0, 1e-3, 0.7, 1.96, 3.3, 12.0, 400.0):
            ours = _stats.student_t_cdf(t, df)
            # scipy's stdtr is 1.6e-9 off the closed form at df=1, t=-1e-8 (scipy 1.17);
            # with one degree of freedom t is Cauchy, so use scipy's Cauchy CDF there.
            theirs = float(stats.cauchy.cdf(t) if df == 1 else stats.t.cdf(t, df))
            assert abs(ours - theirs) <= 1e-12 + 1e-9 * min(theirs, 1 - theirs), (df, t)
        for p in (0.5, 0.6, 0.9, 0.95, 0.975, 0.995, 0.9999, 0.025, 1e-6):
            assert math.isclose(
                _stats.student_t_quantile(p, df), stats.t.ppf(p, df), rel_tol=1e-9, abs_tol=1e-12
            )


def test_normal_cdf_equals_scipy_over_a_grid() -> None:
    for x in (-38.0, -20.0, -8.5, -3.0, -1.0, -1e-9, 0.0, 0.5, 1.959963984540054, 4.0, 9.0):
        ours, theirs = _stats.normal_cdf(x), float(stats.norm.cdf(x))
        assert math.isclose(ours, theirs, rel_tol=1e-13, abs_tol=1e-300)


@pytest.mark.parametrize("n", [8, 50, 400])
def test_bootstrap_interval_within_sampling_error_of_scipy(n: int) -> None:
    generator = random.Random(n)
    differences = [generator.gauss(0.02, 0.15) for _ in range(n)]
    ours = _stats.bootstrap_test(differences, samples=10_000, seed=1)
    theirs = stats.bootstrap(
        (differences,),
        lambda x, axis: x.mean(axis=axis),
        n_resamples=10_000,
        method="percentile",
        confidence_level=0.95,
        random_state=1,
    ).confidence_interval
    # Each 2.5% quantile of 10,000 bootstrap means has a Monte Carlo sd of about 0.03 times
    # the bootstrap sd; two independent estimates differ by at most ~5 times that.
    spread = _stats.sample_sd(differences) / math.sqrt(n)
    assert ours.ci is not None
    assert abs(ours.ci[0] - theirs.low) < 0.15 * spread
    assert abs(ours.ci[1] - theirs.high) < 0.15 * spread
    if n >= 50:  # and near the normal-theory interval (a check of the scale)
        assert abs(ours.ci[0] - (_stats.mean(differences) - 1.96 * spread)) < 0.3 * spread
