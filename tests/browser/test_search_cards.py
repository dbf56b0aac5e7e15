"""Material's search, typed into as a reader would, finds a card by a name in the other
language and by a tag, from a page in either language (issue 14, §4; the names reach the index
as page tags, see ``rankcards.site._search``).

The words typed are read from the bundled cards (a name and a tag that only one card carries),
so no card is named here and a new card changes nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rankcards.cards import Card, load_cards
from rankcards.site._search import name_parts, search_terms

ROOT = Path(__file__).resolve().parents[2]


def _only_one_card_has(word: str, card: Card, cards: list[Card]) -> bool:
    folded = word.casefold()
    return all(
        other is card or not any(folded in term.casefold() for term in search_terms(other))
        for other in cards
    )


def _cases() -> dict[str, tuple[str, tuple[str, str]]]:
    """``kind -> (words, (English title, Spanish title))``: a card's Spanish name that no other
    card's names contain, and a tag that no other card's names contain."""
    cards, _ = load_cards(ROOT / "docs" / "cards")
    found: dict[str, tuple[str, tuple[str, str]]] = {}
    for card in sorted(cards, key=lambda card: card.slug):
        titles = (card.title("en"), card.title("es"))
        spanish = name_parts(card.title("es"))[0]
        english = {term.casefold() for term in name_parts(card.title("en"))}
        if spanish.casefold() not in english and _only_one_card_has(spanish, card, cards):
            found.setdefault("spanish name", (spanish, titles))
        for tag in card.data["tags"]["en"]:
            if _only_one_card_has(tag, card, cards):
                found.setdefault("tag", (tag, titles))
    assert set(found) == {"spanish name", "tag"}, found
    return found


CASES = _cases()


def _search(page: Any, words: str) -> list[str]:
    """Type ``words`` into Material's search box -> the titles of the results, best first."""
    box = page.locator("input[data-md-component=search-query]")
    box.click()
    box.fill("")
    box.press_sequentially(words, delay=20)
    page.wait_for_function(
        """(words) => {
            const meta = document.querySelector(".md-search-result__meta");
            const box = document.querySelector("input[data-md-component=search-query]");
            return box.value === words && meta && /\\d/.test(meta.textContent);
        }""",
        arg=words,
    )
    return page.locator(".md-search-result__item h1").all_inner_texts()


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("kind", sorted(CASES))
def test_search_finds_a_card_in_both_languages_by_a_name_only_it_has(
    page: Any, site_server: str, lang: str, kind: str
):
    words, titles = CASES[kind]
    page.set_viewport_size({"width": 1280, "height": 240})  # no demo near: search starts at once
    page.goto(f"{site_server}{lang}/")
    found = _search(page, words)
    # both language versions of the card, whichever language the page and the words are in
    assert set(titles) <= set(found), (words, found)
    assert found[0] in titles, (words, found)  # and first: a name outranks a word of the text
    assert page.console_errors == []
