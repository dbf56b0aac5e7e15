"""The MRR visualizer: each query's first relevant rank, its reciprocal rank, and their mean.

The view is what the ``mrr`` card's demo shows under its controls (a ``k`` slider and the
queries' ranked lists); see :mod:`rankcards.viz` for the contract. The numbers come from
:func:`rankcards.metrics.reciprocal_rank` and :func:`rankcards.metrics.mean_reciprocal_rank`
applied to the rankings cut at ``k`` (MRR@k, trec_eval's ``recip_rank`` with ``-M k``), so the
page shows exactly what the tested module computes. The formula is written out with the live
terms, e.g. ``MRR@5 = (1/2 + 1/1 + 0) / 3 = 0.5``.

>>> state = {"k": 5, "queries": [
...     {"query": "q1", "ranking": ["d3", "d1"], "relevant": ["d1"]},
...     {"query": "q2", "ranking": ["d2", "d5"], "relevant": ["d2"]},
...     {"query": "q3", "ranking": ["d4", "d8"], "relevant": []}]}
>>> html = view(state, "en")
>>> 'data-metric="MRR" data-value="0.5"' in html
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rankcards.metrics import mean_reciprocal_rank, reciprocal_rank
from rankcards.viz._html import Html, el, fmt, live_sum, metric, table

__all__ = ["view"]

_TEXT = {
    "en": {
        "caption": "Reciprocal rank per query",
        "query": "Query",
        "first": "First relevant rank",
        "rr": "Reciprocal rank",
        "positions": "Positions",
        "none": "none in top {k}",
        "relevant": "relevant",
        "first_mark": "first relevant",
        "cut": "beyond k",
        "sum": "MRR@{k} = ({terms}) / {n}",
        "no_queries": "No queries.",
    },
    "es": {
        "caption": "Rango recíproco por consulta",
        "query": "Consulta",
        "first": "Posición del primer relevante",
        "rr": "Rango recíproco",
        "positions": "Posiciones",
        "none": "ninguno en el top {k}",
        "relevant": "relevante",
        "first_mark": "primer relevante",
        "cut": "más allá de k",
        "sum": "MRR@{k} = ({terms}) / {n}",
        "no_queries": "Sin consultas.",
    },
}


def _first_rank(ranking: Sequence[str], relevant: set[str]) -> int:
    """1-based rank of the first relevant docno, 0 when there is none (display only)."""
    return next((rank for rank, doc in enumerate(ranking, 1) if doc in relevant), 0)


def _positions(ranking: Sequence[str], relevant: set[str], k: int, first: int, t: dict) -> Html:
    """A strip of squares, one per rank: relevant ones filled, the first one marked, >k dimmed."""
    cells = []
    for rank, doc in enumerate(ranking, 1):
        classes = ["rc-pos"]
        notes = []
        if doc in relevant:
            classes.append("rc-pos-rel")
            notes.append(t["relevant"])
        if rank == first:
            classes.append("rc-pos-first")
            notes.append(t["first_mark"])
        if rank > k:
            classes.append("rc-pos-cut")
            notes.append(t["cut"])
        title = f"{rank}. {doc}" + (f" ({', '.join(notes)})" if notes else "")
        cells.append(el("span", {"class": " ".join(classes), "title": title}, str(rank)))
    return el("span", {"class": "rc-positions", "aria-hidden": "true"}, cells)


def _bar(value: float) -> Html:
    """An SVG bar of width proportional to the reciprocal rank (0..1)."""
    width = round(100 * value, 2)
    return el(
        "svg",
        {
            "class": "rc-bar",
            "viewBox": "0 0 100 10",
            "preserveAspectRatio": "none",
            "aria-hidden": "true",  # decorative: the number beside it is the accessible value
        },
        el("rect", {"class": "rc-bar-track", "x": 0, "y": 0, "width": 100, "height": 10}),
        el("rect", {"class": "rc-bar-fill", "x": 0, "y": 0, "width": width, "height": 10}),
    )


def view(state: dict[str, Any], lang: str) -> str:
    """Render the MRR@k view for ``state = {"k": int, "queries": [{query, ranking, relevant}]}``."""
    t = _TEXT[lang]
    k = int(state["k"])
    queries = state["queries"]
    if not queries:
        return el("p", {"class": "rc-view-empty"}, t["no_queries"])
    cut = [list(item["ranking"])[:k] for item in queries]
    relevant = [set(item["relevant"]) for item in queries]
    rows, terms = [], []
    for item, ranking, rel in zip(queries, cut, relevant, strict=True):
        qid = item["query"]
        rr = reciprocal_rank(ranking, rel)
        first = _first_rank(ranking, rel)
        term = f"1/{first}" if first else "0"
        terms.append(el("span", {"class": "rc-term", "data-term": qid}, term))
        first_cell = metric(f"rank:{qid}", float(first), str(first) if first else "—")
        rows.append(
            el(
                "tr",
                {"data-query": qid},
                el("th", {"scope": "row"}, qid),
                el("td", {}, _positions(item["ranking"], rel, k, first, t)),
                el("td", {"title": None if first else t["none"].format(k=k)}, first_cell),
                el("td", {"class": "rc-rr"}, metric(f"RR:{qid}", rr), _bar(rr)),
            )
        )
    mrr = mean_reciprocal_rank(cut, relevant)
    headers = [t[key] for key in ("query", "positions", "first", "rr")]
    scores = table("rc-mrr-table", t["caption"], headers, rows)
    formula = live_sum(t["sum"], terms, metric("MRR", mrr, fmt(mrr, 4)), k=k, n=len(queries))
    return el("div", {"class": "rc-view rc-mrr", "data-k": k}, scores, formula)
