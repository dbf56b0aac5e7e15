"""The site built by Zensical from ``rankcards site-sources`` publishes what the MkDocs build
publishes: every page in both languages with the same content, each in its language with the
language selector on its counterpart, every page in search; and the command keeps its promises
(one-line errors, an invalid card changes nothing, a folder not its own is left alone).

The fixture project of tests/site (its cards, no browser runtime) is built both ways; the real
site in the browser: tests/browser/test_zensical.py.
"""

from __future__ import annotations

import json
import posixpath
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ci_gate import require_module
from rankcards.site.sources import MARKER, _relinked, _source_path

SLUGS = ("alpha", "beta", "xss")


def _site_sources(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rankcards.cli", "site-sources", *args],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture(scope="module")
def zensical_project(tmp_path_factory: pytest.TempPathFactory, project_tools) -> Path:
    """The fixture project with its sources written (``sources/``) and built by Zensical."""
    require_module("zensical", "pip install -e '.[zensical]'")
    make_project, _ = project_tools
    project = make_project(tmp_path_factory.mktemp("zensical-project"))
    done = _site_sources(project, "sources")
    assert done.returncode == 0, done.stderr
    built = subprocess.run(
        [sys.executable, "-m", "zensical", "build", "--clean", "--strict"],
        cwd=project / "sources",
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    assert "No issues found" in built.stdout + built.stderr  # every link resolved
    return project


def _pages(site: Path) -> set[str]:
    return {path.parent.relative_to(site).as_posix() for path in site.rglob("index.html")}


def _content(html: str) -> list[str]:
    """The page's content as both themes wrap it, line by line without indentation: from the
    article to the end of the page's main part, without what differs by engine (the footer's
    "made with", Zensical's skip anchor and its hidden search tags)."""
    start = html.index('<article class="md-content__inner md-typeset">')
    body = html[start : html.index('<footer class="md-footer">', start)]
    body = re.sub(r'<nav class="md-tags" hidden>.*?</nav>', "", body, flags=re.S)
    body = body.replace('<a id="__skip" tabindex="-1"></a>', "")
    return [line.strip() for line in body.splitlines() if line.strip()]


def _language(html: str) -> tuple[str, list[tuple[str, str]], str]:
    """The page's language, its language selector's (link, language) pairs, its title."""
    lang = re.search(r'<html lang="([^"]+)"', html)
    title = re.search(r"<title>(.*?)</title>", html)
    links = re.findall(r'<a href="([^"]+)" hreflang="(\w+)" class="md-select__link"', html)
    # Zensical writes "./en/" and "././" where MkDocs writes "en/" and "./": the same targets.
    links = [(posixpath.normpath(link), target) for link, target in links]
    return (lang.group(1) if lang else "", links, title.group(1) if title else "")


def test_every_page_is_published_with_the_same_content(built_site, zensical_project) -> None:
    zensical_site = zensical_project / "sources" / "site"
    pages = _pages(built_site)
    assert _pages(zensical_site) == pages
    for lang in ("en", "es"):
        assert {f"{lang}/{slug}" for slug in SLUGS} | {f"{lang}/glossary"} <= pages
    for url in sorted(pages):
        mkdocs = (built_site / url / "index.html").read_text(encoding="utf-8")
        zensical = (zensical_site / url / "index.html").read_text(encoding="utf-8")
        assert _content(zensical) == _content(mkdocs), url
        assert _language(zensical) == _language(mkdocs), url


def test_spanish_pages_are_spanish_and_link_their_english_counterpart(zensical_project) -> None:
    page = (zensical_project / "sources/site/es/alpha/index.html").read_text(encoding="utf-8")
    lang, links, _ = _language(page)
    assert lang == "es"
    assert ("../../en/alpha", "en") in links
    assert (
        '<div class="md-search" data-md-component="search" role="dialog" aria-label="Buscar">'
        in (page)
    )  # the theme's own strings in the page's language


def test_search_indexes_every_page_and_finds_cards_by_their_other_names(zensical_project) -> None:
    index = json.loads((zensical_project / "sources/site/search.json").read_text("utf-8"))
    located = {item["location"] for item in index["items"]}
    for lang in ("en", "es"):
        for slug in SLUGS:
            assert f"{lang}/{slug}/" in located
    alpha = next(item for item in index["items"] if item["location"] == "en/alpha/")
    assert {"Alpha", "Alfa"} <= set(alpha["tags"])  # found by its Spanish name too


def test_language_sitemaps_list_their_languages_pages(zensical_project) -> None:
    for lang in ("en", "es"):
        sitemap = (zensical_project / f"sources/site/{lang}/sitemap.xml").read_text("utf-8")
        locs = re.findall(r"<loc>([^<]+)</loc>", sitemap)
        assert f"https://rankcards.github.io/rankcards/{lang}/alpha/" in locs
        assert all(f"/rankcards/{lang}/" in loc for loc in locs)


def test_a_card_problem_changes_nothing_and_names_the_file(zensical_project) -> None:
    before = (zensical_project / "sources/mkdocs.yml").read_text(encoding="utf-8")
    card = zensical_project / "docs/cards/xss.yml"
    text = card.read_text(encoding="utf-8")
    card.write_text(text.replace("slug: xss", "slug: xss\nunknown_field: 1", 1), "utf-8")
    try:
        done = _site_sources(zensical_project, "sources")
    finally:
        card.write_text(text, encoding="utf-8")
    assert done.returncode == 1
    assert re.search(r"docs/cards/xss\.yml:\d+:\d+: .*unknown_field", done.stdout), done.stdout
    assert (zensical_project / "sources/mkdocs.yml").read_text(encoding="utf-8") == before
    assert not list(zensical_project.glob(".sources.staging-*"))


def test_a_folder_it_did_not_write_is_left_alone(zensical_project, tmp_path) -> None:
    mine = tmp_path / "notes"
    mine.mkdir()
    (mine / "keep.txt").write_text("mine", encoding="utf-8")
    done = _site_sources(zensical_project, str(mine))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"rankcards site-sources: {mine} is not empty and was not written by site-sources"
    )
    assert (mine / "keep.txt").read_text(encoding="utf-8") == "mine"
    assert (zensical_project / "sources" / MARKER).is_file()


def test_a_missing_config_is_a_usage_error(tmp_path) -> None:
    done = _site_sources(tmp_path, "out", "-f", "nowhere.yml")
    assert done.returncode == 2
    assert done.stderr.strip() == "rankcards site-sources: nowhere.yml: no such file"


def test_generated_pages_sit_where_their_links_resolve() -> None:
    assert _source_path("en/mrr.md") == "en/mrr/index.md"
    assert _source_path("en/category/set-based/index.md") == "en/category/set-based/index.md"
    rename = {"en/mrr.md": "en/mrr/index.md", "en/glossary.md": "en/glossary/index.md"}
    markdown = (
        "[MRR](mrr.md), [MRR@k](mrr.md#cutoff), [about](contributing.md), "
        "[web](https://x.org/mrr.md)\n[gloss]: glossary.md\n"
    )
    assert _relinked(markdown, "en/index.md", rename) == (
        "[MRR](mrr/index.md), [MRR@k](mrr/index.md#cutoff), [about](contributing.md), "
        "[web](https://x.org/mrr.md)\n[gloss]: glossary/index.md\n"
    )
