"""Material's search, typed into as a reader would, finds a card by its abbreviation and by its
Spanish name, from a page in either language (issue 14, §4; the names reach the index as page
tags, see ``rankcards.site._search``), lists the page's own language first (issue 19, §3;
``search_gate.js``), and shows sentences, not code, in its snippets (issue 24, §2)."""

from __future__ import annotations

from typing import Any

import pytest

AP_TITLES = {"en": "Average Precision (AP) and MAP", "es": "Precisión media (AP) y MAP"}


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
@pytest.mark.parametrize("words", ["MAP", "precisión media"])
def test_search_finds_the_average_precision_card(page: Any, site_server: str, lang, words):
    page.set_viewport_size({"width": 1280, "height": 240})  # no demo near: search starts at once
    page.goto(f"{site_server}{lang}/")
    titles = _search(page, words)
    # both language versions of the card, the English one also for the Spanish name (its tags)
    assert set(AP_TITLES.values()) <= set(titles), titles
    # the card in the page's language first, whatever the language of the words
    assert titles[0] == AP_TITLES[lang], titles
    pages = _pages(page, site_server)
    assert pages[0] == f"{lang}/average-precision/", pages
    # every card listed in both languages is listed in the page's language first
    other = "es" if lang == "en" else "en"
    for index, path in enumerate(pages):
        if path.startswith(f"{other}/") and f"{lang}/{path[3:]}" in pages:
            assert pages.index(f"{lang}/{path[3:]}") < index, pages
    assert page.console_errors == []


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
@pytest.mark.parametrize("lang", ["en", "es"])
def test_search_snippets_show_sentences_not_code(page: Any, site_server: str, lang):
    page.set_viewport_size({"width": 1280, "height": 240})
    page.goto(f"{site_server}{lang}/mrr/")
    # the exercises' hints say "enumerate(ranking, start=1)" in inline code, beside starter and
    # solution code blocks: the words are found and shown as text, the code blocks are not
    titles = _search(page, "enumerate")
    assert titles, "the exercises' hints mention enumerate"
    results = page.locator(".md-search-result__list")
    assert results.locator("code, pre").count() == 0
    assert "enumerate" in results.inner_text()


GAIN_AND_SETUP = {
    "nDCG": (
        "nDCG (Normalized Discounted Cumulative Gain)",
        "nDCG (ganancia acumulada descontada normalizada)",
    ),
    "ganancia acumulada descontada": (
        "DCG (Discounted Cumulative Gain)",
        "DCG (ganancia acumulada descontada)",
    ),
    "qrels": ("Relevance judgments (qrels)", "Juicios de relevancia (qrels)"),
    "rango recíproco esperado": (
        "ERR (Expected Reciprocal Rank)",
        "ERR (rango recíproco esperado)",
    ),
}


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
@pytest.mark.parametrize("words", sorted(GAIN_AND_SETUP))
def test_search_finds_a_card_in_both_languages_by_any_of_its_names(
    page: Any, site_server: str, words
):
    page.set_viewport_size({"width": 1280, "height": 240})
    page.goto(f"{site_server}en/")
    titles = _search(page, words)
    assert set(GAIN_AND_SETUP[words]) <= set(titles), titles
