"""The gold-dataset visualizer: BM25 and a random ranker scored on the bundled gold dataset.

The ``gold-dataset`` card's demo renders this view (see :mod:`rankcards.viz` for the contract).
Both systems rank the 200 documents of :mod:`rankcards.demos.gold` for all 20 queries; the view
shows MRR@K, Hit Rate@K and Recall@K per query and overall, computed by
:mod:`rankcards.metrics` from the judgments *as edited by the reader*: every grade shown is a
button that cycles 0 -> 1 -> 2 -> 3 -> 0 and stores the change in ``state["edits"]`` (keys
``"<query>/<doc>"``), so one edited judgment visibly moves every metric of both systems. That is
the card's lesson: the numbers are only as good as the gold labels. A retrieved document with no
judgment shows an en dash (``UNJUDGED``), not 0: it counts as not relevant, like a 0, but nobody
judged it (the confusion the card warns about); pressing it records a first judgment, 0.

The BM25 index and its rankings are computed once per process (they do not depend on the
state); the random ranking depends only on ``(seed, query)``.

>>> state = {"query": "q01", "k": 10, "level": 1, "seed": 0, "edits": {}}
>>> html = view(state, "en")
>>> 'data-metric="bm25:MRR" data-value="0.9375"' in html
True
"""

from __future__ import annotations

import functools
from typing import Any

from rankcards.demos.bm25 import BM25
from rankcards.demos.gold import GRADE_NAMES, GoldDataset, load_gold
from rankcards.demos.rankers import random_ranking
from rankcards.metrics import (
    hit_at_k,
    hit_rate_at_k,
    mean_recall_at_k,
    mean_reciprocal_rank,
    recall_at_k,
    reciprocal_rank,
)
from rankcards.viz._html import SPACED, Html, act_set, el, fmt, metric, table

__all__ = ["rankings", "view"]


DEPTH = 10  # documents retrieved per query by each system (the slider's maximum K)
SYSTEMS = ("bm25", "random")

_TEXT = {
    "en": {
        "bm25": "BM25",
        "random": "Random",
        "summary": "Both systems on all 20 queries (K = {k}, relevant = grade ≥ {level})",
        "system": "System",
        "per_query": "Per query (press a query to inspect it)",
        "query": "Query",
        "top": "{name}: top {k} for {qid}",
        "this_query": "on {qid}:",
        "grade": "grade {grade} ({name}) for {doc}; press to change it to {next}",
        "unjudged": "{doc} is unjudged (counted as not relevant); press to judge it {next}",
        "edited": "edited",
        "unretrieved": "Judged relevant but not retrieved by {name}: {docs}",
        "reset": "Undo edits ({n})",
        "edits": "Edited judgments: {n}",
        "none": "none",
    },
    "es": {
        "bm25": "BM25",
        "random": "Aleatorio",
        "summary": "Ambos sistemas en las 20 consultas (K = {k}, relevante = grado ≥ {level})",
        "system": "Sistema",
        "per_query": "Por consulta (pulsa una consulta para examinarla)",
        "query": "Consulta",
        "top": "{name}: top {k} para {qid}",
        "this_query": "en {qid}:",
        "grade": "grado {grade} ({name}) para {doc}; pulsa para cambiarlo a {next}",
        "unjudged": "{doc} sin juzgar (cuenta como no relevante); pulsa para juzgarlo con {next}",
        "edited": "editado",
        "unretrieved": "Juzgados relevantes que {name} no recuperó: {docs}",
        "reset": "Deshacer ediciones ({n})",
        "edits": "Juicios editados: {n}",
        "none": "ninguno",
    },
}
_MEASURES = ("MRR", "HitRate", "Recall")
# Inline so the view needs no stylesheet of its own; palette variables keep both schemes legible.
_GRADE_STYLE = (
    "min-width: 2.2em; margin-right: 0.3em; border: 1px solid var(--md-accent-fg-color, #526cfe);"
    " border-radius: 0.3em; background: var(--md-default-bg-color, #fff); color: inherit;"
    " font: inherit; font-weight: 700; cursor: pointer"
)


@functools.cache
def _bm25_rankings() -> dict[str, list[str]]:
    gold = load_gold()
    index = BM25(gold.documents)
    return {
        qid: [doc for doc, _ in index.search(text, DEPTH)] for qid, text in gold.queries.items()
    }


def rankings(system: str, seed: int = 0) -> dict[str, list[str]]:
    """Top-``DEPTH`` ranking per query of ``system`` ("bm25" or "random") on the gold dataset."""
    if system == "bm25":
        return {qid: list(docs) for qid, docs in _bm25_rankings().items()}
    if system == "random":
        gold = load_gold()
        return {qid: random_ranking(gold.documents, qid, DEPTH, seed) for qid in gold.queries}
    raise ValueError(f"system: expected one of {SYSTEMS}, got {system!r}")


def _edited(gold: GoldDataset, edits: dict[str, int]) -> dict[str, dict[str, int]]:
    qrels = gold.qrels
    for key, grade in edits.items():
        qid, _, doc = key.partition("/")
        if qid not in qrels or doc not in gold.documents or grade not in (0, 1, 2, 3):
            raise ValueError(f"edits: {key!r} -> {grade!r} is not '<query>/<doc>' -> 0..3")
        qrels[qid][doc] = grade
    return qrels


def _scores(ranked: dict[str, list[str]], relevant: dict[str, set[str]], k: int) -> dict:
    qids = list(ranked)
    lists = [ranked[qid][:k] for qid in qids]
    sets = [relevant[qid] for qid in qids]
    per_query = {
        qid: {
            "RR": reciprocal_rank(docs, rel, k),
            "Hit": hit_at_k(docs, rel, k),
            "R": recall_at_k(docs, rel, k),
        }
        for qid, docs, rel in zip(qids, lists, sets, strict=True)
    }
    overall = {
        "MRR": mean_reciprocal_rank(lists, sets, k),
        "HitRate": hit_rate_at_k(lists, sets, k),
        "Recall": mean_recall_at_k(lists, sets, k),
    }
    return {"per_query": per_query, "overall": overall}


UNJUDGED = "\u2013"  # an en dash: what the view shows for a document with no judgment (never "0")


def _grade_button(qid: str, doc: str, grade: int | None, edited: bool, t: dict, lang: str) -> Html:
    """The grade as a button; ``None`` (unjudged) shows ``UNJUDGED``, pressed it judges 0."""
    nxt = 0 if grade is None else (grade + 1) % 4
    label = (
        t["unjudged"].format(doc=doc, next=nxt)
        if grade is None
        else t["grade"].format(grade=grade, name=GRADE_NAMES[lang][grade], doc=doc, next=nxt)
    )
    return el(
        "button",
        {
            "type": "button",
            "class": "rc-grade" + (" rc-grade-edited" if edited else ""),
            "style": _GRADE_STYLE,
            "aria-label": label,
            "data-grade": grade,  # absent when unjudged
            "data-unjudged": grade is None or None,
            **act_set(["edits", f"{qid}/{doc}"], nxt),
        },
        (UNJUDGED if grade is None else str(grade)) + ("*" if edited else ""),
    )


def _query_values(system: str, qid: str, values: dict[str, float], k: int, t: dict) -> Html:
    """The inspected query's RR, hit and recall for one system, under its list's heading."""
    names = (("RR", f"RR@{k}"), ("Hit", f"Hit@{k}"), ("R", f"Recall@{k}"))
    parts: list[object] = [t["this_query"].format(qid=qid)]
    for index, (key, shown) in enumerate(names):
        value = metric(f"{system}:{key}:query", values[key], fmt(values[key], 4))
        parts += [", " if index else " ", f"{shown} = ", value]
    return el("p", {"class": "rc-gold-query-values"}, parts)


def _top_list(system, qid, docs, gold, qrels, edits, k, level, t, lang, values) -> Html:
    items = []
    for rank, doc in enumerate(docs[:k], 1):
        grade = qrels[qid].get(doc)  # None: unjudged
        style = "font-weight: 600" if grade is not None and grade >= level else None
        items.append(
            el(
                "li",
                {"data-doc": doc, "data-grade": grade, "data-unjudged": grade is None or None},
                _grade_button(qid, doc, grade, f"{qid}/{doc}" in edits, t, lang),
                " ",
                el(
                    "span",
                    {"style": style},
                    f"{rank}. {doc} ",
                    el("small", {}, gold.documents[doc]),
                ),
            )
        )
    relevant = {doc for doc, grade in qrels[qid].items() if grade >= level}
    missing = sorted(relevant - set(docs[:k]))
    name = t[system]
    return el(
        "div",
        {"class": "rc-gold-list", "data-system": system, "style": "flex: 1 1 16rem; min-width: 0"},
        el("h3", {}, t["top"].format(name=name, k=k, qid=qid)),
        _query_values(system, qid, values, k, t),
        el("ol", {"style": "list-style: none; padding-left: 0; margin-left: 0"}, items),
        el(
            "p",
            {"class": "rc-demo-hint"},
            t["unretrieved"].format(name=name, docs=", ".join(missing) or t["none"]),
        ),
    )


def view(state: dict[str, Any], lang: str) -> str:
    """Render ``{"query", "k", "level", "seed", "edits": {"q/doc": grade}}``."""
    t = _TEXT[lang]
    k, level, qid = int(state["k"]), int(state["level"]), state["query"]
    edits = dict(state.get("edits", {}))
    gold = load_gold()
    if qid not in gold.queries:
        raise ValueError(f"query: unknown query id {qid!r}")
    qrels = _edited(gold, edits)
    relevant = {q: {d for d, g in judged.items() if g >= level} for q, judged in qrels.items()}
    ranked = {"bm25": rankings("bm25"), "random": rankings("random", int(state["seed"]))}
    scores = {system: _scores(ranked[system], relevant, k) for system in SYSTEMS}

    summary_rows = [
        el(
            "tr",
            {"data-system": s},
            el("th", {"scope": "row"}, t[s]),
            [
                el(
                    "td",
                    {},
                    metric(f"{s}:{m}", scores[s]["overall"][m], fmt(scores[s]["overall"][m], 4)),
                )
                for m in _MEASURES
            ],
        )
        for s in SYSTEMS
    ]
    headers = [f"MRR@{k}", f"Hit Rate@{k}", f"Recall@{k}"]
    caption = t["summary"].format(k=k, level=level)
    summary = table("rc-gold-summary", caption, [t["system"], *headers], summary_rows, SPACED)
    pairs = list(zip(headers, _MEASURES, strict=True))
    spoken = "; ".join(
        f"{t[s]}: " + ", ".join(f"{h} {fmt(scores[s]['overall'][m], 4)}" for h, m in pairs)
        for s in SYSTEMS
    )
    announce = el("p", {"class": "rc-demo-hint", "data-rc-announce": True}, spoken)
    detail = el(
        "div",
        {"class": "rc-gold-detail", "style": "display: flex; flex-wrap: wrap; gap: 0 1.5rem"},
        [
            _top_list(
                s,
                qid,
                ranked[s][qid],
                gold,
                qrels,
                edits,
                k,
                level,
                t,
                lang,
                scores[s]["per_query"][qid],
            )
            for s in SYSTEMS
        ],
    )
    rows = []
    for q in gold.queries:
        cells = [
            el("td", {}, metric(f"{s}:{m}:{q}", scores[s]["per_query"][q][m]))
            for s in SYSTEMS
            for m in ("RR", "Hit", "R")
        ]
        select = el(
            "button",
            {
                "type": "button",
                "aria-pressed": "true" if q == qid else "false",
                "style": _GRADE_STYLE,
                **act_set("query", q),
            },
            q,
        )
        rows.append(
            el(
                "tr",
                {"data-query": q, "style": "font-weight: 700" if q == qid else None},
                el("th", {"scope": "row", "title": gold.queries[q]}, select),
                cells,
            )
        )
    columns = [f"{t[s]} {m}" for s in SYSTEMS for m in (f"RR@{k}", f"Hit@{k}", f"R@{k}")]
    per_query = table("rc-gold-queries", t["per_query"], [t["query"], *columns], rows, SPACED)
    reset = (
        el(
            "p",
            {},
            t["edits"].format(n=len(edits)),
            " ",
            el(
                "button",
                {"type": "button", "style": _GRADE_STYLE, **act_set("edits", {})},
                t["reset"].format(n=len(edits)),
            ),
        )
        if edits
        else None
    )
    return el(
        "div",
        {"class": "rc-view rc-gold", "data-k": k, "data-query": qid},
        summary,
        announce,
        el("p", {}, el("strong", {}, f"{qid}: "), el("q", {}, gold.queries[qid])),
        detail,
        reset,
        per_query,
    )
