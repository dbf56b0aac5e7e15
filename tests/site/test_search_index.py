"""Search finds every card by its names: both titles, their parts (an abbreviation and the name
it stands for) and its tags, in both languages (issue 14, §4; issue 20, §2).

A card page's text is in one language, so the names a reader may type in the other language or
as an abbreviation reach Material's index as the page's ``tags`` (``search_terms``). They come
from the card alone (`rankcards check` asks every card for tags in each language): no list of
search entries is kept anywhere, here included.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from site_project import search_index

from rankcards.cards import load_cards
from rankcards.site._search import glossary_aliases, name_parts, search_terms
from repo_paths import ROOT

CARDS, _ = load_cards(ROOT / "docs" / "cards")
BY_SLUG = {card.slug: card for card in CARDS}


@pytest.mark.parametrize("slug", sorted(BY_SLUG))
def test_search_terms_hold_both_titles_their_parts_and_every_tag(slug):
    card = BY_SLUG[slug]
    terms = search_terms(card)
    for lang in ("es", "en"):
        assert card.title(lang) in terms
        # once each case-insensitively: "Reranking" (en title) stands for "reranking" (es)
        assert {p.casefold() for p in name_parts(card.title(lang))} <= {t.casefold() for t in terms}
        tags = card.data["tags"][lang]
        assert tags and {tag.strip().casefold() for tag in tags} <= {t.casefold() for t in terms}
    folded = [term.casefold() for term in terms]
    assert len(folded) == len(set(folded))  # each name once


def test_search_terms_come_from_the_titles_and_tags_in_order():
    from rankcards.cards import Card
    from rankcards.cards._yaml import Marks

    data = {
        "title": {"es": "Precisión media (AP) y MAP", "en": "Average Precision (AP) and MAP"},
        "tags": {"es": ["Ranking", "map"], "en": ["Ranking quality"]},
    }
    card = Card(Path("x.yml"), data, Marks())
    assert search_terms(card) == (
        "Average Precision (AP) and MAP",
        "Average Precision",
        "AP",
        "MAP",
        "Precisión media (AP) y MAP",
        "Precisión media",
        "Ranking quality",
        "Ranking",  # "map" is MAP again: each name once
    )


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
    index = search_index(built_site)
    fields = index["config"]["fields"]
    assert fields["tags"]["boost"] > fields["title"]["boost"]  # a name outranks a title word
    tagged = {entry["location"]: entry.get("tags") for entry in index["docs"]}
    for lang in ("en", "es"):
        tags = tagged[f"{lang}/alpha/"]
        assert tags is not None, f"{lang}/alpha/ has no tags in the search index"
        # both titles and both languages' tags, whatever the page's language
        assert {"Alpha", "Alfa", "Test", "Prueba"} <= set(tags)
    assert tagged["en/"] is None  # hand-written pages are indexed by their text alone


def test_the_built_index_holds_prose_not_code_outputs_or_copied_tags(built_site: Path):
    """Issue 24 §2: no code block, example output or figure in the index every reader downloads,
    so a snippet is a sentence; a page's tags once, on the page's own entry."""
    index = search_index(built_site)
    docs = index["docs"]
    texts = {entry["location"]: entry["text"] for entry in docs}
    for entry in docs:
        assert "<pre" not in entry["text"] and "<code" not in entry["text"], entry["location"]
        if "#" in entry["location"]:
            assert "tags" not in entry, entry["location"]
    for lang in ("en", "es"):
        example = texts[f"{lang}/alpha/#example"]
        assert example.strip()  # the caption stays: it says what the example shows
        assert "values = [len(TOY)" not in example  # the source does not
        assert "sum 5" not in example  # nor the output it printed at build time
    # the contributing guide's code blocks are left out too, its inline code kept as words
    guide = " ".join(text for location, text in texts.items() if "contributing" in location)
    assert "binds its cutoff to a K slider" not in guide  # a comment in its YAML block
    assert 'Figure(title="Recall by cutoff"' not in guide
    assert "rankcards new my-concept --category rank-aware" in guide  # inline code, as text
