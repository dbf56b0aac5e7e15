"""What the search index sees of a page: its prose, without the bulk of its markup, and the
names a reader may type to find it.

KaTeX output (an HTML rendering plus MathML, per formula) and the pre-rendered demo view are most
of a card page's bytes but nothing a reader searches for; the search plugin's HTML parser was
half of a build's time on them. The index gets each formula as its TeX source and no demo view.
Code blocks, their outputs and the figures an example draws are left out too: they were a third
of the index that every reader downloads, and a result's snippet showed a wall of code instead of
the sentence that matched. Inline code keeps its words (``recip_rank`` is still found) without
its markup, so a snippet is plain text.

A page's text is in one language, but readers search by any name of the concept: "MAP",
"precisión media", "nDCG", "ganancia". :func:`search_terms` gathers a card's names in every
language, their parts (the abbreviation and the name it stands for) and its tags; they reach
Material's index as the page's ``tags`` (a field it boosts above titles), so every card page,
in either language, is found by each of them.
"""

from __future__ import annotations

import html as html_lib
import json
import re
import unicodedata

from rankcards.cards import LANGS, Card

# "Average Precision (AP) and MAP" -> "Average Precision", "AP", "MAP": brackets, commas and
# the words that join two names in a title.
_BRACKETS = re.compile(r"[(),]")
_JOINS = re.compile(r"(?:^|\s)(?:and|y|vs|&)(?:\s|$)")

_ANNOTATION = re.compile(r'<annotation encoding="application/x-tex">(.*?)</annotation>', re.S)
_CODE_TAG = re.compile(r"</?code\b[^>]*>")


def _element_end(html: str, start: int, tag: str) -> int:
    """Index just past the element opening at ``start`` (counting nested ``tag`` elements)."""
    depth = 0
    for match in re.compile(rf"<{tag}\b|</{tag}>").finditer(html, start):
        depth += -1 if match.group().startswith("</") else 1
        if depth == 0:
            return match.end()
    return len(html)


def _replace_elements(html: str, opening: str, tag: str, replace: object) -> str:
    parts, position = [], 0
    while (start := html.find(opening, position)) != -1:
        end = _element_end(html, start, tag)
        parts += [html[position:start], replace(html[start:end])]  # type: ignore[operator]
        position = end
    return "".join([*parts, html[position:]])


def _tex(element: str) -> str:
    match = _ANNOTATION.search(element)
    return f" {html_lib.escape(html_lib.unescape(match.group(1)))} " if match else " "


def search_html(html: str) -> str:
    """``html`` with formulas as TeX text, and no demo view, code block, output or figure.

    >>> search_html('a <span class="katex"><span><annotation encoding="application/x-tex">'
    ...             'x^2</annotation></span><span>x2</span></span> b')
    'a  x^2  b'
    >>> search_html('<p>Use <code>recip_rank</code>:</p><pre><code>print(1)</code></pre>')
    '<p>Use recip_rank:</p> '
    """
    html = _replace_elements(html, '<section class="rc-demo"', "section", lambda _: "")
    html = _replace_elements(html, '<div class="rc-example__figures"', "div", lambda _: "")
    html = _replace_elements(html, "<pre", "pre", lambda _: " ")
    html = _replace_elements(html, '<span class="katex">', "span", _tex)
    return _CODE_TAG.sub("", html)


def slim_index(text: str) -> str:
    """Material's search index (``search_index.json``'s text) with a page's tags kept on the
    page's own entry only.

    Material copies a page's ``tags`` onto every section of the page; the page entry alone
    carries them to the reader just as well (a name still finds its card, boosted above any
    title), and the copies were a sixth of the index.

    >>> slim_index('{"config": {}, "docs": [{"location": "en/x/", "tags": ["X"]},'
    ...            ' {"location": "en/x/#a", "tags": ["X"]}]}')
    '{"config":{},"docs":[{"location":"en/x/","tags":["X"]},{"location":"en/x/#a"}]}'
    """
    index = json.loads(text)
    for entry in index["docs"]:
        if "#" in entry["location"]:
            entry.pop("tags", None)
    return json.dumps(index, ensure_ascii=False, separators=(",", ":"))


def name_parts(title: str) -> list[str]:
    """The names inside a card title: its abbreviation and what it stands for.

    >>> name_parts("Average Precision (AP) and MAP")
    ['Average Precision', 'AP', 'MAP']
    >>> name_parts("Promedio sobre consultas (macro, micro y -c)")
    ['Promedio sobre consultas', 'macro', 'micro', '-c']
    """
    parts = (name for piece in _BRACKETS.split(title) for name in _JOINS.split(piece))
    return [name.strip() for name in parts if name.strip()]


def search_terms(card: Card) -> tuple[str, ...]:
    """Every name a reader may search a card by, once each (case-insensitively), in order:
    its titles in every language, their parts, then its tags in every language.

    The titles come first so that a reader's search for "precisión media" or "MAP" finds the
    average-precision card whichever language the page is in.
    """
    terms: list[str] = []
    for lang in LANGS:
        title = card.title(lang)
        terms += [title, *name_parts(title)]
    tags = card.data.get("tags") or {}
    for lang in LANGS:
        terms += [str(tag) for tag in tags.get(lang, [])]
    unique: dict[str, str] = {}
    for term in terms:
        unique.setdefault(term.strip().casefold(), term.strip())
    return tuple(term for term in unique.values() if term)


def glossary_aliases(title: str, titles: list[str]) -> list[str]:
    """The other names in ``title`` worth an A-Z entry of their own: those filed under another
    letter than the title, of two characters or more, not a number or an option (``11-point``,
    ``-c``), and not another card's name (``Recall@K`` inside the index-benchmarking title).

    >>> glossary_aliases("Precisión media (AP) y MAP", [])
    ['AP', 'MAP']
    >>> glossary_aliases("Benchmark (QPS vs Recall@K)", ["Recall @ K"])
    ['QPS']
    """
    first, *others = name_parts(title) or [title]
    taken = {_squeezed(name) for other in titles if other != title for name in name_parts(other)}
    return [
        name
        for name in others
        if len(name) >= 2
        and name[0].isalpha()
        and _initial(name) != _initial(first)
        and _squeezed(name) not in taken
    ]


def _squeezed(name: str) -> str:
    return "".join(name.split()).casefold()


def _initial(name: str) -> str:
    folded = unicodedata.normalize("NFKD", name.casefold())
    return next((char for char in folded if not unicodedata.combining(char)), "")
