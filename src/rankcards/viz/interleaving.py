"""The online-evaluation visualizer: team-draft interleaving with a simulated user.

The ``online-evaluation`` card's demo (contract in :mod:`rankcards.viz`). Team A is always plain
BM25 on the gold dataset; team B, the contender the reader chooses, is BM25 with
pseudo-relevance feedback (5 or 10 expansion terms, :mod:`rankcards.demos.prf`), a seeded random
ranker or BM25 itself. :func:`rankcards.demos.interleaving.simulate` runs ``impressions``
searches with the chosen click model and ``seed``; the view shows

* the first impression in full: the interleaved list with each document's team, draft round
  and grade, the simulated clicks and whom each click credits;
* the outcome over all impressions: wins of A and B, ties, B's preference (a tie is half a
  win for each system, as Chapelle et al. 2012 count it) and the sign test's p-value over the
  impressions with a winner, with the preference drawn as it evolves impression after
  impression (the noise of a short experiment is visible);
* the offline nDCG@10 of both systems on the 20 queries (:func:`rankcards.metrics.paired_scores`)
  beside the online verdict.

>>> html = view({"contender": "random", "model": "perfect", "impressions": 50, "seed": 0}, "en")
>>> 'data-metric="wins:A"' in html and 'data-metric="offline:B"' in html
True
"""

from __future__ import annotations

import functools
import math
from typing import Any

from rankcards.demos.gold import load_gold
from rankcards.demos.interleaving import CLICK_MODELS, Simulation, simulate
from rankcards.demos.prf import baseline_rankings, rankings
from rankcards.demos.rankers import random_ranking
from rankcards.metrics import paired_scores
from rankcards.viz._html import SPACED, Html, el, fmt, metric, table
from rankcards.viz.gold_dataset import UNJUDGED

__all__ = ["CONTENDERS", "MAX_IMPRESSIONS", "contender_rankings", "run", "view"]

CONTENDERS = ("prf5", "prf10", "random", "same")
MAX_IMPRESSIONS = 1000
OFFLINE_MEASURE = "nDCG@10"
_NOWRAP = "white-space: nowrap"
RANDOM_SEED = 0  # the random ranker's own seed: the contender does not change with the clicks'

_TEXT = {
    "en": {
        "A": "BM25",
        "prf5": "BM25 + PRF (5 terms)",
        "prf10": "BM25 + PRF (10 terms)",
        "random": "random ranker",
        "same": "BM25 (itself)",
        "summary": (
            "{n} impressions, {user} user: A ({a}) wins {wa}, B ({b}) wins {wb}, ties {ties}. "
            "B's preference (a tie is half a win for each): {share}; sign test over the "
            "impressions with a winner: p = {p}."
        ),
        "offline": "Offline, on the same 20 queries: {measure} of A {va}, of B {vb}.",
        "caption": "Impression 1: query {qid} “{text}”",
        "doc": "Rank and document",
        "team": "Team",
        "round": "Round",
        "grade": "Grade",
        "click": "Click",
        "first": "picks first",
        "second": "picks second",
        "clicked": "✓ click",
        "no_click": "—",
        "credit": "Credited clicks: A {ca}, B {cb}: {outcome}.",
        "wins_A": "A wins this impression",
        "wins_B": "B wins this impression",
        "tie": "a tie",
        "trace": (
            "B's preference (ties half a win), impression after impression"
            " (0 at the bottom, 1 at the top; dashed: 0.5, no preference)"
        ),
        "trace_label": "B's preference after {n} impressions: {share} (0.5 = no preference)",
        "perfect": "perfect",
        "navigational": "navigational",
        "informational": "informational",
    },
    "es": {
        "A": "BM25",
        "prf5": "BM25 + PRF (5 términos)",
        "prf10": "BM25 + PRF (10 términos)",
        "random": "ranking aleatorio",
        "same": "BM25 (el mismo)",
        "summary": (
            "{n} impresiones, usuario {user}: A ({a}) gana {wa}, B ({b}) gana {wb}, "
            "empates {ties}. Preferencia por B (un empate vale media victoria para cada "
            "uno): {share}; prueba de los signos sobre las impresiones con ganador: p = {p}."
        ),
        "offline": "Fuera de línea, en las mismas 20 consultas: {measure} de A {va}, de B {vb}.",
        "caption": "Impresión 1: consulta {qid} «{text}»",
        "doc": "Posición y documento",
        "team": "Equipo",
        "round": "Ronda",
        "grade": "Grado",
        "click": "Clic",
        "first": "elige primero",
        "second": "elige segundo",
        "clicked": "✓ clic",
        "no_click": "—",
        "credit": "Clics acreditados: A {ca}, B {cb}: {outcome}.",
        "wins_A": "gana A esta impresión",
        "wins_B": "gana B esta impresión",
        "tie": "empate",
        "trace": (
            "Preferencia por B (empates como media victoria), impresión tras impresión"
            " (0 abajo, 1 arriba; discontinua: 0.5, sin preferencia)"
        ),
        "trace_label": "Preferencia por B tras {n} impresiones: {share} (0.5 = sin preferencia)",
        "perfect": "perfecto",
        "navigational": "navegacional",
        "informational": "informacional",
    },
}


def contender_rankings(contender: str) -> dict[str, list[str]]:
    """Top-10 rankings per gold query of team B."""
    if contender == "prf5":
        return rankings(5)
    if contender == "prf10":
        return rankings(10)
    if contender == "random":
        gold = load_gold()
        return {qid: random_ranking(gold.documents, qid, 10, RANDOM_SEED) for qid in gold.queries}
    if contender == "same":
        return baseline_rankings()
    raise ValueError(f"contender: expected one of {', '.join(CONTENDERS)}, got {contender!r}")


@functools.cache
def _offline(contender: str) -> tuple[float, float]:
    """Mean offline measure of A and B over the gold queries (a query missing scores 0)."""
    runs = {"A": _run(baseline_rankings()), "B": _run(contender_rankings(contender))}
    paired = paired_scores(load_gold().qrels, runs, [OFFLINE_MEASURE], complete=True)
    a, b = (paired.scores[team][OFFLINE_MEASURE] for team in ("A", "B"))
    return math.fsum(a) / len(a), math.fsum(b) / len(b)  # correctly rounded everywhere


def _run(ranked: dict[str, list[str]]) -> dict[str, dict[str, float]]:
    return {
        qid: {doc: float(len(docs) - rank) for rank, doc in enumerate(docs)}
        for qid, docs in ranked.items()
    }


def run(state: dict[str, Any]) -> tuple[Simulation, dict[str, float]]:
    """The simulation and the offline means (``{"A": ..., "B": ...}``) the view shows."""
    contender, model = str(state["contender"]), str(state["model"])
    impressions, seed = int(state["impressions"]), int(state["seed"])
    if model not in CLICK_MODELS:
        raise ValueError(f"model: expected one of {', '.join(CLICK_MODELS)}, got {model!r}")
    if not 1 <= impressions <= MAX_IMPRESSIONS:
        raise ValueError(f"impressions: expected 1..{MAX_IMPRESSIONS}, got {impressions}")
    simulation = _simulate(contender, model, impressions, seed)
    offline_a, offline_b = _offline(contender)
    return simulation, {"A": offline_a, "B": offline_b}


@functools.lru_cache(maxsize=32)
def _simulate(contender: str, model: str, impressions: int, seed: int) -> Simulation:
    """One (frozen) simulation per state: a reader moves the controls back and forth."""
    team_a, team_b = baseline_rankings(), contender_rankings(contender)
    return simulate(team_a, team_b, load_gold().qrels, CLICK_MODELS[model], impressions, seed)


def _badge(team: str) -> Html:
    """The team as a letter in a box (filled for A, outlined for B): readable without colour."""
    filled = team == "A"
    style = (
        "display: inline-block; min-width: 1.6em; text-align: center; font-weight: 700;"
        " border: 1.5px solid currentColor; border-radius: 0.3em;"
        + (
            " background: var(--md-default-fg-color, #222); color: var(--md-default-bg-color, #fff)"
            if filled
            else ""
        )
    )
    return el("span", {"class": f"rc-team rc-team-{team}", "style": style}, team)


def _trace_chart(trace: tuple[float, ...], label: str, title: str) -> Html:
    """B's share over the impressions as a polyline (at most 200 points), 0.5 dashed."""
    n = len(trace)
    step = max(1, n // 200)
    indexes = list(range(0, n, step))
    if indexes[-1] != n - 1:
        indexes.append(n - 1)
    width, height = 300, 100
    points = " ".join(
        f"{round(width * (i + 1) / n, 2)},{round(height * (1 - trace[i]), 2)}" for i in indexes
    )
    return el(
        "figure",
        {"class": "rc-interleave-trace", "style": "margin: 0.5em 0"},
        el(
            "svg",
            {
                "viewBox": f"0 0 {width} {height}",
                "width": "100%",
                "height": 120,
                "preserveAspectRatio": "none",
                "role": "img",
                "aria-label": label,
                "style": "max-width: 36rem; display: block; border: 1px solid currentColor",
            },
            el("title", {}, label),
            el(
                "line",
                {
                    "x1": 0,
                    "x2": width,
                    "y1": height / 2,
                    "y2": height / 2,
                    "stroke": "currentColor",
                    "stroke-dasharray": "4 3",
                    "stroke-width": 0.8,
                },
            ),
            el(
                "polyline",
                {"points": points, "fill": "none", "stroke": "currentColor", "stroke-width": 1.6},
            ),
        ),
        el("figcaption", {}, el("small", {}, title)),
    )


def view(state: dict[str, Any], lang: str) -> str:
    """Render ``{"contender", "model", "impressions", "seed"}``."""
    t = _TEXT[lang]
    simulation, offline = run(state)
    gold = load_gold()
    first = simulation.first
    grades = gold.qrels.get(first.query, {})
    rows = []
    for position, (pick, clicked) in enumerate(zip(first.picks, first.clicks, strict=True), 1):
        grade = grades.get(pick.doc)
        rows.append(
            el(
                "tr",
                {"data-doc": pick.doc, "data-team": pick.team, "data-clicked": clicked or None},
                el(
                    "th",
                    {"scope": "row", "title": gold.documents[pick.doc]},
                    f"{position}. {pick.doc}",
                ),
                el("td", {}, _badge(pick.team)),
                el("td", {"style": _NOWRAP}, t["clicked"] if clicked else t["no_click"]),
                el("td", {}, UNJUDGED if grade is None else str(grade)),
                el(
                    "td",
                    {},
                    str(pick.round),
                    " ",
                    el("small", {}, t["first"] if pick.first else t["second"]),
                ),
            )
        )
    # what decides the impression (team, click) first: on a narrow screen it stays in view
    headers = [t[key] for key in ("doc", "team", "click", "grade", "round")]
    caption = t["caption"].format(qid=first.query, text=gold.queries[first.query])
    impression_table = el(
        "div", {"style": "overflow-x: auto"}, table("rc-interleave", caption, headers, rows, SPACED)
    )
    outcome = {"A": t["wins_A"], "B": t["wins_B"], "tie": t["tie"]}[first.winner]
    credit_line = el(
        "p",
        {"class": "rc-interleave-credit"},
        Html(
            t["credit"].format(
                ca=metric("credit:A", first.credit_a, str(first.credit_a)),
                cb=metric("credit:B", first.credit_b, str(first.credit_b)),
                outcome=el("strong", {}, outcome),
            )
        ),
    )
    share, p = simulation.preference_b, simulation.p_value
    summary = el(
        "p",
        {"class": "rc-interleave-summary", "data-rc-announce": True},
        Html(
            t["summary"].format(
                n=metric("impressions", simulation.impressions, str(simulation.impressions)),
                user=el("span", {}, t[str(state["model"])]),
                a=el("span", {}, t["A"]),
                b=el("span", {}, t[str(state["contender"])]),
                wa=metric("wins:A", simulation.wins_a, str(simulation.wins_a)),
                wb=metric("wins:B", simulation.wins_b, str(simulation.wins_b)),
                ties=metric("ties", simulation.ties, str(simulation.ties)),
                share=metric("share:B", share, fmt(share, 3)),
                p=metric("p", p, fmt(p, 4)),
            )
        ),
    )
    offline_line = el(
        "p",
        {"class": "rc-interleave-offline"},
        Html(
            t["offline"].format(
                measure=el("span", {}, OFFLINE_MEASURE),
                va=metric("offline:A", offline["A"], fmt(offline["A"], 4)),
                vb=metric("offline:B", offline["B"], fmt(offline["B"], 4)),
            )
        ),
    )
    trace_label = t["trace_label"].format(n=simulation.impressions, share=fmt(share, 3))
    return el(
        "div",
        {"class": "rc-view rc-interleave-view"},
        summary,
        _trace_chart(simulation.trace, trace_label, t["trace"]),
        offline_line,
        impression_table,
        credit_line,
    )
