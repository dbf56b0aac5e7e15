"""The built site: every card in both languages, working links, A-Z, search, atomic failures."""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
import shutil
from pathlib import Path

from site_project import search_index

from repo_paths import ROOT

SLUGS = ("alpha", "beta", "xss")
TITLES = {"en": ("Alpha", "Beta"), "es": ("Alfa", "Beta")}
_HREF = re.compile(r'<a href="([^"]+)" data-rc-(?:related|glossary)>')


def _page(site: Path, url: str) -> str:
    return (site / url / "index.html").read_text(encoding="utf-8")


def _resolves(site: Path, page_url: str, href: str) -> bool:
    target = posixpath.normpath(posixpath.join(page_url, href))
    return (site / target / "index.html").is_file()


def test_every_card_has_a_page_in_both_languages(built_site: Path) -> None:
    for lang in ("en", "es"):
        for slug in SLUGS:
            assert f'data-rc-card="{slug}" lang="{lang}"' in _page(built_site, f"{lang}/{slug}")
    alpha_es = _page(built_site, "es/alpha")
    assert "Definición de <strong>alfa</strong>" in alpha_es
    assert '<div class="rc-card__formula"><span class="katex-display">' in alpha_es
    assert "sum 6\n2.0\n</code>" in alpha_es  # output captured at build time


def test_related_and_referenced_by_links_resolve(built_site: Path) -> None:
    checked = 0
    for lang in ("en", "es"):
        for slug in SLUGS:
            for href in _HREF.findall(_page(built_site, f"{lang}/{slug}")):
                assert _resolves(built_site, f"{lang}/{slug}", href), (lang, slug, href)
                checked += 1
    assert checked == 2 * 4  # alpha->beta, beta->alpha, xss->alpha, alpha<-xss
    alpha = _page(built_site, "en/alpha")
    assert 'id="referenced-by"' in alpha and ">&lt;script&gt;alert(&#39;title&#39;)" in alpha


def test_glossary_lists_every_card_and_links_resolve(built_site: Path) -> None:
    for lang in ("en", "es"):
        glossary = _page(built_site, f"{lang}/glossary")
        hrefs = _HREF.findall(glossary)
        assert sorted(posixpath.basename(h.rstrip("/")) for h in hrefs) == sorted(SLUGS)
        assert all(_resolves(built_site, f"{lang}/glossary", href) for href in hrefs)
        for title in TITLES[lang]:
            assert f'>{title}</a> <span class="md-tag">' in glossary


def test_category_pages_and_navigation(built_site: Path) -> None:
    for lang in ("en", "es"):
        page = _page(built_site, f"{lang}/category/rank-aware")
        assert '<a href="../../alpha/">' in page
        assert (built_site / lang / "category" / "ground-truth" / "index.html").is_file()
    nav = _page(built_site, "en/beta")
    assert "Español" in nav and "Glossary A-Z" in nav


def test_language_switch_stays_on_the_same_card(built_site: Path) -> None:
    page = _page(built_site, "es/beta")
    assert '<a href="../../en/beta/" hreflang="en" class="md-select__link">' in page
    assert '<a href="./" hreflang="es" class="md-select__link">' in page
    # Spanish pages are Spanish for the browser and in Material's own interface strings.
    assert '<html lang="es"' in page and 'placeholder="Búsqueda"' in page
    assert '<html lang="en"' in _page(built_site, "en/beta")


def test_search_indexes_both_languages(built_site: Path) -> None:
    index = search_index(built_site)
    text = " ".join(doc["text"] for doc in index["docs"])
    assert "Definition of alpha" in text and "Definición de alfa" in text
    assert index["config"]["lang"] == ["en", "es"]


def test_assets_and_inputs(built_site: Path) -> None:
    assert (built_site / "assets" / "katex" / "katex.min.css").is_file()
    assert any((built_site / "assets" / "katex" / "fonts").glob("*.woff2"))
    schema = json.loads((built_site / "schema" / "card.schema.json").read_text())
    assert schema["title"] == "rankcards card"
    assert not list(built_site.rglob("*.jinja")) and not (built_site / "cards").exists()
    assert "window.location.replace" in (built_site / "index.html").read_text()


def _digest(directory: Path) -> dict[str, str]:
    return {
        str(path.relative_to(directory)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def test_a_broken_card_fails_the_build_and_leaves_site_untouched(
    built_site: Path, tmp_path: Path, project_tools
) -> None:
    make_project, mkdocs = project_tools
    project = make_project(tmp_path)
    shutil.copytree(built_site, project / "site")
    before = _digest(project / "site")
    broken = (project / "docs" / "cards" / "beta.yml").read_text()
    broken = broken.replace("  en: The beta card.\n", "")
    (project / "docs" / "cards" / "beta.yml").write_text(broken)
    result = mkdocs(project)
    assert result.returncode == 1
    assert (
        "docs/cards/beta.yml:8:3: summary: missing language 'en' (every text needs both es and en)"
        in result.stderr
    )
    assert "problem(s) in the cards" in result.stderr and "alpha.yml" not in result.stderr
    assert "Traceback" not in result.stderr
    assert _digest(project / "site") == before


def test_bundled_cards_build_strict(tmp_path: Path, project_tools) -> None:
    _, mkdocs = project_tools
    result = mkdocs(ROOT, "--site-dir", str(tmp_path / "site"))
    assert result.returncode == 0, result.stderr[-3000:]
    cards = sorted(path.stem for path in (ROOT / "docs" / "cards").glob("*.yml"))
    for lang in ("en", "es"):
        for slug in cards:
            assert (tmp_path / "site" / lang / slug / "index.html").is_file()


def test_missing_prerequisite_names_the_fix(tmp_path: Path, project_tools) -> None:
    make_project, mkdocs = project_tools
    project = make_project(tmp_path)
    config = project / "mkdocs.yml"
    config.write_text(config.read_text().replace("web_assets: false", "node_modules: nowhere"))
    result = mkdocs(project)
    assert result.returncode == 1
    assert f"rankcards: {project}/nowhere/katex not found: run `npm ci` in {project}" in (
        result.stderr
    )
    assert not (project / "site").exists()
