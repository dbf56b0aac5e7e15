"""What a reader sees on every card page, in both languages: related cards with their summaries,
the formula in the page's language, and the decimal point said once per Spanish page. (What a
card's text must be, e.g. a one-sentence summary, the intuition's pointer to the Draw / Notes
tool, Spanish without calques, is `rankcards check`'s: rankcards.cards._rules.)"""

from __future__ import annotations

import html as html_lib
import re

import pytest
import yaml

from rankcards.cards import card_files
from rankcards.cards._rules import DRAW_TOOL
from rankcards.site.generator import generate, template_environment
from repo_paths import CARDS, ROOT, WEB

SLUGS = [path.stem for path in card_files(CARDS)]
LANGS = ("es", "en")


def _card(slug: str) -> dict:
    return yaml.safe_load((CARDS / f"{slug}.yml").read_text(encoding="utf-8"))


def _visible(fragment: str) -> str:
    """Text a reader sees: no tags, no KaTeX's hidden TeX annotation, entities decoded."""
    fragment = re.sub(r"<annotation\b.*?</annotation>", "", fragment, flags=re.S)
    return html_lib.unescape(re.sub(r"<[^>]+>", "", fragment)).replace("\xa0", " ")


@pytest.fixture(scope="module")
def pages(bundled_cards) -> dict:
    return generate(bundled_cards, template_environment(ROOT / "templates"))


def _section(html: str, start_id: str) -> str:
    """From the heading ``id=start_id`` to the next ``<h2``."""
    start = html.index(f'id="{start_id}"')
    end = html.find("<h2", start + 1)
    return html[start : end if end != -1 else len(html)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_related_cards_show_their_title_and_one_line_summary(bundled_cards, pages, slug, lang):
    views = {card.card.slug: card.views[lang] for card in bundled_cards}
    block = _section(pages[f"{lang}/{slug}.md"].html, "related")
    items = re.findall(r"<li>(.*?)</li>", block, flags=re.S)
    assert len(items) == len(_card(slug)["related"])
    for item, other in zip(items, _card(slug)["related"], strict=True):
        assert f">{views[other].title}</a>" in html_lib.unescape(item)  # Cohen&#39;s κ
        summary = re.search(r'class="rc-card__related-summary">(.*?)</span>', item, flags=re.S)
        assert summary and summary.group(1) == str(views[other].summary)


def test_the_spanish_mrr_page_has_no_english_in_its_formula(pages):
    spanish = _visible(_section(pages["es/mrr.md"].html, "formula"))
    english = _visible(_section(pages["en/mrr.md"].html, "formula"))
    assert not re.search(r"\b(if|otherwise)\b", spanish), spanish
    assert "si" in spanish and "en otro caso" in spanish
    assert re.search(r"\bif\b", english) and "otherwise" in english


def test_check_names_the_drawing_tool_as_its_toolbar_does():
    """`check` asks each intuition to end at the Draw / Notes tool by its button's name: the name
    draw_toolbar.js gives the button, in each language."""
    source = (WEB / "draw_toolbar.js").read_text(encoding="utf-8")
    names = re.findall(r'toggle: "([^"]+)"', source)
    assert {"es": names[0], "en": names[1]} == DRAW_TOOL


@pytest.mark.parametrize("slug", SLUGS)
def test_a_spanish_page_states_the_decimal_point_once(pages, slug):
    """The page says once that decimals use the point (that the card never repeats it is a rule
    of `check`)."""
    visible = _visible(pages[f"es/{slug}.md"].html)
    assert len(re.findall(r"decimales se escriben con punto", visible)) == 1, slug
    assert "con punto" not in _visible(pages[f"en/{slug}.md"].html), slug


def test_recall_uses_one_spanish_term_after_introducing_it():
    card = _card("recall-at-k")
    prose = " ".join([card["definition"]["es"], card["intuition"]["es"], *card["key_points"]["es"]])
    assert prose.count("exhaustividad (recall)") == 1
    # Apart from the introduction and the tools' notation (Recall@K, recall_k), no bare "recall".
    rest = prose.replace("exhaustividad (recall)", "")
    assert not re.search(r"(?<![@_\w])recall(?![@_])", rest, flags=re.I), rest
