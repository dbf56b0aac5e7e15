"""The generator is a pure function of rendered cards and templates, usable without MkDocs."""

from __future__ import annotations

from rankcards.cards import build_cards
from rankcards.site import generate, navigation, template_environment
from repo_paths import ROOT

CARDS = ROOT / "tests" / "cards" / "fixtures" / "ok"


def test_generate_pages_and_navigation_without_mkdocs() -> None:
    cards = build_cards(CARDS, timeout=5)
    pages = generate(cards, template_environment(ROOT / "templates"))
    expected = {f"{lang}/{slug}.md" for lang in ("en", "es") for slug in ("alpha", "beta")}
    assert expected <= set(pages)
    assert {"en/glossary.md", "es/glossary.md", "en/category/set-based/index.md"} <= set(pages)
    alpha = pages["es/alpha.md"]
    assert (alpha.url, alpha.title, alpha.lang) == ("es/alpha/", "Alfa", "es")
    assert '<a href="../beta/" data-rc-related>Beta</a>' in alpha.html
    beta = pages["en/beta.md"]
    assert (
        'class="rc-card__category" href="../category/set-based/">Set-based measures<' in beta.html
    )
    nav = navigation(cards, pages)
    assert [next(iter(section)) for section in nav] == ["English", "Español"]
    english = nav[0]["English"]
    assert english[0] == {"Home": "en/index.md"}
    assert {
        "Rank-aware measures": ["en/category/rank-aware/index.md", {"Alpha": "en/alpha.md"}]
    } in (english)
    assert {"Glossary A-Z": "en/glossary.md"} in english
