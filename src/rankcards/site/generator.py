"""Cards -> pages: a pure function of the rendered cards and the Jinja templates.

No MkDocs here (the plugin is the adapter), so the generator can be called by tests, scripts or
another static-site tool. Page bodies are HTML; links between generated pages are relative to
each page's directory URL (``en/mrr/`` -> ``../recall-at-k/``) so the site works under any base
path (GitHub Pages serves it from ``/<repository>/``).
"""

from __future__ import annotations

import posixpath
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import escape

from rankcards.cards import LANGS, RenderedCard
from rankcards.site._i18n import (
    CATEGORY_GUIDES,
    CATEGORY_INTROS,
    CATEGORY_ORDER,
    CATEGORY_PATHS,
    CATEGORY_TITLES,
    EXERCISE_STRINGS,
    LANGUAGE_NAMES,
    STRINGS,
)
from rankcards.site._search import glossary_aliases, search_terms

EVALUATE_TEMPLATE = "evaluate.html.jinja"


@dataclass(frozen=True)
class Page:
    """One generated page: ``src_uri`` (``en/mrr.md``), directory ``url`` (``en/mrr/``).

    ``search_tags`` are the words search should find the page by beyond its text (a card's
    names in every language, its abbreviation, its tags); the plugin hands them to Material's
    search index as the page's ``tags``.
    """

    src_uri: str
    url: str
    lang: str
    title: str
    html: str
    search_tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Link:
    """A link as templates print it (``category``: the title of the card's category, if shown;
    ``see``: for a glossary entry that is another name of a card, that card's title)."""

    url: str
    title: str
    summary: str = ""
    category: str = ""
    see: str = ""


def template_environment(templates_dir: Path) -> jinja2.Environment:
    """The Jinja environment of card templates: autoescaping on; an optional field that is
    absent (``control.help``) is simply empty, as in MkDocs' own templates."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir), autoescape=True, keep_trailing_newline=True
    )


def card_url(lang: str, slug: str) -> str:
    return f"{lang}/{slug}/"


def category_url(lang: str, category: str) -> str:
    return f"{lang}/category/{category}/"


def _relative(from_url: str, to_url: str) -> str:
    """``en/category/x/`` -> ``en/mrr/`` gives ``../../mrr/``."""
    return posixpath.relpath(to_url, from_url.rstrip("/") or ".") + "/"


def _sort_key(title: str) -> str:
    folded = unicodedata.normalize("NFKD", title.casefold())
    return "".join(char for char in folded if not unicodedata.combining(char))


def _by_title(cards: list[RenderedCard], lang: str) -> list[RenderedCard]:
    return sorted(cards, key=lambda card: _sort_key(card.views[lang].title))


def _card_pages(cards: list[RenderedCard], env: jinja2.Environment, lang: str) -> list[Page]:
    by_slug = {card.card.slug: card for card in cards}
    cited_by: dict[str, list[str]] = defaultdict(list)
    for card in cards:
        for slug in card.card.related:
            cited_by[slug].append(card.card.slug)
    template = env.get_template("card.html.jinja")
    pages = []
    for card in cards:
        view = card.views[lang]
        url = card_url(lang, view.slug)

        def link(slug: str, url: str = url) -> Link:
            other = by_slug[slug].views[lang]
            return Link(_relative(url, card_url(lang, slug)), other.title, other.summary)

        html = template.render(
            lang=lang,
            t=STRINGS[lang],
            card=view,
            category=Link(
                _relative(url, category_url(lang, view.category)),
                CATEGORY_TITLES[lang][view.category],
            ),
            related=[link(slug) for slug in view.related],
            referenced_by=[
                link(slug) for slug in sorted(cited_by[view.slug]) if slug not in view.related
            ],
            example=card.examples[lang],
            demo=card.demos.get(lang),
            exercise=card.exercise,
            xt=EXERCISE_STRINGS[lang],
        )
        pages.append(
            Page(f"{lang}/{view.slug}.md", url, lang, view.title, html, search_terms(card.card))
        )
    return pages


def _reading_order(views: list[Any], path: tuple[str, ...]) -> list[Any]:
    """A category's cards: those its reading ``path`` names, in that order, then the others
    as given (by title)."""
    rank = {slug: position for position, slug in enumerate(path)}
    return sorted(views, key=lambda view: rank.get(view.slug, len(path)))


def _index_pages(cards: list[RenderedCard], env: jinja2.Environment, lang: str) -> list[Page]:
    pages = []
    ordered = _by_title(cards, lang)
    template = env.get_template("category.html.jinja")
    for category in CATEGORY_ORDER:
        url = category_url(lang, category)
        members = _reading_order(
            [card.views[lang] for card in ordered if card.card.category == category],
            CATEGORY_PATHS.get(category, ()),
        )
        html = template.render(
            lang=lang,
            t=STRINGS[lang],
            title=CATEGORY_TITLES[lang][category],
            intro=CATEGORY_INTROS[lang][category],
            guide=CATEGORY_GUIDES[lang].get(category, ""),
            cards=[
                Link(_relative(url, card_url(lang, view.slug)), view.title, view.summary)
                for view in members
            ],
        )
        pages.append(
            # index.md: Material (navigation.indexes) makes it the page of its nav section.
            Page(
                f"{lang}/category/{category}/index.md",
                url,
                lang,
                CATEGORY_TITLES[lang][category],
                html,
            )
        )
    url = f"{lang}/glossary/"
    html = env.get_template("glossary.html.jinja").render(
        lang=lang,
        t=STRINGS[lang],
        xt=EXERCISE_STRINGS[lang],
        letters=_glossary(ordered, lang, url),
        count=len(ordered),
    )
    pages.append(Page(f"{lang}/glossary.md", url, lang, STRINGS[lang]["glossary"], html))
    if EVALUATE_TEMPLATE in env.list_templates():
        html = env.get_template(EVALUATE_TEMPLATE).render(lang=lang)
        pages.append(
            Page(f"{lang}/evaluate.md", f"{lang}/evaluate/", lang, STRINGS[lang]["evaluate"], html)
        )
    return pages


def _initial(name: str) -> str:
    letter = (_sort_key(name)[:1] or "#").upper()
    return letter if letter.isalpha() else "#"


def _glossary(ordered: list[RenderedCard], lang: str, url: str) -> list[tuple[str, list[Link]]]:
    """The A-Z entries of ``lang``: each card under its title's initial, plus a "see" entry for
    each other name in its title filed under another letter (``MAP``, ``ganancia acumulada
    descontada``), so a reader finds the card by whichever name they know."""
    titles = [card.views[lang].title for card in ordered]
    letters: dict[str, list[Link]] = defaultdict(list)
    for card, title in zip(ordered, titles, strict=True):
        view = card.views[lang]
        link = _relative(url, card_url(lang, view.slug))
        category = CATEGORY_TITLES[lang][view.category]
        letters[_initial(title)].append(Link(link, title, view.summary, category))
        for alias in glossary_aliases(title, titles):
            letters[_initial(alias)].append(Link(link, alias, category=category, see=title))
    return [
        (letter, sorted(links, key=lambda link: _sort_key(link.title)))
        for letter, links in sorted(letters.items())
    ]


HOME_MARKER = "<!-- rankcards:cards -->"


def home_cards_html(cards: list[RenderedCard], env: jinja2.Environment, lang: str) -> str:
    """The categories and cards listed on the home page of ``lang`` (links relative to it)."""
    url = f"{lang}/"
    ordered = _by_title(cards, lang)
    categories = []
    for category in CATEGORY_ORDER:
        members = _reading_order(
            [card.views[lang] for card in ordered if card.card.category == category],
            CATEGORY_PATHS.get(category, ()),
        )
        if members:
            title = Link(
                _relative(url, category_url(lang, category)),
                CATEGORY_TITLES[lang][category],
                CATEGORY_INTROS[lang][category],
            )
            links = [
                Link(_relative(url, card_url(lang, view.slug)), view.title, view.summary)
                for view in members
            ]
            categories.append((title, links))
    return env.get_template("home-cards.html.jinja").render(
        lang=lang, t=STRINGS[lang], categories=categories, count=len(ordered)
    )


def generate(cards: list[RenderedCard], env: jinja2.Environment) -> dict[str, Page]:
    """Every generated page, by ``src_uri``: cards, categories, glossary (and evaluate, when its
    template exists), in both languages."""
    pages: dict[str, Page] = {}
    for lang in LANGS:
        for page in [*_card_pages(cards, env, lang), *_index_pages(cards, env, lang)]:
            pages[page.src_uri] = page
    return pages


class TemplateProblem(Exception):
    """A card template that does not render; the message names its file and line."""


def render_site(
    cards: list[RenderedCard], templates_dir: Path
) -> tuple[dict[str, Page], dict[str, str]]:
    """Every generated page (:func:`generate`) and each language's home card list
    (:func:`home_cards_html`), rendered with the templates of ``templates_dir``.

    Raises :class:`TemplateProblem` (``template error in <file>:<line>: <message>``).
    """
    try:
        env = template_environment(templates_dir)
        return generate(cards, env), {lang: home_cards_html(cards, env, lang) for lang in LANGS}
    except jinja2.TemplateError as error:
        where = getattr(error, "filename", None) or templates_dir
        line = getattr(error, "lineno", None)
        where = f"{where}:{line}" if line else where
        raise TemplateProblem(f"template error in {where}: {error}") from None


def navigation(
    cards: list[RenderedCard], pages: dict[str, Page], docs_dir: Path | None = None
) -> list[Any]:
    """The site navigation in MkDocs' ``nav`` format: a section per language (Material shows
    them as tabs), then home, each category (its page as section index) with its cards, the
    glossary and the evaluate page, and last the hand-written pages of the language in
    ``docs_dir`` (``<lang>/*.md`` but its home; the engine titles them by their first heading).
    Titles are HTML-escaped: themes print nav titles raw."""
    nav: list[Any] = []
    for lang in LANGS:
        t = STRINGS[lang]
        ordered = _by_title(cards, lang)
        section: list[Any] = [{t["home"]: f"{lang}/index.md"}]
        for category in CATEGORY_ORDER:
            members = [
                {str(escape(view.title)): f"{lang}/{view.slug}.md"}
                for view in _reading_order(
                    [card.views[lang] for card in ordered if card.card.category == category],
                    CATEGORY_PATHS.get(category, ()),
                )
            ]
            if members:
                section.append(
                    {
                        CATEGORY_TITLES[lang][category]: [
                            f"{lang}/category/{category}/index.md",
                            *members,
                        ]
                    }
                )
        section.append({t["glossary"]: f"{lang}/glossary.md"})
        if f"{lang}/evaluate.md" in pages:
            section.append({t["evaluate"]: f"{lang}/evaluate.md"})
        if docs_dir is not None:
            section += [
                f"{lang}/{path.name}"
                for path in sorted((docs_dir / lang).glob("*.md"))
                if path.name != "index.md"
            ]
        nav.append({LANGUAGE_NAMES[lang]: section})
    return nav
