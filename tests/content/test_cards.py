"""The five first cards: valid for `rankcards check`, complete in both languages, one toy example.

The pages are generated with the real templates (the pure generator, no MkDocs) from the cards
as `build_cards` renders them, i.e. after KaTeX and after running every example and demo.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rankcards.cards import build_cards
from rankcards.demos.toy import toy_state
from rankcards.site.generator import generate, template_environment

ROOT = Path(__file__).resolve().parents[2]
CARDS = ROOT / "docs" / "cards"
SLUGS = ["mrr", "hit-rate-at-k", "recall-at-k", "gold-dataset", "index-benchmarking"]
SECTIONS = ["definition", "key-points", "intuition", "formula", "demo", "example", "related"]
TEXT_FIELDS = ["title", "summary", "definition", "intuition"]
LIST_FIELDS = ["key_points", "gotchas"]


def _card(slug: str) -> dict:
    return yaml.safe_load((CARDS / f"{slug}.yml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def pages() -> dict:
    cards = build_cards(CARDS)
    return generate(cards, template_environment(ROOT / "templates"))


def test_rankcards_check_passes_on_the_bundled_cards():
    done = subprocess.run(
        [sys.executable, "-m", "rankcards", "check", str(CARDS)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"\d+ cards OK", done.stderr)


@pytest.mark.parametrize("slug", SLUGS)
def test_both_languages_have_every_text_and_the_same_number_of_items(slug):
    card = _card(slug)
    for field in TEXT_FIELDS:
        assert card[field]["es"].strip() and card[field]["en"].strip(), field
        assert card[field]["es"] != card[field]["en"] or field == "title", field
    for field in LIST_FIELDS:
        assert len(card[field]["es"]) == len(card[field]["en"]) >= 3, field
    assert len(card["references"]) >= 4
    assert all(ref["url"].startswith("https://") for ref in card["references"])


@pytest.mark.parametrize("slug", SLUGS)
def test_related_are_the_other_four_first_cards(slug):
    assert sorted(_card(slug)["related"]) == sorted(set(SLUGS) - {slug})


def test_spanish_terminology_of_the_seed_card_is_kept():
    assert _card("recall-at-k")["title"]["es"] == "Recall @ K (Exhaustividad)"
    assert "Llegar en 1º lugar te da 100 puntos" in _card("mrr")["intuition"]["es"]
    assert _card("gold-dataset")["summary"]["es"].startswith("Conjunto de referencia")


@pytest.mark.parametrize("slug", ["mrr", "hit-rate-at-k", "recall-at-k"])
def test_metric_cards_start_from_the_shared_toy_example(slug):
    card = _card(slug)
    assert card["demo"]["state"]["queries"] == toy_state()
    for lang in ("es", "en"):
        assert "from rankcards.demos.toy import" in card["code"]["source"][lang]


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("slug", SLUGS)
def test_every_section_is_on_the_page(pages, slug, lang):
    html = pages[f"{lang}/{slug}.md"].html
    assert all(f'id="{section}"' in html for section in SECTIONS), slug
    card = _card(slug)
    assert 'class="admonition warning rc-card__gotchas"' in html
    assert html.count("<li") >= len(card["gotchas"][lang]) + len(card["key_points"][lang])
    assert "data-rc-demo" in html and "data-rc-example" in html
    assert "katex" in html  # the formula was rendered at build time
    for ref in card["references"]:
        assert ref["url"].replace("&", "&amp;") in html


@pytest.mark.parametrize("slug", SLUGS)
def test_build_time_example_output_is_meaningful(pages, slug):
    html = pages[f"en/{slug}.md"].html
    output = re.search(r"data-rc-output[^>]*>(.*?)</", html, re.S)
    assert output and len(output.group(1).strip().splitlines()) >= 3, slug
    assert "Traceback" not in output.group(1)
