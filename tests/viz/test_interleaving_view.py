"""The interleaving view shows what rankcards.demos.interleaving simulates; its controls matter."""

from __future__ import annotations

import re

import pytest
import yaml

from content._view import shown, text
from rankcards.demos.gold import load_gold
from rankcards.demos.interleaving import CLICK_MODELS, simulate
from rankcards.demos.prf import baseline_rankings
from rankcards.metrics import mean_ndcg_at_k
from rankcards.viz import render, validate
from rankcards.viz.interleaving import CONTENDERS, contender_rankings, run, view
from repo_paths import CARDS

CARD = yaml.safe_load((CARDS / "online-evaluation.yml").read_text("utf-8"))
STATE = {"contender": "prf10", "model": "navigational", "impressions": 200, "seed": 1}


def test_the_card_demo_is_valid_with_every_option_of_its_selects():
    assert validate(CARD["demo"]) == []
    assert CARD["demo"]["state"] == STATE
    controls = {control["bind"]: control for control in CARD["demo"]["controls"]}
    assert {o["value"] for o in controls["contender"]["options"]} == set(CONTENDERS)
    assert {o["value"] for o in controls["model"]["options"]} == set(CLICK_MODELS)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_view_shows_the_simulation_numbers(lang):
    values = shown(render(CARD["demo"], lang))
    gold = load_gold()
    expected = simulate(
        baseline_rankings(),
        contender_rankings("prf10"),
        gold.qrels,
        CLICK_MODELS["navigational"],
        200,
        1,
    )
    assert values["wins:A"] == expected.wins_a and values["wins:B"] == expected.wins_b
    assert values["ties"] == expected.ties and values["impressions"] == 200
    assert values["share:B"] == expected.preference_b and values["p"] == expected.p_value
    assert values["credit:A"] == expected.first.credit_a
    assert values["credit:B"] == expected.first.credit_b


def test_offline_numbers_are_the_mean_ndcg_at_10_of_both_systems():
    gold = load_gold()
    queries = sorted(gold.queries)
    gains = [gold.qrels[q] for q in queries]
    values = shown(view(STATE, "en"))
    bm25, prf = baseline_rankings(), contender_rankings("prf10")
    assert values["offline:A"] == pytest.approx(
        mean_ndcg_at_k([bm25[q] for q in queries], gains, 10), abs=1e-12
    )
    assert values["offline:B"] == pytest.approx(
        mean_ndcg_at_k([prf[q] for q in queries], gains, 10), abs=1e-12
    )


def test_the_impression_table_marks_teams_clicks_and_credit():
    simulation, _ = run(STATE)
    html = view(STATE, "es")
    rows = re.findall(r'<tr data-doc="(d\d+)" data-team="([AB])"( data-clicked)?', html)
    assert [(doc, team) for doc, team, _ in rows] == [
        (p.doc, p.team) for p in simulation.first.picks
    ]
    assert [bool(c) for _, _, c in rows] == list(simulation.first.clicks)
    assert text(html).count("✓ clic") == sum(simulation.first.clicks)
    # the team is a letter in a box: readable without colour
    assert html.count('class="rc-team rc-team-A"') == sum(
        p.team == "A" for p in simulation.first.picks
    )
    assert f"consulta {simulation.first.query}" in text(html)


@pytest.mark.parametrize(
    "change",
    [{"contender": "random"}, {"model": "perfect"}, {"impressions": 1000}, {"seed": 2}],
)
def test_each_control_changes_the_numbers(change):
    before = shown(view(STATE, "en"))
    after = shown(view({**STATE, **change}, "en"))
    keys = ("wins:A", "wins:B", "ties")
    assert tuple(before[k] for k in keys) != tuple(after[k] for k in keys)


def test_the_better_system_wins_and_the_same_system_does_not():
    random_b = shown(view({**STATE, "contender": "random", "impressions": 500}, "en"))
    same_b = shown(view({**STATE, "contender": "same", "impressions": 1000}, "en"))
    assert random_b["share:B"] < 0.1 and random_b["p"] < 1e-6
    assert 0.45 < same_b["share:B"] < 0.55 and same_b["p"] > 0.05
    assert same_b["offline:A"] == same_b["offline:B"]


def test_the_trace_chart_ends_at_the_final_share():
    simulation, _ = run({**STATE, "impressions": 1000})
    html = view({**STATE, "impressions": 1000}, "en")
    points = re.search(r'<polyline points="([^"]+)"', html).group(1).split()
    assert len(points) <= 201
    last_x, last_y = map(float, points[-1].split(","))
    assert last_x == 300.0
    assert last_y == pytest.approx(100 * (1 - simulation.preference_b), abs=0.01)
    assert f"after 1000 impressions: {simulation.preference_b:.3f}".rstrip("0") in html


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"contender": "bm42"}, "contender: expected one of prf5, prf10, random, same"),
        ({"model": "lazy"}, "model: expected one of perfect, navigational, informational"),
        ({"impressions": 0}, "impressions: expected 1..1000"),
        ({"impressions": 5000}, "impressions: expected 1..1000"),
    ],
)
def test_bad_state_is_one_clear_error(change, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        view({**STATE, **change}, "en")
