"""Material's search, typed into as a reader would, finds a card by a name in the other
language and by a tag, from a page in either language (issue 14, §4; the names reach the index
as page tags, see ``rankcards.site._search``), lists the page's own language first (issue 19, §3;
``search_gate.js``), and shows sentences, not code, in its snippets (issue 24, §2).

The words typed are read from the bundled cards (a name and a tag that only one card carries, a
word a card writes both as inline code and in a code block), so no card is named here and a new
card changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from rankcards.cards import Card, load_cards
from rankcards.site._search import name_parts, search_terms
from repo_paths import CARDS


def _only_one_card_has(word: str, card: Card, cards: list[Card]) -> bool:
    folded = word.casefold()
    return all(
        other is card or not any(folded in term.casefold() for term in search_terms(other))
        for other in cards
    )


def _cases() -> dict[str, tuple[str, tuple[str, str]]]:
    """``kind -> (words, (English title, Spanish title))``: a card's Spanish name that no other
    card's names contain, and a tag that no other card's names contain."""
    cards, _ = load_cards(CARDS)
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

# Fields that hold code (examples, exercises, claims); every other text of a card is prose,
# where `...` is inline code.
_CODE_FIELDS = {"source", "starter", "solution", "expr"}
_INLINE_CODE = re.compile(r"`[^`]*`")
_INLINE_WORD = re.compile(r"`([A-Za-z]{6,})\b[^`]*`")


def _texts(value: Any, code: bool = False) -> Iterator[tuple[bool, str]]:
    """``(is_code, text)`` for every text in a card's data."""
    if isinstance(value, str):
        yield code, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(item, code or key in _CODE_FIELDS)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item, code)


def _code_word() -> str:
    """A word that the cards write only as code: in a card's prose as inline code and in one of
    its code blocks, never as a plain word. Search must find it (inline code keeps its words),
    show it as text, and leave the code blocks out."""
    cards, _ = load_cards(CARDS)
    texts = {card.slug: list(_texts(card.data)) for card in cards}
    plain = " ".join(
        _INLINE_CODE.sub(" ", text)
        for card in texts.values()
        for is_code, text in card
        if not is_code
    )
    for slug in sorted(texts):
        code = "\n".join(text for is_code, text in texts[slug] if is_code)
        for is_code, text in texts[slug]:
            for word in [] if is_code else _INLINE_WORD.findall(text):
                found = re.compile(rf"\b{word}\b", re.I)
                if found.search(code) and not found.search(plain):
                    return word
    raise AssertionError("no card writes a word only as code, inline and in a code block")


CODE_WORD = _code_word()


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


def _pages(page: Any, site_server: str) -> list[str]:
    """The results' pages, best first, as site paths ("es/average-precision/")."""
    links = page.eval_on_selector_all(
        ".md-search-result__item > .md-search-result__link", "els => els.map(e => e.href)"
    )
    return [link.removeprefix(site_server).partition("#")[0].partition("?")[0] for link in links]


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
    # the card in the page's language first (a name outranks a word of the text, and the gate
    # puts the page's language before the other), whatever the language of the words
    assert found[0] == titles[("en", "es").index(lang)], (words, found)
    pages = _pages(page, site_server)
    # every card listed in both languages is listed in the page's language first
    other = "es" if lang == "en" else "en"
    for index, path in enumerate(pages):
        if path.startswith(f"{other}/") and f"{lang}/{path[3:]}" in pages:
            assert pages.index(f"{lang}/{path[3:]}") < index, pages
    assert page.console_errors == []


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
@pytest.mark.parametrize("lang", ["en", "es"])
def test_search_snippets_show_sentences_not_code(page: Any, site_server: str, lang: str):
    page.set_viewport_size({"width": 1280, "height": 240})
    page.goto(f"{site_server}{lang}/")
    # a word the cards write in inline code and in code blocks: found and shown as text, with
    # no code block (nor code markup) in any snippet
    found = _search(page, CODE_WORD)
    assert found, CODE_WORD
    results = page.locator(".md-search-result__list")
    assert results.locator("code, pre").count() == 0
    assert CODE_WORD.casefold() in results.inner_text().casefold()
