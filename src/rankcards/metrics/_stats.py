"""Paired significance tests in pure standard-library Python (they run in Pyodide unchanged).

Every test takes the per-query differences ``d_i = run_i - baseline_i`` of two systems over
the same queries and is two-sided. The special functions (normal CDF, regularized incomplete
beta, Student t CDF and quantile) are written here and checked against scipy in the test
suite; scipy is never imported.

- :func:`paired_t_test`: ``t = mean(d) / (sd(d) / sqrt(n))``, ``n - 1`` degrees of freedom
  (``scipy.stats.ttest_rel``), with its t-based confidence interval.
- :func:`wilcoxon_signed_rank`: zero differences dropped, average ranks for ties, normal
  approximation with the tie correction and no continuity correction (``scipy.stats.wilcoxon``
  with ``zero_method="wilcox", correction=False, method="asymptotic"``).
- :func:`randomization_test`: Fisher's paired randomization test on the mean difference:
  exact over all sign flips when few differences are not zero, else seeded random flips.
- :func:`bootstrap_test`: the studentized shift bootstrap test (Efron & Tibshirani's
  Algorithm 16.2) over seeded resamples of the queries, and the percentile interval of the
  mean difference from the same resamples.
- :func:`holm` and :func:`bonferroni`: family-wise corrections of a list of p-values.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress
from operator import itemgetter

#: At most this many non-zero differences: the randomization test enumerates every sign flip.
EXACT_LIMIT = 16

_CF_EPSILON = 1e-16  # relative step at which the continued fraction has converged
_CF_TINY = 1e-300  # Lentz's guard against a zero denominator
_CF_MAX_STEPS = 100_000


def normal_cdf(x: float) -> float:
    """Standard normal CDF, ``Phi(x) = erfc(-x / sqrt(2)) / 2`` (accurate in both tails).

    Example:
        >>> round(normal_cdf(1.959963984540054), 6)
        0.975
        >>> normal_cdf(0.0)
        0.5
    """
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def regularized_beta(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta function ``I_x(a, b)`` for ``a, b > 0`` and ``0 <= x <= 1``.

    ``I_x(a, b) = B(x; a, b) / B(a, b)``, evaluated by its continued fraction with the
    modified Lentz method, on the side of ``x`` where it converges fast
    (``I_x(a, b) = 1 - I_{1-x}(b, a)``).

    Reference:
        Press et al., Numerical Recipes, 3rd ed., section 6.4 (``betai``, ``betacf``).

    Example:
        >>> round(regularized_beta(2.0, 3.0, 0.5), 12)  # 11/16
        0.6875
        >>> regularized_beta(1.0, 1.0, 0.25)  # the uniform CDF
        0.25
    """
    if not (a > 0 and b > 0):
        raise ValueError(f"regularized_beta needs a > 0 and b > 0, got a={a}, b={b}")
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"regularized_beta needs 0 <= x <= 1, got x={x}")
    return _beta(a, b, x, 1.0 - x)


def _beta(a: float, b: float, x: float, y: float) -> float:
    """``I_x(a, b)`` given both ``x`` and ``y = 1 - x`` (the caller may know ``y`` exactly)."""
    if x <= 0.0:
        return 0.0
    if y <= 0.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(y)
    )
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, y) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _CF_TINY else _CF_TINY)
    h = d
    for m in range(1, _CF_MAX_STEPS):
        m2 = 2 * m
        for numerator in (
            m * (b - m) * x / ((qam + m2) * (a + m2)),
            -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > _CF_TINY else _CF_TINY)
            c = 1.0 + numerator / c
            c = c if abs(c) > _CF_TINY else _CF_TINY
            step = d * c
            h *= step
        if abs(step - 1.0) < _CF_EPSILON:
            return h
    raise ArithmeticError(f"incomplete beta continued fraction did not converge (a={a}, b={b})")


def student_t_cdf(t: float, df: float) -> float:
    """CDF of Student's t distribution with ``df`` degrees of freedom.

    ``P(T <= t) = 1 - I_x(df/2, 1/2) / 2`` for ``t >= 0`` with ``x = df / (df + t^2)``.

    Example:
        >>> student_t_cdf(0.0, 5)
        0.5
        >>> round(student_t_cdf(2.015048372669157, 5), 6)  # the 0.95 quantile
        0.95
        >>> round(student_t_cdf(1.0, 1), 12)  # Cauchy: 1/2 + atan(1)/pi
        0.75
    """
    if not df > 0:
        raise ValueError(f"student_t_cdf needs df > 0, got {df}")
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    tail = 0.5 * _t_two_sided(t, df)
    return 1.0 - tail if t > 0 else tail


def _t_two_sided(t: float, df: float) -> float:
    """``P(|T| >= |t|) = I_x(df/2, 1/2)``, ``x = df/(df+t^2)``; ``1 - x`` kept exact near 0."""
    t2 = t * t
    return _beta(0.5 * df, 0.5, df / (df + t2), t2 / (df + t2))


def student_t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (inverse CDF).

    Found by bisection on :func:`student_t_cdf` to the last bit (the CDF is monotone).

    Example:
        >>> round(student_t_quantile(0.975, 10), 6)
        2.228139
        >>> student_t_quantile(0.5, 3)
        0.0
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"student_t_quantile needs 0 < p < 1, got {p}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -student_t_quantile(1.0 - p, df)
    low, high = 0.0, 1.0
    while student_t_cdf(high, df) < p:
        low, high = high, 2.0 * high
    for _ in range(200):
        middle = 0.5 * (low + high)
        if middle in (low, high):
            break
        if student_t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
    return high


@dataclass(frozen=True)
class TestResult:
    """What a paired test says about the differences ``d = run - baseline``.

    ``statistic`` is the test's own (t, the smaller signed-rank sum ``min(W+, W-)``, the
    observed mean difference for randomization and bootstrap); ``p`` is two-sided; ``ci`` the
    confidence interval of the mean difference (None when the test gives none).
    """

    statistic: float
    p: float
    ci: tuple[float, float] | None = None

    __test__ = False  # not a pytest test class


def mean(values: Sequence[float]) -> float:
    """Arithmetic mean, correctly rounded (``math.fsum``)."""
    return math.fsum(values) / len(values)


def sample_sd(values: Sequence[float]) -> float:
    """Standard deviation with ``n - 1`` in the denominator (0 for fewer than 2 values)."""
    n = len(values)
    if n < 2:
        return 0.0
    centre = mean(values)
    return math.sqrt(math.fsum((v - centre) ** 2 for v in values) / (n - 1))


def effect_size(differences: Sequence[float]) -> float | None:
    """Standardized mean difference ``mean(d) / sd(d)`` (Cohen's d for paired data, d_z).

    0 when every difference is 0; None (infinite) when all are equal and not 0.

    Example:
        >>> effect_size([0.1, 0.3, 0.2])
        2.0
    """
    centre = mean(differences)
    sd = sample_sd(differences)
    if sd == 0.0:
        return 0.0 if centre == 0.0 else None
    return centre / sd


def paired_t_test(differences: Sequence[float], confidence: float = 0.95) -> TestResult:
    """Paired (one-sample) t-test of ``mean(d) = 0``, and the t-based confidence interval.

    ``t = mean(d) / (sd(d) / sqrt(n))`` with ``n - 1`` degrees of freedom; the two-sided
    ``p = P(|T| >= |t|)``; the interval is ``mean(d) +/- t_{(1+confidence)/2} sd(d)/sqrt(n)``.
    With every difference equal, ``p`` is 1 if they are 0 and 0 otherwise (t is infinite).

    Reference:
        Student, The probable error of a mean, Biometrika 6(1), 1908.

    Example:
        >>> result = paired_t_test([0.1, 0.3, 0.2, 0.4])
        >>> round(result.statistic, 4), round(result.p, 4)
        (3.873, 0.0305)
    """
    n = _at_least_two(differences)
    centre = mean(differences)
    stderr = sample_sd(differences) / math.sqrt(n)
    if stderr == 0.0:
        return TestResult(
            0.0 if centre == 0.0 else math.copysign(math.inf, centre),
            1.0 if centre == 0.0 else 0.0,
            (centre, centre),
        )
    statistic = centre / stderr
    half_width = student_t_quantile(0.5 + confidence / 2.0, n - 1) * stderr
    return TestResult(
        statistic, _t_two_sided(statistic, n - 1), (centre - half_width, centre + half_width)
    )


def wilcoxon_signed_rank(differences: Sequence[float]) -> TestResult:
    """Wilcoxon signed-rank test, normal approximation, two-sided.

    Zero differences are dropped (Wilcoxon's rule), the ``n`` others ranked by ``|d|`` (ties
    get their average rank); ``W+`` is the sum of the positive ranks and
    ``z = (W+ - n(n+1)/4) / sqrt((n(n+1)(2n+1) - sum(t^3 - t)/2) / 24)`` over the tie groups
    of sizes ``t``, without continuity correction; ``p = 2 (1 - Phi(|z|))``. The statistic
    reported is ``min(W+, W-)``. With no non-zero difference, ``p`` is 1.

    Reference:
        Wilcoxon, Individual comparisons by ranking methods, Biometrics Bulletin 1(6), 1945.

    Example:
        >>> result = wilcoxon_signed_rank([0.1, 0.3, -0.2, 0.4, 0.0, 0.3])
        >>> result.statistic, round(result.p, 4)
        (2.0, 0.1362)
    """
    nonzero = [d for d in differences if d != 0.0]
    n = len(nonzero)
    if n == 0:
        return TestResult(0.0, 1.0)
    order = sorted(range(n), key=lambda i: abs(nonzero[i]))
    ranks = [0.0] * n
    tie_term = 0
    start = 0
    while start < n:
        end = start + 1
        while end < n and abs(nonzero[order[end]]) == abs(nonzero[order[start]]):
            end += 1
        average = (start + 1 + end) / 2.0  # ranks start+1 .. end
        for position in range(start, end):
            ranks[order[position]] = average
        size = end - start
        tie_term += size**3 - size
        start = end
    plus = math.fsum(compress(ranks, (d > 0.0 for d in nonzero)))
    minus = n * (n + 1) / 2.0 - plus
    centre = n * (n + 1) / 4.0
    spread = math.sqrt((n * (n + 1) * (2 * n + 1) - tie_term / 2.0) / 24.0)
    z = (plus - centre) / spread
    return TestResult(min(plus, minus), math.erfc(abs(z) / math.sqrt(2.0)))


def randomization_test(
    differences: Sequence[float], samples: int = 10_000, seed: int = 0
) -> TestResult:
    """Fisher's paired randomization test of the mean difference, two-sided.

    Under the null hypothesis each query's difference is as likely to have either sign. A
    sign assignment is at least as extreme as the data when ``|sum(s_i d_i)| >= |sum(d_i)|``
    (up to a relative 1e-9, so that rounding does not split equal sums). Zero differences are
    dropped (their sign changes nothing, so the exact p is unchanged); with at most
    :data:`EXACT_LIMIT` left, all ``2^n`` assignments are enumerated and ``p`` is the share at
    least as extreme. Otherwise ``samples`` random assignments (``random.Random(seed)``) give
    ``p = (1 + hits) / (1 + samples)``, which never declares 0.

    Reference:
        Fisher, The Design of Experiments, 1935, section 21; Smucker, Allan & Carterette,
        A comparison of statistical significance tests for information retrieval evaluation,
        CIKM 2007.

    Example:
        >>> randomization_test([0.1, 0.2, 0.3]).p  # only +++ and --- reach |0.6|: 2 of 8
        0.25
    """
    _at_least_one(differences)
    nonzero = [d for d in differences if d != 0.0]
    observed = math.fsum(nonzero)
    statistic = observed / len(differences)
    threshold = abs(observed) - 1e-9 * math.fsum(map(abs, nonzero))
    if len(nonzero) <= EXACT_LIMIT:
        sums = [0.0]
        for d in nonzero:  # every sign assignment's sum, doubling the list per difference
            sums = [s + d for s in sums] + [s - d for s in sums]
        hits = sum(1 for s in sums if abs(s) >= threshold)
        return TestResult(statistic, hits / len(sums))
    if samples < 1:
        raise ValueError(f"samples must be an integer >= 1, got {samples}")
    # A random byte flips 8 differences at once: the table of a block of 8 holds, for each
    # byte, what flipping the differences of its set bits takes off the sum (2 d per flip).
    padded = nonzero + [0.0] * (-len(nonzero) % 8)
    tables = []
    for block in range(0, len(padded), 8):
        table = [0.0]
        for d in padded[block : block + 8]:
            table += [t + 2.0 * d for t in table]
        tables.append(table)
    import random  # here: `import rankcards.metrics` (the page's boot) does not need it

    generator = random.Random(seed)
    draw, width = generator.randbytes, len(tables)
    hits = 0
    for _ in range(samples):
        if abs(observed - sum(map(list.__getitem__, tables, draw(width)))) >= threshold:
            hits += 1
    return TestResult(statistic, (1 + hits) / (1 + samples))


def bootstrap_test(
    differences: Sequence[float], samples: int = 10_000, seed: int = 0, confidence: float = 0.95
) -> TestResult:
    """Studentized shift bootstrap test of ``mean(d) = 0``, and the percentile interval.

    The test (Efron & Tibshirani's Algorithm 16.2, as Sakai 2006 uses it for IR): with the
    ``n`` differences ``d``, ``t_obs = mean(d) / (sd(d) / sqrt(n))`` (``sd`` with ``n - 1``);
    the differences are shifted to mean 0, ``w = d - mean(d)`` (the null hypothesis made
    true), and each of ``samples`` resamples ``w*`` of ``w`` with replacement
    (``random.Random(seed)``) gives ``t* = mean(w*) / (sd(w*) / sqrt(n))``, or, when
    ``sd(w*)`` is 0, ``t* = 0`` if ``mean(w*)`` is 0 and ``+/-inf`` otherwise. Two-sided,
    ``p = (1 + #{|t*| >= |t_obs|}) / (1 + samples)``, which never declares 0; every difference
    0 gives ``p = 1``. Rounding must not decide a count: a mean within ``1e-9 mean(|d|)`` of 0
    is 0 (e.g. ``mean([0.1, 0.2, -0.3])``, so ``t_obs = 0`` and ``p = 1``), a variance below
    1e-9 times the resample's mean square is 0, and ``|t*|`` within a relative 1e-9 of
    ``|t_obs|`` reaches it.

    The interval is the percentile interval of the mean difference from the same draws: the
    ``(1-confidence)/2`` and ``(1+confidence)/2`` quantiles of the means ``m*`` of the
    resamples of ``d``, interpolated linearly as ``numpy.percentile`` does
    (``scipy.stats.bootstrap(method="percentile")``). The ``statistic`` reported is
    ``mean(d)``.

    Reference:
        Efron & Tibshirani, An Introduction to the Bootstrap, 1993, sections 13.3 (percentile
        interval) and 16.4 (Algorithm 16.2); Sakai, Evaluating evaluation metrics based on the
        bootstrap, SIGIR 2006; Sakai, Statistical significance, power, and sample sizes: a
        systematic review of SIGIR and TOIS, 2006-2015, SIGIR 2016.

    Example:
        >>> result = bootstrap_test([0.1, 0.2, 0.3, 0.4], samples=2000, seed=1)
        >>> result.ci[0] > 0.1 and result.ci[1] < 0.4, round(result.p, 3)
        (True, 0.041)
        >>> bootstrap_test([0.0, 0.0, 0.0]).p  # no difference at all
        1.0
    """
    return bootstrap_tests([differences], samples, seed, confidence)[0]


def bootstrap_tests(
    vectors: Sequence[Sequence[float]],
    samples: int = 10_000,
    seed: int = 0,
    confidence: float = 0.95,
) -> list[TestResult]:
    """:func:`bootstrap_test` of each vector (all of one length), from one pass of draws.

    Each result equals ``bootstrap_test(vector, samples, seed, confidence)``: every vector is
    resampled with the same seeded draws, which are made once for all of them. A resample of
    ``w = d - mean(d)`` is the resample of ``d`` at the same positions minus ``mean(d)``, so
    ``mean(w*) = mean(d*) - mean(d)``, and ``sd(w*)`` comes from the mean of the resampled
    ``w^2``: the draws gather ``d`` and ``w^2`` only.
    """
    shifted_squares = []
    for differences in vectors:
        centre = mean(differences)
        shifted_squares.append([(d - centre) ** 2 for d in differences])
    gathered = bootstrap_means_many(
        [vector for pair in zip(vectors, shifted_squares, strict=True) for vector in pair],
        samples,
        seed,
    )
    results = []
    for index, differences in enumerate(vectors):
        means, squares = gathered[2 * index], gathered[2 * index + 1]
        p = _studentized_shift_p(differences, means, squares, samples)
        results.append(TestResult(mean(differences), p, _percentile_interval(means, confidence)))
    return results


def bootstrap_intervals(
    vectors: Sequence[Sequence[float]],
    samples: int = 10_000,
    seed: int = 0,
    confidence: float = 0.95,
) -> list[tuple[float, float]]:
    """The percentile interval of :func:`bootstrap_tests` alone (half the gathering: no p).

    Example:
        >>> bootstrap_intervals([[0.1, 0.2, 0.3, 0.4]], samples=2000, seed=1)
        [(0.15, 0.35000000000000003)]
    """
    return [
        _percentile_interval(means, confidence)
        for means in bootstrap_means_many(vectors, samples, seed)
    ]


def _percentile_interval(means: list[float], confidence: float) -> tuple[float, float]:
    """The ``(1 -+ confidence) / 2`` quantiles of the resample means (sorted in place)."""
    means.sort()
    tail = (1.0 - confidence) / 2.0
    return (_percentile(means, tail), _percentile(means, 1.0 - tail))


def _studentized_shift_p(
    differences: Sequence[float],
    means: Sequence[float],
    mean_squares: Sequence[float],
    samples: int,
) -> float:
    """The p of :func:`bootstrap_test` from each resample's ``mean(d*)`` and ``mean(w*^2)``."""
    n = len(differences)
    if min(differences) == max(differences):  # sd(d) = 0: w is 0, every t* is 0
        return 1.0 if differences[0] == 0.0 else 1.0 / (1 + samples)
    centre = mean(differences)
    zero_band = 1e-9 * mean([abs(d) for d in differences])
    if abs(centre) <= zero_band:  # t_obs = 0: every t* reaches it
        return 1.0
    reach = abs(centre) / (sample_sd(differences) / math.sqrt(n)) * (1.0 - 1e-9)
    correction = n / (n - 1.0)  # population to sample variance
    hits = 0
    for resample_mean, mean_square in zip(means, mean_squares, strict=True):
        shifted = resample_mean - centre  # mean(w*)
        if abs(shifted) <= zero_band:  # t* = 0, below |t_obs|
            continue
        variance = (mean_square - shifted * shifted) * correction
        # Every pick the same value (sd(w*) = 0, t* infinite), or |t*| reaches |t_obs|.
        if variance <= 1e-9 * mean_square or abs(shifted) >= reach * math.sqrt(variance / n):
            hits += 1
    return (1 + hits) / (1 + samples)


def bootstrap_means(values: Sequence[float], samples: int, seed: int) -> list[float]:
    """The means of ``samples`` resamples with replacement of ``values`` (seeded).

    Example:
        >>> bootstrap_means([1.0, 2.0, 3.0], 4, seed=0)
        [3.0, 3.0, 2.3333333333333335, 2.3333333333333335]
    """
    return bootstrap_means_many([values], samples, seed)[0]


def bootstrap_means_many(
    vectors: Sequence[Sequence[float]], samples: int, seed: int
) -> list[list[float]]:
    """:func:`bootstrap_means` of each vector (all of one length ``n``), with the same draws.

    Each draw is a uniform 16-bit number ``x`` (little-endian, from ``random.randbytes``)
    and picks position ``x % n``; the numbers at or above the largest multiple of ``n`` that
    fits, which would favour the first positions, are rejected and drawn again, so every
    draw is uniform. One ``operator.itemgetter`` of a resample's numbers then gathers the
    values of every vector in C: 2,000 picks cost less than half of ``random.choices``' time
    with one vector, less per vector with more (``bench/README.md``). Above 65,536
    values, ``random.choices`` draws the positions.
    """
    if not vectors:
        return []
    n = _at_least_one(vectors[0])
    if any(len(vector) != n for vector in vectors):
        raise ValueError("bootstrap_means_many needs vectors of one length")
    if samples < 1:
        raise ValueError(f"samples must be an integer >= 1, got {samples}")
    import random  # here: `import rankcards.metrics` (the page's boot) does not need it

    generator = random.Random(seed)
    sums: list[list[float]] = [[] for _ in vectors]
    if n > 1 << 16:
        positions = range(n)
        for _ in range(samples):
            picked = generator.choices(positions, k=n)
            for column, vector in zip(sums, vectors, strict=True):
                column.append(sum(map(vector.__getitem__, picked)))
        return [[value / n for value in column] for column in sums]
    copies = (1 << 16) // n
    accepted = n * copies  # draws x < accepted are uniform over the positions
    pools = [list(vector) * copies + [0.0] * ((1 << 16) - accepted) for vector in vectors]
    high_limit, low_limit = divmod(accepted, 256)
    # Bytes above high_limit are rejected outright; translate(None, keep) deletes the others.
    keep = bytes(range(min(high_limit + 1, 256)))
    draw = generator.randbytes
    for _ in range(samples):
        totals = [0.0] * len(pools)
        count = n
        while count:
            raw = draw(2 * count)
            gather = itemgetter(*struct.unpack(f"<{count}H", raw))
            for index, pool in enumerate(pools):  # rejected numbers gather 0.0
                picked = gather(pool)
                totals[index] += sum(picked) if count > 1 else picked  # one number: no tuple
            high, low = raw[1::2], raw[0::2]
            count = len(high.translate(None, keep))
            if high_limit < 256:  # on the boundary byte, the low byte decides
                at = high.find(high_limit)
                while at != -1:
                    count += low[at] >= low_limit
                    at = high.find(high_limit, at + 1)
        for column, resample_sum in zip(sums, totals, strict=True):
            column.append(resample_sum / n)
    return sums


def _percentile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted values, linear between order statistics (numpy's default)."""
    position = q * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    fraction = position - below
    return ordered[below] + (ordered[above] - ordered[below]) * fraction


def bonferroni(p_values: Sequence[float]) -> list[float]:
    """Bonferroni-adjusted p-values: ``min(1, m p_i)`` over ``m`` comparisons.

    Example:
        >>> bonferroni([0.01, 0.04, 0.3])
        [0.03, 0.12, 0.8999999999999999]
    """
    m = len(p_values)
    return [min(1.0, m * p) for p in p_values]


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the input order.

    Sorted ascending, ``p_(j)`` becomes ``max_{i <= j} min(1, (m - i + 1) p_(i))``: the
    smallest is multiplied by ``m``, the next by ``m - 1``, ..., kept non-decreasing.

    Reference:
        Holm, A simple sequentially rejective multiple test procedure, Scandinavian Journal of
        Statistics 6(2), 1979.

    Example:
        >>> holm([0.01, 0.04, 0.03])  # 3 x 0.01, max(2 x 0.03, 0.03), max(1 x 0.04, 0.06)
        [0.03, 0.06, 0.06]
    """
    m = len(p_values)
    adjusted = [0.0] * m
    running = 0.0
    for step, index in enumerate(sorted(range(m), key=p_values.__getitem__)):
        running = max(running, min(1.0, (m - step) * p_values[index]))
        adjusted[index] = running
    return adjusted


def _at_least_one(values: Sequence[float]) -> int:
    if not values:
        raise ValueError("a paired test needs at least one query")
    return len(values)


def _at_least_two(values: Sequence[float]) -> int:
    if len(values) < 2:
        raise ValueError(f"the paired t-test needs at least 2 queries, got {len(values)}")
    return len(values)
