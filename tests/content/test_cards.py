"""Every card of docs/cards: valid for `rankcards check`, and complete on its generated pages.

Every rule about a card (both languages, counts, tags, a demo, the intuition's pointer, the toy
example, related slugs, what the example prints, stated numbers) is `rankcards check`'s, so it
holds for every card, now and later: the first test runs it. The rest checks what only the pages
show. The pages are generated with the real templates (the pure generator, no MkDocs) from the
cards as `build_cards` renders them, i.e. after KaTeX and after running every example and demo.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
import yaml

from rankcards.site.generator import generate, template_environment
from repo_paths import CARDS, ROOT

SLUGS = sorted(path.stem for path in CARDS.glob("*.yml"))
SECTIONS = ["definition", "key-points", "intuition", "demo", "example", "related"]


def _card(slug: str) -> dict:
    return yaml.safe_load((CARDS / f"{slug}.yml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def pages(bundled_cards) -> dict:
    return generate(bundled_cards, template_environment(ROOT / "templates"))


def _check_output() -> str:
    done = subprocess.run(
        [sys.executable, "-m", "rankcards", "check", str(CARDS)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stderr


def test_rankcards_check_holds_every_bundled_card():
    """The list is the directory's: a new card is checked with no list of slugs to keep."""
    assert SLUGS
    assert re.search(rf"\b{len(SLUGS)} cards OK", _check_output())


def test_spanish_terminology_of_the_seed_card_is_kept():
    assert _card("recall-at-k")["title"]["es"] == "Recall @ K (Exhaustividad)"
    assert "Llegar en 1º lugar te da 100 puntos" in _card("mrr")["intuition"]["es"]
    assert _card("gold-dataset")["summary"]["es"].startswith("Conjunto de referencia")


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("slug", SLUGS)
def test_every_section_is_on_the_page(pages, slug, lang):
    html = pages[f"{lang}/{slug}.md"].html
    card = _card(slug)
    sections = SECTIONS + (["formula"] if "formula" in card else [])
    assert all(f'id="{section}"' in html for section in sections), slug
    assert 'class="admonition warning rc-card__gotchas"' in html
    assert html.count("<li") >= len(card["gotchas"][lang]) + len(card["key_points"][lang])
    assert "data-rc-demo" in html and "data-rc-example" in html
    if "formula" in card:
        assert "katex" in html  # the formula was rendered at build time
    for ref in card["references"]:
        assert ref["url"].replace("&", "&amp;") in html
