"""The site's sources for an engine that runs no MkDocs plugin: ``rankcards site-sources OUTDIR``.

Zensical, the successor of Material for MkDocs, reads a Material-style ``mkdocs.yml`` but runs
no MkDocs plugins, and every rankcards page comes from the ``rankcards`` plugin. The function
:func:`write_sources` does before the build what the plugin does during one, with the same
generator (:mod:`rankcards.site.generator`) and the same browser runtime (:mod:`rankcards.web`),
into a project folder that a Material-compatible engine builds as it is::

    OUTDIR/mkdocs.yml  the project's config without the rankcards plugin: docs_dir docs,
                       theme.custom_dir overrides, the navigation written out, KaTeX's and the
                       runtime's style sheets and ES modules in extra_css / extra_javascript
    OUTDIR/docs/       the hand-written pages (the home pages with their card lists), one
                       Markdown file per generated page (front matter, then the page's HTML),
                       KaTeX's CSS and fonts, the browser runtime (Pyodide, the stdlib zip, the
                       package archive, the snapshot, CodeMirror, the ES modules, the search
                       gate beside the theme's search worker) and one sitemap per language
    OUTDIR/overrides/  the theme overrides: the page's language and the language selector's
                       links (from each page's front matter, ``rc_lang`` and ``rc_alternates``)
                       and main.html, which starts the search worker through the gate

Then ``cd OUTDIR && zensical build`` (what ``make build-zensical`` runs). What the plugin does
that no source can: search indexes each page's full HTML (the plugin gives Material's index the
formulas as TeX and no demo view, ``_search.search_html``), and a card edited under
``zensical serve`` shows once ``site-sources`` has run again (``mkdocs serve`` rebuilds it).
The cards' other names reach search as each page's ``tags`` (hidden on the page, as in the
MkDocs build); Zensical's search dialog also offers them as filters.

OUTDIR is written beside itself and swapped in at the end, so an invalid card or a failed step
leaves the previous sources as they were; only a folder this function wrote (or an empty one)
is replaced.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml
from markupsafe import escape

from rankcards.cards import LANGS, build_cards
from rankcards.site._i18n import LANGUAGE_NAMES
from rankcards.site._options import SiteInputError, SiteOptions, locate_inputs
from rankcards.site._sitemaps import language_sitemap
from rankcards.site.generator import HOME_MARKER, navigation, render_site

__all__ = ["SourcesError", "write_sources"]

# Written in OUTDIR: a later run may replace a folder that holds it, and no other.
MARKER = ".rankcards-sources"
# The theme overrides of templates_dir both engines use; partials/search.html is Material 9's
# own dialog markup (Zensical draws a different one) and stays with the MkDocs build.
SHARED_OVERRIDES = ("partials/alternate.html", "partials/language.html")
_GATE_OVERRIDE = Path(__file__).parent / "overrides" / "main.html"
_KATEX_ASSETS = "assets/katex"
_FRONT_MATTER = "---\n"


class SourcesError(Exception):
    """A step that cannot be done; the one-line message says why and what to do."""


def _load_config(config_file: Path) -> dict[str, Any]:
    try:
        text = config_file.read_text(encoding="utf-8")
    except OSError as error:
        raise SourcesError(f"{config_file}: {error.strerror}") from None
    try:
        config = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"{config_file}:{mark.line + 1}" if mark is not None else str(config_file)
        problem = getattr(error, "problem", None) or error
        raise SourcesError(f"{where}: {problem}") from None
    if not isinstance(config, dict):
        raise SourcesError(f"{config_file}: not a mapping of settings")
    return config


def _split_plugins(config: dict[str, Any]) -> tuple[SiteOptions, list[Any]]:
    """The rankcards plugin's options, and the config's other plugin entries."""
    options: SiteOptions | None = None
    others = []
    for entry in config.get("plugins") or []:
        name = entry if isinstance(entry, str) else next(iter(entry), None)
        if name == "rankcards":
            settings = entry["rankcards"] if isinstance(entry, dict) else None
            options = SiteOptions.from_plugin_entry(settings or {})
        else:
            others.append(entry)
    if options is None:
        raise SourcesError("mkdocs.yml lists no `rankcards` plugin: nothing to generate")
    return options, others


def _page_url(src_uri: str) -> str:
    """``en/mrr.md`` -> ``en/mrr/``, ``en/index.md`` -> ``en/`` (directory URLs)."""
    stem = src_uri.removesuffix(".md")
    folder, _, name = stem.rpartition("/")
    return f"{folder}/" if name in {"index", "README"} else f"{stem}/"


def _source_path(src_uri: str) -> str:
    """Where a generated page's Markdown goes: ``en/mrr.md`` -> ``en/mrr/index.md``.

    The generator links pages relative to their URL (``en/mrr/``); an engine that resolves the
    links of a page's HTML from its source file (Zensical does) then finds the same targets.
    """
    stem, _, name = src_uri.removesuffix(".md").rpartition("/")
    return src_uri if name == "index" else f"{stem}/{name}/index.md"


# A Markdown link's target: inline ``](target)`` or a reference definition ``[id]: target``.
_LINK_TARGET = re.compile(r"(\]\(|^\s{0,3}\[[^\]]+\]:\s*)([^)\s#]+\.md)(?=[)#\s]|$)", re.M)


def _relinked(markdown: str, src_uri: str, rename: dict[str, str]) -> str:
    """``markdown`` (the page ``src_uri``) with its links to the renamed pages following them:
    ``[MRR](mrr.md)`` on ``en/index.md`` becomes ``[MRR](mrr/index.md)``."""
    folder = posixpath.dirname(src_uri)

    def follow(match: re.Match[str]) -> str:
        target = posixpath.normpath(posixpath.join(folder, match.group(2)))
        if target not in rename:
            return match.group(0)
        return match.group(1) + posixpath.relpath(rename[target], folder or ".")

    return _LINK_TARGET.sub(follow, markdown)


def _renamed(nav: Any, rename: dict[str, str]) -> Any:
    """``nav`` with each page path in ``rename`` replaced by its new path."""
    if isinstance(nav, str):
        return rename.get(nav, nav)
    if isinstance(nav, list):
        return [_renamed(item, rename) for item in nav]
    return {title: _renamed(value, rename) for title, value in nav.items()}


def _with_front_matter(text: str, fields: dict[str, Any]) -> str:
    """``text`` (Markdown, with or without front matter) with ``fields`` added to its front
    matter; JSON is YAML, and keeps every title exactly as written."""
    meta: dict[str, Any] = {}
    if text.startswith(_FRONT_MATTER):
        head, separator, body = text[len(_FRONT_MATTER) :].partition(f"\n{_FRONT_MATTER}")
        if separator:
            meta, text = yaml.safe_load(head) or {}, body
    meta.update(fields)
    lines = "".join(
        f"{key}: {json.dumps(value, ensure_ascii=False)}\n" for key, value in meta.items()
    )
    return f"{_FRONT_MATTER}{lines}{_FRONT_MATTER}{text}"


def _language_fields(src_uri: str, pages: Iterable[str]) -> dict[str, Any]:
    """The front matter the overrides read on a page of a language: its language, and the same
    page in each language (the home page of a language that lacks it)."""
    lang, _, rest = src_uri.partition("/")
    known = set(pages)
    alternates = [
        {
            "name": LANGUAGE_NAMES[other],
            "lang": other,
            "link": _page_url(f"{other}/{rest}") if f"{other}/{rest}" in known else f"{other}/",
        }
        for other in LANGS
    ]
    return {"rc_lang": lang, "rc_alternates": alternates}


def _copy_docs(docs_dir: Path, cards_dir: Path, target: Path) -> None:
    """The hand-written docs: everything in ``docs_dir`` but the card YAML."""

    def ignore(folder: str, names: list[str]) -> list[str]:
        return [name for name in names if Path(folder, name).resolve() == cards_dir.resolve()]

    shutil.copytree(docs_dir, target, ignore=ignore)


def _write_runtime(docs: Path, config_file: Path, extra: Any) -> tuple[list[str], list[str]]:
    """The browser runtime under ``docs/assets``; its page scripts and styles (site-relative)."""
    try:
        from rankcards import web
    except ImportError:  # the runtime is optional for a text-only site, as in the plugin
        return [], []
    try:
        web.write_assets(docs, {"config_file_path": str(config_file), "extra": extra})
    except web.WebAssetsError as error:
        raise SourcesError(str(error)) from None
    return web.page_assets()


def _snippet_base_paths(extensions: list[Any], root: Path) -> list[Any]:
    """``markdown_extensions`` with pymdownx.snippets' base paths made absolute: MkDocs reads
    them from the project folder, the sources' engine runs in OUTDIR."""
    for entry in extensions:
        if isinstance(entry, dict) and isinstance(entry.get("pymdownx.snippets"), dict):
            settings = entry["pymdownx.snippets"]
            paths = settings.get("base_path", ["."])
            paths = [paths] if isinstance(paths, str) else paths
            settings["base_path"] = [str((root / path).resolve()) for path in paths]
    return extensions


def write_sources(config_file: Path, out_dir: Path, *, site_dir: str = "site") -> int:
    """Write the sources of the site that ``config_file`` (a ``mkdocs.yml`` listing the
    ``rankcards`` plugin) describes into ``out_dir``, for an engine without the plugin that
    builds into ``out_dir/site_dir``. Returns the number of generated pages.

    Raises :class:`SourcesError` (a missing input, a wrong option, ``out_dir`` not ours),
    ``rankcards.cards.CardError`` (the cards' problems) or ``KatexUnavailable``.
    """
    config_file = config_file.resolve()
    root = config_file.parent
    out_dir = out_dir.resolve()
    if out_dir.exists() and any(out_dir.iterdir()) and not (out_dir / MARKER).is_file():
        raise SourcesError(f"{out_dir} is not empty and was not written by site-sources")
    config = _load_config(config_file)
    try:
        options, other_plugins = _split_plugins(config)
        templates, katex = locate_inputs(root, options)
    except SiteInputError as error:
        raise SourcesError(str(error)) from None
    docs_dir = root / config.get("docs_dir", "docs")
    if out_dir.is_relative_to(docs_dir.resolve()):
        raise SourcesError(f"{out_dir} is inside docs_dir {docs_dir}: choose another folder")
    cards_dir = docs_dir / options.cards_dir
    rendered = build_cards(cards_dir, katex_dir=katex, timeout=options.timeout)
    pages, home_cards = render_site(rendered, templates)

    staging = out_dir.with_name(f".{out_dir.name}.staging-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        docs = staging / "docs"
        _copy_docs(docs_dir, cards_dir, docs)
        hand_written = {
            path.relative_to(docs).as_posix()
            for lang in LANGS
            for path in (docs / lang).rglob("*.md")
        }
        every_page = hand_written | set(pages)
        rename = {uri: _source_path(uri) for uri in pages}
        for src_uri in sorted(hand_written):
            path = docs / src_uri
            text = _relinked(path.read_text(encoding="utf-8"), src_uri, rename)
            lang, _, rest = src_uri.partition("/")
            if rest == "index.md":
                text = text.replace(HOME_MARKER, home_cards[lang])
            fields = _language_fields(src_uri, every_page)
            path.write_text(_with_front_matter(text, fields), encoding="utf-8")
        for page in pages.values():
            path = docs / _source_path(page.src_uri)
            if page.src_uri in hand_written or path.exists():
                raise SourcesError(f"docs/{page.src_uri} clashes with a generated page")
            # Titles escaped as the plugin does: themes print them unescaped.
            fields: dict[str, Any] = {"title": str(escape(page.title))}
            if page.search_tags:
                # For search only, as in the MkDocs build: the theme would print them.
                fields |= {"tags": list(page.search_tags), "hide": ["tags"]}
            fields |= _language_fields(page.src_uri, every_page)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(_with_front_matter(page.html, fields), encoding="utf-8")

        dist = katex / "dist"
        for asset in [dist / "katex.min.css", *sorted(dist.glob("fonts/*"))]:
            target = docs / _KATEX_ASSETS / asset.relative_to(dist)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(asset, target)
        scripts, styles = (
            _write_runtime(docs, config_file, config.get("extra"))
            if options.web_assets
            else ([], [])
        )
        site_url = config.get("site_url")
        if site_url:
            for lang in LANGS:
                urls = sorted(_page_url(uri) for uri in every_page if uri.startswith(f"{lang}/"))
                (docs / lang / "sitemap.xml").write_text(
                    language_sitemap(site_url, urls), encoding="utf-8"
                )

        overrides = staging / "overrides"
        for name in SHARED_OVERRIDES:
            if (templates / name).is_file():
                (overrides / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(templates / name, overrides / name)
        if scripts:
            shutil.copyfile(_GATE_OVERRIDE, overrides / "main.html")

        theme = dict(config.get("theme") or {})
        theme["custom_dir"] = "overrides"
        # Zensical's look closest to Material's (its own default is "modern"); other engines
        # ignore the setting.
        theme.setdefault("variant", "classic")
        config |= {
            "docs_dir": "docs",
            "site_dir": site_dir,
            "theme": theme,
            "plugins": other_plugins,
            "nav": _renamed(navigation(rendered, pages, docs_dir), rename),
            "extra_css": [
                f"{_KATEX_ASSETS}/katex.min.css",
                *(config.get("extra_css") or []),
                *styles,
            ],
            "extra_javascript": [
                *(config.get("extra_javascript") or []),
                *({"path": script, "type": "module"} for script in scripts),
            ],
            "markdown_extensions": _snippet_base_paths(
                list(config.get("markdown_extensions") or []), root
            ),
        }
        (staging / "mkdocs.yml").write_text(
            "# Written by `rankcards site-sources` from "
            f"{config_file.name}: edit that file, not this one.\n"
            + yaml.safe_dump(config, sort_keys=False, allow_unicode=True),
            encoding="utf-8",
        )
        (staging / MARKER).write_text(f"{config_file}\n", encoding="utf-8")
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if out_dir.exists():
        shutil.rmtree(out_dir)
    staging.rename(out_dir)
    return len(pages)
