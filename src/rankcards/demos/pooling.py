"""A seeded test collection whose every relevant document is known, for the pooling card.

Pooling judges only the documents that some runs ranked high, so its lesson needs a world where
the truth is known: here each of :data:`QUERIES` queries has :data:`DOCUMENTS` documents, of
which :data:`RELEVANT` are relevant, and four runs rank them. Three **lexical** runs
(``lex-1``, ``lex-2``, ``lex-3``) score each document by how well its words match the query; a
**dense** run scores it by meaning. Half of each query's relevant documents match the query's
words (both kinds of run find them), the other half say the same thing in other words
(paraphrases: only the dense run finds them; to a lexical run they look like the non-relevant
documents). So the lexical runs share a blind spot, as the runs of a pool often do (Buckley,
Dimmick, Soboroff & Voorhees, 2007: pools dominated by documents containing the query's title
words), and a pool made of them leaves the dense run's best finds unjudged.

Each document has a word match ``w`` and a meaning match ``m``, drawn uniformly: a relevant
document that matches the words has ``w`` in [0.5, 1] and ``m`` in [0.3, 0.8]; a paraphrase
``w`` in [0, 0.6] and ``m`` in [0.5, 1]; a non-relevant document both in [0, 0.6]. A run's
score is its match (``w`` for a lexical run, ``m`` for the dense one) plus triangular noise of
half-width :data:`NOISE`; each run returns its top :data:`LENGTH` documents.

Only ``random.Random(str).random()`` is used (a string seed is hashed with SHA-512; the Mersenne
Twister is the same in CPython and Pyodide), so the collection is identical in the page.

>>> truth, runs = collection()
>>> len(truth), sorted(runs), len(runs["dense"]["q01"])
(20, ['dense', 'lex-1', 'lex-2', 'lex-3'], 50)
>>> sum(len(relevant) for relevant in truth.values())
200
"""

from __future__ import annotations

import functools
import random
from typing import NamedTuple

__all__ = [
    "DOCUMENTS",
    "LENGTH",
    "NOISE",
    "QUERIES",
    "RELEVANT",
    "RUNS",
    "Collection",
    "collection",
]

QUERIES = 20
DOCUMENTS = 100  # per query: d001..d100
RELEVANT = 10  # per query: d001..d005 match the words, d006..d010 are paraphrases
LENGTH = 50  # documents each run returns per query
NOISE = 0.15  # half-width of the triangular noise of a run's score
RUNS = ("lex-1", "lex-2", "lex-3", "dense")  # the first three score words, the last meaning

Qrels = dict[str, dict[str, int]]
Runs = dict[str, dict[str, dict[str, float]]]


class Collection(NamedTuple):
    """``qrels``: every relevant document of each query (label 1; every other document is
    known to be non-relevant); ``runs``: ``{run: {query: {document: score}}}``, scores
    ``50.0, 49.0, ...`` down the ranking (no ties)."""

    qrels: Qrels
    runs: Runs


def _matches(seed: int, query: str) -> dict[str, tuple[float, float]]:
    """(word match, meaning match) of each document of ``query``."""
    draw = random.Random(f"pooling/{seed}/{query}").random
    matches = {}
    for number in range(1, DOCUMENTS + 1):
        u, v = draw(), draw()
        if number <= RELEVANT // 2:
            matches[f"d{number:03d}"] = (0.5 + 0.5 * u, 0.3 + 0.5 * v)
        elif number <= RELEVANT:
            matches[f"d{number:03d}"] = (0.6 * u, 0.5 + 0.5 * v)
        else:
            matches[f"d{number:03d}"] = (0.6 * u, 0.6 * v)
    return matches


@functools.cache
def _collection(seed: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Per run and query, the ranking (cached; :func:`collection` builds fresh mappings)."""
    queries = [f"q{number:02d}" for number in range(1, QUERIES + 1)]
    matches = {query: _matches(seed, query) for query in queries}
    rankings = []
    for run in RUNS:
        axis = 1 if run == "dense" else 0
        for query in queries:
            draw = random.Random(f"pooling/{seed}/{run}/{query}").random
            scores = {
                doc: match[axis] + NOISE * (draw() + draw() - 1.0)
                for doc, match in matches[query].items()
            }
            ranked = sorted(scores, key=lambda doc: (-scores[doc], doc))[:LENGTH]
            rankings.append((f"{run}/{query}", tuple(ranked)))
    return tuple(rankings)


def collection(seed: int = 0) -> Collection:
    """The collection drawn with ``seed`` (see the module docstring); fresh mappings each call,
    so an example may change them."""
    qrels: Qrels = {
        f"q{number:02d}": {f"d{doc:03d}": 1 for doc in range(1, RELEVANT + 1)}
        for number in range(1, QUERIES + 1)
    }
    runs: Runs = {run: {} for run in RUNS}
    for key, ranking in _collection(seed):
        run, _, query = key.partition("/")
        runs[run][query] = {doc: float(LENGTH - rank) for rank, doc in enumerate(ranking)}
    return Collection(qrels, runs)
