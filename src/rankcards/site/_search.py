"""What the search index sees of a card page: its text, without the bulk of its markup.

KaTeX output (an HTML rendering plus MathML, per formula) and the pre-rendered demo view are most
of a card page's bytes but nothing a reader searches for; the search plugin's HTML parser was
half of a build's time on them. The index gets each formula as its TeX source and no demo view.
"""

from __future__ import annotations

import html as html_lib
import re

_ANNOTATION = re.compile(r'<annotation encoding="application/x-tex">(.*?)</annotation>', re.S)


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
    """``html`` with formulas as TeX text and demo views removed.

    >>> search_html('a <span class="katex"><span><annotation encoding="application/x-tex">'
    ...             'x^2</annotation></span><span>x2</span></span> b')
    'a  x^2  b'
    """
    html = _replace_elements(html, '<section class="rc-demo"', "section", lambda _: "")
    return _replace_elements(html, '<span class="katex">', "span", _tex)
