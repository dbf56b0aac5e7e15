"""The significance view shows exactly what rankcards.metrics computes on the simulated queries.

Every number of the view is read from its ``data-value`` and recomputed here from
:func:`rankcards.demos.simulated.simulated_scores` with :func:`rankcards.metrics.compare_scores`
and ``rankcards.metrics._stats`` (not with the view's own helpers), so a view that drifts from
the module fails. The simulated world itself is tested for what the cards say of it.
"""

from __future__ import annotations

import math
import random
import re
import statistics

import pytest
import scipy.stats
import yaml

from content._view import shown, text
from rankcards.demos.simulated import MAX_EFFECT, POOL, simulated_scores
from rankcards.metrics import _stats, compare_scores
from rankcards.viz import render, significance, validate
from rankcards.viz.significance import (
    ALPHA,
    CI_DIGITS,
    SAMPLES,
    all_tests,
    queries_needed,
    view,
)
from repo_paths import ROOT

CARDS = ("significance-testing", "confidence-intervals", "multiple-comparisons")
TESTS = ("t", "wilcoxon", "randomization", "bootstrap")

TEST_STATE = {"mode": "test", "test": "t", "queries": 20, "effect": 0.05, "seed": 1}
INTERVAL_STATE = {
    "mode": "interval",
    "test": "t",
    "queries": 20,
    "target": 0.05,
    "effect": 0.05,
    "seed": 1,
}
FAMILY_STATE = {
    "mode": "multiple",
    "systems": 10,
    "correction": "none",
    "effect": 0.0,
    "queries": 30,
    "seed": 6,
}


def _pair(state: dict) -> dict[str, dict[str, list[float]]]:
    world = simulated_scores(state["queries"], [state["effect"]], state["seed"])
    return {name: {"score": values} for name, values in world.items()}


def _row(state: dict, test: str) -> dict:
    """compare_scores' row, its interval rounded as the view rounds it (see CI_DIGITS)."""
    row = compare_scores(_pair(state), test=test, samples=SAMPLES, seed=0)["comparisons"][0]
    exact = row["ci"]
    row["ci"] = [round(end, CI_DIGITS) for end in exact]
    assert all(abs(a - b) < 1e-12 for a, b in zip(row["ci"], exact, strict=True))
    return row


def _differences(state: dict) -> list[float]:
    world = simulated_scores(state["queries"], [state["effect"]], state["seed"])
    return [s - b for b, s in zip(world["baseline"], world["S1"], strict=True)]


# --- test mode ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "es"])
def test_test_mode_shows_the_four_tests_of_compare_scores(lang):
    values = shown(view(dict(TEST_STATE), lang))
    for test in TESTS:
        row = _row(TEST_STATE, test)
        assert values[f"p:{test}"] == row["p"]
        assert values[f"ci:{test}:low"] == row["ci"][0]
        assert values[f"ci:{test}:high"] == row["ci"][1]
    row = _row(TEST_STATE, "t")
    assert values["delta"] == row["delta"]
    assert (values["wins"], values["losses"], values["ties"]) == (
        row["wins"],
        row["losses"],
        row["ties"],
    )
    assert values["p"] == row["p"]
    differences = _differences(TEST_STATE)
    assert values["t"] == pytest.approx(_stats.paired_t_test(differences).statistic, rel=1e-12)
    assert values["t"] == pytest.approx(scipy.stats.ttest_1samp(differences, 0.0).statistic)


def _significance_cell(html: str, test: str) -> str:
    """The last cell ("significant?") of the test's row in the view's table."""
    row = re.search(rf'<tr data-test="{test}"[^>]*>(.*?)</tr>', html, re.S)
    assert row is not None, test
    return re.findall(r"<td>(.*?)</td>", row.group(1))[-1]


@pytest.mark.parametrize("test", TESTS)
def test_a_p_value_exactly_at_alpha_reads_not_significant(test, monkeypatch):
    state = {**TEST_STATE, "test": test}
    p = _row(state, test)["p"]  # compare_scores' p, computed here, not by the view
    monkeypatch.setattr(significance, "ALPHA", p)
    html = view(dict(state), "en")
    assert (_significance_cell(html, test), all_tests(state)[test]["significant"]) == ("no", False)
    assert " ≥ 0.05" in text(html) and " < 0.05" not in text(html)
    monkeypatch.setattr(significance, "ALPHA", math.nextafter(p, 1.0))
    html = view(dict(state), "en")
    assert (_significance_cell(html, test), all_tests(state)[test]["significant"]) == ("yes", True)
    assert " < 0.05" in text(html)


@pytest.mark.parametrize("state", [TEST_STATE, {**TEST_STATE, "queries": 12, "seed": 4}])
def test_all_tests_equals_one_compare_scores_call_per_test(state):
    # The view runs one bootstrap for the three tests that share it; every row must still be
    # exactly what compare_scores returns for that test.
    from rankcards.viz.significance import all_tests

    assert all_tests(state) == {test: _row(state, test) for test in TESTS}


@pytest.mark.parametrize("test", TESTS)
def test_the_chosen_test_is_the_one_written_out(test):
    html = view({**TEST_STATE, "test": test}, "en")
    assert shown(html)["p"] == _row(TEST_STATE, test)["p"]
    assert f'data-test="{test}" aria-current="true"' in html
    assert html.count('aria-current="true"') == 1


def test_randomization_is_exact_up_to_16_queries_and_sampled_beyond():
    small = {**TEST_STATE, "queries": 12}
    differences = [d for d in _differences(small) if d != 0.0]
    assert len(differences) <= _stats.EXACT_LIMIT
    p = shown(view(small, "en"))["p:randomization"]
    # exact: a share of the 2^n sign flips, recounted here by brute force
    total = math.fsum(differences)
    hits = 0
    for mask in range(1 << len(differences)):
        flipped = math.fsum(-d if mask >> i & 1 else d for i, d in enumerate(differences))
        hits += abs(flipped) >= abs(total) - 1e-9
    assert p == hits / (1 << len(differences))
    large = shown(view({**TEST_STATE, "queries": 40}, "en"))["p:randomization"]
    assert (large * (1 + SAMPLES)).is_integer() or math.isclose(
        large * (1 + SAMPLES), round(large * (1 + SAMPLES))
    )


def test_more_queries_and_other_samples_move_the_p_value():
    base = shown(view(dict(TEST_STATE), "en"))
    more = shown(view({**TEST_STATE, "queries": 40}, "en"))
    other = shown(view({**TEST_STATE, "seed": 2}, "en"))
    null = shown(view({**TEST_STATE, "effect": 0.0}, "en"))
    assert more["p:t"] != base["p:t"] and other["p:t"] != base["p:t"]
    assert base["p:t"] < ALPHA < other["p:t"]  # the default sample is significant, seed 2 not
    assert null["delta"] == pytest.approx(base["delta"] - 0.05, abs=1e-3)  # same noise, no effect


@pytest.mark.parametrize(("seed", "queries"), [(1, 20), (1, 50), (2, 20)])
def test_view_text_reads_the_p_value_in_both_languages(seed, queries):
    state = {**TEST_STATE, "seed": seed, "queries": queries}
    p = _row(state, "t")["p"]
    percent = f"{100 * p:.1f}" if p < 0.1 else f"{100 * p:.0f}"
    percent = percent.rstrip("0").rstrip(".") if "." in percent else percent
    assert percent != "0"  # a small p is never read as "0%"
    en, es = text(view(state, "en")), text(view(state, "es"))
    assert f"about {percent}% of samples of {queries} queries" in en
    assert f"cerca del {percent} % de las muestras de {queries} consultas" in es


# --- interval mode -----------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "es"])
def test_interval_mode_shows_both_intervals_the_effect_size_and_the_queries_needed(lang):
    values = shown(view(dict(INTERVAL_STATE), lang))
    for test in ("t", "bootstrap"):
        low, high = _row(INTERVAL_STATE, test)["ci"]
        assert values[f"ci:{test}:low"] == low and values[f"ci:{test}:high"] == high
        assert values[f"ci:{test}:half"] == (high - low) / 2
    differences = _differences(INTERVAL_STATE)
    assert values["delta"] == _stats.mean(differences)
    assert values["effect_size"] == _stats.effect_size(differences)
    assert values["needed"] == queries_needed(_stats.sample_sd(differences), 0.05)
    assert (values["low"], values["high"]) == tuple(_row(INTERVAL_STATE, "t")["ci"])
    bootstrap = shown(view({**INTERVAL_STATE, "test": "bootstrap"}, lang))
    assert (bootstrap["low"], bootstrap["high"]) == tuple(_row(INTERVAL_STATE, "bootstrap")["ci"])


def test_the_interval_narrows_with_more_queries_and_the_target_moves_the_queries_needed():
    few = shown(view({**INTERVAL_STATE, "queries": 10}, "en"))
    many = shown(view({**INTERVAL_STATE, "queries": 50}, "en"))
    assert many["ci:t:half"] < few["ci:t:half"]
    wide = shown(view({**INTERVAL_STATE, "target": 0.1}, "en"))["needed"]
    narrow = shown(view({**INTERVAL_STATE, "target": 0.01}, "en"))["needed"]
    assert narrow > shown(view(dict(INTERVAL_STATE), "en"))["needed"] > wide


@pytest.mark.parametrize(
    ("sd", "half_width"), [(0.17, 0.05), (0.17, 0.02), (0.3, 0.01), (0.05, 0.1)]
)
def test_queries_needed_is_the_smallest_n_whose_t_interval_is_that_narrow(sd, half_width):
    n = queries_needed(sd, half_width)

    def width(size: int) -> float:
        return scipy.stats.t.ppf(0.975, size - 1) * sd / math.sqrt(size)

    assert width(n) <= half_width + 1e-12
    assert n == 2 or width(n - 1) > half_width


def test_queries_needed_rejects_a_non_positive_half_width():
    with pytest.raises(ValueError, match="half_width must be > 0"):
        queries_needed(0.17, 0.0)


# --- multiple mode -----------------------------------------------------------------------


@pytest.mark.parametrize("correction", ["none", "holm", "bonferroni"])
def test_multiple_mode_shows_compare_scores_with_the_correction(correction):
    state = {**FAMILY_STATE, "correction": correction}
    values = shown(view(state, "en"))
    world = simulated_scores(30, [0.0] * 10, 6)
    result = compare_scores(
        {name: {"score": v} for name, v in world.items()}, correction=correction, samples=SAMPLES
    )
    rows = result["comparisons"]
    assert len(rows) == 10
    for row in rows:
        assert values[f"p:{row['run']}"] == row["p"]
        assert values[f"padj:{row['run']}"] == row["p_adjusted"]
        assert values[f"delta:{row['run']}"] == row["delta"]
    assert values["false_positives"] == sum(row["significant"] for row in rows)
    assert values["fwer"] == 1 - (1 - ALPHA) ** 10


def test_corrections_remove_the_default_samples_false_positives():
    counts = {
        c: shown(view({**FAMILY_STATE, "correction": c}, "en"))["false_positives"]
        for c in ("none", "holm", "bonferroni")
    }
    assert counts == {"none": 2, "holm": 0, "bonferroni": 0}


def test_the_number_of_systems_and_a_real_effect_change_the_family():
    three = shown(view({**FAMILY_STATE, "systems": 3}, "en"))
    assert {name for name in three if name.startswith("p:")} == {"p:S1", "p:S2", "p:S3"}
    assert three["fwer"] == 1 - (1 - ALPHA) ** 3
    real = shown(view({**FAMILY_STATE, "effect": 0.15}, "en"))
    assert real["true_found"] == 1.0  # S1, better by 0.15 over 30 queries, is found
    assert real["fwer"] == 1 - (1 - ALPHA) ** 9  # the other 9 are the nulls


# --- contract, determinism, the world -----------------------------------------------------


@pytest.mark.parametrize("slug", CARDS)
def test_each_cards_demo_is_valid_deterministic_and_its_controls_move_the_view(slug):
    card = yaml.safe_load((ROOT / "docs" / "cards" / f"{slug}.yml").read_text(encoding="utf-8"))
    demo = card["demo"]
    assert demo["compute"] == "rankcards.viz.significance:view"
    assert validate(demo) == []
    for lang in ("es", "en"):
        assert render(demo, lang) == render(demo, lang)
    assert shown(render(demo, "es")) == shown(render(demo, "en"))
    before = shown(render(demo, "en"))
    for control in demo["controls"]:
        current = demo["state"][control["bind"]]
        if control["kind"] == "select":
            other = next(o["value"] for o in control["options"] if o["value"] != current)
        else:
            other = control["max"] if current != control["max"] else control["min"]
        after = shown(render({**demo, "state": {**demo["state"], control["bind"]: other}}, "en"))
        assert after != before, f"{slug}: moving {control['bind']} changed no number"


def test_an_unknown_mode_is_one_clear_error():
    with pytest.raises(ValueError, match="mode must be one of test, interval, multiple"):
        view({**TEST_STATE, "mode": "anova"}, "en")


def test_the_simulated_world_is_seeded_extends_by_prefix_and_stays_in_range():
    first = simulated_scores(POOL, [0.0, MAX_EFFECT], seed=3)
    assert first == simulated_scores(POOL, [0.0, MAX_EFFECT], seed=3)
    assert simulated_scores(7, [0.0], seed=3) == {
        "baseline": first["baseline"][:7],
        "S1": first["S1"][:7],
    }
    assert first != simulated_scores(POOL, [0.0, MAX_EFFECT], seed=4)
    assert all(0.0 <= v <= 1.0 for values in first.values() for v in values)
    with pytest.raises(ValueError, match="queries must be between 1 and 50"):
        simulated_scores(0, [0.0])
    with pytest.raises(ValueError, match=r"an effect must be in \[0, 0.15\]"):
        simulated_scores(5, [0.2])


def test_the_worlds_true_difference_is_the_effect_and_its_sd_is_0_173():
    # Over many samples: the mean difference converges on the effect (nothing is clipped),
    # and the differences' standard deviation on 0.3 / sqrt(3) (two triangular noises).
    differences = []
    for seed in range(200):
        world = simulated_scores(POOL, [0.05], seed)
        differences += [s - b for b, s in zip(world["baseline"], world["S1"], strict=True)]
    assert statistics.fmean(differences) == pytest.approx(0.05, abs=0.003)
    assert statistics.stdev(differences) == pytest.approx(0.3 / math.sqrt(3), abs=0.003)


def test_null_systems_are_significant_about_alpha_of_the_time_and_intervals_cover():
    # What the cards say: with no real difference a test at 0.05 fires in about 5% of samples,
    # and a 95% interval misses the real difference in about 1 sample out of 20.
    generator = random.Random(0)
    seeds = generator.sample(range(10_000), 300)
    fired = covered = 0
    for seed in seeds:
        null = compare_scores(_pair({"queries": 20, "effect": 0.0, "seed": seed}))
        fired += null["comparisons"][0]["p"] < ALPHA
        low, high = _row({"queries": 20, "effect": 0.05, "seed": seed}, "t")["ci"]
        covered += low <= 0.05 <= high
    assert 0.02 <= fired / len(seeds) <= 0.09
    assert 0.91 <= covered / len(seeds) <= 0.98


@pytest.mark.parametrize(
    ("lang", "label", "effect"), [("en", "difference", 0.05), ("es", "diferencia", 0.15)]
)
def test_the_difference_chart_has_a_y_axis_with_ticks_and_a_label(lang, label, effect):
    """Issue 19 §3: the sorted difference chart reads as a chart, its scale on a labelled axis.
    The ticks sit where the bars' scale puts their values: the top of the plot is the largest
    absolute difference (at least 0.3)."""
    import re

    state = {**TEST_STATE, "effect": effect}
    html = view(state, lang)
    assert f'<span class="rc-sig-ylabel">{label}</span>' in html
    pair = _pair(state)
    scores = zip(pair["baseline"]["score"], pair["S1"]["score"], strict=True)
    differences = [s - b for b, s in scores]
    reach = max(0.3, max(abs(d) for d in differences))
    ticks = re.findall(r'<span data-tick="([^"]+)" style="top: ([\d.]+)%">([^<]+)</span>', html)
    assert len(ticks) == 3
    values = [float(value) for value, _, _ in ticks]
    assert values[0] == -values[2] > 0 and values[1] == 0 and values[0] <= reach
    for value, top, shown_text in ticks:
        assert float(top) == pytest.approx(50 - 50 * float(value) / reach, abs=0.01)
        assert float(shown_text.replace("\u2212", "-")) == float(value)
