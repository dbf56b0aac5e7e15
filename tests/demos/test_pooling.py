"""rankcards.demos.pooling: the seeded collection the pooling card judges (every relevant
document known; three lexical runs sharing a blind spot, one dense run)."""

from __future__ import annotations

from rankcards.demos.pooling import DOCUMENTS, LENGTH, QUERIES, RELEVANT, RUNS, collection


def test_the_collection_has_its_documented_shape() -> None:
    truth, runs = collection()
    assert list(truth) == [f"q{n:02d}" for n in range(1, QUERIES + 1)]
    for relevant in truth.values():
        assert relevant == {f"d{n:03d}": 1 for n in range(1, RELEVANT + 1)}
    assert list(runs) == list(RUNS)
    for run in runs.values():
        assert list(run) == list(truth)
        for scores in run.values():
            assert len(scores) == LENGTH and len(set(scores)) == LENGTH
            assert set(scores) <= {f"d{n:03d}" for n in range(1, DOCUMENTS + 1)}
            assert sorted(scores.values(), reverse=True) == [
                float(LENGTH - r) for r in range(LENGTH)
            ]


def test_it_is_the_same_collection_every_time_and_each_call_is_fresh() -> None:
    first, second = collection(), collection()
    assert first == second
    first.runs["dense"]["q01"].clear()
    first.qrels["q01"]["d999"] = 1
    assert collection() == second  # an example that changes what it got changes nothing else
    assert collection(seed=1) != second


def _found(scores: dict[str, float], documents: range, depth: int = 10) -> int:
    top = sorted(scores, key=scores.get, reverse=True)[:depth]
    return sum(f"d{n:03d}" in top for n in documents)


def test_the_lexical_runs_miss_the_paraphrases_that_the_dense_run_finds() -> None:
    """The blind spot the card's pool shares: word-matching documents are d001..d005, the
    paraphrases d006..d010 (module docstring)."""
    _, runs = collection()
    words, paraphrases = range(1, 6), range(6, 11)
    for name in ("lex-1", "lex-2", "lex-3"):
        run = runs[name].values()
        assert sum(_found(s, words) for s in run) > 3 * sum(_found(s, paraphrases) for s in run)
    dense = runs["dense"].values()
    assert (
        sum(_found(s, paraphrases) for s in dense)
        > sum(_found(s, paraphrases) for s in runs["lex-1"].values()) * 3
    )
