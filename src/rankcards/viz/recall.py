"""The Recall@K visualizer: relevant documents found in the top K over ALL relevant documents.

The ``recall-at-k`` card's demo renders this view (see :mod:`rankcards.viz` for the contract).
Its point is the denominator: each query shows ``found / R`` where ``R`` counts every relevant
document - including the ones the system never retrieved (``d8`` of the toy ``q1``) and the
``missed`` extra ones the reader adds with a slider - together with the ceiling
``min(K, R) / R`` that no ranking can beat. Values come from
:func:`rankcards.metrics.recall_at_k` and :func:`rankcards.metrics.mean_recall_at_k`.

Why a view of its own and not the measure lab (where the MRR and Hit Rate cards moved, issue
20): the lab's rankings only hold retrieved documents, so it cannot add relevant documents that
no ranking retrieves, which is what the ``missed`` slider does to every query's R at once; and
it shows one query's terms at a time, while this view puts every query's ceiling
``min(K, R) / R`` next to its recall.

>>> state = {"k": 2, "missed": 1, "queries": [
...     {"query": "q1", "ranking": ["d3", "d1"], "relevant": ["d1"]}]}
>>> html = view(state, "en")
>>> 'data-metric="R:q1" data-value="0.5"' in html
True
>>> 'data-metric="ceiling:q1" data-value="1.0"' in html
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rankcards.metrics import mean_recall_at_k, recall_at_k
from rankcards.viz._html import SPACED, Html, el, fmt, live_sum, metric, table

__all__ = ["view"]


_TEXT = {
    "en": {
        "caption": "Recall@{k} per query: found in the top {k} / all relevant (R)",
        "query": "Query",
        "positions": "Ranking",
        "found": "Found / R",
        "recall": "Recall@{k}",
        "ceiling": "Ceiling min(K, R) / R",
        "never": "relevant, never retrieved: {docs}",
        "sum": "Recall@{k} = ({terms}) / {n}",
        "relevant": "relevant",
        "cut": "beyond K",
    },
    "es": {
        "caption": "Recall@{k} por consulta: encontrados en el top {k} / todos los relevantes (R)",
        "query": "Consulta",
        "positions": "Ranking",
        "found": "Encontrados / R",
        "recall": "Recall@{k}",
        "ceiling": "Techo min(K, R) / R",
        "never": "relevantes nunca recuperados: {docs}",
        "sum": "Recall@{k} = ({terms}) / {n}",
        "relevant": "relevante",
        "cut": "más allá de K",
    },
}


def _top_k_strip(ranking: Sequence[str], relevant: set[str], k: int, t: dict[str, str]) -> Html:
    """One square per rank: relevant ones filled, ranks beyond ``k`` dimmed (a visual aid only)."""
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


def _bar(value: float, ceiling: float) -> Html:
    """A bar filled to the recall, with a tick at the best value reachable at this K."""
    return el(
        "svg",
        {"class": "rc-bar", "viewBox": "0 0 100 10", "preserveAspectRatio": "none"},
        el("rect", {"class": "rc-bar-track", "x": 0, "y": 0, "width": 100, "height": 10}),
        el(
            "rect",
            {"class": "rc-bar-fill", "x": 0, "y": 0, "width": round(100 * value, 2), "height": 10},
        ),
        el(
            "rect",
            {
                "x": round(100 * ceiling, 2) - 1.5,
                "y": 0,
                "width": 1.5,
                "height": 10,
                "style": "fill: var(--md-default-fg-color, #000)",
            },
        ),
    )


def view(state: dict[str, Any], lang: str) -> str:
    """Render Recall@k for ``{"k", "missed", "queries": [{query, ranking, relevant}]}``."""
    t = _TEXT[lang]
    k = int(state["k"])
    missed = int(state.get("missed", 0))
    queries = state["queries"]
    rankings = [list(item["ranking"]) for item in queries]
    # Extra relevant documents the system never retrieved: ids that cannot clash with docnos.
    extra = {f"missed {n}" for n in range(1, missed + 1)}
    relevant = [set(item["relevant"]) | extra for item in queries]
    rows, terms = [], []
    for item, ranking, rel in zip(queries, rankings, relevant, strict=True):
        qid = item["query"]
        found = sum(1 for doc in ranking[:k] if doc in rel)
        total = len(rel)
        recall = recall_at_k(ranking, rel, k) if total else 0.0
        ceiling = min(k, total) / total if total else 0.0
        terms.append(el("span", {"class": "rc-term", "data-term": qid}, f"{found}/{total}"))
        unseen = sorted(set(item["relevant"]) - set(ranking))
        note = t["never"].format(docs=", ".join(unseen + ([f"+{missed}"] if missed else [])))
        rows.append(
            el(
                "tr",
                {"data-query": qid},
                el("th", {"scope": "row"}, qid),
                el(
                    "td",
                    {},
                    _top_k_strip(ranking, rel, k, t),
                    el("div", {"class": "rc-demo-hint"}, note) if unseen or missed else None,
                ),
                el(
                    "td",
                    {},
                    metric(f"found:{qid}", float(found), str(found)),
                    " / ",
                    metric(f"total:{qid}", float(total), str(total)),
                ),
                el("td", {}, metric(f"R:{qid}", recall), _bar(recall, ceiling)),
                el("td", {}, metric(f"ceiling:{qid}", ceiling)),
            )
        )
    mean = mean_recall_at_k(rankings, relevant, k)
    keys = ("query", "positions", "found", "recall", "ceiling")
    headers = [t[key].format(k=k) for key in keys]
    scores = table("rc-recall-table", t["caption"].format(k=k), headers, rows, SPACED)
    result = metric("Recall", mean, fmt(mean, 4))
    formula = live_sum(t["sum"], terms, result, k=k, n=len(queries))
    return el("div", {"class": "rc-view rc-recall", "data-k": k}, scores, formula)
