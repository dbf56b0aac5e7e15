"""A tiny BM25 retriever (Okapi BM25) in pure Python, for the gold-dataset card.

Parameters default to ``k1 = 0.9, b = 0.4``, the defaults of Anserini/Pyserini used for the
BM25 baselines of MS MARCO and BEIR (Lucene's own defaults are 1.2 / 0.75). The score of
document ``d`` for query ``q`` is

.. math::

    \\sum_{t \\in q} \\mathrm{idf}(t) \\cdot
    \\frac{tf_{t,d} (k_1 + 1)}{tf_{t,d} + k_1 (1 - b + b \\cdot |d| / \\mathrm{avgdl})},
    \\qquad \\mathrm{idf}(t) = \\ln\\left(1 + \\frac{N - df_t + 0.5}{df_t + 0.5}\\right)

with Lucene's always-positive idf. Text analysis is deliberately small: lower-case ASCII words,
an English stop-word list and Harman's "S" stemmer (plural -> singular), enough to show both
BM25's strength (exact term matching) and its classic failure (vocabulary mismatch).

Ties are broken as trec_eval breaks them - by document id *descending* - so a run written
from :meth:`BM25.search` evaluates to the same ranks with trec_eval.

>>> bm25 = BM25({"a": "bees make honey", "b": "honey badger", "c": "tides"})
>>> [doc for doc, _ in bm25.search("how do bees make honey?")]
['a', 'b']
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping

_WORD = re.compile(r"[a-z0-9]+")
_STOPWORDS = frozenset(
    [
        "a",
        "about",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "did",
        "do",
        "does",
        "for",
        "from",
        "has",
        "have",
        "how",
        "in",
        "into",
        "is",
        "it",
        "its",
        "not",
        "of",
        "on",
        "or",
        "so",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "why",
        "will",
        "with",
        "you",
        "your",
    ]
)


def s_stem(word: str) -> str:
    """Harman's (1991) S stemmer: conflate English plurals with their singular.

    >>> [s_stem(w) for w in ["queries", "tides", "bees", "virus", "glass", "cells"]]
    ['query', 'tide', 'bee', 'virus', 'glass', 'cell']
    """
    if word.endswith("ies") and not word.endswith(("eies", "aies")):
        return word[:-3] + "y"
    if word.endswith("es") and not word.endswith(("aes", "ees", "oes")):
        return word[:-1]
    if word.endswith("s") and not word.endswith(("us", "ss")):
        return word[:-1]
    return word


def tokenize(text: str) -> list[str]:
    """Lower-case words, stop words removed, plurals stemmed.

    >>> tokenize("Why do the Monarch butterflies migrate?")
    ['monarch', 'butterfly', 'migrate']
    """
    return [s_stem(word) for word in _WORD.findall(text.lower()) if word not in _STOPWORDS]


class BM25:
    """An in-memory inverted index over ``documents`` (id -> text), scored with BM25."""

    def __init__(self, documents: Mapping[str, str], k1: float = 0.9, b: float = 0.4) -> None:
        if k1 < 0 or not 0 <= b <= 1:
            raise ValueError(f"BM25: need k1 >= 0 and 0 <= b <= 1, got k1={k1}, b={b}")
        self.k1 = k1
        self.b = b
        self._lengths: dict[str, int] = {}
        self._postings: dict[str, dict[str, int]] = {}
        for doc, text in documents.items():
            terms = tokenize(text)
            self._lengths[doc] = len(terms)
            for term, tf in Counter(terms).items():
                self._postings.setdefault(term, {})[doc] = tf
        count = len(self._lengths)
        self._avgdl = sum(self._lengths.values()) / count if count else 0.0
        self._idf = {
            term: math.log(1 + (count - len(posting) + 0.5) / (len(posting) + 0.5))
            for term, posting in self._postings.items()
        }

    def idf(self, term: str) -> float:
        """Inverse document frequency of an already analysed term (0 if unseen)."""
        return self._idf.get(term, 0.0)

    def scores(self, query: str) -> dict[str, float]:
        """BM25 score of every document sharing at least one term with ``query``."""
        result: dict[str, float] = {}
        for term in tokenize(query):
            idf = self._idf.get(term)
            if idf is None:
                continue
            for doc, tf in self._postings[term].items():
                norm = 1 - self.b + self.b * self._lengths[doc] / self._avgdl
                gain = idf * tf * (self.k1 + 1) / (tf + self.k1 * norm)
                result[doc] = result.get(doc, 0.0) + gain
        return result

    def search(self, query: str, k: int = 10) -> list[tuple[str, float]]:
        """The top ``k`` ``(doc_id, score)`` pairs: score descending, ties by doc id descending."""
        ranked = sorted(self.scores(query).items(), key=lambda item: item[0], reverse=True)
        ranked.sort(key=lambda item: item[1], reverse=True)  # stable: keeps id-descending ties
        return ranked[:k]
