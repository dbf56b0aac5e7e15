"""Every number the statistics cards state is what rankcards computes, in both languages.

The cards ``significance-testing``, ``confidence-intervals`` and ``multiple-comparisons`` quote
p-values, intervals and counts from the gold dataset (three BM25 settings against Anserini's
defaults) and from the simulated world of :mod:`rankcards.demos.simulated`. Each test finds the
sentence in the card and recomputes its numbers with :mod:`rankcards.metrics`; the examples are
run as the build runs them (:func:`rankcards.runner.run_example`) and their lines compared with
freshly computed ones. Claims about SciPy's behaviour are checked against the installed SciPy.
"""

from __future__ import annotations

import functools
import inspect
import math
import random
from pathlib import Path

import numpy as np
import pytest
import scipy.stats
import yaml

from rankcards.demos.bm25 import BM25
from rankcards.demos.gold import load_gold
from rankcards.demos.simulated import NOISE, simulated_scores
from rankcards.metrics import _stats, compare_scores, paired_scores
from rankcards.runner import run_example
from rankcards.viz.significance import queries_needed

ROOT = Path(__file__).resolve().parents[2]
CARDS = ROOT / "docs" / "cards"
LANGS = ("es", "en")
TESTS = ("t", "wilcoxon", "randomization", "bootstrap")
BASELINE, LUCENE, B_ONE, LOW = "k1=0.9 b=0.4", "k1=1.2 b=0.75", "k1=0.9 b=1.0", "k1=0.5 b=0.3"
SETTINGS = {BASELINE: (0.9, 0.4), LUCENE: (1.2, 0.75), B_ONE: (0.9, 1.0), LOW: (0.5, 0.3)}


def _card(slug: str) -> dict:
    return yaml.safe_load((CARDS / f"{slug}.yml").read_text(encoding="utf-8"))


def _text(card: dict, lang: str) -> str:
    parts = [card[field][lang] for field in ("summary", "definition", "intuition")]
    parts += card["key_points"][lang] + card["gotchas"][lang] + [card["formula"]["where"][lang]]
    return "\n".join(parts)


def _item(items: list[str], *needles: str) -> str:
    """The one list item (key point, gotcha) that holds every needle."""
    found = [item for item in items if all(needle in item for needle in needles)]
    assert len(found) == 1, f"expected one item with {needles}, found {len(found)}"
    return found[0]


@functools.cache
def _paired() -> dict[str, dict[str, list[float]]]:
    """Per-query nDCG@10, AP@10 and P@5 of the four BM25 settings on the 20 gold queries."""
    gold = load_gold()
    runs = {}
    for name, (k1, b) in SETTINGS.items():
        bm25 = BM25(gold.documents, k1=k1, b=b)
        runs[name] = {q: dict(bm25.search(text, k=10)) for q, text in gold.queries.items()}
    paired = paired_scores(gold.qrels, runs, ["nDCG@10", "AP@10", "P@5"])
    assert len(paired.queries) == 20
    return paired.scores


def _pair(run: str, measure: str = "nDCG@10") -> dict[str, dict[str, list[float]]]:
    scores = _paired()
    return {BASELINE: {measure: scores[BASELINE][measure]}, run: {measure: scores[run][measure]}}


def _row(run: str, test: str) -> dict:
    return compare_scores(_pair(run), test=test)["comparisons"][0]


def _differences(run: str) -> list[float]:
    pair = _pair(run)
    return [n - b for b, n in zip(pair[BASELINE]["nDCG@10"], pair[run]["nDCG@10"], strict=True)]


@functools.cache
def _output(slug: str, lang: str) -> list[str]:
    result = run_example(_card(slug)["code"]["source"][lang])
    assert result.error is None, result.error
    return result.output.strip().splitlines()


def _t_half_width(sd: float, n: int) -> float:
    return _stats.student_t_quantile(0.975, n - 1) * sd / math.sqrt(n)


# --- significance-testing ------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_significance_gold_p_values(lang):
    card = _card("significance-testing")
    lucene = _item(card["key_points"][lang], "0.0145")
    rows = {test: _row(LUCENE, test) for test in TESTS}
    assert f"{-rows['t']['delta']:.4f}" == "0.0145"
    stated = {"t": "$p = 0.0192$", "wilcoxon": "0.0165", "randomization": "0.0117"}
    for test, fragment in stated.items():
        assert fragment in lucene
        assert fragment.strip("$p= ") == f"{rows[test]['p']:.4f}"
    assert "0.0534" in lucene and f"{rows['bootstrap']['p']:.4f}" == "0.0534"
    # "three say significant at 5% and the bootstrap does not: 10 of the 20 queries are tied"
    assert [test for test in TESTS if rows[test]["p"] < 0.05] == ["t", "wilcoxon", "randomization"]
    assert rows["t"]["ties"] == 10 and ("10" in lucene and "20" in lucene)


@pytest.mark.parametrize("lang", LANGS)
def test_significance_zero_differences_gotcha(lang):
    gotcha = _item(_card("significance-testing")["gotchas"][lang], "0.0132", "0.0199")
    differences = _differences(LUCENE)
    nonzero = [d for d in differences if d != 0.0]
    assert len(differences) - len(nonzero) == 10 and "10" in gotcha
    # only Wilcoxon drops them (here: the same p with or without); randomization unchanged
    assert _stats.wilcoxon_signed_rank(nonzero).p == _stats.wilcoxon_signed_rank(differences).p
    assert _stats.randomization_test(nonzero).p == _stats.randomization_test(differences).p
    t_all, t_nonzero = _stats.paired_t_test(differences).p, _stats.paired_t_test(nonzero).p
    assert (f"{t_all:.4f}", f"{t_nonzero:.4f}") == ("0.0192", "0.0132")
    boot_all, boot_nonzero = _stats.bootstrap_test(differences).p, _stats.bootstrap_test(nonzero).p
    assert (f"{boot_all:.4f}", f"{boot_nonzero:.4f}") == ("0.0534", "0.0199")
    assert all(number in gotcha for number in ("0.0192", "0.0132", "0.0534", "0.0199"))
    # "which they pull toward 0": the mean over all 20 is half the mean over the 10 non-zero
    assert abs(_stats.mean(differences)) < abs(_stats.mean(nonzero))


# Urbano, Lima & Hanjalic (SIGIR 2019): the alpha = 0.05 row of each two-sided type I error
# table in julian-urbano/sigir2019-statistical (output/type_1/type_1_<measure>_<topics>.csv,
# commit 4dd2c8e), columns t2 (t-test), w2 (Wilcoxon), s2 (sign), b2 (bootstrap), p2
# (permutation): the card summarises these rows.
URBANO_TYPE_I = {
    ("ap", 25): (0.0509, 0.0607, 0.0464, 0.0689, 0.0534),
    ("ap", 50): (0.0512, 0.0722, 0.0779, 0.0597, 0.0522),
    ("ap", 100): (0.0511, 0.0965, 0.1251, 0.0553, 0.0517),
    ("err20", 25): (0.0482, 0.0546, 0.0366, 0.0668, 0.0517),
    ("err20", 50): (0.0494, 0.0602, 0.0559, 0.0579, 0.0509),
    ("err20", 100): (0.0498, 0.0732, 0.0822, 0.0538, 0.0505),
    ("ndcg20", 25): (0.0498, 0.0556, 0.0387, 0.0679, 0.0523),
    ("ndcg20", 50): (0.0504, 0.0617, 0.0592, 0.0588, 0.0515),
    ("ndcg20", 100): (0.0502, 0.0748, 0.0885, 0.0542, 0.0507),
    ("p10", 25): (0.0506, 0.0487, 0.0380, 0.0675, 0.0467),
    ("p10", 50): (0.0503, 0.0526, 0.0552, 0.0585, 0.0481),
    ("p10", 100): (0.0500, 0.0563, 0.0828, 0.0539, 0.0489),
    ("rr", 25): (0.0495, 0.0439, 0.0289, 0.0672, 0.0482),
    ("rr", 50): (0.0498, 0.0480, 0.0360, 0.0580, 0.0498),
    ("rr", 100): (0.0500, 0.0498, 0.0485, 0.0539, 0.0501),
}


def _percent(rate: float) -> str:
    return f"{100 * rate:.1f}"


@pytest.mark.parametrize("lang", LANGS)
def test_significance_urbano_type_i_errors(lang):
    gotcha = _item(_card("significance-testing")["gotchas"][lang], "Urbano")
    joiner = {"es": " al ", "en": " to "}[lang]
    for topics in (25, 50, 100):
        bootstrap = [row[3] for (_, n), row in URBANO_TYPE_I.items() if n == topics]
        low, high = _percent(min(bootstrap)), _percent(max(bootstrap))
        assert f"{low}{joiner}{high}" in gotcha, topics
    t_and_permutation = [row[i] for row in URBANO_TYPE_I.values() for i in (0, 4)]
    low, high = _percent(min(t_and_permutation)), _percent(max(t_and_permutation))
    assert (low, high) == ("4.7", "5.3")
    assert {"es": "entre el 4.7 y el 5.3", "en": "4.7 to 5.3"}[lang] in gotcha
    wilcoxon, sign = URBANO_TYPE_I["ap", 100][1:3]
    assert (_percent(wilcoxon), _percent(sign)) == ("9.7", "12.5")
    assert "9.7" in gotcha and "12.5" in gotcha


@pytest.mark.parametrize("lang", LANGS)
def test_significance_tests_disagree_on_few_non_zero_differences(lang):
    point = _item(_card("significance-testing")["key_points"][lang], "0.2011")
    rows = {test: _row(LOW, test) for test in TESTS}
    assert (rows["t"]["wins"], rows["t"]["losses"], rows["t"]["ties"]) == (5, 0, 15)
    assert ("5" in point) and ("15" in point)
    for test, stated in zip(TESTS, ("0.2011", "0.0431", "0.0625", "0.3727"), strict=True):
        assert stated in point and f"{rows[test]['p']:.4f}" == stated


@pytest.mark.parametrize("lang", LANGS)
def test_significance_intuition_counts_the_sign_flips(lang):
    intuition = _card("significance-testing")["intuition"][lang]
    nonzero = [d for d in _differences(LUCENE) if d != 0.0]
    assert len(nonzero) == 10 and "$2^{10} = 1024$" in intuition
    total = math.fsum(nonzero)
    hits = sum(
        abs(math.fsum(-d if mask >> i & 1 else d for i, d in enumerate(nonzero)))
        >= abs(total) - 1e-9
        for mask in range(1 << 10)
    )
    assert hits == 12 and "12 / 1024 = 0.0117" in intuition
    assert f"{12 / 1024:.4f}" == f"{_row(LUCENE, 'randomization')['p']:.4f}" == "0.0117"


@pytest.mark.parametrize("lang", LANGS)
def test_significance_formula_notes_the_exact_limit_and_the_sampled_p(lang):
    where = _card("significance-testing")["formula"]["where"][lang]
    assert "16" in where and _stats.EXACT_LIMIT == 16
    assert "$p = (1 + " in where
    differences = [0.01 * (i % 7 + 1) * (-1) ** i for i in range(20)]  # 20 non-zero: sampled
    samples = 999
    p = _stats.randomization_test(differences, samples=samples, seed=3).p
    assert round(p * (1 + samples)) == pytest.approx(p * (1 + samples)) and p > 0


@pytest.mark.parametrize("lang", LANGS)
def test_significance_wilcoxon_gotcha_against_scipy(lang):
    gotcha = _item(_card("significance-testing")["gotchas"][lang], "0.0625", "0.0431")
    differences = _differences(LOW)  # 5 wins and 15 zero differences
    assert len(differences) == 20 and differences.count(0.0) == 15
    # SciPy's default on them (zeros: past 13 differences, the normal approximation) is ours.
    default = scipy.stats.wilcoxon(differences).pvalue
    assert f"{default:.4f}" == "0.0431" == f"{_stats.wilcoxon_signed_rank(differences).p:.4f}"
    # The exact p of the 5 non-zero differences (2 of 32 sign patterns) needs method="exact".
    exact = scipy.stats.wilcoxon(differences, method="exact").pvalue
    assert f"{exact:.4f}" == "0.0625" and 'method="exact"' in gotcha
    assert "1.17.1" in gotcha and scipy.__version__.startswith("1.17")
    notes = scipy.stats.wilcoxon.__doc__
    assert "``len(d) <= 50``" in notes and "``len(d) <= 13``" in notes
    assert "50" in gotcha and "13" in gotcha


@pytest.mark.parametrize("lang", LANGS)
def test_significance_example_output(lang):
    lines = _output("significance-testing", lang)
    head = {"es": "20 consultas;", "en": "20 queries;"}[lang]
    assert lines[0].startswith(head)
    counts = {"es": "gana/pierde/empata", "en": "wins/losses/ties"}[lang]
    expected = [
        f"{test:<13} {run:<13} delta = {row['delta']:+.4f}  p = {row['p']:.4f}"
        f"  {counts} = {row['wins']}/{row['losses']}/{row['ties']}"
        for test in TESTS
        for run, row in ((LUCENE, _row(LUCENE, test)), (LOW, _row(LOW, test)))
    ]
    assert lines[1:9] == expected
    assert lines[9].startswith("10 ") and "12" in lines[9] and "1024" in lines[9]
    assert lines[9].endswith("-> p = 0.0117")


# --- confidence-intervals ------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_intervals_gold_numbers(lang):
    point = _item(_card("confidence-intervals")["key_points"][lang], "0.0145")
    t_row, boot_row = _row(LUCENE, "t"), _row(LUCENE, "bootstrap")
    t_text = f"[{t_row['ci'][0]:.4f}, {t_row['ci'][1]:.4f}]"
    boot_text = f"[{boot_row['ci'][0]:.4f}, {boot_row['ci'][1]:.4f}]"
    assert t_text == "[-0.0263, -0.0026]" and t_text in point
    assert boot_text == "[-0.0263, -0.0052]" and boot_text in point
    assert f"$d = {t_row['effect_size']:.3f}$" == "$d = -0.572$" and "$d = -0.572$" in point
    assert f"{-t_row['ci'][0]:.3f}" == "0.026" and "0.026" in point


@pytest.mark.parametrize("lang", LANGS)
def test_intervals_queries_needed(lang):
    card = _card("confidence-intervals")
    point = _item(card["key_points"][lang], "47", "280")
    assert queries_needed(0.17, 0.05) == 47 and queries_needed(0.17, 0.02) == 280
    assert "0.173" in point and f"{NOISE / math.sqrt(3):.3f}" == "0.173"
    # "halving the width takes about four times as many queries"
    assert 3.5 <= queries_needed(0.17, 0.025) / queries_needed(0.17, 0.05) <= 4.5


@pytest.mark.parametrize("lang", LANGS)
def test_intervals_poll_margins(lang):
    intuition = _card("confidence-intervals")["intuition"][lang]
    assert f"±{_t_half_width(0.17, 20):.3f}" == "±0.080" and "±0.080" in intuition
    assert f"±{_t_half_width(0.17, 80):.3f}" == "±0.038" and "±0.038" in intuition
    # "a bit less than half the margin": the t quantile drops too (2.093 -> 1.990)
    assert 0.45 < _t_half_width(0.17, 80) / _t_half_width(0.17, 20) < 0.5


@pytest.mark.parametrize("lang", LANGS)
def test_intervals_quantiles_and_the_bootstrap_narrowing(lang):
    card = _card("confidence-intervals")
    where = card["formula"]["where"][lang]
    assert f"{_stats.student_t_quantile(0.975, 19):.3f}" == "2.093" and "2.093" in where
    assert "1.96" in where
    gotcha = _item(card["gotchas"][lang], "0.913")
    ratio = math.sqrt(19 / 20) * 1.959963984540054 / _stats.student_t_quantile(0.975, 19)
    assert f"{ratio:.3f}" == "0.913" and f"{100 * (1 - ratio):.0f}" == "9"
    assert "9 %" in gotcha or "9%" in gotcha


@pytest.mark.parametrize("lang", LANGS)
def test_intervals_scipy_bootstrap_gotcha(lang):
    gotcha = _item(_card("confidence-intervals")["gotchas"][lang], "BCa")
    assert "[-0.030, -0.006]" in gotcha and "[-0.026, -0.005]" in gotcha
    differences = np.array(_differences(LUCENE))
    for seed in (0, 1):
        rng = np.random.default_rng(seed)
        default = scipy.stats.bootstrap((differences,), np.mean, rng=rng)
        assert default.confidence_interval.low == pytest.approx(-0.030, abs=0.001)
        assert default.confidence_interval.high == pytest.approx(-0.006, abs=0.001)
        rng = np.random.default_rng(seed)
        percentile = scipy.stats.bootstrap((differences,), np.mean, method="percentile", rng=rng)
        assert percentile.confidence_interval.low == pytest.approx(-0.026, abs=0.001)
        assert percentile.confidence_interval.high == pytest.approx(-0.005, abs=0.001)
    parameters = inspect.signature(scipy.stats.bootstrap).parameters
    assert parameters["method"].default == "BCa" and parameters["n_resamples"].default == 9999


@pytest.mark.parametrize("lang", LANGS)
def test_intervals_example_output(lang):
    lines = _output("confidence-intervals", lang)
    interval = {"es": "intervalo del 95 %", "en": "95% interval"}[lang]
    width = {"es": "anchura", "en": "width"}[lang]
    for line, test in zip(lines[:2], ("t", "bootstrap"), strict=True):
        row = _row(LUCENE, test)
        low, high = row["ci"]
        assert line == (
            f"{test:<9} delta = {row['delta']:+.4f}  {interval} [{low:+.4f}, {high:+.4f}]"
            f"  {width} {high - low:.4f}"
        )
    assert lines[2].endswith(f"= {_row(LUCENE, 't')['effect_size']:.3f}")
    half = {"es": "semiamplitud", "en": "half-width"}[lang]
    widths = []
    for line, n in zip(lines[3:6], (10, 20, 40), strict=True):
        world = simulated_scores(n, [0.05], seed=1)
        row = compare_scores({k: {"AP": v} for k, v in world.items()})["comparisons"][0]
        low, high = row["ci"]
        widths.append((high - low) / 2)
        assert line == (
            f"n = {n:>2}: delta = {row['delta']:+.4f}  95{' %' if lang == 'es' else '%'}"
            f" [{low:+.4f}, {high:+.4f}]  {half} {(high - low) / 2:.4f}"
        )
    assert widths[0] > widths[1] > widths[2]
    assert lines[6].endswith(": 280")


# --- multiple-comparisons -------------------------------------------------------------------


def _null_family(correction: str) -> list[dict]:
    world = simulated_scores(30, [0.0] * 10, seed=6)
    scores = {name: {"AP": values} for name, values in world.items()}
    return compare_scores(scores, correction=correction)["comparisons"]


def _gold_family(correction: str) -> list[dict]:
    return compare_scores(_paired(), correction=correction)["comparisons"]


@pytest.mark.parametrize("lang", LANGS)
def test_multiple_family_wise_error(lang):
    card = _card("multiple-comparisons")
    definition = card["definition"][lang]
    assert "$m = 20$" in definition and "$1 - 0.95^{20} = 0.64$" in definition
    assert f"{1 - 0.95**20:.2f}" == "0.64"
    point = _item(card["key_points"][lang], "0.401")
    assert "$1 - 0.95^{10} = 0.401$" in point and f"{1 - 0.95**10:.3f}" == "0.401"


@pytest.mark.parametrize("lang", LANGS)
def test_multiple_null_systems(lang):
    point = _item(_card("multiple-comparisons")["key_points"][lang], "0.0387")
    hits = [row for row in _null_family("none") if row["significant"]]
    assert len(hits) == 2 and all(row["p"] < 0.05 for row in hits)
    assert sorted(f"{row['p']:.4f}" for row in hits) == ["0.0098", "0.0387"]
    assert "0.0098" in point
    for correction in ("holm", "bonferroni"):
        assert not any(row["significant"] for row in _null_family(correction))


@pytest.mark.parametrize("lang", LANGS)
def test_multiple_gold_family(lang):
    points = _card("multiple-comparisons")["key_points"][lang]
    power = _item(points, "9 ", "5 ")
    assert "20" in power
    assert len(_gold_family("none")) == 9
    assert sum(row["significant"] for row in _gold_family("none")) == 5
    assert sum(row["significant"] for row in _gold_family("holm")) == 0
    assert sum(row["significant"] for row in _gold_family("bonferroni")) == 0
    holm_point = _item(points, "0.0075", "0.1393")
    plain = [row["p"] for row in _gold_family("none")]
    holm = [row["p_adjusted"] for row in _gold_family("holm")]
    bonferroni = [row["p_adjusted"] for row in _gold_family("bonferroni")]
    order = sorted(range(9), key=plain.__getitem__)
    smallest, second = order[0], order[1]
    assert f"{plain[smallest]:.4f}" == "0.0075"
    assert f"{holm[smallest]:.4f}" == f"{bonferroni[smallest]:.4f}" == "0.0677"
    assert f"{plain[second]:.4f}" == "0.0174"
    assert f"{holm[second]:.4f}" == "0.1393" and f"{bonferroni[second]:.4f}" == "0.1568"
    for fragment in ("0.0677", "0.0174", "0.1568"):
        assert fragment in holm_point


@pytest.mark.parametrize("lang", LANGS)
def test_a_larger_family_never_lowers_an_adjusted_p(lang):
    # The PyTerrier gotcha: correcting over every measure at once (rankcards compare) never
    # gives a smaller adjusted p than correcting each measure's family alone.
    gotcha = _item(_card("multiple-comparisons")["gotchas"][lang], "PyTerrier 1.1.2")
    assert "nunca son menores" in gotcha or "never smaller" in gotcha
    generator = random.Random(11)
    for _ in range(300):
        family = [generator.random() ** 2 for _ in range(generator.randint(2, 12))]
        part = family[: generator.randint(1, len(family))]
        for correct in (_stats.holm, _stats.bonferroni):
            whole, alone = correct(family), correct(part)
            assert all(w >= a - 1e-15 for w, a in zip(whole, alone, strict=False))


def test_holm_never_rejects_fewer_than_bonferroni():
    generator = random.Random(5)
    for _ in range(500):
        p = [generator.random() ** 3 for _ in range(generator.randint(1, 12))]
        for h, b in zip(_stats.holm(p), _stats.bonferroni(p), strict=True):
            assert h <= b + 1e-15


@pytest.mark.parametrize("lang", LANGS)
def test_multiple_raffle(lang):
    intuition = _card("multiple-comparisons")["intuition"][lang]
    assert "$1 - 0.95^{20} = 0.64$" in intuition
    assert "0.05 / 20 = 0.0025" in intuition and 0.05 / 20 == 0.0025
    assert "$1 - (1 - 0.0025)^{20} = 0.0488$" in intuition
    assert f"{1 - (1 - 0.0025) ** 20:.4f}" == "0.0488"


@pytest.mark.parametrize("lang", LANGS)
def test_multiple_example_output(lang):
    lines = _output("multiple-comparisons", lang)
    label = {"es": "falsos positivos", "en": "false positives"}[lang]
    for line, correction in zip(lines[:3], ("none", "holm", "bonferroni"), strict=True):
        hits = [
            f"{r['run']} (p = {r['p']:.4f})" for r in _null_family(correction) if r["significant"]
        ]
        assert line == f"{correction:<10} {label}: {len(hits)} {hits}"
    rows = zip(_gold_family("none"), _gold_family("holm"), _gold_family("bonferroni"), strict=True)
    for line, (plain, h, b) in zip(lines[4:13], rows, strict=True):
        mark = "*" if plain["significant"] else " "
        assert line == (
            f"{plain['run']:<14} {plain['measure']:<8} {plain['delta']:+.4f}"
            f"  {plain['p']:.4f}{mark}  {h['p_adjusted']:.4f}  {b['p_adjusted']:.4f}"
        )
    tail = {"es": "{c}: {k} de 9 significativas al 0.05", "en": "{c}: {k} of 9 significant at 0.05"}
    assert lines[13:] == [
        tail[lang].format(c=c, k=k) for c, k in (("none", 5), ("holm", 0), ("bonferroni", 0))
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_intervals_percentile_interval_is_not_the_bootstrap_tests_inverse(lang):
    definition = _card("confidence-intervals")["definition"][lang]
    t_row, boot_row = _row(LUCENE, "t"), _row(LUCENE, "bootstrap")
    assert t_row["ci"][1] < 0.0 and t_row["p"] < 0.05  # the t interval and the t-test agree
    # the percentile interval leaves out 0, and the bootstrap test does not reject
    assert boot_row["ci"][1] < 0.0 and boot_row["p"] >= 0.05
    assert f"$p = {boot_row['p']:.4f}$" == "$p = 0.0534$" and "$p = 0.0534$" in definition
