"""The generated test set and the semantic ranker of the synthetic-test-sets card."""

import pytest

from rankcards.demos.bm25 import BM25, tokenize
from rankcards.demos.synthetic import (
    PASSAGES_PER_TOPIC,
    QUERY_WORDS,
    TOPICS,
    SemanticRanker,
    synthetic_set,
)
from rankcards.metrics import evaluate


def _copied(overlap: float) -> dict[str, set[str]]:
    """Per query, the words that its source passage also holds."""
    data = synthetic_set(overlap)
    return {
        query: set(tokenize(text)) & set(tokenize(data.passages[data.sources[query]]))
        for query, text in data.queries.items()
    }


def test_one_query_per_passage_and_the_topic_is_the_truth():
    data = synthetic_set(0.5)
    assert len(data.passages) == len(TOPICS) * PASSAGES_PER_TOPIC == len(data.queries)
    assert sorted(data.sources.values()) == sorted(data.passages)
    for query, source in data.sources.items():
        assert len(tokenize(data.queries[query])) == QUERY_WORDS
        topic = source.rsplit("-", 1)[0]
        assert data.relevant[query] == tuple(
            f"{topic}-{n}" for n in range(1, PASSAGES_PER_TOPIC + 1)
        )


def test_overlap_is_the_share_of_words_copied_from_the_source():
    assert all(len(words) == QUERY_WORDS for words in _copied(1.0).values())
    assert not any(_copied(0.0).values())
    low, high = _copied(0.5), _copied(0.8)
    assert all(low[query] <= high[query] for query in low)  # more overlap only adds copies
    share = sum(map(len, high.values())) / (QUERY_WORDS * len(high))
    assert abs(share - 0.8) < 0.1


def test_labels_keep_the_source_and_drop_the_others_with_unlabelled():
    data = synthetic_set(0.8)
    sparse, half, complete = data.qrels(1.0), data.qrels(0.5), data.qrels(0.0)
    for query, source in data.sources.items():
        assert sparse[query] == {source: 1}
        assert complete[query] == dict.fromkeys(data.relevant[query], 1)
        assert sparse[query].keys() <= half[query].keys() <= complete[query].keys()
    kept = sum(len(labels) - 1 for labels in half.values())
    others = sum(len(relevant) - 1 for relevant in data.relevant.values())
    assert abs(kept / others - 0.5) < 0.1
    with pytest.raises(ValueError, match=r"unlabelled must be in \[0, 1\], got 1.5"):
        data.qrels(1.5)
    with pytest.raises(ValueError, match=r"overlap must be in \[0, 1\], got -1"):
        synthetic_set(-1)


def test_the_semantic_ranker_matches_meaning_not_words():
    passages = {"a": "moon shore", "b": "lunar coast", "c": "bee hive", "d": "clock orbit"}
    ranker = SemanticRanker(passages)
    # moon, lunar and satellite are one concept: the three queries score alike.
    assert ranker.search("moon") == ranker.search("lunar") == ranker.search("satellite")
    ranked = [doc for doc, _ in ranker.search("moon")]
    assert ranked == ["b", "a"]  # tied scores, id descending as trec_eval; "d" is about GPS
    assert ranker.search("unknown words only") == []
    assert len(ranker.search("moon", k=1)) == 1


def _mrr(overlap: float, unlabelled: float) -> dict[str, float]:
    data = synthetic_set(overlap)
    qrels = data.qrels(unlabelled)
    rankers = {"bm25": BM25(data.passages), "semantic": SemanticRanker(data.passages)}
    return {
        name: evaluate(
            qrels, {q: dict(r.search(t, 10)) for q, t in data.queries.items()}, ["RR@10"]
        ).aggregate["RR@10"]
        for name, r in rankers.items()
    }


def test_copied_words_favour_bm25_under_generated_labels():
    # What the card shows: the measured gap follows the overlap, and complete labels undo it.
    copied, paraphrased = _mrr(1.0, 1.0), _mrr(0.0, 1.0)
    assert copied["bm25"] > copied["semantic"]
    assert paraphrased["bm25"] < paraphrased["semantic"]
    assert _mrr(0.0, 1.0)["semantic"] == _mrr(1.0, 1.0)["semantic"]  # words do not matter to it
    complete = _mrr(1.0, 0.0)
    assert complete["semantic"] >= complete["bm25"] and complete["semantic"] > copied["semantic"]
