"""A card's formula per language, and the check that the Spanish formula has no English words.

``formula.latex`` is one string (shown on both pages, so it should hold no words) or
``{es, en}``. Words a formula does carry sit in ``\\text{...}``-like groups (``\\text{si }``,
``\\text{en otro caso}``); an English function word there (``if``, ``otherwise``, ``for``...) on
the Spanish page is the defect this check reports, at the word's line and column.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rankcards.cards._problems import FieldPath, Problem, format_field
from rankcards.cards._yaml import Marks

# English words a formula's text uses and Spanish never does (``a``, ``no``, ``con`` are Spanish
# words too, so they are not here).
ENGLISH_WORDS = frozenset(
    {
        "if",
        "otherwise",
        "else",
        "for",
        "and",
        "or",
        "where",
        "when",
        "with",
        "then",
        "such",
        "that",
        "the",
        "of",
        "is",
        "are",
        "all",
        "each",
        "every",
        "not",
        "only",
        "from",
        "to",
        "in",
        "at",
        "by",
        "unless",
        "given",
        "which",
        "while",
        "whenever",
    }
)
# The groups whose content KaTeX prints as words.
_WORD_GROUP = re.compile(
    r"\\(?:text|textrm|textit|textbf|textsf|texttt|mathrm|mathit|mathbf|mathsf|operatorname|mbox)"
    r"\s*\{([^{}]*)\}"
)
_WORD = re.compile(r"[^\W\d_]+")


def latex(formula: dict[str, Any], lang: str) -> str:
    """The formula's LaTeX for ``lang`` (the shared string, or that language's)."""
    value = formula["latex"]
    return str(value if isinstance(value, str) else value[lang])


def latex_path(formula: dict[str, Any], lang: str) -> FieldPath:
    """Where ``lang``'s LaTeX is written: ``formula.latex`` or ``formula.latex.<lang>``."""
    return ("formula", "latex") if isinstance(formula["latex"], str) else ("formula", "latex", lang)


def english_words(tex: str) -> Iterator[tuple[int, str]]:
    """``(offset in tex, word)`` for each English word inside a text group of ``tex``.

    >>> list(english_words(r"\\begin{cases} 1 & \\text{if } x \\\\ 0 & \\text{en otro caso}"))
    [(24, 'if')]
    """
    for group in _WORD_GROUP.finditer(tex):
        for word in _WORD.finditer(group.group(1)):
            if word.group().lower() in ENGLISH_WORDS:
                yield group.start(1) + word.start(), word.group()


def _column(path: Path, line: int, column: int, tex: str, offset: int, word: str) -> int:
    """The word's column when the scalar is on one line and written without escapes before it
    (single-quoted or plain); otherwise the value's own column."""
    try:
        source = path.read_text(encoding="utf-8").splitlines()[line - 1]
    except (OSError, IndexError):
        return column
    start = column - 1 + (1 if source[column - 1 : column] in ("'", '"') else 0)
    if source[start : start + offset + len(word)] == tex[: offset + len(word)]:
        return start + offset + 1
    return column


def formula_problems(path: Path, data: dict[str, Any], marks: Marks) -> list[Problem]:
    """One problem naming the English words in the LaTeX the Spanish page shows, at the first."""
    formula = data.get("formula")
    if not formula:
        return []
    field = latex_path(formula, "es")
    tex = latex(formula, "es")
    found = list(english_words(tex))
    if not found:
        return []
    line, column = marks.of_value(field)
    offset, first = found[0]
    words = ", ".join(dict.fromkeys(f"'{word}'" for _, word in found))
    hint = (
        "give formula.latex as {es, en} and write the Spanish words (si, en otro caso, para…)"
        if isinstance(formula["latex"], str)
        else "write them in Spanish (si, en otro caso, para, y, donde…)"
    )
    return [
        Problem(
            path,
            line,
            _column(path, line, column, tex, offset, first),
            format_field(field),
            f"English word{'s' * (len(found) > 1)} {words} in the Spanish formula: {hint}",
        )
    ]
