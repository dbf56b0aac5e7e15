"""The completeness rules every card is held to, beyond the schema's shape.

The schema says what a card may contain; these rules say what a finished card must contain, so
that a new card is as complete as the first ones without anyone keeping a list of slugs:

- title, summary, definition and intuition are written in each language (not blank), and every
  one but the title differs between Spanish and English (a copy is a missing translation);
- key points and gotchas: at least :data:`MIN_ITEMS` each, as many in Spanish as in English;
- at least :data:`MIN_REFERENCES` references, every link ``https://``;
- a metric card (category in :data:`METRIC_CATEGORIES`) starts its example from the shared toy
  ranking (:data:`TOY_IMPORT`), so readers compare metrics on the same numbers.

Cross-card rules (related slugs that exist, never the card itself) live in ``_load``. Each rule
reports one :class:`Problem` at the line and column of the field it is about.
"""

from __future__ import annotations

from rankcards.cards._model import LANGS, Card
from rankcards.cards._problems import FieldPath, Problem, format_field

TRANSLATED_TEXTS = ("summary", "definition", "intuition")
TEXTS = ("title", *TRANSLATED_TEXTS)
ITEM_LISTS = ("key_points", "gotchas")
MIN_ITEMS = 3
MIN_REFERENCES = 4
METRIC_CATEGORIES = ("set-based", "rank-aware")
TOY_IMPORT = "from rankcards.demos.toy import"


def _at(card: Card, path: FieldPath, message: str) -> Problem:
    line, column = card.marks.of_value(path)
    return Problem(card.path, line, column, format_field(path), message)


def _text_problems(card: Card) -> list[Problem]:
    problems = []
    for name in TEXTS:
        texts = card.data[name]
        for lang in LANGS:
            if not texts[lang].strip():
                problems.append(_at(card, (name, lang), "is blank: write it"))
        if name in TRANSLATED_TEXTS and texts["es"].strip() == texts["en"].strip():
            problems.append(
                _at(card, (name, "en"), "is the same as the Spanish text: write it in English")
            )
    return problems


def _list_problems(card: Card) -> list[Problem]:
    problems = []
    for name in ITEM_LISTS:
        counts = {lang: len(card.data[name][lang]) for lang in LANGS}
        shortest = min(LANGS, key=lambda lang: (counts[lang], lang))
        summary = f"es has {counts['es']}, en has {counts['en']}"
        if counts[shortest] < MIN_ITEMS:
            message = f"needs at least {MIN_ITEMS} items in each language ({summary})"
            problems.append(_at(card, (name, shortest), message))
        elif counts["es"] != counts["en"]:
            message = f"each language lists the same items ({summary})"
            problems.append(_at(card, (name, shortest), message))
    return problems


def _reference_problems(card: Card) -> list[Problem]:
    references = card.data["references"]
    problems = []
    if len(references) < MIN_REFERENCES:
        problems.append(
            _at(
                card,
                ("references",),
                f"needs at least {MIN_REFERENCES} references (has {len(references)})",
            )
        )
    for index, reference in enumerate(references):
        url = reference["url"]
        if not url.startswith("https://"):
            problems.append(
                _at(card, ("references", index, "url"), f"'{url}' must be an https:// address")
            )
    return problems


def _toy_problems(card: Card) -> list[Problem]:
    if card.category not in METRIC_CATEGORIES:
        return []
    source = card.data["code"]["source"]
    sources: list[tuple[FieldPath, str]] = (
        [(("code", "source"), source)]
        if isinstance(source, str)
        else [(("code", "source", lang), source[lang]) for lang in LANGS]
    )
    message = (
        f"a {card.category} card starts its example from the shared toy ranking: "
        f"`{TOY_IMPORT} ...` (rankcards.demos.toy)"
    )
    return [_at(card, path, message) for path, text in sources if TOY_IMPORT not in text]


def rule_problems(card: Card) -> list[Problem]:
    """Every completeness rule ``card`` breaks (the card is schema-valid)."""
    return [
        *_text_problems(card),
        *_list_problems(card),
        *_reference_problems(card),
        *_toy_problems(card),
    ]
