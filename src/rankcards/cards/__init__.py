"""Cards: the model, the JSON Schema, the YAML loader with positions and the validator.

Public API::

    rendered = build_cards(Path("docs/cards"))   # raises CardError listing every problem
    cards, problems = load_cards(Path("docs/cards"))  # static checks only (no node, no running)

Each problem prints as ``path:line:column: field: message``.
"""

from __future__ import annotations

from pathlib import Path

from rankcards.cards._katex import KatexUnavailable, find_katex
from rankcards.cards._load import SCHEMA_LINE, card_files, load_cards
from rankcards.cards._model import (
    CATEGORIES,
    LANGS,
    Card,
    CardView,
    Demo,
    Example,
    Reference,
    RenderedCard,
)
from rankcards.cards._problems import CardError, Problem
from rankcards.cards._render import render_cards
from rankcards.cards._rules import METRIC_CATEGORIES, rule_problems
from rankcards.cards._schema import card_schema, schema_text

__all__ = [
    "CATEGORIES",
    "LANGS",
    "METRIC_CATEGORIES",
    "SCHEMA_LINE",
    "Card",
    "CardError",
    "CardView",
    "Demo",
    "Example",
    "KatexUnavailable",
    "Problem",
    "Reference",
    "RenderedCard",
    "build_cards",
    "cache_dir_for",
    "card_files",
    "card_schema",
    "find_katex",
    "load_cards",
    "rule_problems",
    "schema_text",
]


def build_cards(
    directory: Path,
    *,
    katex_dir: Path | None = None,
    timeout: float = 10.0,
    cache_dir: Path | None = None,
) -> list[RenderedCard]:
    """Load, check, render and run every card of ``directory``.

    ``katex_dir`` is the npm ``katex`` package (found above ``directory`` by default);
    ``timeout`` limits each code example and demo, in seconds; ``cache_dir`` keeps what the
    cards' code answered between runs (:func:`cache_dir_for`; none by default). Raises
    :class:`CardError` with every problem, or :class:`KatexUnavailable` when Node.js or KaTeX
    is missing.
    """
    cards, problems = load_cards(directory)
    if katex_dir is None:
        katex_dir = find_katex(directory)
    rendered, more = render_cards(cards, katex_dir=katex_dir, timeout=timeout, cache_dir=cache_dir)
    problems += more
    if problems:
        raise CardError(problems)
    return rendered


def cache_dir_for(katex_dir: Path) -> Path:
    """Where the project whose ``node_modules/katex`` is ``katex_dir`` keeps the answers of its
    cards' code: ``.cache/rankcards-check`` beside ``node_modules`` (git-ignored)."""
    return katex_dir.absolute().parent.parent / ".cache" / "rankcards-check"
