"""A small gold dataset written for this project: 20 queries, 200 documents, graded judgments.

The collection is general-knowledge prose (bees, tides, vaccines, GPS, ...), one short
paragraph per document, written for rankcards and distributed under its MIT licence. Each
query has ten judged documents on TREC Deep Learning's 0-3 scale: 3 = perfectly relevant,
2 = highly relevant, 1 = related, 0 = irrelevant (judged *not* relevant). Most 0s
are deliberate keyword traps ("honey badger" for the honey query, "French press" for the
printing press) so that a lexical retriever makes realistic mistakes. Documents outside a
query's ten are unjudged, which trec_eval - and this project - treats as not relevant.

Files (package data under ``rankcards/demos/data/``), in the formats the tools expect:

* ``gold_queries.tsv`` - ``query_id<TAB>text``;
* ``gold_docs.tsv`` - ``doc_id<TAB>text``;
* ``gold_qrels.txt`` - TREC qrels, ``query_id 0 doc_id grade``.

Lines starting with ``#`` are comments.

>>> gold = load_gold()
>>> len(gold.queries), len(gold.documents), sum(len(j) for j in gold.qrels.values())
(20, 200, 200)
>>> gold.queries["q01"]
'how do bees make honey'
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources

_DATA = "data"


class GoldDataError(ValueError):
    """A data file of the gold dataset is malformed; the message names file and line."""


# TREC Deep Learning's grade names (Craswell et al., 2020), the words the card and the view use.
GRADE_NAMES = {
    "en": {3: "perfectly relevant", 2: "highly relevant", 1: "related", 0: "irrelevant"},
    "es": {3: "perfectamente relevante", 2: "muy relevante", 1: "relacionado", 0: "irrelevante"},
}


@dataclass(frozen=True)
class GoldDataset:
    """Queries and documents by id, and graded judgments ``qrels[query_id][doc_id] = grade``."""

    queries: dict[str, str]
    documents: dict[str, str]
    qrels: dict[str, dict[str, int]]

    def relevant(self, query_id: str, level: int = 1) -> set[str]:
        """Documents judged at least ``level`` for ``query_id`` (trec_eval's relevance level)."""
        return {doc for doc, grade in self.qrels.get(query_id, {}).items() if grade >= level}


def _lines(name: str) -> list[tuple[int, str]]:
    text = resources.files(__package__).joinpath(_DATA, name).read_text(encoding="utf-8")
    return [
        (number, line)
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.startswith("#")
    ]


def _read_tsv(name: str) -> dict[str, str]:
    table: dict[str, str] = {}
    for number, line in _lines(name):
        key, sep, value = line.partition("\t")
        if not sep or not key or not value.strip():
            raise GoldDataError(f"{name}:{number}: expected 'id<TAB>text', got {line!r}")
        if key in table:
            raise GoldDataError(f"{name}:{number}: id: duplicate {key!r}")
        table[key] = value.strip()
    return table


def _read_qrels(name: str, queries: dict[str, str], documents: dict[str, str]) -> dict:
    qrels: dict[str, dict[str, int]] = {}
    for number, line in _lines(name):
        fields = line.split()
        if len(fields) != 4 or not fields[3].lstrip("-").isdigit():
            raise GoldDataError(f"{name}:{number}: expected 'query 0 doc grade', got {line!r}")
        query, _, doc, grade = fields
        if query not in queries:
            raise GoldDataError(f"{name}:{number}: query: unknown id {query!r}")
        if doc not in documents:
            raise GoldDataError(f"{name}:{number}: doc: unknown id {doc!r}")
        if doc in qrels.setdefault(query, {}):
            raise GoldDataError(f"{name}:{number}: doc: {doc!r} judged twice for {query!r}")
        qrels[query][doc] = int(grade)
    return qrels


@functools.cache
def _load() -> GoldDataset:
    queries = _read_tsv("gold_queries.tsv")
    documents = _read_tsv("gold_docs.tsv")
    return GoldDataset(queries, documents, _read_qrels("gold_qrels.txt", queries, documents))


def load_gold() -> GoldDataset:
    """The bundled dataset; parsed once per process, returned as a fresh copy each call.

    A copy, because the gold-dataset visualizer lets the reader edit judgments and those edits
    must never leak into the next computation.
    """
    base = _load()
    return GoldDataset(
        dict(base.queries),
        dict(base.documents),
        {query: dict(judged) for query, judged in base.qrels.items()},
    )
