"""Two systems to compare on the gold dataset: BM25 and BM25 with pseudo-relevance feedback.

Pseudo-relevance feedback (PRF) assumes the top ``FEEDBACK_DOCS`` documents BM25 returns are
relevant, adds the ``terms`` most informative of their words (summed idf over those documents,
ties by the word) to the query and searches again. It is the textbook example of a change that
helps some queries and hurts others (a wrong top document drags the query off topic), so the
per-query and online-evaluation cards compare it with plain BM25.

Rankings are computed once per ``terms`` value and process (BM25 over the 200 documents), and
returned as fresh lists.

>>> bm25 = rankings(0)
>>> bm25 == baseline_rankings() and len(bm25) == 20 and len(bm25["q01"]) == DEPTH
True
"""

from __future__ import annotations

import functools
from collections import Counter

from rankcards.demos.bm25 import BM25, tokenize
from rankcards.demos.gold import load_gold

__all__ = ["DEPTH", "FEEDBACK_DOCS", "MAX_TERMS", "baseline_rankings", "expansion", "rankings"]

DEPTH = 10  # documents each system returns per query
FEEDBACK_DOCS = 3  # top BM25 documents taken as relevant
MAX_TERMS = 10  # most expansion terms a caller may ask for


@functools.cache
def _index() -> BM25:
    return BM25(load_gold().documents)


@functools.cache
def _expansions(terms: int) -> dict[str, tuple[str, ...]]:
    gold, index = load_gold(), _index()
    result = {}
    for qid, text in gold.queries.items():
        original = set(tokenize(text))
        weights: Counter[str] = Counter()
        for doc, _ in index.search(text, FEEDBACK_DOCS):
            for word in set(tokenize(gold.documents[doc])) - original:
                weights[word] += index.idf(word)
        ranked = sorted(weights.items(), key=lambda item: (-item[1], item[0]))
        result[qid] = tuple(word for word, _ in ranked[:terms])
    return result


@functools.cache
def _rankings(terms: int) -> dict[str, tuple[str, ...]]:
    gold, index, added = load_gold(), _index(), _expansions(terms)
    return {
        qid: tuple(doc for doc, _ in index.search(" ".join([text, *added[qid]]), DEPTH))
        for qid, text in gold.queries.items()
    }


def _check(terms: int) -> int:
    if not isinstance(terms, int) or not 0 <= terms <= MAX_TERMS:
        raise ValueError(f"terms: expected an integer in 0..{MAX_TERMS}, got {terms!r}")
    return terms


def expansion(terms: int) -> dict[str, list[str]]:
    """The words PRF adds to each query (``terms`` of them, most informative first)."""
    return {qid: list(words) for qid, words in _expansions(_check(terms)).items()}


def rankings(terms: int) -> dict[str, list[str]]:
    """Top-``DEPTH`` ranking per query of BM25 + PRF with ``terms`` added words (0 = BM25)."""
    return {qid: list(docs) for qid, docs in _rankings(_check(terms)).items()}


def baseline_rankings() -> dict[str, list[str]]:
    """Plain BM25's top-``DEPTH`` ranking per query (k1 = 0.9, b = 0.4)."""
    return rankings(0)
