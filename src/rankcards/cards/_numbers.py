"""Stated numbers: every precise number a card writes is backed by something that computes it.

A card quotes results ("MRR = 0.611", "$p = 0.0117$"); when the module, the example or the text
changes, a quoted number goes stale unseen. So every number written with
:data:`MIN_DECIMALS` or more decimals in the card's text (:data:`STATED_FIELDS`: summary,
definition, key points, intuition, formula and its notes, gotchas, the example's caption; in
``$...$`` math and LaTeX too) must be, rounded as written:

- printed by the card's example, in either language (the build-time output), or
- shown by its demo's first view (a ``data-value``, exact, or the visible text), or
- the value of one of the card's ``claims``: ``{value: "0.4167", expr: "<Python>"}``. The
  ``expr`` runs after the card's example, in its namespace (its imports and variables are
  there), in the example's worker process (:mod:`._worker`, never the process that builds the
  site); the example keeps its own time limit, and its claims may take longer (one about another
  tool may import it). ``expr`` is an expression, or statements whose last line is an
  expression (as in the example). Claims run
  in order in one copy of that namespace, so a claim may define a helper that later ones use.
  ``lang: es`` runs it after the Spanish example and asks only the Spanish text to state the
  value; without it, it runs after the English example and both languages state the value.

A claim is checked on its own too: its expression must give ``value`` rounded as written, and
the card must state ``value`` (a claim for a number no longer in the text is stale). Claims may
back numbers of any precision (an integer count, ``0.5``); the rule only asks for backing from
:data:`MIN_DECIMALS` decimals on.

Not stated numbers, by construction: numbers with fewer decimals (years, counts, versions such as
``9.0``, thresholds such as ``0.05``), dotted versions (``0.3.21``, ``1.17.0``), numbers inside
web addresses and DOIs, numbers glued to a word or identifier (``iprec_at_recall_0.80``,
``1.5e-3``, ``2.5th``), and the references (citations carry volumes and versions). A sign is
not part of the comparison: "q14 loses 0.151" is backed by a printed ``-0.151``.

Independently, both languages state the same decimal numbers: one that only the Spanish (or
only the English) text writes is a translation that drifted.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from rankcards.cards._model import LANGS, Card
from rankcards.cards._problems import FieldPath, Problem, format_field

MIN_DECIMALS = 3
# A number with decimals, not part of a dotted version or of a word, e.g. "0.611", "2.093".
_DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?!\.\d|\w)")
# Any number the text writes (a claim may back an integer), same boundaries.
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?!\.\d|\w)")
# The bilingual rule reads "2.5th" as 2.5: an English suffix is not another number.
_BILINGUAL = re.compile(r"(?<![\w.])\d+\.\d+(?!\.?\d)")
_ADDRESS = re.compile(r"https?://[^\s)>\]]+|\b10\.\d{4,9}/[^\s)>\]]+")
# A number in printed output or a view's text: signed, decimals, an exponent (repr's 1e-05).
_PRINTED = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w.]*\d)")
_DATA_VALUE = re.compile(r'<[^>]*\sdata-value="([^"]*)"[^>]*>')
_TAG = re.compile(r"<[^>]+>")
MINUS = "\u2212"  # the minus sign a text may write for "-"
_NAMES = {"es": "Spanish", "en": "English"}


@dataclass(frozen=True)
class Stated:
    """One number written in a card's text: where, as written (no sign), and in which language
    (None: the formula's shared LaTeX, on both pages)."""

    path: FieldPath
    offset: int
    text: str
    lang: str | None

    @property
    def decimals(self) -> int:
        return len(self.text.partition(".")[2])


def stated_fields(card: Card) -> Iterator[tuple[FieldPath, str, str | None]]:
    """``(path, text, lang)`` of every field whose numbers count as stated."""
    data = card.data
    for lang in LANGS:
        for name in ("summary", "definition", "intuition"):
            yield (name, lang), data[name][lang], lang
        for name in ("key_points", "gotchas"):
            for index, text in enumerate(data[name][lang]):
                yield (name, lang, index), text, lang
        yield ("code", "caption", lang), data["code"]["caption"][lang], lang
        formula = data.get("formula")
        if formula:
            yield ("formula", "where", lang), formula["where"][lang], lang
            if not isinstance(formula["latex"], str):
                yield ("formula", "latex", lang), formula["latex"][lang], lang
    formula = data.get("formula")
    if formula and isinstance(formula["latex"], str):
        yield ("formula", "latex"), formula["latex"], None


def _masked(text: str) -> str:
    """``text`` with web addresses and DOIs blanked out (offsets kept)."""
    return _ADDRESS.sub(lambda match: " " * len(match.group()), text)


def stated_numbers(card: Card, pattern: re.Pattern[str] = _DECIMAL) -> list[Stated]:
    """Every number the card's text writes (``pattern``: by default, those with decimals)."""
    return [
        Stated(path, match.start(), match.group(), lang)
        for path, text, lang in stated_fields(card)
        for match in pattern.finditer(_masked(text))
    ]


def _rounded(number: Decimal, decimals: int) -> set[Decimal]:
    """The magnitude of ``number`` rounded to ``decimals``, half up and half to even (a printer
    may write 0.4365 as 0.437 or as 0.436)."""
    step = Decimal(1).scaleb(-decimals)
    return {abs(number).quantize(step, rounding) for rounding in (ROUND_HALF_UP, ROUND_HALF_EVEN)}


class Backing:
    """The values that back a card's stated numbers: printed text (rounded as printed, so it
    backs a number written with at most as many decimals) and exact values (a ``data-value``,
    a number in ``repr``'s exponent form), which back any rounding of themselves."""

    def __init__(self) -> None:
        self._printed: list[tuple[Decimal, int]] = []
        self._exact: list[Decimal] = []
        self._rounded: dict[int, set[Decimal]] = {}  # by decimals: every value so rounded

    def add_printed(self, text: str) -> None:
        for match in _PRINTED.finditer(text):
            token = match.group()
            number = _decimal(token)
            if number is None:
                continue
            if "e" in token.lower():  # repr's exponent form is exact
                self._exact.append(number)
            else:
                self._printed.append((number, len(token.partition(".")[2])))

    def add_view(self, view_html: str) -> None:
        for match in _DATA_VALUE.finditer(view_html):
            if "data-rc-volatile" not in match.group():  # a timing is not a stated result
                number = _decimal(html.unescape(match.group(1)))
                if number is not None:
                    self._exact.append(number)
        self.add_printed(html.unescape(_TAG.sub(" ", view_html)))

    def nearest(self, written: str) -> Decimal | None:
        """The backing value closest to ``written`` once rounded as written, when it differs in
        the last two digits at most (a changed digit, or a number gone stale)."""
        self.backs(written)  # rounds every backing value as written
        target, decimals = Decimal(written), len(written.partition(".")[2])
        close = [
            value
            for value in self._rounded[decimals]
            if abs(value - target) < Decimal(1).scaleb(2 - decimals)
        ]
        return min(close, key=lambda value: abs(value - target), default=None)

    def backs(self, written: str) -> bool:
        decimals = len(written.partition(".")[2])
        if decimals not in self._rounded:
            candidates = [n for n, shown in self._printed if shown >= decimals] + self._exact
            self._rounded[decimals] = {r for n in candidates for r in _rounded(n, decimals)}
        return Decimal(written) in self._rounded[decimals]


def printed_decimals(text: str) -> list[str]:
    """The numbers with decimals a line of output prints, as printed."""
    return [number for number in _PRINTED.findall(text) if "." in number]


def _decimal(text: str) -> Decimal | None:
    try:
        number = Decimal(text.replace(MINUS, "-"))
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def claim_value(answer: dict[str, Any]) -> Decimal | None:
    """The number a claim's answer carries (``{"repr": ...}``), or None."""
    return _decimal(str(answer["repr"])) if "repr" in answer else None


def written_value(card: Card, index: int) -> str:
    """Claim ``index``'s value exactly as written in the file (``0.4170`` keeps its zero
    even unquoted, where YAML reads the float 0.417)."""
    path: FieldPath = ("claims", index, "value")
    value = card.data["claims"][index]["value"]
    if isinstance(value, str):
        return value.strip()
    start, end = card.marks.spans[path]
    return card.marks.source[start:end].strip().strip("'\"")


def claims_for(card: Card, lang: str) -> list[tuple[int, str]]:
    """``(index, expr)`` of the claims evaluated after ``lang``'s example: those of that
    language, and (after the English one) those of no language. A shared example serves both."""
    shared = isinstance(card.data["code"]["source"], str)
    return [
        (index, claim["expr"])
        for index, claim in enumerate(card.data.get("claims", []))
        if shared or claim.get("lang", "en") == lang
    ]


def _claim_problems(
    card: Card, answers: dict[int, dict[str, Any]]
) -> tuple[list[Problem], dict[str, set[str | None]]]:
    """Problems of the claims themselves, and the values they back: magnitude -> languages
    (None: both)."""
    problems = []
    backed: dict[str, set[str | None]] = {}
    texts = {
        lang: {s.text for s in stated_numbers(card, _NUMBER) if s.lang in (lang, None)}
        for lang in LANGS
    }
    for index, claim in enumerate(card.data.get("claims", [])):
        written = written_value(card, index)
        magnitude = written.lstrip("-" + MINUS)
        lang = claim.get("lang")
        backed.setdefault(magnitude, set()).add(lang)
        required = [lang] if lang else list(LANGS)
        missing = [other for other in required if magnitude not in texts[other]]
        # A decimal stated in one language of two: the bilingual rule says where the other
        # lacks it (that rule does not read integers, so for those it is said here).
        if missing and (len(missing) == len(required) or "." not in magnitude):
            where = "the card's text" if len(missing) > 1 else f"the {_NAMES[missing[0]]} text"
            problems.append(
                _at(
                    card,
                    ("claims", index, "value"),
                    f"{written} is stated nowhere in {where}: a claim backs a number the card "
                    "writes (state it, or remove the claim)",
                )
            )
        answer = answers.get(index)
        if answer is None:
            continue  # the example did not run: reported there
        if "error" in answer:
            problems.append(_at(card, ("claims", index, "expr"), answer["error"]))
            continue
        value = claim_value(answer)
        decimals = len(written.partition(".")[2])
        target = _decimal(written)
        if value is None or target is None:
            problems.append(
                _at(card, ("claims", index, "expr"), f"gives {answer['repr']}, not a number")
            )
        elif target not in {v.copy_sign(value) for v in _rounded(value, decimals)}:
            shown = f"{value:.{decimals}f}" if decimals else f"{value:.0f}"
            problems.append(
                _at(
                    card,
                    ("claims", index, "value"),
                    f"{written} is not what its expression gives: {answer['repr']} "
                    f"({shown} rounded as written)",
                )
            )
    return problems, backed


def _at(card: Card, path: FieldPath, message: str, offset: int | None = None) -> Problem:
    marks = card.marks
    line, column = marks.of_value(path) if offset is None else marks.position(path, offset)
    return Problem(card.path, line, column, format_field(path), message)


def _bilingual_problems(card: Card, unbacked: set[tuple[FieldPath, int]]) -> list[Problem]:
    """Decimal numbers one language states and the other does not (``unbacked`` ones, at
    ``(path, offset)``, are reported as such already: a typo is one problem, not two)."""
    numbers = stated_numbers(card, _BILINGUAL)
    per_lang = {lang: {s.text for s in numbers if s.lang == lang} for lang in LANGS}
    problems, reported = [], set()
    for stated in numbers:
        if (
            stated.lang is None
            or (stated.text, stated.lang) in reported
            or (stated.path, stated.offset) in unbacked
        ):
            continue
        other = "en" if stated.lang == "es" else "es"
        if stated.text not in per_lang[other]:
            reported.add((stated.text, stated.lang))
            message = (
                f"{stated.text} is stated in {_NAMES[stated.lang]} but nowhere in the "
                f"{_NAMES[other]} text: both languages state the same numbers"
            )
            problems.append(_at(card, stated.path, message, stated.offset))
    return problems


def number_problems(
    card: Card,
    outputs: list[str],
    views: list[str],
    claim_answers: dict[int, dict[str, Any]],
) -> list[Problem]:
    """Every stated number without backing, every wrong or stale claim, and every decimal
    number stated in one language only. ``outputs``: the example's build-time output in each
    language; ``views``: the demo's first view in each language; ``claim_answers``: the
    worker's answer for each claim, by index."""
    problems, claimed = _claim_problems(card, claim_answers)
    backing = Backing()
    for output in outputs:
        backing.add_printed(output)
    for view in views:
        backing.add_view(view)
    unbacked = set()
    for stated in stated_numbers(card):
        if stated.decimals < MIN_DECIMALS or backing.backs(stated.text):
            continue
        langs = claimed.get(stated.text, set())
        if None in langs or stated.lang in langs or (stated.lang is None and langs):
            continue
        unbacked.add((stated.path, stated.offset))
        message = (
            f"{stated.text} is not printed by the example, shown by the demo or backed by a claim"
        )
        nearest = backing.nearest(stated.text)
        if nearest is not None:
            message += f" (the example or the demo gives {nearest})"
        problems.append(_at(card, stated.path, message, stated.offset))
    return [*problems, *_bilingual_problems(card, unbacked)]
