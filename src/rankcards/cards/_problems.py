"""Problems found in cards, printed as ``path:line:column: field: message``.

One shape for every kind of error (YAML syntax, schema, cross-card, LaTeX, example, demo) so
that editors and CI logs can jump to the exact spot, and so the build can refuse to write a site
while listing *all* problems at once instead of stopping at the first.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

FieldPath = tuple[str | int, ...]
_FIELD_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def format_field(path: FieldPath) -> str:
    """Render a field path the way a reader writes it: ``formula.where.es``, ``references[0].url``.

    >>> format_field(("key_points", "en", 2))
    'key_points.en[2]'
    >>> format_field(())
    '(card)'
    """
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text or "(card)"


def parse_field(text: str) -> FieldPath:
    """The field path a message names (``"<field path>: message"``, as the demo checks answer),
    the inverse of :func:`format_field`.

    >>> parse_field("demo.example.controls[1].bind")
    ('demo', 'example', 'controls', 1, 'bind')
    """
    return tuple(int(index) if index else name for name, index in _FIELD_PART.findall(text))


def display_path(path: Path) -> str:
    """The path relative to the working directory when it is below it (shorter, clickable)."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)
    return str(path) if relative.startswith("..") else relative


@dataclass(frozen=True, order=True)
class Problem:
    """One error in one card file, at a 1-based line and column."""

    path: Path
    line: int
    column: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"{display_path(self.path)}:{self.line}:{self.column}: {self.field}: {self.message}"


YAML_FIELD = "(yaml)"  # the field of a YAML syntax error


def reading_order(problems: list[Problem]) -> list[Problem]:
    """``problems`` once each, YAML syntax errors first (a file that cannot be read explains the
    rest), then by file, line and column."""
    return sorted(set(problems), key=lambda problem: (problem.field != YAML_FIELD, problem))


class CardError(Exception):
    """Raised when cards are invalid; carries every problem found, in :func:`reading_order`."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = reading_order(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))
