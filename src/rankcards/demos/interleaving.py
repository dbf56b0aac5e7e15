"""Team-draft interleaving of two rankings, credited by clicks of a simulated user.

Online evaluation compares two systems with the clicks of real users. This module simulates it
with a seeded ``random.Random`` (the same draws in CPython and Pyodide), for the
``online-evaluation`` card:

* :func:`team_draft` - team-draft interleaving (Radlinski, Kurup and Joachims, CIKM 2008). Like
  two captains choosing players: in each round a coin decides which team picks first, then each
  team adds its highest-ranked document not yet in the list. A team that is behind picks
  first, so the teams' sizes never differ by more than one. Each document remembers its team.
* :class:`ClickModel` and :func:`simulate_clicks` - a cascade click model with click and stop
  probabilities by relevance grade (the cascade family of Chuklin, Markov and de Rijke 2015,
  "Click Models for Web Search", in the multi-click form used to simulate users in online
  learning to rank): the user scans top-down, clicks a document of grade g with probability
  ``click[g]`` and, after a click, stops with probability ``stop[g]``.
* :func:`credit` - a click counts for the team that placed the document; the team with more
  clicks wins the impression, equal counts (no click included) are a tie.
* :func:`simulate` - many impressions over the gold dataset's queries, the win counts, B's
  preference with a tie as half a win for each system (Chapelle, Joachims, Radlinski and Yue,
  TOIS 2012) and the sign test of "both systems are equally good" over the decided impressions.

>>> import random
>>> picks = team_draft(["a", "b", "c"], ["b", "d", "a"], random.Random(1))
>>> [(p.doc, p.team) for p in picks]
[('a', 'A'), ('b', 'B'), ('d', 'B')]
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

__all__ = [
    "CLICK_MODELS",
    "ClickModel",
    "Impression",
    "Pick",
    "Simulation",
    "credit",
    "sign_test",
    "simulate",
    "simulate_clicks",
    "team_draft",
]

Team = str  # "A" or "B"


class Pick(NamedTuple):
    """One position of the interleaved list: the document, its team and the draft round."""

    doc: str
    team: Team
    round: int  # 1-based; a round is one pick of each team
    first: bool  # this team won the round's coin (or was behind) and picked first


@dataclass(frozen=True)
class ClickModel:
    """Cascade user: ``click[g]`` = P(click | grade g), ``stop[g]`` = P(stop | click, grade g)."""

    name: str
    click: tuple[float, ...]
    stop: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.click) != len(self.stop) or not self.click:
            raise ValueError(f"{self.name}: click and stop need one probability per grade")
        for p in (*self.click, *self.stop):
            if not 0.0 <= p <= 1.0:
                raise ValueError(f"{self.name}: probability {p} outside [0, 1]")


#: Three users over the gold dataset's grades 0-3 (illustrative values, not fitted to a log),
#: shaped after the "perfect", "navigational" and "informational" users of click simulations.
CLICK_MODELS: dict[str, ClickModel] = {
    "perfect": ClickModel("perfect", (0.0, 0.3, 0.7, 1.0), (0.0, 0.0, 0.0, 0.0)),
    "navigational": ClickModel("navigational", (0.05, 0.3, 0.6, 0.95), (0.2, 0.4, 0.6, 0.9)),
    "informational": ClickModel("informational", (0.4, 0.6, 0.75, 0.9), (0.1, 0.2, 0.35, 0.5)),
}


def team_draft(
    ranking_a: Sequence[str], ranking_b: Sequence[str], rng: random.Random, length: int = 10
) -> tuple[Pick, ...]:
    """Team-draft interleaving of two rankings (Radlinski, Kurup and Joachims 2008).

    While both rankings still hold a document not in the list and the list is shorter than
    ``length``: the team with fewer picks picks next; at equal counts a coin
    (``rng.random() < 0.5`` -> A) decides. The picking team adds its highest-ranked document
    not yet in the list. Documents appear once; each belongs to the team that added it.

    >>> picks = team_draft(["a", "b"], ["a", "b"], random.Random(0))
    >>> [(p.doc, p.team, p.first) for p in picks]
    [('a', 'B', True), ('b', 'A', False)]
    """
    if length < 1:
        raise ValueError(f"length must be >= 1, got {length}")
    docs, teams, rounds, firsts = _draft(ranking_a, ranking_b, rng, length)
    return tuple(map(Pick, docs, teams, rounds, firsts))


class _Coin(Protocol):
    def random(self) -> float: ...


def _draft(
    a: Sequence[str], b: Sequence[str], rng: _Coin, length: int
) -> tuple[list[str], list[Team], list[int], list[bool]]:
    """:func:`team_draft` as parallel lists (documents, teams, rounds, first picks): the
    simulation's inner loop, without building a :class:`Pick` per position."""
    placed: set[str] = set()
    docs: list[str] = []
    teams: list[Team] = []
    rounds: list[int] = []
    firsts: list[bool] = []
    next_a = next_b = picked_a = picked_b = round_number = 0
    first_team = "A"
    size_a, size_b = len(a), len(b)
    while len(docs) < length:
        while next_a < size_a and a[next_a] in placed:
            next_a += 1
        while next_b < size_b and b[next_b] in placed:
            next_b += 1
        if next_a == size_a or next_b == size_b:
            break  # one ranking has nothing left to add
        if picked_a == picked_b:
            round_number += 1
            first_team = "A" if rng.random() < 0.5 else "B"
            team = first_team
        else:
            team = "A" if picked_a < picked_b else "B"
        if team == "A":
            doc, next_a, picked_a = a[next_a], next_a + 1, picked_a + 1
        else:
            doc, next_b, picked_b = b[next_b], next_b + 1, picked_b + 1
        placed.add(doc)
        docs.append(doc)
        teams.append(team)
        rounds.append(round_number)
        firsts.append(team == first_team)
    return docs, teams, rounds, firsts


class _NeedCoin(Exception):
    """A scripted draft asked for one coin more than it was given."""


class _Scripted:
    """Coins fixed in advance (True: A picks first); one more raises :class:`_NeedCoin`."""

    def __init__(self, bits: tuple[bool, ...]) -> None:
        self.bits, self.used = bits, 0

    def random(self) -> float:
        if self.used == len(self.bits):
            raise _NeedCoin
        self.used += 1
        return 0.0 if self.bits[self.used - 1] else 0.75


_Draft = tuple[list[str], list[Team], list[int], list[bool]]


class _DraftTree:
    """Every team-draft interleaving of one pair of rankings, keyed by its coins, built on demand.

    Why: a simulation repeats the same few drafts (at most 2^rounds per query). :meth:`draw`
    consumes exactly the coins :func:`team_draft` would, from the same ``rng``, so the
    simulation's draws, and so its result, are those of the public functions (tested).
    """

    _MORE = ([], [], [], [])  # marks a node that needs another coin

    def __init__(self, a: Sequence[str], b: Sequence[str], length: int) -> None:
        self.a, self.b, self.length = a, b, length
        self.nodes: dict[tuple[bool, ...], _Draft] = {}

    def draw(self, rng: _Coin) -> _Draft:
        bits: tuple[bool, ...] = ()
        while True:
            node = self.nodes.get(bits)
            if node is None:
                try:
                    node = _draft(self.a, self.b, _Scripted(bits), self.length)
                except _NeedCoin:
                    node = self._MORE
                self.nodes[bits] = node
            if node is not self._MORE:
                return node
            bits = (*bits, rng.random() < 0.5)


@functools.lru_cache(maxsize=1024)
def _tree(a: tuple[str, ...], b: tuple[str, ...], length: int) -> _DraftTree:
    """One draft tree per pair of rankings and process: simulations share what they built."""
    return _DraftTree(a, b, length)


def simulate_clicks(
    docs: Sequence[str], grades: Mapping[str, int], model: ClickModel, rng: random.Random
) -> tuple[bool, ...]:
    """Which of ``docs`` (top-down) a cascade user clicks; unjudged documents are grade 0."""
    click, stop, draw = model.click, model.stop, rng.random
    top = len(click) - 1
    clicks = [False] * len(docs)
    for position, doc in enumerate(docs):
        grade = min(max(grades.get(doc, 0), 0), top)
        if draw() < click[grade]:
            clicks[position] = True
            if draw() < stop[grade]:
                break  # satisfied: the user examines nothing below
    return tuple(clicks)


def credit(picks: Sequence[Pick], clicks: Sequence[bool]) -> tuple[int, int]:
    """Clicks credited to team A and to team B (each click to its document's team)."""
    return _credit([pick.team for pick in picks], clicks)


def _credit(teams: Sequence[Team], clicks: Sequence[bool]) -> tuple[int, int]:
    if len(teams) != len(clicks):
        raise ValueError(f"{len(clicks)} clicks for {len(teams)} positions")
    a = b = 0
    for team, clicked in zip(teams, clicks, strict=True):
        if clicked:
            if team == "A":
                a += 1
            else:
                b += 1
    return a, b


@dataclass(frozen=True)
class Impression:
    """One simulated search: the query, the interleaved list, the clicks and the outcome."""

    query: str
    picks: tuple[Pick, ...]
    clicks: tuple[bool, ...]
    credit_a: int
    credit_b: int

    @property
    def winner(self) -> str:
        """``"A"``, ``"B"`` or ``"tie"``."""
        if self.credit_a == self.credit_b:
            return "tie"
        return "A" if self.credit_a > self.credit_b else "B"


@dataclass(frozen=True)
class Simulation:
    """The outcome of many impressions."""

    first: Impression  # the first impression, shown in full by the card's demo
    wins_a: int
    wins_b: int
    ties: int
    trace: tuple[float, ...]  # B's preference (ties half a win) after each impression

    @property
    def impressions(self) -> int:
        return self.wins_a + self.wins_b + self.ties

    @property
    def preference_b(self) -> float:
        """B's preference, a tie counting half a win for each system (Chapelle et al. 2012):
        ``(wins_b + ties / 2) / impressions``; 0.5 is no preference."""
        return _preference(self.wins_a, self.wins_b, self.ties)

    @property
    def p_value(self) -> float:
        """Two-sided sign test of "A and B win equally often" over the decided impressions."""
        return sign_test(self.wins_a, self.wins_b)


def _preference(wins_a: int, wins_b: int, ties: int) -> float:
    return (wins_b + ties / 2) / (wins_a + wins_b + ties)


def sign_test(wins_a: int, wins_b: int) -> float:
    """Exact two-sided binomial sign test, ties left out: ``2 P(X <= min)`` capped at 1.

    >>> abs(sign_test(8, 2) - 2 * (1 + 10 + 45) / 2**10) < 1e-15
    True
    """
    n, low = wins_a + wins_b, min(wins_a, wins_b)
    if n == 0 or low * 2 == n:
        return 1.0
    # P(X = low) from log-gamma (no huge integers), then down to k = 0 by the ratio
    # P(X = k - 1) / P(X = k) = k / (n - k + 1); the terms shrink fast, so stop once negligible
    term = math.exp(
        math.lgamma(n + 1) - math.lgamma(low + 1) - math.lgamma(n - low + 1) + n * math.log(0.5)
    )
    terms = [term]
    for k in range(low, 0, -1):
        term *= k / (n - k + 1)
        terms.append(term)
        if term < 1e-18 * terms[0]:
            break
    tail = math.fsum(terms)
    return min(1.0, 2.0 * tail)


def simulate(
    rankings_a: Mapping[str, Sequence[str]],
    rankings_b: Mapping[str, Sequence[str]],
    qrels: Mapping[str, Mapping[str, int]],
    model: ClickModel,
    impressions: int,
    seed: int,
    length: int = 10,
) -> Simulation:
    """``impressions`` searches, each on a query drawn uniformly from ``rankings_a``.

    One ``random.Random(seed)`` draws, in order for each impression: the query, the coins of
    :func:`team_draft` and the user's clicks; the same arguments give the same result.
    """
    if impressions < 1:
        raise ValueError(f"impressions must be >= 1, got {impressions}")
    queries = sorted(rankings_a)
    if not queries or set(queries) != set(rankings_b):
        raise ValueError("rankings_a and rankings_b must rank the same, non-empty set of queries")
    rng = random.Random(seed)
    draw = rng.random
    trees = {q: _tree(tuple(rankings_a[q]), tuple(rankings_b[q]), length) for q in queries}
    # The first impression through the public functions (shown in full by the demo) ...
    query = queries[rng.randrange(len(queries))]
    docs, teams, rounds, firsts = trees[query].draw(rng)
    clicks = simulate_clicks(docs, qrels.get(query, {}), model, rng)
    credit_a, credit_b = _credit(teams, clicks)
    picks = tuple(map(Pick, docs, teams, rounds, firsts))
    first = Impression(query, picks, clicks, credit_a, credit_b)
    wins = {"A": 0, "B": 0, "tie": 0}
    wins[first.winner] += 1
    trace = [_preference(wins["A"], wins["B"], wins["tie"])]
    # ... the others through per-list click plans: the same draws in the same order (tested)
    plans: dict[int, list[tuple[float, float, bool]]] = {}
    top = len(model.click) - 1
    for _ in range(impressions - 1):
        query = queries[rng.randrange(len(queries))]
        leaf = trees[query].draw(rng)
        plan = plans.get(id(leaf))
        if plan is None:
            grades = qrels.get(query, {})
            levels = [min(max(grades.get(doc, 0), 0), top) for doc in leaf[0]]
            plan = [
                (model.click[g], model.stop[g], t == "A")
                for g, t in zip(levels, leaf[1], strict=True)
            ]
            plans[id(leaf)] = plan
        credit_a = credit_b = 0
        for p_click, p_stop, team_a in plan:
            if draw() < p_click:
                if team_a:
                    credit_a += 1
                else:
                    credit_b += 1
                if draw() < p_stop:
                    break
        wins["tie" if credit_a == credit_b else "A" if credit_a > credit_b else "B"] += 1
        trace.append(_preference(wins["A"], wins["B"], wins["tie"]))
    return Simulation(first, wins["A"], wins["B"], wins["tie"], tuple(trace))
