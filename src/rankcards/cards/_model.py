"""The card model: a validated card file, and what one language of it looks like on a page.

:class:`Card` is the YAML as read (schema-valid) with its source positions; the views are the
fully rendered, language-specific values handed to templates, so templates only print fields
(Markdown and math already turned into safe HTML, outputs already captured).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markupsafe import Markup

from rankcards.cards._yaml import Marks

LANGS = ("en", "es")
CATEGORIES = (
    "ground-truth",
    "set-based",
    "rank-aware",
    "rag-diversity",
    "statistics",
    "index-benchmarking",
)


@dataclass(frozen=True)
class Card:
    """One schema-valid card file."""

    path: Path
    data: dict[str, Any]
    marks: Marks = field(repr=False, compare=False)

    @property
    def slug(self) -> str:
        return str(self.data["slug"])

    @property
    def category(self) -> str:
        return str(self.data["category"])

    @property
    def related(self) -> list[str]:
        return list(self.data["related"])

    def title(self, lang: str) -> str:
        return str(self.data["title"][lang])

    def source(self, lang: str) -> str:
        """The example's Python source in ``lang`` (one string shared by both, or per language)."""
        source = self.data["code"]["source"]
        return str(source if isinstance(source, str) else source[lang])


@dataclass(frozen=True)
class Reference:
    title: str
    url: str


@dataclass(frozen=True)
class CardView:
    """One card in one language, ready to print: ``Markup`` fields are safe HTML."""

    slug: str
    lang: str
    category: str
    title: str
    tags: list[str]
    summary: Markup
    definition: Markup
    key_points: list[Markup]
    intuition: Markup
    formula: Markup | None
    where: Markup | None
    caption: Markup
    gotchas: list[Markup]
    references: list[Reference]
    related: list[str]
    exercise_task: Markup | None = None  # the exercise's task and hints, when the card has one
    exercise_hints: list[Markup] = field(default_factory=list)


@dataclass(frozen=True)
class Example:
    """A code example and what running it printed (the rule of :mod:`rankcards.runner`)."""

    source: str
    output: str
    error: str | None = None
    figures: tuple[Markup, ...] = ()  # SVG shown under the output, already sanitized
    tables: tuple[Markup, ...] = ()  # HTML tables shown under the figures, already sanitized


@dataclass(frozen=True)
class Demo:
    """A demo block with its build-time view (``view_html``, from ``rankcards.viz.render``), or
    an example-bound demo (``compute`` None, no view: the example is the view), whose
    ``bindings`` give each bound literal's place in this language's example (UTF-16 ``from``,
    ``to``, and ``type``: :func:`rankcards.viz.bound.locate`)."""

    compute: str | None
    controls: list[dict[str, Any]]
    state: dict[str, Any]
    view_html: Markup
    bindings: dict[str, dict[str, Any]] | None = None

    @property
    def state_json(self) -> str:
        return json.dumps(self.state, ensure_ascii=False, sort_keys=True)


@dataclass(frozen=True)
class Exercise:
    """A card's exercise, the same in both languages (task and hints are in the views).

    ``spec_json`` is what the page's checker reads (:mod:`rankcards.exercises`), escaped for a
    ``<script type="application/json">`` element."""

    function: str
    signature: str
    starter: str
    solution: str
    spec_json: str


@dataclass(frozen=True)
class RenderedCard:
    """A card with everything the pages need, per language."""

    card: Card
    views: dict[str, CardView]
    examples: dict[str, Example]
    demos: dict[str, Demo]
    exercise: Exercise | None = None
