"""The bundled gold dataset: integrity of the files and the loader's error messages."""

import pytest

from rankcards.demos import gold
from rankcards.demos.gold import GoldDataError, load_gold


def test_shape_of_the_dataset():
    data = load_gold()
    assert len(data.queries) == 20
    assert len(data.documents) == 200
    assert sorted(data.qrels) == [f"q{n:02d}" for n in range(1, 21)]
    for query, judged in data.qrels.items():
        grades = sorted(judged.values(), reverse=True)
        # ten judgments per query on TREC DL's 0-3 scale, at least one "perfectly relevant" (3)
        # and some keyword traps judged "irrelevant" (0)
        assert len(judged) == 10, query
        assert grades[0] == 3 and grades[-1] == 0, query
        assert len(data.relevant(query)) == 6, query
        assert len(data.relevant(query, level=3)) == 2, query


def test_every_document_is_judged_for_exactly_one_query():
    data = load_gold()
    judged = [doc for judgments in data.qrels.values() for doc in judgments]
    assert sorted(judged) == sorted(data.documents)


def test_load_returns_an_independent_copy():
    first = load_gold()
    first.qrels["q01"].clear()
    first.documents.clear()
    second = load_gold()
    assert len(second.qrels["q01"]) == 10 and len(second.documents) == 200


def test_known_entries():
    data = load_gold()
    assert data.queries["q20"] == "how is earthquake magnitude measured"
    assert data.documents["d001"].startswith("The Richter scale, devised in 1935")
    assert data.qrels["q20"]["d001"] == 2


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("gold_queries.tsv", "q1 no tab\n", r"gold_queries.tsv:1: expected 'id<TAB>text'"),
        ("gold_queries.tsv", "# c\nq1\ta\nq1\tb\n", r"gold_queries.tsv:3: id: duplicate 'q1'"),
    ],
)
def test_tsv_errors_name_file_line_and_field(monkeypatch, name, text, message):
    monkeypatch.setattr(gold, "_lines", lambda _name: _numbered(text))
    with pytest.raises(GoldDataError, match=message):
        gold._read_tsv(name)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("q1 0 d1", r"qrels.txt:1: expected 'query 0 doc grade'"),
        ("q9 0 d1 1", r"qrels.txt:1: query: unknown id 'q9'"),
        ("q1 0 d9 1", r"qrels.txt:1: doc: unknown id 'd9'"),
        ("q1 0 d1 1\nq1 0 d1 2", r"qrels.txt:2: doc: 'd1' judged twice for 'q1'"),
    ],
)
def test_qrels_errors_name_file_line_and_field(monkeypatch, line, message):
    monkeypatch.setattr(gold, "_lines", lambda _name: _numbered(line))
    with pytest.raises(GoldDataError, match=message):
        gold._read_qrels("qrels.txt", {"q1": "x"}, {"d1": "y"})


def _numbered(text):
    return [(n, line) for n, line in enumerate(text.splitlines(), 1) if not line.startswith("#")]
