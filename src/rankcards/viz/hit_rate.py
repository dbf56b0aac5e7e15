"""The Hit Rate@K visualizer: per query, is there any relevant document in the top K?

The ``hit-rate-at-k`` card's demo (a ``k`` slider and the shared toy queries) renders this view;
see :mod:`rankcards.viz` for the contract. Hits and the rate come from
:func:`rankcards.metrics.hit_at_k` and :func:`rankcards.metrics.hit_rate_at_k` (trec_eval's
``success``). Next to each hit the view also shows *how many* relevant documents are in the top
K, because "hits@K" means that count in some tools - the card's first gotcha.

>>> state = {"k": 2, "queries": [
...     {"query": "q1", "ranking": ["d3", "d1"], "relevant": ["d1"]},
...     {"query": "q2", "ranking": ["d4", "d8"], "relevant": ["d9"]}]}
>>> 'data-metric="HitRate" data-value="0.5"' in view(state, "en")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rankcards.metrics import hit_at_k, hit_rate_at_k
from rankcards.viz._html import SPACED, Html, el, fmt, live_sum, metric, table

__all__ = ["top_k_strip", "view"]


_TEXT = {
    "en": {
        "caption": "Hit (Success@{k}) per query",
        "query": "Query",
        "positions": "Top {k} of the ranking",
        "count": "Relevant in top {k}",
        "hit": "Hit",
        "yes": "hit",
        "no": "miss",
        "relevant": "relevant",
        "cut": "beyond K",
        "sum": "Hit Rate@{k} = ({terms}) / {n}",
    },
    "es": {
        "caption": "Acierto (Success@{k}) por consulta",
        "query": "Consulta",
        "positions": "Top {k} del ranking",
        "count": "Relevantes en el top {k}",
        "hit": "Acierto",
        "yes": "acierto",
        "no": "fallo",
        "relevant": "relevante",
        "cut": "más allá de K",
        "sum": "Hit Rate@{k} = ({terms}) / {n}",
    },
}


def top_k_strip(ranking: Sequence[str], relevant: set[str], k: int, lang: str) -> Html:
    """One square per rank: relevant ones filled, ranks beyond ``k`` dimmed (a visual aid only)."""
    t = _TEXT[lang]
    cells = []
    for rank, doc in enumerate(ranking, 1):
        classes, notes = ["rc-pos"], []
        if doc in relevant:
            classes.append("rc-pos-rel")
            notes.append(t["relevant"])
        if rank > k:
            classes.append("rc-pos-cut")
            notes.append(t["cut"])
        title = f"{rank}. {doc}" + (f" ({', '.join(notes)})" if notes else "")
        cells.append(el("span", {"class": " ".join(classes), "title": title}, doc))
    return el("span", {"class": "rc-positions", "aria-hidden": "true"}, cells)


def view(state: dict[str, Any], lang: str) -> str:
    """Render Hit Rate@k for ``state = {"k": int, "queries": [{query, ranking, relevant}]}``."""
    t = _TEXT[lang]
    k = int(state["k"])
    queries = state["queries"]
    rankings = [list(item["ranking"]) for item in queries]
    relevant = [set(item["relevant"]) for item in queries]
    rows, terms = [], []
    for item, ranking, rel in zip(queries, rankings, relevant, strict=True):
        qid = item["query"]
        hit = hit_at_k(ranking, rel, k)
        count = sum(1 for doc in ranking[:k] if doc in rel)
        terms.append(el("span", {"class": "rc-term", "data-term": qid}, fmt(hit)))
        mark = "✓ " + t["yes"] if hit else "✗ " + t["no"]
        rows.append(
            el(
                "tr",
                {"data-query": qid, "data-hit": int(hit)},
                el("th", {"scope": "row"}, qid),
                el("td", {}, top_k_strip(ranking, rel, k, lang)),
                el("td", {}, metric(f"count:{qid}", float(count), f"{count} / {len(rel)}")),
                el("td", {}, metric(f"hit:{qid}", hit, mark)),
            )
        )
    rate = hit_rate_at_k(rankings, relevant, k)
    headers = [t[key].format(k=k) for key in ("query", "positions", "count", "hit")]
    scores = table("rc-hit-table", t["caption"].format(k=k), headers, rows, SPACED)
    result = metric("HitRate", rate, fmt(rate, 4))
    formula = live_sum(t["sum"], terms, result, k=k, n=len(queries))
    return el("div", {"class": "rc-view rc-hit-rate", "data-k": k}, scores, formula)
