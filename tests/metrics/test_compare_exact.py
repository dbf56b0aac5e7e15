"""Comparison statistics checked without scipy: exact enumeration, hand computations, seeds.

Standard library only and free of pytest, so that tests/pyodide runs this very module inside
Pyodide (``run_compare.mjs``); the scipy comparisons are in ``test_compare_scipy.py``.
"""

from __future__ import annotations

import math
import operator
import random
from fractions import Fraction
from itertools import product

from rankcards.metrics import _stats, compare_runs, compare_scores, paired_scores


def _raises(error: type[Exception], call, *args, **kwargs) -> str:  # type: ignore[no-untyped-def]
    try:
        call(*args, **kwargs)
    except error as caught:
        return str(caught)
    raise AssertionError(f"{call.__name__} did not raise {error.__name__}")


def _brute_force_p(differences: list[float]) -> float:
    """Share of all 2^n sign assignments whose |sum| reaches the observed |sum|, in exact
    arithmetic on the values as fractions of denominator at most 10^6 (0.1 + 0.2 == 0.3)."""
    exact = [Fraction(d).limit_denominator(10**6) for d in differences]
    scale = math.lcm(*(e.denominator for e in exact))
    whole = [int(e * scale) for e in exact]  # integers: exact sums, and fast
    observed = abs(sum(whole))
    hits = sum(
        1
        for signs in product((1, -1), repeat=len(whole))
        if abs(sum(map(operator.mul, signs, whole))) >= observed
    )
    return hits / 2 ** len(whole)


def test_randomization_exact_equals_brute_force_enumeration() -> None:
    generator = random.Random(7)
    cases = [
        [0.1, 0.2, 0.3],
        [0.1, 0.2, -0.3, 0.5, -0.25],  # 0.1 + 0.2 - 0.3 is not 0.0 in floats: ties must hold
        [0.5, -0.5, 0.25, 0.25, -0.125, 0.0, 0.0],  # zeros change nothing
        [round(generator.uniform(-1, 1), 2) for _ in range(12)],
        [
            round(generator.choice([-1, 1]) * generator.choice([0.1, 0.2, 0.3]), 1)
            for _ in range(14)
        ],
        [generator.uniform(-0.2, 0.3) for _ in range(16)],  # 16: still exact
        [1.0 / 3.0, -1.0 / 6.0, 0.5, 1.0 / 3.0, -0.5, 1.0 / 6.0, 0.0, 2.0 / 3.0],
    ]
    for differences in cases:
        result = _stats.randomization_test(differences, samples=10, seed=0)
        assert result.p == _brute_force_p(differences), differences
        assert math.isclose(result.statistic, math.fsum(differences) / len(differences))


def test_randomization_counts_rounded_ties_as_extreme() -> None:
    # 0.1 + 0.2 and 0.3 differ in floats; in the data they are the same sum, so the flip of
    # the last two differences is exactly as extreme as the data: 4 of 8, not 2 of 8.
    assert 0.1 + 0.2 != 0.3
    assert _stats.randomization_test([0.3, 0.1, 0.2]).p == 0.25
    assert _stats.randomization_test([0.3, -0.1, -0.2]).p == 1.0
    assert _brute_force_p([0.3, -0.1, -0.2]) == 1.0


def test_randomization_sampled_beyond_16_is_seeded_and_reproducible() -> None:
    generator = random.Random(3)
    differences = [generator.gauss(0.02, 0.1) for _ in range(40)]
    first = _stats.randomization_test(differences, samples=2000, seed=11)
    again = _stats.randomization_test(differences, samples=2000, seed=11)
    other = _stats.randomization_test(differences, samples=2000, seed=12)
    assert first == again
    assert first.p != other.p
    # p = (1 + hits) / (1 + samples): an integer number of hits
    hits = first.p * 2001 - 1
    assert abs(hits - round(hits)) < 1e-9 and 0 <= round(hits) <= 2000


def test_randomization_sampled_agrees_with_a_direct_simulation() -> None:
    # The byte tables give the same statistic as flipping signs one by one: compare the
    # sampled p with a slow simulation (different random numbers) within sampling error.
    generator = random.Random(5)
    differences = [generator.gauss(0.03, 0.1) for _ in range(30)]
    fast = _stats.randomization_test(differences, samples=4000, seed=1).p
    slow_random = random.Random(2)
    observed = abs(math.fsum(differences))
    hits = 0
    for _ in range(4000):
        flipped = math.fsum(d if slow_random.random() < 0.5 else -d for d in differences)
        hits += abs(flipped) >= observed - 1e-12
    slow = (1 + hits) / 4001
    assert 0.05 < slow < 0.95  # a p where sampling error is meaningful
    assert abs(fast - slow) < 4 * math.sqrt(slow * (1 - slow) / 4000) * math.sqrt(2)


def test_randomization_sampled_p_is_near_the_exact_p() -> None:
    # 20 differences: sampled by default; raising the exact limit enumerates all 2^20 flips.
    generator = random.Random(8)
    differences = [generator.gauss(0.0, 0.1) for _ in range(20)]  # exact p 0.08
    sampled = _stats.randomization_test(differences, samples=20000, seed=3).p
    limit = _stats.EXACT_LIMIT
    try:
        _stats.EXACT_LIMIT = 20
        exact = _stats.randomization_test(differences).p
    finally:
        _stats.EXACT_LIMIT = limit
    assert 0.05 < exact < 0.95 and exact * 2**20 == round(exact * 2**20)
    assert abs(sampled - exact) < 4 * math.sqrt(exact * (1 - exact) / 20000)


def _reference_picks(n: int, samples: int, seed: int) -> list[list[int]]:
    """The positions each resample picks, read from the same random bytes as the module:
    16-bit little-endian numbers, those below the largest multiple of n accepted and mapped to
    x % n, rejected ones drawn again (in one batch per round, as the module draws them)."""
    accepted = n * (65536 // n)
    reference = random.Random(seed)
    resamples = []
    for _ in range(samples):
        picks: list[int] = []
        count = n
        while count:
            raw = reference.randbytes(2 * count)
            numbers = [raw[i] | raw[i + 1] << 8 for i in range(0, len(raw), 2)]
            picks += [x % n for x in numbers if x < accepted]
            count = sum(1 for x in numbers if x >= accepted)
        resamples.append(picks)
    return resamples


def test_bootstrap_draws_are_uniform_picks_with_rejection() -> None:
    # The reference sampler's resample means must equal bootstrap_means' for sizes that put
    # the rejection boundary inside a byte, on a byte edge, or nowhere (n divides 65536).
    for n in (1, 3, 7, 256, 1000, 2000, 3000, 4096):
        generator = random.Random(n)
        values = [generator.uniform(-1, 1) for _ in range(n)]
        expected = [
            math.fsum(values[i] for i in picks) / n for picks in _reference_picks(n, 20, 42)
        ]
        means = _stats.bootstrap_means(values, 20, 42)
        for got, want in zip(means, expected, strict=True):
            assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-12), (n, got, want)


def test_bootstrap_of_a_constant_is_that_constant() -> None:
    # Any lost or extra draw would move the mean away from 1.0; 65,537 values take the
    # random.choices path.
    for n, samples in ((1, 30), (2, 30), (5, 30), (999, 30), (2000, 30), (65536, 3), (65537, 3)):
        assert set(_stats.bootstrap_means([1.0] * n, samples, 3)) == {1.0}, n


def test_bootstrap_beyond_65536_values_is_seeded_and_uniform() -> None:
    values = [float(i % 2) for i in range(65537)]
    means = _stats.bootstrap_means(values, 4, 1)
    assert means == _stats.bootstrap_means(values, 4, 1) != _stats.bootstrap_means(values, 4, 2)
    assert all(abs(m - 0.5) < 4 * 0.5 / math.sqrt(65537) for m in means)


def test_bootstraps_of_a_call_equal_each_bootstrap_alone() -> None:
    generator = random.Random(4)
    vectors = [[generator.gauss(0, 1) for _ in range(300)] for _ in range(3)]
    together = _stats.bootstrap_tests(vectors, samples=200, seed=9)
    assert together == [_stats.bootstrap_test(v, samples=200, seed=9) for v in vectors]
    intervals = _stats.bootstrap_intervals(vectors, samples=200, seed=9)
    assert intervals == [result.ci for result in together]
    assert _stats.bootstrap_tests([], samples=10) == []
    assert "one length" in _raises(ValueError, _stats.bootstrap_tests, [[0.1, 0.2], [0.1]])


def _studentized_shift_p_by_hand(differences: list[float], samples: int, seed: int) -> float:
    """The studentized shift bootstrap test written out in exact rational arithmetic, on the
    resamples the module draws: t = mean / (sd / sqrt(n)) compared through t^2 = n mean^2 / var
    (no square root, no rounding), w = d - mean(d) exact, so a resample of equal values has
    variance exactly 0 (t* = 0 if its mean is 0, infinite otherwise)."""
    exact = [Fraction(d).limit_denominator(10**6) for d in differences]
    n = len(exact)
    centre = sum(exact) / n
    if all(e == exact[0] for e in exact):
        return 1.0 if exact[0] == 0 else 1 / (1 + samples)

    def t_squared(values: list[Fraction]) -> Fraction | None:  # None: infinite
        mean = sum(values) / n
        variance = sum((v - mean) ** 2 for v in values) / (n - 1)
        if variance == 0:
            return Fraction(0) if mean == 0 else None
        return n * mean * mean / variance

    observed = t_squared(exact)
    assert observed is not None
    shifted = [e - centre for e in exact]
    hits = 0
    for picks in _reference_picks(n, samples, seed):
        t2 = t_squared([shifted[i] for i in picks])
        hits += t2 is None or t2 >= observed
    return (1 + hits) / (1 + samples)


def test_bootstrap_p_equals_the_studentized_shift_test_by_hand() -> None:
    generator = random.Random(9)
    cases = [
        [round(generator.gauss(0.01, 0.1), 4) for _ in range(20)],
        [round(generator.gauss(0.05, 0.1), 4) for _ in range(8)],
        # 5 wins and 15 ties: resamples of equal values (sd 0) happen and count as infinite
        [0.0018, 0.0019, 0.0048, 0.0185, 0.0801] + [0.0] * 15,
        [0.1, 0.2, 0.3],  # 0.2 is the mean: resamples of it alone have mean 0, so t* = 0
        [0.5, -0.25, 0.25, 0.0],
        [1.0 / 3.0, -1.0 / 6.0, 0.5, 0.0, 2.0 / 3.0, 0.0],
    ]
    for differences in cases:
        for seed in (0, 5):
            result = _stats.bootstrap_test(differences, samples=400, seed=seed)
            assert result.p == _studentized_shift_p_by_hand(differences, 400, seed), differences
            # The interval is still the percentile interval of the same resamples' means.
            means = sorted(_stats.bootstrap_means(differences, 400, seed))
            assert result.ci is not None
            assert _approx(list(result.ci), [_stats._percentile(means, q) for q in (0.025, 0.975)])


def test_bootstrap_p_of_degenerate_differences() -> None:
    assert _stats.bootstrap_test([0.0] * 10, samples=100).p == 1.0  # no difference at all
    # Every difference the same, not 0: t_obs is infinite and every t* is 0
    assert _stats.bootstrap_test([0.1] * 10, samples=100).p == 1 / 101
    assert _stats.bootstrap_test([0.25], samples=100).p == 1 / 101
    # A mean of exactly 0 (up to rounding) gives t_obs = 0: every t* reaches it
    assert _stats.bootstrap_test([0.1, 0.2, -0.3], samples=100).p == 1.0


def test_bootstrap_p_of_five_wins_and_fifteen_ties_is_not_small() -> None:
    # The percentile interval's p was 0.0064 on these differences (the significance card's
    # k1=0.5 b=0.3 run); the shifted, studentized test sees five small wins among ties.
    differences = [0.0018, 0.0019, 0.0048, 0.0185, 0.0801] + [0.0] * 15
    assert _stats.bootstrap_test(differences).p > 0.2


def test_percentile_interpolates_like_numpy() -> None:
    ordered = [1.0, 2.0, 4.0, 8.0]
    assert _stats._percentile(ordered, 0.0) == 1.0
    assert _stats._percentile(ordered, 1.0) == 8.0
    assert _stats._percentile(ordered, 0.5) == 3.0  # numpy.percentile([1, 2, 4, 8], 50)
    assert math.isclose(_stats._percentile(ordered, 0.9), 6.8)  # 4 + 0.7 * (8 - 4)


def test_holm_and_bonferroni_by_hand() -> None:
    p = [0.01, 0.04, 0.03, 0.005, 0.5]
    # sorted: 0.005 (x5), 0.01 (x4), 0.03 (x3), 0.04 (x2), 0.5 (x1), running maximum
    assert _approx(_stats.holm(p), [0.04, 0.09, 0.09, 0.025, 0.5])
    assert _approx(_stats.bonferroni(p), [0.05, 0.2, 0.15, 0.025, 1.0])
    # monotone step-down: a later, larger product is kept, capped at 1
    assert _approx(_stats.holm([0.3, 0.2, 0.01]), [0.4, 0.4, 0.03])
    assert _stats.holm([0.6, 0.5]) == [1.0, 1.0]
    assert _stats.holm([]) == [] and _stats.bonferroni([]) == []
    assert _approx(_stats.holm([0.02, 0.02]), [0.04, 0.04])


def _approx(got: list[float], want: list[float]) -> bool:
    return all(math.isclose(g, w, rel_tol=1e-12) for g, w in zip(got, want, strict=True))


def test_t_test_degenerate_differences() -> None:
    assert _stats.paired_t_test([0.0, 0.0, 0.0]) == _stats.TestResult(0.0, 1.0, (0.0, 0.0))
    constant = _stats.paired_t_test([0.2, 0.2])
    assert constant.p == 0.0 and constant.statistic == math.inf and constant.ci == (0.2, 0.2)
    assert "at least 2 queries" in _raises(ValueError, _stats.paired_t_test, [0.1])
    assert _stats.effect_size([0.0, 0.0]) == 0.0
    assert _stats.effect_size([0.1, 0.1]) is None


def test_wilcoxon_by_hand() -> None:
    # d = 1, -2, 3, 3, 0: zero dropped; ranks 1, 2, 3.5, 3.5; W+ = 8, W- = 2, n = 4;
    # sd = sqrt((4*5*9 - (2^3 - 2)/2) / 24) = sqrt(177/24); z = (8 - 5) / sd
    result = _stats.wilcoxon_signed_rank([1.0, -2.0, 3.0, 3.0, 0.0])
    z = 3 / math.sqrt(177 / 24)
    assert result.statistic == 2.0
    assert math.isclose(result.p, 2 * (1 - _stats.normal_cdf(z)), rel_tol=1e-12)
    assert _stats.wilcoxon_signed_rank([0.0, 0.0]) == _stats.TestResult(0.0, 1.0)


def test_special_functions_known_values() -> None:
    assert math.isclose(_stats.regularized_beta(2, 3, 0.5), 11 / 16, rel_tol=1e-14)
    assert _stats.regularized_beta(2, 3, 0.0) == 0.0 and _stats.regularized_beta(2, 3, 1.0) == 1.0
    # I_x(a, 1) = x^a and I_x(1, b) = 1 - (1 - x)^b
    for x in (0.01, 0.3, 0.77, 0.999):
        assert math.isclose(_stats.regularized_beta(4.5, 1, x), x**4.5, rel_tol=1e-13)
        assert math.isclose(_stats.regularized_beta(1, 2.5, x), 1 - (1 - x) ** 2.5, rel_tol=1e-13)
    # t with 1 degree of freedom is Cauchy; with 2, cdf = 1/2 + t / (2 sqrt(2 + t^2))
    for t in (-30.0, -1.5, 0.2, 4.0):
        assert math.isclose(_stats.student_t_cdf(t, 1), 0.5 + math.atan(t) / math.pi, rel_tol=1e-13)
        assert math.isclose(
            _stats.student_t_cdf(t, 2), 0.5 + t / (2 * math.sqrt(2 + t * t)), rel_tol=1e-13
        )
    assert math.isclose(_stats.student_t_quantile(0.975, 1), math.tan(math.pi * 0.475))
    assert "0 <= x <= 1" in _raises(ValueError, _stats.regularized_beta, 1, 1, 1.5)
    assert "a > 0" in _raises(ValueError, _stats.regularized_beta, 0, 1, 0.5)


QRELS = {"q1": {"a": 1, "b": 0}, "q2": {"c": 2}, "q3": {"d": 1}, "q4": {"e": 1}}
RUNS = {
    "base": {"q1": {"b": 2.0, "a": 1.0}, "q2": {"c": 1.0}},
    "new": {"q1": {"a": 1.0}, "q3": {"x": 1.0, "d": 0.5}, "q9": {"a": 1.0}},
}


def test_paired_queries_are_those_any_run_retrieved_or_all_with_complete() -> None:
    paired = paired_scores(QRELS, RUNS, ["RR", "P@1"])
    assert paired.queries == ("q1", "q2", "q3")  # q4: no run; q9: not in the qrels
    assert paired.scores["base"] == {"RR": [0.5, 1.0, 0.0], "P@1": [0.0, 1.0, 0.0]}
    assert paired.scores["new"] == {"RR": [1.0, 0.0, 0.5], "P@1": [1.0, 0.0, 0.0]}
    complete = paired_scores(QRELS, RUNS, ["RR"], complete=True)
    assert complete.queries == ("q1", "q2", "q3", "q4")
    assert complete.scores["new"]["RR"] == [1.0, 0.0, 0.5, 0.0]
    assert paired_scores(QRELS, RUNS, ["RR"], depth=1).scores["base"]["RR"] == [0.0, 1.0, 0.0]
    level = paired_scores(QRELS, RUNS, ["RR"], rel_level=2)
    assert level.scores["base"]["RR"] == [0.0, 1.0, 0.0]
    assert "no query" in _raises(
        ValueError, paired_scores, QRELS, {"x": {"q9": {"a": 1.0}}}, ["RR"]
    )
    assert "counter" in _raises(ValueError, paired_scores, QRELS, RUNS, ["num_ret"])


def test_a_query_missing_from_a_run_scores_0_on_every_measure() -> None:
    names = ["RR", "Success@10", "P@10", "R@10", "F1@10", "Rprec", "AP", "IPrec@0.0", "nDCG",
             "nDCG(dcg=exp-log2)@5", "ERR@10", "bpref", "RBP(p=0.8)", "Judged@10"]  # fmt: skip
    qrels = {"q1": {"a": 1, "b": 2, "c": 0}, "q2": {"d": 1}}
    runs = {"has": {"q1": {"a": 2.0, "c": 1.0}}, "lacks": {"q2": {"d": 1.0}}}
    paired = paired_scores(qrels, runs, names)
    assert paired.queries == ("q1", "q2")
    assert all(paired.scores["lacks"][name][0] == 0.0 for name in paired.scores["lacks"])
    assert all(paired.scores["has"][name][1] == 0.0 for name in paired.scores["has"])
    assert paired.scores["has"]["AP"][0] > 0 and paired.scores["lacks"]["AP"][1] == 1.0


def test_compare_result_shape_and_numbers() -> None:
    result = compare_runs(QRELS, RUNS, ["RR", "P@1"], test="t", correction="bonferroni")
    assert list(result) == [
        "runs", "measures", "test", "alpha", "correction", "aggregate", "comparisons",
    ]  # fmt: skip
    assert result["runs"] == ["base", "new"] and result["measures"] == ["RR", "P@1"]
    assert result["aggregate"] == {
        "base": {"RR": 0.5, "P@1": 1 / 3},
        "new": {"RR": 0.5, "P@1": 1 / 3},
    }
    rr, p1 = result["comparisons"]  # type: ignore[misc]
    assert list(rr) == [
        "baseline", "run", "measure", "delta", "p", "p_adjusted", "significant", "ci",
        "effect_size", "wins", "losses", "ties",
    ]  # fmt: skip
    assert (rr["baseline"], rr["run"], rr["measure"]) == ("base", "new", "RR")
    # RR differences 0.5, -1, 0.5: mean 0, so t = 0 and p = 1
    assert rr["delta"] == 0.0 and rr["p"] == 1.0 and rr["p_adjusted"] == 1.0
    assert (rr["wins"], rr["losses"], rr["ties"]) == (2, 1, 0)
    # P@1 differences 1, -1, 0: t = 0 as well; effect size 0
    assert p1["effect_size"] == 0.0 and (p1["wins"], p1["losses"], p1["ties"]) == (1, 1, 1)
    sd = math.sqrt(0.75)  # RR: differences 0.5, -1, 0.5 around 0: sum of squares 1.5 / 2
    half = _stats.student_t_quantile(0.975, 2) * sd / math.sqrt(3)
    assert _approx(rr["ci"], [-half, half])


def test_corrections_and_pairs_over_every_comparison_of_the_call() -> None:
    generator = random.Random(1)
    base = [generator.random() for _ in range(30)]
    scores = {
        "a": {"m1": base, "m2": base[::-1]},
        "b": {
            "m1": [v + 0.05 for v in base],
            "m2": [v + 0.01 * generator.random() for v in base[::-1]],
        },
        "c": {"m1": [v + generator.gauss(0, 0.1) for v in base], "m2": base[::-1]},
    }
    plain = compare_scores(scores, test="wilcoxon", samples=500, seed=5)
    rows = plain["comparisons"]
    assert [(r["measure"], r["baseline"], r["run"]) for r in rows] == [  # type: ignore[index]
        ("m1", "a", "b"), ("m1", "a", "c"), ("m2", "a", "b"), ("m2", "a", "c"),
    ]  # fmt: skip
    p = [r["p"] for r in rows]  # type: ignore[index]
    assert [r["p_adjusted"] for r in rows] == p  # type: ignore[index]
    for correction, adjust in (("holm", _stats.holm), ("bonferroni", _stats.bonferroni)):
        rows = compare_scores(scores, "wilcoxon", correction=correction, samples=500, seed=5)
        rows = rows["comparisons"]
        assert [r["p"] for r in rows] == p  # type: ignore[index]
        assert [r["p_adjusted"] for r in rows] == adjust(p)  # type: ignore[index]
        assert [r["significant"] for r in rows] == [q < 0.05 for q in adjust(p)]  # type: ignore[index]
    pairs = compare_scores(scores, test="t", all_pairs=True)["comparisons"]
    assert [(r["baseline"], r["run"]) for r in pairs][:3] == [("a", "b"), ("a", "c"), ("b", "c")]  # type: ignore[index]
    assert len(pairs) == 6  # type: ignore[arg-type]
    # Each comparison seeds its own generator: alone or among others, the same numbers.
    pair = {"a": scores["a"], "c": scores["c"]}
    alone = compare_scores(pair, test="randomization", samples=500, seed=5)
    among = compare_scores(scores, test="randomization", samples=500, seed=5)
    assert alone["comparisons"][0] == {  # type: ignore[index]
        **among["comparisons"][1],
        "p_adjusted": alone["comparisons"][0]["p_adjusted"],  # type: ignore[index]
    }


def test_compare_scores_rejects_bad_input() -> None:
    good = {"a": {"m": [0.1, 0.2]}, "b": {"m": [0.3, 0.1]}}
    assert "at least two runs" in _raises(ValueError, compare_scores, {"a": good["a"]})
    assert "test must be one of" in _raises(ValueError, compare_scores, good, test="z")  # type: ignore[arg-type]
    assert "correction" in _raises(ValueError, compare_scores, good, correction="x")  # type: ignore[arg-type]
    assert "alpha" in _raises(ValueError, compare_scores, good, alpha=1.0)
    assert "samples" in _raises(ValueError, compare_scores, good, samples=0)
    assert "values, expected 2" in _raises(
        ValueError, compare_scores, {"a": good["a"], "b": {"m": [0.1]}}
    )
    assert "has measures" in _raises(
        ValueError, compare_scores, {"a": good["a"], "b": {"n": [0, 1]}}
    )
    assert "finite" in _raises(
        ValueError, compare_scores, {"a": good["a"], "b": {"m": [0.1, math.nan]}}
    )
    assert "at least 2 queries" in _raises(
        ValueError, compare_scores, {"a": {"m": [0.1]}, "b": {"m": [0.2]}}
    )
    one_query = compare_scores({"a": {"m": [0.1]}, "b": {"m": [0.2]}}, test="randomization")
    assert one_query["comparisons"][0]["p"] == 1.0  # type: ignore[index]  # 2 flips, both as extreme


def test_a_p_value_exactly_at_alpha_is_not_significant() -> None:
    # Exact randomization over 4 queries: 2 of the 16 sign assignments reach |sum|, p = 1/8.
    scores = {"base": {"AP": [0.2, 0.4, 0.1, 0.3]}, "new": {"AP": [0.3, 0.6, 0.2, 0.6]}}
    at = compare_scores(scores, test="randomization", alpha=0.125)["comparisons"][0]
    assert at["p"] == at["p_adjusted"] == 0.125
    assert at["significant"] is False  # significant means p < alpha, not p <= alpha
    above = compare_scores(scores, test="randomization", alpha=0.1251)["comparisons"][0]
    assert above["significant"] is True
    # The same rule after a correction: Bonferroni over two identical comparisons gives 0.25.
    pair = {**scores, "again": scores["new"]}
    rows = compare_scores(pair, test="randomization", alpha=0.25, correction="bonferroni")
    assert [(row["p_adjusted"], row["significant"]) for row in rows["comparisons"]] == [
        (0.25, False),
        (0.25, False),
    ]
