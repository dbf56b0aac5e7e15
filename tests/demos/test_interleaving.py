"""Team-draft interleaving, the cascade click model, credit and the simulation.

The invariants of Radlinski, Kurup and Joachims (2008): documents appear once, each is its
team's highest-ranked document not yet placed, team sizes never differ by more than one, the
team that is behind picks, and at equal sizes a coin (the seeded ``rng``) decides.
"""

from __future__ import annotations

import math
import random

import pytest
from scipy.stats import binomtest

from rankcards.demos.gold import load_gold
from rankcards.demos.interleaving import (
    CLICK_MODELS,
    ClickModel,
    Impression,
    Pick,
    credit,
    sign_test,
    simulate,
    simulate_clicks,
    team_draft,
)
from rankcards.demos.prf import baseline_rankings, rankings


class Draws:
    """A stand-in for ``random.Random`` that returns the given numbers in order."""

    def __init__(self, *values: float) -> None:
        self.values = list(values)
        self.used = 0

    def random(self) -> float:
        self.used += 1
        return self.values.pop(0)


def _random_pair(seed: int) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    pool = [f"d{i}" for i in range(12)]
    return rng.sample(pool, rng.randint(1, 8)), rng.sample(pool, rng.randint(1, 8))


@pytest.mark.parametrize("seed", range(200))
def test_team_draft_invariants(seed):
    a, b = _random_pair(seed)
    picks = team_draft(a, b, random.Random(seed), length=6)
    docs = [p.doc for p in picks]
    assert len(docs) == len(set(docs)) <= 6  # no duplicates, at most length
    placed: set[str] = set()
    count = {"A": 0, "B": 0}
    for pick in picks:
        own = a if pick.team == "A" else b
        other = "B" if pick.team == "A" else "A"
        # the team that is behind picks; at equal counts this pick opens a round
        assert count[pick.team] <= count[other]
        assert pick.first == (count[pick.team] == count[other])
        # its highest-ranked document not yet in the list
        assert pick.doc == next(d for d in own if d not in placed)
        placed.add(pick.doc)
        count[pick.team] += 1
        assert abs(count["A"] - count["B"]) <= 1
        assert pick.round == max(count.values())
    # it stops only at the length or when one ranking has nothing left to add
    exhausted = all(d in placed for d in a) or all(d in placed for d in b)
    assert len(picks) == 6 or exhausted


def test_the_coin_decides_who_picks_first_in_each_round():
    # coin < 0.5 -> A first; the second pick of a round is the other team's, without a coin
    draws = Draws(0.2, 0.7, 0.1)
    picks = team_draft(["a1", "a2", "a3"], ["b1", "b2", "b3"], draws, length=6)  # type: ignore[arg-type]
    assert [(p.doc, p.team, p.round, p.first) for p in picks] == [
        ("a1", "A", 1, True),
        ("b1", "B", 1, False),
        ("b2", "B", 2, True),
        ("a2", "A", 2, False),
        ("a3", "A", 3, True),
    ]  # A has nothing left: the draft stops (both rankings must still have a document to add)
    assert draws.used == 3  # one coin per round


def test_a_shared_document_goes_to_the_team_that_picks_it_and_appears_once():
    draws = Draws(0.9, 0.1)
    picks = team_draft(["x", "a"], ["x", "b"], draws, length=4)  # type: ignore[arg-type]
    # B wins the coin and takes x; A's best unplaced is then a; A has nothing left, so it stops
    assert [(p.doc, p.team) for p in picks] == [("x", "B"), ("a", "A")]
    assert draws.used == 1


def test_first_picks_are_split_evenly_over_many_coins():
    firsts = [team_draft(["a"], ["b"], random.Random(s))[0].team for s in range(4000)]
    assert 0.46 < firsts.count("A") / len(firsts) < 0.54


def test_team_draft_rejects_a_length_below_one():
    with pytest.raises(ValueError, match="length must be >= 1"):
        team_draft(["a"], ["b"], random.Random(0), length=0)


def test_click_model_draws_are_compared_with_the_grade_probabilities():
    model = CLICK_MODELS["navigational"]  # click (0.05, 0.3, 0.6, 0.95), stop (0.2, 0.4, 0.6, 0.9)
    grades = {"g3": 3, "g1": 1, "g0": 0}
    # g3: 0.9 < 0.95 click, stop draw 0.95 >= 0.9 go on; g1: 0.31 >= 0.3 no click;
    # g0: 0.04 < 0.05 click, stop draw 0.1 < 0.2 stop; the last document is never examined
    draws = Draws(0.9, 0.95, 0.31, 0.04, 0.1)
    clicks = simulate_clicks(["g3", "g1", "g0", "g3"], grades, model, draws)  # type: ignore[arg-type]
    assert clicks == (True, False, True, False)
    assert draws.used == 5


def test_unjudged_documents_are_grade_zero_and_grades_above_the_model_are_capped():
    model = ClickModel("test", (0.0, 1.0), (0.0, 0.0))
    assert simulate_clicks(["u", "r", "top"], {"r": 1, "top": 3}, model, random.Random(0)) == (
        False,
        True,
        True,
    )


def test_click_frequencies_match_the_model_probabilities():
    model = CLICK_MODELS["informational"]
    rng = random.Random(7)
    for grade, expected in enumerate(model.click):
        n = 4000
        hits = sum(simulate_clicks(["d"], {"d": grade}, model, rng)[0] for _ in range(n))
        assert abs(hits / n - expected) < 4 * math.sqrt(expected * (1 - expected) / n) + 1e-9


def test_a_user_who_always_clicks_and_stops_clicks_only_the_first_document():
    model = ClickModel("first", (1.0,) * 4, (1.0,) * 4)
    assert simulate_clicks(["a", "b", "c"], {}, model, random.Random(3)) == (True, False, False)


@pytest.mark.parametrize(
    ("click", "stop"),
    [((0.5,), (0.5, 0.5)), ((), ()), ((1.2,), (0.0,)), ((0.5,), (-0.1,))],
)
def test_invalid_click_models_are_refused(click, stop):
    with pytest.raises(ValueError, match="bad"):
        ClickModel("bad", click, stop)


def test_credit_goes_to_the_team_of_each_clicked_document():
    picks = (Pick("a", "A", 1, True), Pick("b", "B", 1, False), Pick("c", "A", 2, True))
    assert credit(picks, (True, True, True)) == (2, 1)
    assert credit(picks, (False, True, False)) == (0, 1)
    assert credit(picks, (False, False, False)) == (0, 0)
    with pytest.raises(ValueError, match="2 clicks for 3 positions"):
        credit(picks, (True, False))


@pytest.mark.parametrize(
    ("a", "b", "winner"), [(2, 1, "A"), (0, 1, "B"), (1, 1, "tie"), (0, 0, "tie")]
)
def test_the_team_with_more_credited_clicks_wins_the_impression(a, b, winner):
    assert Impression("q", (), (), a, b).winner == winner


@pytest.mark.parametrize(("wins_a", "wins_b"), [(8, 2), (0, 5), (30, 20), (431, 287), (7, 7)])
def test_sign_test_equals_scipys_exact_binomial_test(wins_a, wins_b):
    expected = binomtest(wins_b, wins_a + wins_b, 0.5).pvalue
    assert sign_test(wins_a, wins_b) == pytest.approx(expected, rel=1e-9, abs=1e-300)


def test_sign_test_without_decided_impressions_is_one():
    assert sign_test(0, 0) == 1.0


@pytest.fixture(scope="module")
def gold_pair():
    return baseline_rankings(), rankings(10), load_gold().qrels


def test_simulation_replays_the_same_draws_as_the_public_functions(gold_pair):
    a, b, qrels = gold_pair
    model = CLICK_MODELS["perfect"]
    result = simulate(a, b, qrels, model, 30, seed=5)
    rng = random.Random(5)
    queries = sorted(a)
    query = queries[rng.randrange(len(queries))]
    picks = team_draft(a[query], b[query], rng)
    clicks = simulate_clicks([p.doc for p in picks], qrels[query], model, rng)
    assert result.first == Impression(query, picks, clicks, *credit(picks, clicks))


def test_simulation_is_seeded_and_its_counts_add_up(gold_pair):
    a, b, qrels = gold_pair
    model = CLICK_MODELS["navigational"]
    one = simulate(a, b, qrels, model, 300, seed=2)
    assert one == simulate(a, b, qrels, model, 300, seed=2)
    assert one != simulate(a, b, qrels, model, 300, seed=3)
    assert one.impressions == one.wins_a + one.wins_b + one.ties == 300
    assert len(one.trace) == 300 and one.trace[-1] == one.preference_b
    # a tie is half a win for each system (Chapelle et al. 2012)
    assert one.preference_b == (one.wins_b + one.ties / 2) / 300
    assert one.p_value == sign_test(one.wins_a, one.wins_b)


def test_a_system_against_itself_has_no_preference_and_a_random_ranker_loses(gold_pair):
    a, _, qrels = gold_pair
    model = CLICK_MODELS["navigational"]
    itself = simulate(a, a, qrels, model, 1000, seed=1)
    assert 0.45 < itself.preference_b < 0.55 and itself.p_value > 0.05
    gold = load_gold()
    noise = {q: random.Random(q).sample(sorted(gold.documents), 10) for q in gold.queries}
    beaten = simulate(a, noise, qrels, model, 1000, seed=1)
    assert beaten.preference_b < 0.1 and beaten.p_value < 1e-6


def test_simulation_rejects_bad_arguments(gold_pair):
    a, b, qrels = gold_pair
    model = CLICK_MODELS["perfect"]
    with pytest.raises(ValueError, match="impressions must be >= 1"):
        simulate(a, b, qrels, model, 0, seed=0)
    with pytest.raises(ValueError, match="same, non-empty set of queries"):
        simulate(a, {"q01": b["q01"]}, qrels, model, 5, seed=0)


def _reference(a, b, qrels, model, impressions, seed):
    """The simulation written with the public functions only, impression by impression."""
    rng = random.Random(seed)
    queries = sorted(a)
    wins = {"A": 0, "B": 0, "tie": 0}
    trace = []
    for _ in range(impressions):
        query = queries[rng.randrange(len(queries))]
        picks = team_draft(a[query], b[query], rng)
        clicks = simulate_clicks([p.doc for p in picks], qrels.get(query, {}), model, rng)
        wins[Impression(query, picks, clicks, *credit(picks, clicks)).winner] += 1
        trace.append((wins["B"] + wins["tie"] / 2) / sum(wins.values()))
    return wins["A"], wins["B"], wins["tie"], tuple(trace)


@pytest.mark.parametrize("model", sorted(CLICK_MODELS))
@pytest.mark.parametrize("seed", [0, 1, 11])
def test_the_fast_simulation_equals_the_public_functions_impression_by_impression(
    gold_pair, model, seed
):
    a, b, qrels = gold_pair
    fast = simulate(a, b, qrels, CLICK_MODELS[model], 400, seed)
    assert (fast.wins_a, fast.wins_b, fast.ties, fast.trace) == _reference(
        a, b, qrels, CLICK_MODELS[model], 400, seed
    )


@pytest.mark.parametrize(("wins_a", "wins_b"), [(498, 404), (431, 287), (1, 999), (500, 499)])
def test_sign_test_on_many_impressions_equals_scipy(wins_a, wins_b):
    expected = binomtest(wins_b, wins_a + wins_b, 0.5).pvalue
    assert sign_test(wins_a, wins_b) == pytest.approx(expected, rel=1e-9, abs=1e-300)
