"""Home, category pages and the A-Z glossary with the bundled cards (issue 14, §4).

Generated with the real templates from the bundled cards (the pure generator, no MkDocs): every
card is listed once per language with its one-line summary, categories come in reading order
with a one-line introduction, and the glossary files each card under its title and under the
other names in its title. Every expectation is read from the cards: a new card changes no test.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections import Counter

import pytest
from markupsafe import escape

from rankcards.cards import CATEGORIES, build_cards
from rankcards.site import generate, navigation, template_environment
from rankcards.site._i18n import (
    CATEGORY_GUIDES,
    CATEGORY_INTROS,
    CATEGORY_ORDER,
    CATEGORY_PATHS,
    CATEGORY_TITLES,
    STRINGS,
)
from rankcards.site._search import glossary_aliases
from rankcards.site.generator import home_cards_html
from repo_paths import ROOT

LANGS = ("en", "es")


@pytest.fixture(scope="module")
def cards():
    return build_cards(ROOT / "docs" / "cards")


@pytest.fixture(scope="module")
def env():
    return template_environment(ROOT / "templates")


@pytest.fixture(scope="module")
def pages(cards, env):
    return generate(cards, env)


def test_the_reading_order_holds_every_category_once():
    assert sorted(CATEGORY_ORDER) == sorted(CATEGORIES)
    assert CATEGORY_ORDER[0] == "ground-truth"  # what every number is measured against
    for lang in LANGS:
        assert set(CATEGORY_INTROS[lang]) == set(CATEGORIES)
        assert all(intro.endswith(".") for intro in CATEGORY_INTROS[lang].values())


@pytest.mark.parametrize("lang", LANGS)
def test_home_lists_every_card_once_in_category_reading_order(cards, env, lang):
    home = home_cards_html(cards, env, lang)
    order = re.findall(r'<h3 id="([^"]+)">', home)
    used = {card.card.category for card in cards}
    assert order == [category for category in CATEGORY_ORDER if category in used]
    linked = re.findall(r'<a href="([^"]+)/" data-rc-home-card>', home)
    assert sorted(linked) == sorted(card.card.slug for card in cards)
    for card in cards:
        view = card.views[lang]
        assert f"<strong>{view.title}</strong>" in html.unescape(home)  # RAG &amp; diversity
        assert str(view.summary) in home  # one line on what it measures
    for category in order:
        assert CATEGORY_INTROS[lang][category] in home
    assert 'class="grid cards"' in home
    counts = Counter(card.card.category for card in cards)
    for category, count in counts.items():
        label = (
            STRINGS[lang]["cards_count_one"]
            if count == 1
            else STRINGS[lang]["cards_count"].format(count=count)
        )
        section = home.split(f'<h3 id="{category}">', 1)[1].split("<h3", 1)[0]
        assert f"({label})" in section, (category, label)
    assert "(1 cards)" not in home and "(1 tarjetas)" not in home


@pytest.mark.parametrize("lang", LANGS)
def test_navigation_follows_the_reading_order(cards, pages, lang):
    section = navigation(cards, pages)[LANGS.index(lang)]
    titles = [next(iter(item)) for item in next(iter(section.values()))]
    shown = [CATEGORY_TITLES[lang][c] for c in CATEGORY_ORDER if CATEGORY_TITLES[lang][c] in titles]
    assert [title for title in titles if title in shown] == shown


@pytest.mark.parametrize("lang", LANGS)
def test_category_pages_introduce_and_count_their_cards(cards, pages, lang):
    for category in CATEGORY_ORDER:
        html = pages[f"{lang}/category/{category}/index.md"].html
        assert CATEGORY_INTROS[lang][category] in html
        members = [card for card in cards if card.card.category == category]
        if members:
            assert f"({len(members)}):" in html
            assert html.count("<dt>") == len(members)


@pytest.mark.parametrize("lang", LANGS)
def test_a_family_page_opens_with_its_guide_and_lists_its_cards_in_reading_order(
    cards, env, pages, lang
):
    assert set(CATEGORY_GUIDES[lang]) <= set(CATEGORIES)
    assert set(CATEGORY_GUIDES["en"]) == set(CATEGORY_GUIDES["es"])
    for category, path in CATEGORY_PATHS.items():
        html = pages[f"{lang}/category/{category}/index.md"].html
        guide = CATEGORY_GUIDES[lang][category]
        assert f'<p class="rc-category__guide">{guide}</p>' in html.replace("&#39;", "'")
        assert html.index("rc-category__intro") < html.index("rc-category__guide")
        listed = re.findall(r'<dt><a href="\.\./\.\./([^"]+)/">', html)
        members = {card.card.slug for card in cards if card.card.category == category}
        on_path = [slug for slug in path if slug in members]
        assert len(on_path) >= 4  # the overview and the family's cards on main
        assert listed[: len(on_path)] == on_path
        assert sorted(listed) == sorted(members)
    # Without a path, a category lists its cards by title.
    html = pages[f"{lang}/category/rank-aware/index.md"].html
    titles = re.findall(r'<dt><a href="[^"]+">([^<]+)</a>', html)
    assert titles == sorted(titles, key=lambda title: title.casefold())
    # Home and navigation follow the same order.
    path = [s for s in CATEGORY_PATHS["index-benchmarking"] if s in {c.card.slug for c in cards}]
    home = home_cards_html(cards, env, lang)
    linked = re.findall(r'<a href="([^"]+)/" data-rc-home-card>', home)
    assert [slug for slug in linked if slug in path] == path
    section = next(iter(navigation(cards, pages)[LANGS.index(lang)].values()))
    title = CATEGORY_TITLES[lang]["index-benchmarking"]
    entries = next(item[title] for item in section if title in item)
    listed = [next(iter(entry.values())) for entry in entries[1:]]
    assert listed[: len(path)] == [f"{lang}/{slug}.md" for slug in path]


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_lists_every_card_with_its_category_and_summary(cards, pages, lang):
    html = pages[f"{lang}/glossary.md"].html
    assert f"{len(cards)} " in html.split("</p>")[0]  # "All 17 concepts" / "Los 17 conceptos"
    entries = re.findall(r'<a href="\.\./([^"]+)/" data-rc-glossary>', html)
    assert sorted(entries) == sorted(card.card.slug for card in cards)
    for card in cards:
        view = card.views[lang]
        assert str(view.summary) in html
    letters = re.findall(r'<h2 id="letter-(.)">', html)
    assert letters == sorted(letters)
    nav = re.findall(r'href="#letter-(.)"', html)
    assert nav == letters


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_files_a_card_under_its_other_names(cards, pages, lang):
    """Each other name in a card's title (``glossary_aliases``: MAP, "ganancia acumulada
    descontada", qrels...) is an entry under its own letter that points to the card."""
    html = pages[f"{lang}/glossary.md"].html
    titles = [card.views[lang].title for card in cards]
    entries = 0
    for card in cards:
        title = card.views[lang].title
        for alias in glossary_aliases(title, titles):
            link = f'<a href="../{card.card.slug}/" data-rc-glossary-alias>{escape(alias)}</a>'
            letter = unicodedata.normalize("NFKD", alias[0].upper())[0]
            section = html.split(f'<h2 id="letter-{letter}">', 1)[1].split("<h2", 1)[0]
            assert link in section, (card.card.slug, alias)
            entries += 1
    assert entries == html.count("data-rc-glossary-alias>")
