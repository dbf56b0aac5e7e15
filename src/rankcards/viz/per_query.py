"""The per-query analysis visualizer: where a new system wins and loses, query by query.

The ``per-query-analysis`` card's demo (contract in :mod:`rankcards.viz`). Two systems rank the
gold dataset (:mod:`rankcards.demos.gold`, 20 queries): plain BM25, the baseline, and BM25 with
pseudo-relevance feedback (:mod:`rankcards.demos.prf`, ``terms`` expansion words). Their
per-query values of the chosen measure come from :func:`rankcards.metrics.paired_scores`
(trec_eval rules, relevant = grade >= 1) and the wins, losses, ties and mean difference are
:func:`rankcards.metrics.compare_scores`'s (tested), so the view shows what ``rankcards compare``
prints.

The chart is a table sorted by the difference: each row carries the query, the signed
difference with a word (win, loss, tie), a bar drawn left or right of a shared zero line and
both values, so the values read without colour; wins are filled bars, losses outlined ones. Under it
the mean difference is written out as (sum of gains + sum of losses) / n: the lesson of the
card is that a small mean can hide large losses.

>>> html = view({"measure": "AP", "terms": 10}, "en")
>>> 'data-metric="wins"' in html and 'data-metric="delta"' in html
True
"""

from __future__ import annotations

import functools
import math
from typing import Any

from rankcards.demos.gold import load_gold
from rankcards.demos.prf import MAX_TERMS, baseline_rankings, rankings
from rankcards.metrics import paired_scores
from rankcards.viz._html import Html, el, fmt, metric, table

__all__ = ["MEASURES", "compare", "view"]

#: The measures the demo's selector offers (ir_measures notation).
MEASURES = ("AP", "nDCG@10", "RR", "P@10")
BASELINE, NEW = "bm25", "prf"
_Values = tuple[float, ...]
# narrower gaps than the other views' tables: the bars must fit a 390 px screen
_TIGHT = "border-collapse: separate; border-spacing: 0.4em 0.1em"

_TEXT = {
    "en": {
        "caption": "{measure} per query, sorted by the difference (BM25 + PRF minus BM25)",
        "query": "Query",
        "base": "BM25",
        "new": "BM25 + PRF",
        "delta": "Difference",
        "chart": "Loss ◀ 0 ▶ Win",
        "win": "win",
        "loss": "loss",
        "tie": "tie",
        "summary": "{measure} over {n} queries, {terms} expansion terms: ",
        "mean": "mean BM25 {base}, BM25 + PRF {new}; ",
        "counts": "wins {wins}, losses {losses}, ties {ties}.",
        "worst": "Largest loss: {qid} ({value}); largest win: {best} ({best_value}).",
        "no_loss": "No query loses.",
        "formula": "mean difference = (gains {gains} + losses {losses}) / {n} = ",
        "bar": "{qid}: {value} ({word})",
    },
    "es": {
        "caption": "{measure} por consulta, ordenada por la diferencia (BM25 + PRF menos BM25)",
        "query": "Consulta",
        "base": "BM25",
        "new": "BM25 + PRF",
        "delta": "Diferencia",
        "chart": "Pierde ◀ 0 ▶ Gana",
        "win": "gana",
        "loss": "pierde",
        "tie": "empate",
        "summary": "{measure} en {n} consultas, {terms} términos de expansión: ",
        "mean": "media BM25 {base}, BM25 + PRF {new}; ",
        "counts": "gana {wins}, pierde {losses}, empata {ties}.",
        "worst": "Mayor pérdida: {qid} ({value}); mayor ganancia: {best} ({best_value}).",
        "no_loss": "Ninguna consulta pierde.",
        "formula": "diferencia media = (ganancias {gains} + pérdidas {losses}) / {n} = ",
        "bar": "{qid}: {value} ({word})",
    },
}


def _run(ranked: dict[str, list[str]]) -> dict[str, dict[str, float]]:
    """A run whose scores keep each ranking's order (distinct, descending)."""
    return {
        qid: {doc: float(len(docs) - rank) for rank, doc in enumerate(docs)}
        for qid, docs in ranked.items()
    }


def compare(measure: str, terms: int) -> dict[str, Any]:
    """Per-query values of both systems and their comparison, as the view shows them.

    Returns ``{"queries", "base", "new", "differences", "comparison"}``: the query ids, the
    per-query values of BM25 and BM25 + PRF, ``new - base`` per query, and ``{"delta", "wins",
    "losses", "ties"}`` with the definitions of :func:`rankcards.metrics.compare_scores` (the
    tests check they agree; the view skips the test's interval, which it does not show).
    """
    if measure not in MEASURES:
        raise ValueError(f"measure: expected one of {', '.join(MEASURES)}, got {measure!r}")
    if not isinstance(terms, int) or not 0 <= terms <= MAX_TERMS:
        raise ValueError(f"terms: expected 0..{MAX_TERMS}, got {terms!r}")
    queries, base, new = _paired(measure, terms)
    differences = [b - a for a, b in zip(base, new, strict=True)]
    return {
        "queries": list(queries),
        "base": list(base),
        "new": list(new),
        "differences": differences,
        "comparison": {
            "delta": math.fsum(differences) / len(differences),
            "wins": sum(1 for d in differences if d > 0.0),
            "losses": sum(1 for d in differences if d < 0.0),
            "ties": sum(1 for d in differences if d == 0.0),
        },
    }


@functools.lru_cache(maxsize=64)
def _paired(
    measure: str, terms: int
) -> tuple[tuple[str, ...], tuple[float, ...], tuple[float, ...]]:
    """The paired per-query values (cached: a reader moves the controls back and forth)."""
    runs = {BASELINE: _run(baseline_rankings()), NEW: _run(rankings(terms))}
    paired = paired_scores(load_gold().qrels, runs, [measure], complete=True)
    return (
        paired.queries,
        tuple(paired.scores[BASELINE][measure]),
        tuple(paired.scores[NEW][measure]),
    )


def _signed(value: float, digits: int = 3) -> str:
    text = fmt(value, digits)
    return ("+" if value > 0 and text != "0" else "") + text


def _word(value: float, t: dict[str, str]) -> str:
    return t["win"] if value > 0 else t["loss"] if value < 0 else t["tie"]


def _bar(value: float, scale: float, label: str) -> Html:
    """A diverging bar: the zero line in the middle, right for a win, left for a loss."""
    half = 50 * abs(value) / scale if scale else 0.0
    x = 50.0 if value >= 0 else 50.0 - half
    shape = (
        {"fill": "currentColor", "stroke": "none"}
        if value > 0
        else {"fill": "none", "stroke": "currentColor", "stroke-width": 1.2}
    )
    return el(
        "svg",
        {
            "class": "rc-diff-bar",
            "viewBox": "0 0 100 12",
            "preserveAspectRatio": "none",
            "width": "100%",
            "height": 14,
            "role": "img",
            "aria-label": label,
            "style": "display: block; min-width: 6rem",
        },
        el("title", {}, label),
        el("rect", {"x": round(x, 2), "y": 2, "width": round(half, 2), "height": 8, **shape}),
        el("line", {"x1": 50, "x2": 50, "y1": 0, "y2": 12, "stroke": "currentColor"}),
    )


def view(state: dict[str, Any], lang: str) -> str:
    """Render ``{"measure": one of MEASURES, "terms": 0..MAX_TERMS}``."""
    t = _TEXT[lang]
    measure, terms = str(state["measure"]), int(state["terms"])
    data = compare(measure, terms)
    row = data["comparison"]
    gold = load_gold()
    order = sorted(
        range(len(data["queries"])),
        key=lambda i: (-data["differences"][i], data["queries"][i]),
    )
    scale = max((abs(d) for d in data["differences"]), default=0.0)
    rows = []
    for i in order:
        qid, d = data["queries"][i], data["differences"][i]
        word = _word(d, t)
        rows.append(
            el(
                "tr",
                {"data-query": qid, "data-outcome": "win" if d > 0 else "loss" if d < 0 else "tie"},
                el("th", {"scope": "row", "title": gold.queries[qid]}, qid),
                el(
                    "td",
                    {"style": "white-space: nowrap"},
                    metric(f"diff:{qid}", d, _signed(d)),
                    " ",
                    el("small", {}, word),
                ),
                el(
                    "td",
                    {"style": "width: 40%; min-width: 7rem"},
                    _bar(d, scale, t["bar"].format(qid=qid, value=_signed(d), word=word)),
                ),
                el("td", {}, metric(f"{BASELINE}:{qid}", data["base"][i])),
                el("td", {}, metric(f"{NEW}:{qid}", data["new"][i])),
            )
        )
    # the difference and its bar first: on a narrow screen they stay in view
    headers = [t["query"], t["delta"], t["chart"], t["base"], t["new"]]
    chart = el(
        "div",
        {"style": "overflow-x: auto"},
        table("rc-per-query", t["caption"].format(measure=measure), headers, rows, _TIGHT),
    )
    n = len(data["queries"])
    # math.fsum: correctly rounded, so the page's Python prints the build's digits
    gains = math.fsum(d for d in data["differences"] if d > 0)
    losses = math.fsum(d for d in data["differences"] if d < 0)
    mean_base = math.fsum(data["base"]) / n
    mean_new = math.fsum(data["new"]) / n
    worst, best = order[-1], order[0]
    low, high = data["differences"][worst], data["differences"][best]
    extremes = (
        t["worst"].format(
            qid=data["queries"][worst],
            value=metric("worst", low, _signed(low)),
            best=data["queries"][best],
            best_value=metric("best", high, _signed(high)),
        )
        if row["losses"]
        else t["no_loss"]
    )
    summary = el(
        "p",
        {"class": "rc-per-query-summary", "data-rc-announce": True},
        t["summary"].format(measure=measure, n=n, terms=terms),
        Html(
            t["mean"].format(
                base=metric("mean:bm25", mean_base, fmt(mean_base, 4)),
                new=metric("mean:prf", mean_new, fmt(mean_new, 4)),
            )
        ),
        Html(
            t["counts"].format(
                wins=metric("wins", row["wins"], str(row["wins"])),
                losses=metric("losses", row["losses"], str(row["losses"])),
                ties=metric("ties", row["ties"], str(row["ties"])),
            )
        ),
        " ",
        Html(extremes) if row["losses"] else extremes,
    )
    formula = el(
        "p",
        {"class": "rc-formula"},
        Html(
            t["formula"].format(
                gains=metric("gains", gains, "+" + fmt(gains)),
                losses=metric("losses_sum", losses, fmt(losses)),
                n=n,
            )
        ),
        metric("delta", row["delta"], _signed(row["delta"], 4)),
    )
    return el(
        "div",
        {"class": "rc-view rc-per-query-view", "data-measure": measure, "data-terms": terms},
        summary,
        chart,
        formula,
    )
