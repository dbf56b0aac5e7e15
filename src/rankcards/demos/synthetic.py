"""A synthetic test set generated from its own passages, and a "semantic" ranker, for the
synthetic-test-sets card.

Generators such as InPars, Promptagator or Ragas' single-hop synthesizer write a query *from*
one passage and record that passage as its only relevant one. This module builds that
situation with a known truth:

* the corpus has :data:`PASSAGES_PER_TOPIC` passages on each topic of :data:`TOPICS`; a topic
  is a few concepts, each with three words that mean the same (``moon``, ``lunar``,
  ``satellite``). A passage takes each concept of its topic with probability
  :data:`CONCEPT_SHARE`, writes it with one of its words, and adds :data:`FILLERS` common
  words. Every passage of a topic answers the same need: all are relevant to a query about it;
* each passage gets one generated query of :data:`QUERY_WORDS` concepts it holds. A query word
  copies the passage's own word with probability ``overlap`` and otherwise uses a synonym the
  passage does not have, so ``overlap`` is the share of the query's words found in its source
  passage (in expectation);
* :meth:`SyntheticSet.qrels` labels, for each query, its source passage and keeps each other
  relevant passage of the topic with probability ``1 - unlabelled``: ``unlabelled = 1`` is what
  a generator gives (one passage per query; the others are false negatives), ``0`` is the
  complete truth.

:class:`SemanticRanker` stands for a dense retriever: it matches concepts, not words (a query
word and its synonyms count the same), with a concept-level tf-idf cosine. BM25
(:mod:`rankcards.demos.bm25`) matches the words themselves, so the more a query copies its
passage, the more BM25 is favoured over it.

Only ``random.Random(str).random()`` is used (a string seed is hashed with SHA-512; the
Mersenne Twister is the same in CPython and Pyodide). Every draw is made once per passage or
query whatever ``overlap`` and ``unlabelled`` are, so raising them only adds changes.

>>> data = synthetic_set(overlap=1.0)
>>> len(data.passages), len(data.queries), data.sources["q-tides-1"]
(48, 48, 'tides-1')
>>> set(data.queries["q-tides-1"].split()) <= set(data.passages["tides-1"].split())
True
>>> data.qrels(unlabelled=1.0)["q-tides-1"]
{'tides-1': 1}
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from rankcards.demos.bm25 import tokenize

__all__ = [
    "CONCEPT_SHARE",
    "FILLERS",
    "PASSAGES_PER_TOPIC",
    "QUERY_WORDS",
    "TOPICS",
    "SemanticRanker",
    "SyntheticSet",
    "synthetic_set",
]

# Each topic: five concepts, each written with one of three words of the same meaning.
TOPICS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "tides": (
        ("moon", "lunar", "satellite"),
        ("gravity", "pull", "attraction"),
        ("ocean", "sea", "marine"),
        ("shore", "coast", "beach"),
        ("swell", "surge", "bulge"),
    ),
    "honey": (
        ("bee", "honeybee", "pollinator"),
        ("nectar", "syrup", "sugar"),
        ("hive", "colony", "nest"),
        ("flower", "blossom", "bloom"),
        ("store", "keep", "hoard"),
    ),
    "vaccines": (
        ("vaccine", "jab", "inoculation"),
        ("immunity", "defence", "resistance"),
        ("virus", "pathogen", "germ"),
        ("antibody", "antitoxin", "serum"),
        ("train", "teach", "prime"),
    ),
    "volcanoes": (
        ("volcano", "crater", "vent"),
        ("lava", "magma", "melt"),
        ("erupt", "explode", "burst"),
        ("ash", "dust", "soot"),
        ("pressure", "force", "stress"),
    ),
    "caffeine": (
        ("caffeine", "coffee", "espresso"),
        ("sleep", "slumber", "rest"),
        ("alert", "awake", "wakeful"),
        ("brain", "mind", "neuron"),
        ("block", "inhibit", "hinder"),
    ),
    "navigation": (
        ("navigation", "satnav", "wayfinding"),
        ("orbit", "orbital", "spaceborne"),
        ("signal", "transmission", "broadcast"),
        ("clock", "timer", "chronometer"),
        ("position", "location", "coordinate"),
    ),
    "bread": (
        ("dough", "batter", "paste"),
        ("bake", "roast", "oven"),
        ("flour", "grain", "wheat"),
        ("yeast", "leaven", "starter"),
        ("knead", "fold", "work"),
    ),
    "chess": (
        ("chess", "chessboard", "boardgame"),
        ("gambit", "opening", "debut"),
        ("pawn", "piece", "token"),
        ("centre", "middle", "core"),
        ("sacrifice", "offer", "concede"),
    ),
    "butterflies": (
        ("butterfly", "monarch", "lepidopteran"),
        ("migrate", "migration", "journey"),
        ("winter", "cold", "frost"),
        ("milkweed", "plant", "herb"),
        ("wing", "flight", "glide"),
    ),
    "lightning": (
        ("lightning", "bolt", "flash"),
        ("thunder", "boom", "rumble"),
        ("storm", "tempest", "squall"),
        ("charge", "electricity", "static"),
        ("cloud", "cumulonimbus", "overcast"),
    ),
    "earthquakes": (
        ("earthquake", "quake", "tremor"),
        ("magnitude", "size", "strength"),
        ("richter", "scale", "measure"),
        ("fault", "rift", "fracture"),
        ("shake", "vibrate", "jolt"),
    ),
    "tea": (
        ("tea", "brew", "infusion"),
        ("green", "unoxidised", "fresh"),
        ("black", "oxidised", "dark"),
        ("leaf", "foliage", "shoot"),
        ("antioxidant", "polyphenol", "catechin"),
    ),
}
# Common words any passage may hold: they match no query, but they make passages differ in length.
_FILLER_WORDS = (
    "often",
    "many",
    "people",
    "large",
    "small",
    "time",
    "year",
    "part",
    "place",
    "long",
    "new",
    "good",
    "day",
    "world",
    "early",
    "common",
    "usually",
    "high",
    "low",
    "known",
)
PASSAGES_PER_TOPIC = 4
CONCEPT_SHARE = 0.8  # chance that a passage holds a given concept of its topic
FILLERS = 4  # common words per passage
QUERY_WORDS = 3  # concepts per generated query


@dataclass(frozen=True)
class SyntheticSet:
    """A generated test set: ``passages`` (id -> text), ``queries`` (id -> text), the
    ``sources`` each query was generated from (query id -> passage id) and ``relevant``: every
    passage of the query's topic, the complete truth (query id -> passage ids, sorted)."""

    passages: dict[str, str]
    queries: dict[str, str]
    sources: dict[str, str]
    relevant: dict[str, tuple[str, ...]]
    seed: int

    def qrels(self, unlabelled: float = 1.0) -> dict[str, dict[str, int]]:
        """Labels with the source passage of each query and each other relevant passage kept
        with probability ``1 - unlabelled`` (0: the complete truth; 1: only the source).

        Raises:
            ValueError: ``unlabelled`` outside [0, 1].
        """
        if not 0.0 <= unlabelled <= 1.0:
            raise ValueError(f"qrels: unlabelled must be in [0, 1], got {unlabelled!r}")
        labels: dict[str, dict[str, int]] = {}
        for query, source in self.sources.items():
            labels[query] = {source: 1}
            for passage in self.relevant[query]:
                draw = random.Random(f"synthetic/{self.seed}/label/{query}/{passage}").random
                if passage != source and draw() >= unlabelled:
                    labels[query][passage] = 1
        return labels


def _concept_words() -> dict[str, str]:
    """Each word of :data:`TOPICS` (as :func:`tokenize` writes it) -> its concept's first word."""
    return {
        stem: words[0]
        for concepts in TOPICS.values()
        for words in concepts
        for word in words
        for stem in tokenize(word)
    }


@functools.cache
def _passages(seed: int) -> tuple[tuple[str, str, tuple[tuple[int, int], ...]], ...]:
    """Per passage: its id, its topic and the (concept index, word index) pairs it holds."""
    passages = []
    for topic, concepts in TOPICS.items():
        for number in range(1, PASSAGES_PER_TOPIC + 1):
            draw = random.Random(f"synthetic/{seed}/passage/{topic}/{number}").random
            draws = [(draw(), int(draw() * 3)) for _ in concepts]
            # Each concept with probability CONCEPT_SHARE, and at least QUERY_WORDS of them.
            needed = sorted(range(len(concepts)), key=lambda index: draws[index][0])[:QUERY_WORDS]
            held = tuple(
                (index, word)
                for index, (u, word) in enumerate(draws)
                if u < CONCEPT_SHARE or index in needed
            )
            passages.append((f"{topic}-{number}", topic, held))
    return tuple(passages)


def _passage_text(seed: int, passage: str, topic: str, held: tuple[tuple[int, int], ...]) -> str:
    draw = random.Random(f"synthetic/{seed}/filler/{passage}").random
    words = [TOPICS[topic][concept][word] for concept, word in held]
    # One word from another topic: passages mention things beside their subject.
    others = [name for name in TOPICS if name != topic]
    other = TOPICS[others[int(draw() * len(others))]]
    words.append(other[int(draw() * len(other))][int(draw() * 3)])
    fillers = [_FILLER_WORDS[int(draw() * len(_FILLER_WORDS))] for _ in range(FILLERS)]
    # Fillers go between the topic's words, in an order fixed by the draw.
    for filler in fillers:
        words.insert(int(draw() * (len(words) + 1)), filler)
    return " ".join(words)


def synthetic_set(overlap: float, seed: int = 0) -> SyntheticSet:
    """The corpus and one generated query per passage, copying its passage's words with
    probability ``overlap`` (see the module docstring).

    Raises:
        ValueError: ``overlap`` outside [0, 1].
    """
    if not 0.0 <= overlap <= 1.0:
        raise ValueError(f"synthetic_set: overlap must be in [0, 1], got {overlap!r}")
    passages: dict[str, str] = {}
    queries: dict[str, str] = {}
    sources: dict[str, str] = {}
    by_topic: dict[str, list[str]] = {}
    for passage, topic, held in _passages(seed):
        passages[passage] = _passage_text(seed, passage, topic, held)
        by_topic.setdefault(topic, []).append(passage)
        draw = random.Random(f"synthetic/{seed}/query/{passage}").random
        chosen = sorted(held, key=lambda _: draw())[:QUERY_WORDS]
        words = []
        for concept, word in chosen:
            copy, other = draw(), 1 + int(draw() * 2)  # another of the three words
            synonyms = TOPICS[topic][concept]
            words.append(synonyms[word] if copy < overlap else synonyms[(word + other) % 3])
        query = f"q-{passage}"
        queries[query] = " ".join(words)
        sources[query] = passage
    relevant = {
        query: tuple(sorted(by_topic[source.rsplit("-", 1)[0]]))
        for query, source in sources.items()
    }
    return SyntheticSet(passages, queries, sources, relevant, seed)


class SemanticRanker:
    """Ranks passages by the concepts they share with the query, whatever the words: a stand-in
    for a dense retriever, which matches meaning rather than words.

    A text becomes a bag of concepts (each word of :data:`TOPICS` maps to its concept; other
    words are dropped), weighted by tf-idf over the corpus's concepts; the score is the cosine
    of the query's and the passage's vectors. Ties are broken by passage id descending, as
    trec_eval does.

    >>> ranker = SemanticRanker({"a": "moon shore", "b": "lunar coast", "c": "bee hive"})
    >>> ranker.search("satellite") == ranker.search("moon")  # one concept, three words
    True
    >>> [(doc, round(score, 4)) for doc, score in ranker.search("moon beach")]
    [('b', 1.0), ('a', 1.0)]
    """

    def __init__(self, passages: Mapping[str, str]) -> None:
        self._concept_of = _concept_words()
        bags = {doc: self._concepts(text) for doc, text in passages.items()}
        frequency = Counter(concept for bag in bags.values() for concept in bag)
        self._idf = {c: math.log(len(bags) / n) + 1.0 for c, n in frequency.items()}
        self._vectors = {doc: self._vector(bag) for doc, bag in bags.items()}

    def _concepts(self, text: str) -> Counter[str]:
        return Counter(self._concept_of[t] for t in tokenize(text) if t in self._concept_of)

    def _vector(self, bag: Counter[str]) -> dict[str, float]:
        weights = {c: n * self._idf.get(c, 0.0) for c, n in bag.items()}
        norm = math.sqrt(sum(w * w for w in weights.values()))
        return {c: w / norm for c, w in weights.items()} if norm else {}

    def search(self, query: str, k: int = 10) -> list[tuple[str, float]]:
        """The top ``k`` ``(passage id, score)`` pairs sharing a concept with ``query``: score
        descending, ties by id descending."""
        vector = self._vector(self._concepts(query))
        scores = {
            doc: sum(w * weights.get(c, 0.0) for c, w in vector.items())
            for doc, weights in self._vectors.items()
        }
        ranked = sorted(((d, s) for d, s in scores.items() if s > 0), reverse=True)
        ranked.sort(key=lambda item: item[1], reverse=True)
        return ranked[:k]
