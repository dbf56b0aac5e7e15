"""Search finds every card by its name, its abbreviation and its Spanish name (issue 14, §4).

A card page's text is in one language, so the names a reader may type in the other language or
as an abbreviation reach Material's index as the page's ``tags`` (``search_terms``); these tests
hold the bundled cards to it and check that the built index carries the tags.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rankcards.cards import load_cards
from rankcards.site._search import glossary_aliases, name_parts, search_terms

ROOT = Path(__file__).resolve().parents[2]
CARDS, _ = load_cards(ROOT / "docs" / "cards")
BY_SLUG = {card.slug: card for card in CARDS}

# What a reader types: the abbreviation and the Spanish name of every bundled card. A card
# whose Spanish title keeps the English name (MRR, Hit Rate) is found by that title.
EXPECTED = {
    "average-precision": ("MAP", "Precisión media"),
    "averaging-over-queries": ("macro", "Promedio sobre consultas"),
    "benchmark-beir": ("BEIR", "evaluación zero-shot"),
    "benchmark-lotte": ("Success@5", "Fuera de dominio"),
    "benchmark-ms-marco": ("MRR@10", "ranking de pasajes"),
    "benchmark-mteb-retrieval": ("MTEB", "tareas de recuperación"),
    "benchmark-trec-dl": ("TREC DL", "Juicios graduados"),
    "confidence-intervals": ("effect size", "Intervalos de confianza"),
    "multiple-comparisons": ("Bonferroni", "Comparaciones múltiples"),
    "online-evaluation": ("A/B test", "intercalado"),
    "per-query-analysis": ("trec_eval -q", "Análisis por consulta"),
    "significance-testing": ("Wilcoxon", "valor p"),
    "bpref": ("bpref", "bpref (binary preference)"),
    "dcg": ("DCG", "ganancia acumulada descontada"),
    "err": ("ERR", "rango recíproco esperado"),
    "f1-at-k": ("F1@K", "Medida F"),
    "gold-dataset": ("Qrels", "Juicios de relevancia"),
    "hit-rate-at-k": ("Success@K", "Hit Rate @ K (Success@K)"),
    "index-benchmarking": ("QPS", "rendimiento de índices"),
    "mrr": ("MRR", "MRR (Mean Reciprocal Rank)"),
    "ndcg": ("nDCG", "ganancia acumulada descontada normalizada"),
    "precision-at-k": ("P@K", "Precisión@K"),
    "precision-recall-curve": ("IPrec", "Curva precisión-exhaustividad"),
    "r-precision": ("Rprec", "precisión en R"),
    "rbp": ("RBP", "precisión sesgada por el rango"),
    "recall-at-k": ("Recall", "Exhaustividad"),
    "relevance-judgments": ("qrels", "Juicios de relevancia"),
}


def test_every_bundled_card_has_an_expected_search_entry():
    assert set(EXPECTED) == set(BY_SLUG), "add the new card's abbreviation and Spanish name"


@pytest.mark.parametrize("slug", sorted(EXPECTED))
def test_a_card_is_found_by_its_abbreviation_and_spanish_name(slug):
    terms = search_terms(BY_SLUG[slug])
    abbreviation, spanish = EXPECTED[slug]
    assert abbreviation in terms and spanish in terms


@pytest.mark.parametrize("slug", sorted(EXPECTED))
def test_search_terms_hold_both_titles_and_their_parts(slug):
    card = BY_SLUG[slug]
    terms = search_terms(card)
    for lang in ("es", "en"):
        assert card.title(lang) in terms
        assert set(name_parts(card.title(lang))) <= {term for term in terms}
    folded = [term.casefold() for term in terms]
    assert len(folded) == len(set(folded))  # each name once


def test_name_parts_split_brackets_commas_and_joining_words():
    assert name_parts("Average Precision (AP) and MAP") == ["Average Precision", "AP", "MAP"]
    assert name_parts("Precisión media (AP) y MAP") == ["Precisión media", "AP", "MAP"]
    assert name_parts("Benchmark & Index (QPS vs Recall@K)") == [
        "Benchmark",
        "Index",
        "QPS",
        "Recall@K",
    ]
    assert name_parts("bpref") == ["bpref"]
    # "y" and "and" inside a word are not joins
    assert name_parts("Hybrid and yes (Mayday)") == ["Hybrid", "yes", "Mayday"]


def test_glossary_aliases_skip_same_letter_options_numbers_and_other_cards_names():
    assert glossary_aliases("DCG (ganancia acumulada descontada)", []) == [
        "ganancia acumulada descontada"
    ]
    assert glossary_aliases("DCG (Discounted Cumulative Gain)", []) == []  # both under D
    assert glossary_aliases("Promedio (macro, micro y -c)", []) == ["macro", "micro"]
    assert glossary_aliases("Curva PR (11 puntos)", []) == []
    assert glossary_aliases("Index (QPS vs Recall@K)", ["Recall @ K"]) == ["QPS"]


def test_the_built_index_tags_each_card_page_with_its_names(built_site: Path):
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    fields = index["config"]["fields"]
    assert fields["tags"]["boost"] > fields["title"]["boost"]  # a name outranks a title word
    tagged = {entry["location"]: entry.get("tags") for entry in index["docs"]}
    for lang in ("en", "es"):
        tags = tagged[f"{lang}/alpha/"]
        assert tags is not None, f"{lang}/alpha/ has no tags in the search index"
        # both titles and both languages' tags, whatever the page's language
        assert {"Alpha", "Alfa", "Test", "Prueba"} <= set(tags)
    assert tagged["en/"] is None  # hand-written pages are indexed by their text alone
