"""The per-query-analysis and online-evaluation cards state what the modules compute.

Each test finds the sentence in the card (both languages) and recomputes its numbers; a reworded
sentence or a changed module makes it fail. The examples are run as the build runs them
(``rankcards.runner.run_example``) and their printed lines are recomputed too.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from rankcards.demos.gold import load_gold
from rankcards.demos.interleaving import (
    CLICK_MODELS,
    credit,
    simulate,
    simulate_clicks,
    team_draft,
)
from rankcards.metrics import compare_scores
from rankcards.runner import run_example
from rankcards.viz.interleaving import contender_rankings, run
from rankcards.viz.per_query import compare

ROOT = Path(__file__).resolve().parents[2]
CARDS = ROOT / "docs" / "cards"
LANGS = ("es", "en")


def _card(slug: str) -> dict:
    return yaml.safe_load((CARDS / f"{slug}.yml").read_text(encoding="utf-8"))


def _text(card: dict, lang: str) -> str:
    parts = [card[field][lang] for field in ("summary", "definition", "intuition")]
    parts += card["key_points"][lang] + card["gotchas"][lang] + [card["formula"]["where"][lang]]
    return "\n".join(parts)


def _f(value: float, digits: int) -> str:
    return f"{value:.{digits}f}"


def _item(items: list[str], *needles: str) -> str:
    """The one list item (key point, gotcha) that holds every needle."""
    found = [item for item in items if all(needle in item for needle in needles)]
    assert len(found) == 1, f"expected one item with {needles}, found {len(found)}"
    return found[0]


@pytest.fixture(scope="module")
def ap5() -> dict:
    data = compare("AP", 5)
    data["mean_base"] = sum(data["base"]) / len(data["base"])
    data["mean_new"] = sum(data["new"]) / len(data["new"])
    data["gains"] = sum(d for d in data["differences"] if d > 0)
    data["losses"] = sum(d for d in data["differences"] if d < 0)
    return data


# --- per-query-analysis -----------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_per_query_definition_numbers(ap5, lang):
    text = _text(_card("per-query-analysis"), lang)
    row = ap5["comparison"]
    assert (row["wins"], row["losses"], row["ties"]) == (5, 5, 10)
    mean_base, mean_new = _f(ap5["mean_base"], 4), _f(ap5["mean_new"], 4)
    assert (mean_base, mean_new, f"{row['delta']:+.4f}") == ("0.6894", "0.6995", "+0.0101")
    assert f"{mean_base} a {mean_new} (+0.0101)" in text or f"{mean_base} to {mean_new}" in text
    worst = min(zip(ap5["differences"], ap5["queries"], strict=True))
    assert worst[1] == "q14" and _f(-worst[0], 3) == "0.151"
    assert "q14 pierde 0.151" in text or "q14 loses 0.151" in text
    assert round(-worst[0] / row["delta"]) == 15
    assert "quince veces" in text or "fifteen times" in text


@pytest.mark.parametrize("lang", LANGS)
def test_per_query_key_points_numbers(ap5, lang):
    text = _text(_card("per-query-analysis"), lang)
    rr5 = compare("RR", 5)["comparison"]
    assert rr5["ties"] == 19 and ap5["comparison"]["ties"] == 10  # AP changes on 20 - 10
    assert ("empatan 19 de 20" in text and "cambie en 10" in text) or (
        "19 of 20 queries tie" in text and "changes on 10" in text
    )
    urisk = (ap5["gains"] + 2 * ap5["losses"]) / 20
    shown = (_f(ap5["gains"], 3), _f(-ap5["losses"], 3), _f(urisk, 4))
    assert shown == ("0.494", "0.292", "-0.0045")
    assert "(0.494 \u2212 2 \u00b7 0.292) / 20 = \u22120.0045" in text
    losses10 = {m: compare(m, 10)["comparison"]["losses"] for m in ("AP", "nDCG@10", "RR")}
    assert losses10 == {"AP": 10, "nDCG@10": 11, "RR": 4}
    assert ("la AP pierde en 10 consultas y la nDCG@10 en 11, pero RR solo en 4" in text) or (
        "AP loses on 10 queries and nDCG@10 on 11, but RR only on 4" in text
    )


@pytest.mark.parametrize("lang", LANGS)
def test_per_query_intuition_is_the_demo_scaled_by_ten(ap5, lang):
    intuition = _card("per-query-analysis")["intuition"][lang]
    assert (_f(10 * ap5["mean_base"], 2), _f(10 * ap5["mean_new"], 2)) == ("6.89", "6.99")
    assert "6.89" in intuition and "6.99" in intuition
    ups = [d for d in ap5["differences"] if d > 0]
    downs = [d for d in ap5["differences"] if d < 0]
    assert (len(ups), len(downs)) == (5, 5)
    assert (_f(10 * max(ups), 2), _f(-10 * min(downs), 2)) == ("1.39", "1.51")
    assert "1.39" in intuition and "1.51" in intuition
    assert ("5 suben" in intuition and "10 se quedan igual" in intuition) or (
        "5 go up" in intuition and "10 stay the same" in intuition
    )


@pytest.mark.parametrize("lang", LANGS)
def test_per_query_example_prints_the_modules_values(ap5, lang):
    result = run_example(_card("per-query-analysis")["code"]["source"][lang])
    assert result.error is None
    lines = result.output.strip().splitlines()
    changed = sorted(
        (d, q) for d, q in zip(ap5["differences"], ap5["queries"], strict=True) if d != 0
    )
    assert lines[: len(changed)] == [f"{q}: {d:+.3f}" for d, q in changed]
    assert lines[0] == "q14: -0.151"
    row = compare_scores(
        {"bm25": {"AP": ap5["base"]}, "prf": {"AP": ap5["new"]}}, test="randomization"
    )["comparisons"][0]
    word = {"es": ("AP media", "diferencia"), "en": ("mean AP", "difference")}[lang]
    assert lines[-2] == f"{word[0]}: 0.6894 -> 0.6995 ({word[1]} +0.0101)"
    counts = {"es": "gana 5, pierde 5, empata 10", "en": "wins 5, losses 5, ties 10"}[lang]
    assert lines[-1] == f"{counts}; p = {row['p']:.4f}"
    assert f"{row['p']:.4f}" == "0.5098"  # exact: 10 non-zero differences, 2^10 sign flips


# --- online-evaluation ------------------------------------------------------------------------


def _sim(contender: str, model: str, impressions: int, seed: int = 1):
    return run({"contender": contender, "model": model, "impressions": impressions, "seed": seed})


@pytest.mark.parametrize("lang", LANGS)
def test_online_key_points_numbers(lang):
    text = _text(_card("online-evaluation"), lang)
    itself, _ = _sim("same", "navigational", 1000)
    # a tie is half a win for each system (Chapelle et al. 2012)
    assert itself.preference_b == (itself.wins_b + itself.ties / 2) / 1000
    assert (_f(itself.preference_b, 4), _f(itself.p_value, 4)) == ("0.4945", "0.7376")
    assert "0.4945 (p = 0.7376)" in text
    few, offline = _sim("prf10", "navigational", 50)
    many, _ = _sim("prf10", "navigational", 1000)
    assert (_f(offline["B"], 4), _f(offline["A"], 4)) == ("0.7636", "0.7780")
    assert "0.7636" in text and "0.778" in text
    assert (_f(few.preference_b, 2), _f(few.p_value, 4)) == ("0.48", "0.8804")
    assert (_f(many.preference_b, 3), _f(many.p_value, 4)) == ("0.453", "0.0019")
    assert "0.48 (p = 0.8804" in text and "0.453 (p = 0.0019)" in text


@pytest.mark.parametrize("lang", LANGS)
def test_online_credit_gotcha_counts_ties_both_ways(lang):
    gotcha = _item(_card("online-evaluation")["gotchas"][lang], "Chapelle", "0.448")
    many, _ = _sim("prf10", "navigational", 1000)
    decided_only = many.wins_b / (many.wins_a + many.wins_b)
    assert (_f(decided_only, 3), _f(many.preference_b, 3)) == ("0.448", "0.453")
    assert "0.453" in gotcha and "1000" in gotcha


@pytest.mark.parametrize("lang", LANGS)
def test_online_intuition_numbers(lang):
    intuition = _card("online-evaluation")["intuition"][lang]
    perfect, _ = _sim("prf10", "perfect", 1000)
    assert (perfect.wins_a, perfect.wins_b, perfect.ties) == (431, 287, 282)
    assert _f(perfect.preference_b, 3) == "0.428" == _f((287 + 282 / 2) / 1000, 3)
    for number in ("431", "287", "282", "0.428"):
        assert number in intuition


@pytest.mark.parametrize("lang", LANGS)
def test_online_example_prints_the_modules_values(lang):
    result = run_example(_card("online-evaluation")["code"]["source"][lang])
    assert result.error is None
    lines = result.output.strip().splitlines()
    picks = team_draft(["d1", "d2", "d3", "d4"], ["d2", "d5", "d1", "d6"], random.Random(4))
    listed = " ".join(f"{p.doc}({p.team})" for p in picks)
    assert lines[0].endswith(listed) and listed == "d1(A) d2(B) d3(A) d5(B) d4(A)"
    grades = {"d2": 3, "d5": 2, "d1": 1}
    docs = [p.doc for p in picks]
    clicks = simulate_clicks(docs, grades, CLICK_MODELS["perfect"], random.Random(4))
    assert credit(picks, clicks) == (1, 2)
    assert lines[1].endswith("= (1, 2)")
    qrels = load_gold().qrels
    bm25, prf10 = contender_rankings("same"), contender_rankings("prf10")
    for line, n in zip(lines[2:], (50, 1000), strict=True):
        s = simulate(bm25, prf10, qrels, CLICK_MODELS["navigational"], n, seed=1)
        assert line.startswith(str(n))
        assert f"A {s.wins_a}, B {s.wins_b}," in line
        assert line.endswith(f"{s.preference_b:.3f}, p = {s.p_value:.4f}")


def test_both_cards_are_statistics_cards_linked_to_each_other_and_the_measures():
    per_query, online = _card("per-query-analysis"), _card("online-evaluation")
    assert per_query["category"] == online["category"] == "statistics"
    assert "online-evaluation" in per_query["related"]
    assert "per-query-analysis" in online["related"]
    for slug in ("average-precision", "ndcg", "mrr", "averaging-over-queries"):
        assert slug in per_query["related"]
    for slug in ("significance-testing", "confidence-intervals", "multiple-comparisons"):
        assert slug in per_query["related"]


@pytest.mark.parametrize("slug", ["per-query-analysis", "online-evaluation"])
def test_spanish_text_avoids_calques(slug):
    card = _card(slug)
    spanish = _text(card, "es") + card["title"]["es"]
    for calque in (" vs ", " vs. ", "&", "balance", "de test"):
        assert calque not in spanish, calque
