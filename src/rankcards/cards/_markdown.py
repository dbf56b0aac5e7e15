"""Card text: Markdown with ``$...$`` math, raw HTML shown as text, only safe link targets.

Card text comes from pull requests, so it is treated as untrusted: Python-Markdown's raw-HTML
handlers are removed (``<script>`` becomes visible text), and every ``href``/``src`` whose scheme
is not http(s) or mailto (``javascript:``, ``data:`` ...) is dropped, which leaves the link inert.
Math is not rendered here: each formula becomes a token and is collected, so that all formulas of
a build go to KaTeX in one batch (see :mod:`rankcards.cards._katex`) and are swapped in after.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import markdown
from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor
from markdown.treeprocessors import Treeprocessor

_TOKEN = re.compile(r'<rc-math data-i="(\d+)"></rc-math>')
_SAFE_SCHEMES = {"", "http", "https", "mailto"}
_CONTROL = re.compile(r"[\x00-\x20\x7f]+")
# A `$` not escaped, not followed by a space; the closing one not preceded by a space and not
# followed by a digit (so "$5 and $10" stays text), as Pandoc reads TeX math.
_INLINE_MATH = r"(?<![\\$])\$(?![\s$])((?:\\.|[^$\\])+?)(?<!\s)\$(?!\d)"
_DISPLAY_MATH = r"(?<!\\)\$\$((?:\\.|[^$\\])+?)\$\$"


@dataclass
class MathCollector:
    """Formulas met while rendering: ``(tex, display, origin)``; origin is the caller's tag."""

    items: list[tuple[str, bool, Any]] = field(default_factory=list)

    def token(self, tex: str, display: bool, origin: Any) -> str:
        self.items.append((tex, display, origin))
        return f'<rc-math data-i="{len(self.items) - 1}"></rc-math>'


def substitute_math(html: str, rendered: list[str]) -> str:
    """Replace math tokens in ``html`` by the KaTeX HTML at the same index of ``rendered``."""
    return _TOKEN.sub(lambda match: rendered[int(match.group(1))], html)


def is_safe_url(url: str) -> bool:
    """Only web, mail and relative links; control characters are ignored, as browsers do.

    >>> [is_safe_url(u) for u in ("https://x.org", "../mrr/", "java\\tscript:alert(1)", "data:x")]
    [True, True, False, False]
    """
    try:
        return urlsplit(_CONTROL.sub("", url)).scheme.lower() in _SAFE_SCHEMES
    except ValueError:
        return False


class _Math(InlineProcessor):
    def __init__(
        self, pattern: str, md: markdown.Markdown, display: bool, renderer: CardMarkdown
    ) -> None:
        super().__init__(pattern, md)
        self._display = display
        self._renderer = renderer

    def handleMatch(self, m: re.Match[str], data: str) -> tuple[str, int, int]:  # type: ignore[override]
        token = self._renderer.local.token(m.group(1), self._display, None)
        return self.md.htmlStash.store(token), m.start(0), m.end(0)


class _SafeLinks(Treeprocessor):
    def run(self, root: etree.Element) -> None:
        for element in root.iter():
            for attribute in ("href", "src"):
                value = element.get(attribute)
                if value is not None and not is_safe_url(value):
                    del element.attrib[attribute]


class _CardExtension(Extension):
    def __init__(self, renderer: CardMarkdown) -> None:
        super().__init__()
        self._renderer = renderer

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        md.inlinePatterns.register(_Math(_DISPLAY_MATH, md, True, self._renderer), "rc_dmath", 186)
        md.inlinePatterns.register(_Math(_INLINE_MATH, md, False, self._renderer), "rc_math", 185)
        md.treeprocessors.register(_SafeLinks(md), "rc_safe_links", 0)


# (text, inline) -> (HTML with text-local math tokens, its formulas). Card text is mostly
# unchanged between `mkdocs serve` rebuilds, and Markdown conversion was a third of the cards' time.
_cache: dict[tuple[str, bool], tuple[str, list[tuple[str, bool]]]] = {}


class CardMarkdown:
    """Renders card text; formulas go to ``collector`` tagged with the caller's ``origin``."""

    def __init__(self, collector: MathCollector) -> None:
        self.collector = collector
        self.local = MathCollector()
        self._md = markdown.Markdown(extensions=[_CardExtension(self), "sane_lists"])

    def render(self, text: str, origin: Any, *, inline: bool = False) -> str:
        """HTML of ``text``; with ``inline`` a lone paragraph loses its ``<p>`` wrapper."""
        key = (text, inline)
        if key not in _cache:
            self.local = MathCollector()
            html = self._md.reset().convert(text)
            if inline and html.startswith("<p>") and html.endswith("</p>"):
                html = html[3:-4] if html.count("<p>") == 1 else html
            _cache[key] = (html, [(tex, display) for tex, display, _ in self.local.items])
        html, formulas = _cache[key]
        return _TOKEN.sub(
            lambda match: self.collector.token(*formulas[int(match.group(1))], origin), html
        )
