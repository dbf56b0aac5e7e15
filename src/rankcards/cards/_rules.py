"""The completeness rules every card is held to, beyond the schema's shape.

The schema says what a card may contain; these rules say what a finished card must contain, so
that a new card is as complete as the first ones without anyone keeping a list of slugs:

- title, summary, definition and intuition are written in each language (not blank), and every
  one but the title differs between Spanish and English (a copy is a missing translation);
- the summary is one sentence (it ends with a full stop, and no other sentence starts in it);
- key points and gotchas: at least :data:`MIN_ITEMS` each, as many in Spanish as in English;
- at least :data:`MIN_REFERENCES` references, every link ``https://``;
- tags in each language: the other names a reader searches the card by (the site's search takes
  a card's names from its titles and tags, nowhere else);
- a demo: every card has one (a measure card names its measure in ``demo.lab``);
- the intuition's last paragraph starts with 💡 and sends the reader to the page's drawing tool
  by its button's name (:data:`DRAW_TOOL`, as ``web/draw_toolbar.js`` labels it);
- Spanish text avoids the calques of the house standard (:data:`SPANISH_CALQUES`), writes
  decimals with a point, and never says so itself (every Spanish page says it once);
- a metric card (category in :data:`METRIC_CATEGORIES`) starts its example from the shared toy
  ranking (:data:`TOY_IMPORT`), and a demo state of its own queries is the toy's, so readers
  compare metrics on the same numbers.

Cross-card rules (related slugs that exist, never the card itself) live in ``_load``; what only
running finds (the example's output, stated numbers) in ``_render`` and ``_numbers``. Each rule
reports one :class:`Problem` at the line and column of the field, or of the word, it is about.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from rankcards.cards._model import LANGS, Card
from rankcards.cards._problems import FieldPath, Problem, format_field

TRANSLATED_TEXTS = ("summary", "definition", "intuition")
TEXTS = ("title", *TRANSLATED_TEXTS)
ITEM_LISTS = ("key_points", "gotchas")
MIN_ITEMS = 3
MIN_REFERENCES = 4
METRIC_CATEGORIES = ("set-based", "rank-aware")
TOY_IMPORT = "from rankcards.demos.toy import"
# The drawing tool's button, as web/draw_toolbar.js names it in each language.
DRAW_TOOL = {"es": "Dibujar / Apuntes", "en": "Draw / Notes"}
_DRAW_QUOTES = {"es": ("«{}»", "**{}**"), "en": ('"{}"', "**{}**")}
_DRAW_EXAMPLE = {
    "es": "💡 Pulsa «Dibujar / Apuntes» en la barra superior para marcar sobre la demo …",
    "en": '💡 Press "Draw / Notes" in the top bar to mark on the demo …',
}
# Calques the house standard bans in Spanish (shared/CONTENT.md), with the word to use.
SPANISH_CALQUES = {
    r"\bvs\.?(?=\s|$)": "«frente a» or «contra»",
    r"&": "«y»",
    r"\bbalance\b": "«equilibrio» or «compromiso»",
    r"\bde test\b": "«de prueba»",
    r"\bPrecision@": "«Precisión@» (with its accent)",
}
_DECIMAL_COMMA = re.compile(r"\d,\d")
_SAYS_DECIMAL_POINT = re.compile(
    r"punto\s+decimal|decimales\s+(?:se\s+escriben\s+)?con\s+punto", re.IGNORECASE
)
# Code spans and math, where a calque's characters (`&`, `vs`) are syntax, not Spanish.
_CODE_OR_MATH = re.compile(r"`[^`]*`|\$\$.+?\$\$|\$[^$]+\$", re.DOTALL)
# A sentence ends and another starts: a stop, space, a capital (or an opening ¿ / ¡).
_NEXT_SENTENCE = re.compile(r"[.!?]\s+[A-ZÁÉÍÓÚÑ¿¡]")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
# Spanish strings that are not prose: references, code, LaTeX and a demo's data.
_NOT_PROSE = frozenset({"references", "source", "latex", "state"})


def _at(card: Card, path: FieldPath, message: str, offset: int | None = None) -> Problem:
    """A problem at ``path``, or at character ``offset`` of its text when given."""
    line, column = (
        card.marks.of_value(path) if offset is None else card.marks.position(path, offset)
    )
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


def _summary_problems(card: Card) -> list[Problem]:
    problems = []
    for lang in LANGS:
        path: FieldPath = ("summary", lang)
        summary = card.data["summary"][lang].strip()
        if not summary:
            continue  # reported as blank
        second = _NEXT_SENTENCE.search(summary)
        if "\n\n" in summary or second:
            offset = second.end() - 1 if second else summary.index("\n\n")
            message = "is one sentence (a reader could put it on a slide): move the rest on"
            problems.append(_at(card, path, message, _text_offset(card, path, summary, offset)))
        elif not summary.endswith("."):
            message = "is one sentence that ends with a full stop"
            problems.append(_at(card, path, message, _text_offset(card, path, summary, -1)))
    return problems


def _text_offset(card: Card, path: FieldPath, stripped: str, offset: int) -> int:
    """``offset`` in a stripped text as an offset in the field's value (-1: its last char)."""
    value = card.marks.texts.get(path, stripped)
    lead = len(value) - len(value.lstrip())
    return lead + (len(stripped) - 1 if offset < 0 else offset)


def _intuition_problems(card: Card) -> list[Problem]:
    problems = []
    for lang in LANGS:
        path: FieldPath = ("intuition", lang)
        value = card.data["intuition"][lang]
        if not value.strip():
            continue  # reported as blank
        breaks = list(_PARAGRAPH_BREAK.finditer(value.rstrip()))
        start = breaks[-1].end() if breaks else len(value) - len(value.lstrip())
        last = value[start:].strip()
        names = [quote.format(DRAW_TOOL[lang]) for quote in _DRAW_QUOTES[lang]]
        if last.startswith("💡") and any(name in last for name in names):
            continue
        message = (
            f"the last paragraph starts with 💡 and sends the reader to the drawing tool by its "
            f"button, {' or '.join(names)}: e.g. {_DRAW_EXAMPLE[lang]}"
        )
        problems.append(_at(card, path, message, start))
    return problems


def _tag_problems(card: Card) -> list[Problem]:
    tags = card.data.get("tags") or {}
    message = (
        "needs at least one tag in each language: the other names a reader searches the card by "
        "(its abbreviation, the tools' names for it): the site's search reads them here"
    )
    if not tags:
        return [_at(card, (), f"missing field 'tags': {message}")]
    return [_at(card, ("tags", lang), message) for lang in LANGS if not tags.get(lang)]


def _demo_problems(card: Card) -> list[Problem]:
    if "demo" in card.data:
        return []
    message = (
        "missing field 'demo': every card has one (a measure card names its measure in "
        "`demo: {lab: {measure: ...}}`; CONTRIBUTING.md, step 5)"
    )
    return [_at(card, (), message)]


def _spanish_texts(value: Any, path: FieldPath = ()) -> Iterator[tuple[FieldPath, str]]:
    """Every Spanish prose string of a card: under an ``es`` key, outside references, code,
    LaTeX and demo state."""
    if isinstance(value, dict):
        for key, child in value.items():
            if key != "en" and key not in _NOT_PROSE:
                yield from _spanish_texts(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _spanish_texts(child, (*path, index))
    elif isinstance(value, str) and "es" in path:
        yield path, value


def _spanish_problems(card: Card) -> list[Problem]:
    problems = []
    for path, text in _spanish_texts(card.data):
        skipped = [match.span() for match in _CODE_OR_MATH.finditer(text)]

        def in_code(offset: int, skipped: list[tuple[int, int]] = skipped) -> bool:
            return any(start <= offset < end for start, end in skipped)

        for pattern, instead in SPANISH_CALQUES.items():
            for match in re.finditer(pattern, text):
                if not in_code(match.start()):
                    message = f"'{match.group()}' is a calque in Spanish: write {instead}"
                    problems.append(_at(card, path, message, match.start()))
                    break
        comma = next((m for m in _DECIMAL_COMMA.finditer(text) if not in_code(m.start())), None)
        if comma:
            message = (
                f"'{comma.group()}': write decimals with a point in both languages, as the "
                "code prints them (0.5, not 0,5)"
            )
            problems.append(_at(card, path, message, comma.start() + 1))
        said = _SAYS_DECIMAL_POINT.search(text)
        if said:
            message = (
                "every Spanish page already says once that decimals are written with a point: "
                "the card does not repeat it"
            )
            problems.append(_at(card, path, message, said.start()))
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
    problems = [_at(card, path, message) for path, text in sources if TOY_IMPORT not in text]
    state = (card.data.get("demo") or {}).get("state")
    if isinstance(state, dict) and "queries" in state:
        from rankcards.demos.toy import toy_state

        if state["queries"] != toy_state():
            message = (
                f"a {card.category} card's demo starts from the shared toy ranking: "
                "rankcards.demos.toy.toy_state() (the reader edits it from there)"
            )
            problems.append(_at(card, ("demo", "state", "queries"), message))
    return problems


def rule_problems(card: Card) -> list[Problem]:
    """Every completeness rule ``card`` breaks (the card is schema-valid)."""
    return [
        *_text_problems(card),
        *_summary_problems(card),
        *_list_problems(card),
        *_reference_problems(card),
        *_tag_problems(card),
        *_demo_problems(card),
        *_intuition_problems(card),
        *_spanish_problems(card),
        *_toy_problems(card),
    ]
