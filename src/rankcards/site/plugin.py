"""The ``rankcards`` MkDocs plugin: glue between MkDocs and :mod:`rankcards.site.generator`.

Everything is validated and rendered in ``on_config``, before MkDocs cleans or writes the site
directory, so an invalid card fails the build with its ``path:line:column`` problems and leaves
an existing ``site/`` untouched; under ``mkdocs serve`` the same failure is printed and the last
good build keeps being served. Pages are virtual files (``File.generated``), their HTML comes
from the generator (``on_page_content``), so Material's search indexes the card text: its prose
only (``rankcards.site._search``: no formula markup, demo view, code block or output), with a
page's tags on the page's own entry.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from types import ModuleType
from typing import Any

from markupsafe import escape
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page as MkDocsPage

import rankcards
from rankcards.cards import LANGS, CardError, KatexUnavailable, RenderedCard, build_cards
from rankcards.site._i18n import LANGUAGE_NAMES
from rankcards.site._options import SiteInputError, SiteOptions, locate_inputs
from rankcards.site._search import search_html, slim_index
from rankcards.site._sitemaps import write_language_sitemaps
from rankcards.site.generator import (
    HOME_MARKER,
    Page,
    TemplateProblem,
    navigation,
    render_site,
)

_KATEX_ASSETS = "assets/katex"
_DEFAULTS = SiteOptions()
log = logging.getLogger("mkdocs.plugins.rankcards")


class RankcardsConfig(base.Config):  # type: ignore[no-untyped-call]
    """Options of the ``rankcards`` plugin in ``mkdocs.yml``."""

    cards_dir = c.Type(str, default=_DEFAULTS.cards_dir)
    """Directory of the card YAML files, relative to ``docs_dir``."""
    templates_dir = c.Type(str, default=_DEFAULTS.templates_dir)
    """Directory of the Jinja templates (card, category, glossary), relative to mkdocs.yml;
    usually also the theme's ``custom_dir``."""
    node_modules = c.Type(str, default=_DEFAULTS.node_modules)
    """The npm install (KaTeX, Pyodide), relative to mkdocs.yml."""
    timeout = c.Type((int, float), default=_DEFAULTS.timeout)
    """Seconds each code example and demo may run at build time."""
    web_assets = c.Type(bool, default=_DEFAULTS.web_assets)
    """Copy the browser runtime (``rankcards.web``) into the site; off for quick text builds."""


class RankcardsPlugin(BasePlugin[RankcardsConfig]):  # type: ignore[no-untyped-call]
    """Generate card, category, glossary and evaluate pages in every language."""

    def __init__(self) -> None:
        self._pages: dict[str, Page] = {}
        self._home_cards: dict[str, str] = {}
        self._katex_dist: Path | None = None
        self._files: Files | None = None
        self._full_content: dict[str, str] = {}
        self._serving = False
        self._last_good: list[RenderedCard] | None = None

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defining this keeps one plugin instance across `mkdocs serve` rebuilds."""
        self._serving = command == "serve"

    def _root(self, config: MkDocsConfig) -> Path:
        return Path(config.config_file_path or ".").resolve().parent

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        options = SiteOptions(
            cards_dir=self.config.cards_dir,
            templates_dir=self.config.templates_dir,
            node_modules=self.config.node_modules,
            timeout=self.config.timeout,
            web_assets=self.config.web_assets,
        )
        try:
            templates, katex = locate_inputs(self._root(config), options)
        except SiteInputError as error:
            raise PluginError(f"rankcards: {error}") from None
        cards_dir = Path(config.docs_dir) / self.config.cards_dir
        try:
            rendered = build_cards(
                cards_dir,
                katex_dir=katex,
                timeout=self.config.timeout,
                cache_dir=self._root(config) / ".cache" / "rankcards-check",
            )
        except CardError as error:
            message = f"rankcards: {len(error.problems)} problem(s) in the cards:\n{error}"
            if self._last_good is None:
                raise PluginError(message) from None
            # Serving: report, and keep the last good cards so the reader's page stays up
            # (MkDocs would otherwise hold every request until the cards are fixed).
            log.error(f"{message}\nrankcards: serving the last good version of the cards")
            rendered = self._last_good
        except KatexUnavailable as error:
            raise PluginError(f"rankcards: {error}") from None
        try:
            self._pages, self._home_cards = render_site(rendered, templates)
        except TemplateProblem as error:
            raise PluginError(f"rankcards: {error}") from None
        if self._serving:
            self._last_good = rendered
        self._katex_dist = katex / "dist"
        config.nav = navigation(rendered, self._pages, Path(config.docs_dir))
        config.extra_css.insert(0, f"{_KATEX_ASSETS}/katex.min.css")
        self._add_web_assets(config)
        return config

    def _web(self) -> ModuleType | None:
        """``rankcards.web``, or None when ``web_assets`` is off or the browser runtime is not
        installed (it is optional for a text-only site)."""
        if not self.config.web_assets:
            return None
        try:
            from rankcards import web
        except ImportError:
            return None
        return web

    def _add_web_assets(self, config: MkDocsConfig) -> None:
        web = self._web()
        if web is None:
            return
        scripts, styles = web.page_assets()
        config.extra_css.extend(styles)
        for script in scripts:
            value = c.ExtraScriptValue(script)
            value.type = "module"
            config.extra_javascript.append(value)

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        cards_prefix = self.config.cards_dir.strip("/") + "/"
        for file in list(files):
            # Template sources (custom_dir) and card YAML are inputs, not site content.
            if file.src_uri.endswith(".jinja") or file.src_uri.startswith(cards_prefix):
                files.remove(file)
        for page in self._pages.values():
            if files.get_file_from_path(page.src_uri) is not None:
                raise PluginError(f"rankcards: docs/{page.src_uri} clashes with a generated page")
            # MkDocs themes print page titles unescaped (<title>, header, nav): escape here.
            # Tags feed Material's search index only (its tags plugin, which would print them,
            # is not enabled): a card is found by its names in every language.
            front_matter = f"---\ntitle: {json.dumps(str(escape(page.title)))}\n"
            if page.search_tags:
                front_matter += f"tags: {json.dumps(list(page.search_tags), ensure_ascii=False)}\n"
            front_matter += "---\n"
            files.append(File.generated(config, page.src_uri, content=front_matter))
        dist = self._katex_dist
        if dist is None:
            raise PluginError("rankcards: on_files ran before on_config (plugin order)")
        for path in [*sorted(dist.glob("fonts/*")), dist / "katex.min.css"]:
            uri = f"{_KATEX_ASSETS}/{path.relative_to(dist).as_posix()}"
            files.append(File.generated(config, uri, abs_src_path=str(path)))
        self._files = files
        return files

    def on_page_markdown(
        self, markdown: str, *, page: MkDocsPage, config: MkDocsConfig, files: Files
    ) -> str:
        """Home pages list the cards where they say ``<!-- rankcards:cards -->``."""
        lang, _, rest = page.file.src_uri.partition("/")
        if rest == "index.md" and lang in self._home_cards:
            return markdown.replace(HOME_MARKER, self._home_cards[lang])
        return markdown

    def on_page_content(
        self, html: str, *, page: MkDocsPage, config: MkDocsConfig, files: Files
    ) -> str:
        generated = self._pages.get(page.file.src_uri)
        return generated.html if generated else html

    def _lighten_for_search(
        self, context: dict[str, Any], *, page: MkDocsPage, config: MkDocsConfig, nav: Any
    ) -> dict[str, Any]:
        """Before the search plugin reads ``page.content``: give it prose, not markup or code."""
        if page.content:
            self._full_content[page.file.src_uri] = page.content
            page.content = search_html(page.content)
        return context

    def _page_context(
        self, context: dict[str, Any], *, page: MkDocsPage, config: MkDocsConfig, nav: Any
    ) -> dict[str, Any]:
        """After search: restore the full page and set the per-page language switcher."""
        full = self._full_content.pop(page.file.src_uri, None)
        if full is not None:
            page.content = full
        lang, _, rest = page.file.src_uri.partition("/")
        if lang in LANGS and rest:
            context["rc_lang"] = lang
            context["rc_alternates"] = [
                {
                    "name": LANGUAGE_NAMES[other],
                    "lang": other,
                    "link": self._counterpart(other, rest, self._files),
                }
                for other in LANGS
            ]
        return context

    on_page_context = CombinedEvent(
        event_priority(100)(_lighten_for_search), event_priority(-100)(_page_context)
    )

    @staticmethod
    def _counterpart(lang: str, rest: str, files: Files | None) -> str:
        """URL of the same page in ``lang`` (the home page when it has no counterpart)."""
        file = files.get_file_from_path(f"{lang}/{rest}") if files is not None else None
        return file.url if file is not None else f"{lang}/"

    def on_post_page(self, output: str, *, page: MkDocsPage, config: MkDocsConfig) -> str:
        """Material's search worker and its bundle wait while the Python runtime boots
        (rankcards.web)."""
        web = self._web()
        return web.defer_theme(web.gate_search(output)) if web is not None else output

    def on_serve(self, server: Any, *, config: MkDocsConfig, builder: Any) -> Any:
        root = self._root(config)
        server.watch(str(root / self.config.templates_dir))
        server.watch(str(Path(rankcards.__file__).parent))
        return server

    @event_priority(-100)  # after the search plugin has written its index
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        index = Path(config.site_dir) / "search" / "search_index.json"
        if index.is_file():
            index.write_text(slim_index(index.read_text(encoding="utf-8")), encoding="utf-8")
        web = self._web()
        if web is not None:
            if index.is_file():
                web.defer_search_docs(Path(config.site_dir))  # the gate (on_post_page) fetches them
            try:
                web.write_assets(Path(config.site_dir), config)
            except web.WebAssetsError as error:
                raise PluginError(f"rankcards: {error}") from None
        write_language_sitemaps(Path(config.site_dir), LANGS)
        self._reset()

    def on_build_error(self, *, error: Exception) -> None:
        self._reset()

    def _reset(self) -> None:
        """Drop per-build state, so a `mkdocs serve` rebuild starts clean."""
        self._pages = {}
        self._home_cards = {}
        self._files = None
        self._full_content = {}
