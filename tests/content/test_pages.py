"""What a reader sees on every card page, in both languages: related cards with their summaries,
the formula in the page's language, the intuition pointing to the Draw / Notes tool, and Spanish
written without the calques the house standard lists."""

from __future__ import annotations

import html as html_lib
import re
from pathlib import Path

import pytest
import yaml

from rankcards.cards import build_cards, card_files
from rankcards.site.generator import generate, template_environment

ROOT = Path(__file__).resolve().parents[2]
CARDS = ROOT / "docs" / "cards"
SLUGS = [path.stem for path in card_files(CARDS)]
LANGS = ("es", "en")


def _card(slug: str) -> dict:
    return yaml.safe_load((CARDS / f"{slug}.yml").read_text(encoding="utf-8"))


def _visible(fragment: str) -> str:
    """Text a reader sees: no tags, no KaTeX's hidden TeX annotation, entities decoded."""
    fragment = re.sub(r"<annotation\b.*?</annotation>", "", fragment, flags=re.S)
    return html_lib.unescape(re.sub(r"<[^>]+>", "", fragment)).replace("\xa0", " ")


@pytest.fixture(scope="module")
def rendered():
    return build_cards(CARDS)


@pytest.fixture(scope="module")
def pages(rendered) -> dict:
    return generate(rendered, template_environment(ROOT / "templates"))


def _section(html: str, start_id: str) -> str:
    """From the heading ``id=start_id`` to the next ``<h2``."""
    start = html.index(f'id="{start_id}"')
    end = html.find("<h2", start + 1)
    return html[start : end if end != -1 else len(html)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_related_cards_show_their_title_and_one_line_summary(rendered, pages, slug, lang):
    views = {card.card.slug: card.views[lang] for card in rendered}
    block = _section(pages[f"{lang}/{slug}.md"].html, "related")
    items = re.findall(r"<li>(.*?)</li>", block, flags=re.S)
    assert len(items) == len(_card(slug)["related"])
    for item, other in zip(items, _card(slug)["related"], strict=True):
        assert f">{views[other].title}</a>" in item
        summary = re.search(r'class="rc-card__related-summary">(.*?)</span>', item, flags=re.S)
        assert summary and summary.group(1) == str(views[other].summary)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_summary_is_one_sentence(slug):
    for lang in LANGS:
        summary = _card(slug)["summary"][lang].strip()
        assert summary.endswith(".") and "\n" not in summary
        assert not re.search(r"[.!?]\s+[A-ZÁÉÍÓÚ¿]", summary), summary


def test_the_spanish_mrr_page_has_no_english_in_its_formula(pages):
    spanish = _visible(_section(pages["es/mrr.md"].html, "formula"))
    english = _visible(_section(pages["en/mrr.md"].html, "formula"))
    assert not re.search(r"\b(if|otherwise)\b", spanish), spanish
    assert "si" in spanish and "en otro caso" in spanish
    assert re.search(r"\bif\b", english) and "otherwise" in english


def _draw_button_names() -> dict[str, str]:
    """The Draw / Notes toggle's label in each language, as draw_toolbar.js names it."""
    source = (ROOT / "src" / "rankcards" / "web" / "draw_toolbar.js").read_text(encoding="utf-8")
    names = re.findall(r'toggle: "([^"]+)"', source)
    return {"es": names[0], "en": names[1]}


@pytest.mark.parametrize("slug", SLUGS)
def test_every_intuition_ends_pointing_to_the_draw_tool(slug):
    names = _draw_button_names()
    assert names == {"es": "Dibujar / Apuntes", "en": "Draw / Notes"}
    for lang, quoted in (("es", "«{}»"), ("en", '"{}"')):
        last = _card(slug)["intuition"][lang].strip().split("\n\n")[-1]
        assert last.startswith("💡") and quoted.format(names[lang]) in last, (slug, lang)


# Calques and symbols the house standard bans in Spanish, and the accent of Precisión.
BANNED_SPANISH = [r"\bvs\.?\b", r"&", r"\bbalance\b", r"\bde test\b", r"\bPrecision@"]


def _spanish_strings(value, path=()):
    if isinstance(value, dict):
        for key, child in value.items():
            if key == "en" or key in ("references", "source", "latex", "state"):
                continue
            yield from _spanish_strings(child, (*path, key))
    elif isinstance(value, list):
        for child in value:
            yield from _spanish_strings(child, path)
    elif isinstance(value, str) and "es" in path:
        yield ".".join(map(str, path)), value


@pytest.mark.parametrize("slug", SLUGS)
def test_spanish_text_avoids_calques(slug):
    for field, text in _spanish_strings(_card(slug)):
        for pattern in BANNED_SPANISH:
            assert not re.search(pattern, text), (slug, field, pattern, text)


@pytest.mark.parametrize("slug", SLUGS)
def test_spanish_states_the_decimal_point_once_where_it_writes_decimals(slug):
    card = _card(slug)
    spanish = " ".join(text for _, text in _spanish_strings(card))
    if re.search(r"\d\.\d", spanish):
        assert len(re.findall(r"punto\s+decimal|decimales\s+con\s+punto", spanish)) == 1, slug


def test_recall_uses_one_spanish_term_after_introducing_it():
    card = _card("recall-at-k")
    prose = " ".join([card["definition"]["es"], card["intuition"]["es"], *card["key_points"]["es"]])
    assert prose.count("exhaustividad (recall)") == 1
    # Apart from the introduction and the tools' notation (Recall@K, recall_k), no bare "recall".
    rest = prose.replace("exhaustividad (recall)", "")
    assert not re.search(r"(?<![@_\w])recall(?![@_])", rest, flags=re.I), rest
