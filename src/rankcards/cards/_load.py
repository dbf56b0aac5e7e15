"""Read a directory of cards and run the checks that need no rendering or running.

Per file: YAML syntax, the schema, the editor schema line, the slug matching the file name,
unfilled ``TODO`` placeholders (left by `rankcards new`), a ``demo.lab`` block's measure, k and
conventions, English words in the Spanish formula, an exercise's static checks (``_exercise``),
an example-bound demo's bindings (``_bound``) and the completeness rules of ``_rules``
(both languages, counts, references, the toy example). Across files: duplicate slugs and
related slugs with no card (or the card itself). Every problem is collected; nothing stops at
the first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rankcards.cards._bound import static_problems as bound_problems
from rankcards.cards._exercise import static_problems as exercise_problems
from rankcards.cards._formula import formula_problems
from rankcards.cards._model import Card
from rankcards.cards._problems import FieldPath, Problem, format_field, parse_field
from rankcards.cards._rules import rule_problems
from rankcards.cards._schema import schema_problems
from rankcards.cards._yaml import Marks, parse_card_file

SCHEMA_LINE = "# yaml-language-server: $schema=../schema/card.schema.json"
_TODO = re.compile(r"\bTODO\b")


def _strings(value: Any, path: FieldPath = ()) -> Iterator[tuple[FieldPath, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, child in value.items():
            yield from _strings(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _strings(child, (*path, index))


def _file_problems(path: Path, data: dict[str, Any], marks: Marks) -> list[Problem]:
    problems = []
    with path.open(encoding="utf-8") as handle:
        first = handle.readline().rstrip("\n")
    if not first.startswith("# yaml-language-server: $schema="):
        problems.append(
            Problem(path, 1, 1, "(card)", f"the first line must be `{SCHEMA_LINE}` (autocomplete)")
        )
    slug = data.get("slug")
    if isinstance(slug, str) and slug != path.stem:
        line, column = marks.of_value(("slug",))
        problems.append(
            Problem(path, line, column, "slug", f"'{slug}' must equal the file name '{path.stem}'")
        )
    for field_path, text in _strings(data):
        if _TODO.search(text):
            line, column = marks.of_value(field_path)
            problems.append(
                Problem(
                    path,
                    line,
                    column,
                    format_field(field_path),
                    "unfilled placeholder: replace the TODO text with the real content",
                )
            )
    return problems


def _lab_problems(path: Path, data: dict[str, Any], marks: Marks) -> list[Problem]:
    """A ``demo.lab`` block's measure, cutoff and conventions, at their YAML lines.

    Separate from the schema: whether ``"AP@k"`` names a measure, ``k`` fits the rankings or
    a convention applies to the measure is known only to :mod:`rankcards.viz._lab_spec`.
    """
    demo = data.get("demo")
    if not isinstance(demo, dict) or "lab" not in demo:
        return []
    from rankcards.viz._lab_spec import lab_problems

    problems = []
    for text in lab_problems(demo["lab"]):
        field, _, message = text.partition(": ")
        field_path = parse_field(field)
        line, column = marks.of_value(field_path)
        problems.append(Problem(path, line, column, format_field(field_path), message))
    return problems


def _cross_problems(cards: list[Card], other_slugs: set[str]) -> list[Problem]:
    """Duplicate slugs among ``cards``; related slugs that name no card at all (``other_slugs``
    are those of files with other problems, even unreadable ones: they exist, so linking to
    them is not an error, and one broken file is reported once, in that file)."""
    problems = []
    first_file: dict[str, Path] = {}
    for card in cards:
        if card.slug in first_file:
            line, column = card.marks.of_value(("slug",))
            problems.append(
                Problem(
                    card.path,
                    line,
                    column,
                    "slug",
                    f"duplicate slug '{card.slug}', already used by {first_file[card.slug]}",
                )
            )
        else:
            first_file[card.slug] = card.path
    for card in cards:
        for index, slug in enumerate(card.related):
            message = None
            if slug == card.slug:
                message = "a card cannot be related to itself"
            elif slug not in first_file and slug not in other_slugs:
                message = f"no card with slug '{slug}' (add docs/cards/{slug}.yml or remove it)"
            if message:
                line, column = card.marks.of_value(("related", index))
                problems.append(Problem(card.path, line, column, f"related[{index}]", message))
    return problems


def card_files(directory: Path) -> list[Path]:
    """The card files of ``directory``: ``*.yml`` and ``*.yaml``, sorted by name."""
    return sorted([*directory.glob("*.yml"), *directory.glob("*.yaml")])


def load_cards(directory: Path) -> tuple[list[Card], list[Problem]]:
    """Parse and statically check every card in ``directory``.

    Returns the cards that passed the schema (so later checks can still run on them) and every
    problem found; the cards are usable only when the problem list is empty.
    """
    cards: list[Card] = []
    problems: list[Problem] = []
    other_slugs: set[str] = set()
    files = card_files(directory)
    if not files:
        problems.append(Problem(directory, 1, 1, "(cards)", "no card files (*.yml) found"))
    for path in files:
        parsed = parse_card_file(path)
        problems.extend(parsed.problems)
        if parsed.data is None:
            other_slugs.add(path.stem)  # its slug must be its file name
            continue
        problems.extend(_file_problems(path, parsed.data, parsed.marks))
        found = schema_problems(path, parsed.data, parsed.marks)
        found = found or _lab_problems(path, parsed.data, parsed.marks)  # a lab block's measure
        problems.extend(found)
        if not found:
            problems.extend(formula_problems(path, parsed.data, parsed.marks))
            card = Card(path, parsed.data, parsed.marks)
            cards.append(card)
            problems.extend(rule_problems(card))
            problems.extend(exercise_problems(card))
            problems.extend(bound_problems(card))
        else:
            other_slugs.add(path.stem)
            if isinstance(parsed.data.get("slug"), str):
                other_slugs.add(parsed.data["slug"])
    problems.extend(_cross_problems(cards, other_slugs))
    return cards, problems
