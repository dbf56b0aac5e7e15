"""BM25 against numbers worked out by hand on a three-document corpus."""

import math

import pytest

from rankcards.demos.bm25 import BM25, s_stem, tokenize

# a: 3 terms (cat, cat, dog), b: 1 (dog), c: 1 (bird); N = 3, avgdl = 5/3.
_CORPUS = {"a": "Cats and cats, a dog.", "b": "the dog", "c": "bird"}


def test_tokenize_lowercases_drops_stopwords_and_stems_plurals():
    assert tokenize("Cats and cats, a dog.") == ["cat", "cat", "dog"]
    assert tokenize("What causes ocean TIDES?") == ["cause", "ocean", "tide"]


@pytest.mark.parametrize(
    ("word", "stem"),
    [("queries", "query"), ("tides", "tide"), ("bees", "bee"), ("toes", "toe"), ("gas", "ga")],
)
def test_s_stemmer_rules(word, stem):
    # Harman's S stemmer is deliberately crude: "gas" -> "ga" is one of its known errors.
    assert s_stem(word) == stem


def test_idf_is_lucene_positive_idf():
    bm25 = BM25(_CORPUS)
    # cat: df = 1 -> ln(1 + 2.5 / 1.5) = ln(8/3); dog: df = 2 -> ln(1 + 1.5 / 2.5) = ln(1.6)
    assert bm25.idf("cat") == pytest.approx(0.980829, abs=1e-6)
    assert bm25.idf("dog") == pytest.approx(0.470004, abs=1e-6)
    assert bm25.idf("unicorn") == 0.0


def test_scores_match_hand_computation_with_default_parameters():
    # k1 = 0.9, b = 0.4. Doc a: |a| = 3, norm = 0.6 + 0.4 * 3 / (5/3) = 1.32.
    #   cat: 0.980829 * 2 * 1.9 / (2 + 0.9 * 1.32) = 0.980829 * 3.8 / 3.188 = 1.169118
    #   dog: 0.470004 * 1 * 1.9 / (1 + 1.188)      = 0.470004 * 1.9 / 2.188 = 0.408139
    # Doc b: |b| = 1, norm = 0.6 + 0.4 * 0.6 = 0.84; dog: 0.470004 * 1.9 / 1.756 = 0.508545
    scores = BM25(_CORPUS).scores("cat dog")
    assert set(scores) == {"a", "b"}
    assert scores["a"] == pytest.approx(1.169118 + 0.408139, abs=1e-5)
    assert scores["b"] == pytest.approx(0.508545, abs=1e-5)


def test_standard_parameters_change_the_scores():
    # k1 = 1.2, b = 0.75 on doc b: norm = 0.25 + 0.75 * 0.6 = 0.7; 0.470004 * 2.2 / 1.84
    scores = BM25(_CORPUS, k1=1.2, b=0.75).scores("dog")
    assert scores["b"] == pytest.approx(0.470004 * 2.2 / 1.84, abs=1e-6)


def test_search_orders_by_score_then_docid_descending_like_trec_eval():
    bm25 = BM25({"x1": "same words", "x2": "same words", "x3": "other"})
    assert [doc for doc, _ in bm25.search("same")] == ["x2", "x1"]
    assert bm25.search("same", k=1)[0][0] == "x2"
    assert bm25.search("nothing matches") == []


def test_invalid_parameters_name_themselves():
    with pytest.raises(ValueError, match=r"k1 >= 0 and 0 <= b <= 1, got k1=0.9, b=1.5"):
        BM25(_CORPUS, b=1.5)


def test_document_frequency_counts_documents_not_occurrences():
    bm25 = BM25({"a": "cat cat cat", "b": "dog"})
    assert bm25.idf("cat") == pytest.approx(math.log(1 + 1.5 / 1.5))
