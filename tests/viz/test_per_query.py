"""The per-query view shows what rankcards.metrics computes for BM25 and BM25 + PRF."""

from __future__ import annotations

import math
import re

import pytest
import yaml

from content._view import shown, text
from rankcards.demos.bm25 import tokenize
from rankcards.demos.gold import load_gold
from rankcards.demos.prf import MAX_TERMS, baseline_rankings, expansion, rankings
from rankcards.metrics import (
    average_precision,
    compare_scores,
    ndcg_at_k,
    precision_at_k,
    reciprocal_rank,
)
from rankcards.viz import render, validate
from rankcards.viz.per_query import MEASURES, compare, view
from repo_paths import ROOT

CARD = yaml.safe_load((ROOT / "docs" / "cards" / "per-query-analysis.yml").read_text("utf-8"))


def _teaching(measure: str, ranking: list[str], relevant: set[str]) -> float:
    """The same value from the teaching functions (a second path to the number)."""
    if measure == "AP":
        return average_precision(ranking, relevant)
    if measure == "RR":
        return reciprocal_rank(ranking, relevant)
    return precision_at_k(ranking, relevant, 10)


def _teaching_differences(measure: str, terms: int) -> list[float]:
    """BM25 + PRF minus BM25 per query, from the teaching functions (nDCG@10 on the grades)."""
    gold = load_gold()
    new, base = rankings(terms), baseline_rankings()

    def value(ranking: list[str], qid: str) -> float:
        if measure == "nDCG@10":
            return ndcg_at_k(ranking, gold.qrels[qid], 10)
        return _teaching(measure, ranking, gold.relevant(qid))

    return [value(new[qid], qid) - value(base[qid], qid) for qid in sorted(gold.queries)]


def test_the_card_demo_is_valid_and_starts_from_ap_with_five_terms():
    assert validate(CARD["demo"]) == []
    assert CARD["demo"]["state"] == {"measure": "AP", "terms": 5}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_card_view_shows_the_module_numbers(lang):
    values = shown(render(CARD["demo"], lang))
    data = compare("AP", 5)
    row = data["comparison"]
    for i, qid in enumerate(data["queries"]):
        assert values[f"bm25:{qid}"] == data["base"][i]
        assert values[f"prf:{qid}"] == data["new"][i]
        assert values[f"diff:{qid}"] == data["differences"][i]
    assert (values["wins"], values["losses"], values["ties"]) == (5, 5, 10)
    assert values["delta"] == row["delta"]
    assert values["mean:bm25"] == pytest.approx(sum(data["base"]) / 20, abs=1e-15)
    gains = math.fsum(d for d in data["differences"] if d > 0)
    losses = math.fsum(d for d in data["differences"] if d < 0)
    assert values["gains"] == gains and values["losses_sum"] == losses
    assert (gains + losses) / 20 == pytest.approx(row["delta"], abs=1e-15)
    assert values["worst"] == min(data["differences"]) and values["best"] == max(
        data["differences"]
    )


@pytest.mark.parametrize("measure", ["AP", "RR", "P@10"])
@pytest.mark.parametrize("terms", [0, 5, 10])
def test_per_query_values_equal_the_teaching_functions(measure, terms):
    gold = load_gold()
    data = compare(measure, terms)
    new, base = rankings(terms), baseline_rankings()
    for i, qid in enumerate(data["queries"]):
        relevant = gold.relevant(qid)
        assert data["base"][i] == pytest.approx(_teaching(measure, base[qid], relevant), abs=1e-12)
        assert data["new"][i] == pytest.approx(_teaching(measure, new[qid], relevant), abs=1e-12)
    assert data["queries"] == sorted(gold.queries)


@pytest.mark.parametrize("measure", MEASURES)
@pytest.mark.parametrize("terms", range(11))
def test_wins_losses_ties_and_delta_are_compare_scores_numbers(measure, terms):
    data = compare(measure, terms)
    row = compare_scores({"bm25": {measure: data["base"]}, "prf": {measure: data["new"]}})
    expected = row["comparisons"][0]
    for key in ("delta", "wins", "losses", "ties"):
        assert data["comparison"][key] == expected[key], key


def test_rows_are_sorted_by_difference_and_each_says_its_outcome_in_words():
    html = view({"measure": "nDCG@10", "terms": 10}, "en")
    values = shown(html)
    order = re.findall(r'<tr data-query="(q\d+)" data-outcome="(\w+)"', html)
    differences = [values[f"diff:{qid}"] for qid, _ in order]
    assert len(order) == 20 and differences == sorted(differences, reverse=True)
    for (_, outcome), d in zip(order, differences, strict=True):
        assert outcome == ("win" if d > 0 else "loss" if d < 0 else "tie")
    words = text(html)
    assert words.count(" win") >= 1 and words.count(" loss") >= 1
    # each bar is an image with its value and word, so it reads without colour
    labels = re.findall(r'role="img" aria-label="q\d+: [+-]?[\d.]+ \((win|loss|tie)\)"', html)
    assert len(labels) == 20


def test_wins_are_filled_bars_and_losses_outlined_ones():
    html = view({"measure": "AP", "terms": 5}, "es")
    win = re.search(r'data-outcome="win".*?<rect ([^>]*)>', html).group(1)
    loss = re.search(r'data-outcome="loss".*?<rect ([^>]*)>', html).group(1)
    assert 'fill="currentColor"' in win and 'fill="none"' in loss and "stroke=" in loss
    assert "gana" in text(html) and "pierde" in text(html)


def test_controls_change_the_numbers():
    base = shown(view({"measure": "AP", "terms": 5}, "en"))
    other_measure = shown(view({"measure": "nDCG@10", "terms": 5}, "en"))
    other_terms = shown(view({"measure": "AP", "terms": 10}, "en"))
    assert base["delta"] != other_measure["delta"] and base["delta"] != other_terms["delta"]
    assert (other_terms["wins"], other_terms["losses"], other_terms["ties"]) == (5, 10, 5)


def test_without_expansion_terms_both_systems_are_bm25_and_every_query_ties():
    html = view({"measure": "RR", "terms": 0}, "es")
    values = shown(html)
    assert (values["wins"], values["losses"], values["ties"], values["delta"]) == (0, 0, 20, 0)
    assert "Ninguna consulta pierde." in text(html)


def test_the_mean_difference_is_written_out_as_gains_plus_losses():
    html = view({"measure": "AP", "terms": 5}, "en")
    assert "mean difference = (gains +0.494 + losses -0.292) / 20 = +0.0101" in text(html)


@pytest.mark.parametrize(
    ("state", "message"),
    [
        ({"measure": "MAP@3", "terms": 5}, "measure: expected one of AP, nDCG@10, RR, P@10"),
        ({"measure": "AP", "terms": 11}, "terms: expected 0..10"),
        ({"measure": "AP", "terms": -1}, "terms: expected 0..10"),
    ],
)
def test_bad_state_is_one_clear_error(state, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        view(state, "en")


def test_prf_adds_new_informative_words_and_zero_terms_is_bm25():
    gold = load_gold()
    assert rankings(0) == baseline_rankings()
    words = expansion(MAX_TERMS)
    for qid, added in words.items():
        assert len(added) == MAX_TERMS == len(set(added))
        assert not set(added) & set(tokenize(gold.queries[qid]))
    assert expansion(3)["q04"] == words["q04"][:3]
    with pytest.raises(ValueError, match=re.escape("terms: expected an integer in 0..10")):
        rankings(MAX_TERMS + 1)


def test_rankings_are_fresh_copies():
    first = rankings(5)
    first["q01"].clear()
    assert len(rankings(5)["q01"]) == 10


def test_every_measure_of_the_selector_renders_its_wins_losses_and_ties():
    options = [option["value"] for option in CARD["demo"]["controls"][0]["options"]]
    assert tuple(options) == MEASURES
    for measure in MEASURES:
        values = shown(view({"measure": measure, "terms": 3}, "es"))
        differences = _teaching_differences(measure, 3)
        expected = (
            sum(d > 0 for d in differences),
            sum(d < 0 for d in differences),
            sum(d == 0 for d in differences),
        )
        assert (values["wins"], values["losses"], values["ties"]) == expected, measure
