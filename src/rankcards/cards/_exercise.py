"""A card's ``exercise`` block: the static checks, and the build-time run of its solution and
starter with :mod:`rankcards.exercises` (the checker the page runs when the reader presses Check).

Static (no running): the signature names the function, the hints have as many items in Spanish
as in English, the starter and the solution compile. Run: the solution must pass every case and
the starter must fail one (a starter that passes teaches nothing); the card's own reference must
answer every named case.
"""

from __future__ import annotations

import json
from typing import Any

from rankcards.cards._model import Card
from rankcards.cards._problems import FieldPath, Problem, format_field

SOURCES = ("starter", "solution")


def _at(card: Card, path: FieldPath, message: str, line_offset: int = 0) -> Problem:
    line, column = card.marks.of_value(path)
    if line_offset and path in card.marks.block_scalars:
        line, column = line + line_offset, 1
    return Problem(card.path, line, column, format_field(path), message)


def spec(exercise: dict[str, Any]) -> dict[str, Any]:
    """What the checker reads (and the page embeds): no task, hints or solution."""
    keys = ("function", "reference", "cases", "random")
    return {key: exercise[key] for key in keys if key in exercise}


def spec_json(exercise: dict[str, Any]) -> str:
    """The spec as JSON safe inside a ``<script type="application/json">`` element."""
    text = json.dumps(spec(exercise), ensure_ascii=False, sort_keys=True)
    for char, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(char, escaped)
    return text


def static_problems(card: Card) -> list[Problem]:
    """The exercise's problems found without running anything (the card is schema-valid)."""
    exercise = card.data.get("exercise")
    if exercise is None:
        return []
    problems = []
    function = exercise["function"]
    if not exercise["signature"].startswith(f"{function}("):
        problems.append(
            _at(
                card,
                ("exercise", "signature"),
                f"'{exercise['signature']}' must start with the function's name: {function}(...)",
            )
        )
    counts = {lang: len(exercise["hints"][lang]) for lang in ("es", "en")}
    if counts["es"] != counts["en"]:
        problems.append(
            _at(
                card,
                ("exercise", "hints", "en"),
                "each language lists the same hints "
                f"(es has {counts['es']}, en has {counts['en']})",
            )
        )
    for name in SOURCES:
        try:
            compile(exercise[name], "<exercise>", "exec")
        except SyntaxError as error:
            problems.append(
                _at(
                    card,
                    ("exercise", name),
                    f"invalid Python: {error.msg} (line {error.lineno})",
                    error.lineno or 0,
                )
            )
    return problems


def jobs(card: Card) -> list[dict[str, Any]]:
    """The build's runs for ``card``: its solution, then its starter (none without exercise)."""
    exercise = card.data.get("exercise")
    if exercise is None:
        return []
    return [
        {"kind": "exercise", "source": exercise[name], "spec": spec(exercise)} for name in SOURCES
    ]


def _last_line(text: str) -> int:
    """The last ``<exercise>`` line a traceback names (0 when none)."""
    lines = [
        int(part.split(",")[0])
        for part in text.split('File "<exercise>", line ')[1:]
        if part.split(",")[0].isdigit()
    ]
    return lines[-1] if lines else 0


def run_problems(card: Card, answers: list[dict[str, Any]]) -> list[Problem]:
    """Problems from the answers to :func:`jobs` (solution first, then starter)."""
    problems = []
    for name, answer in zip(SOURCES, answers, strict=True):
        path: FieldPath = ("exercise", name)
        if "timeout" in answer:
            message = f"the check did not finish within {answer['timeout']:g} s"
            problems.append(_at(card, path, message))
        elif "crashed" in answer:
            problems.append(_at(card, path, "the check crashed the Python interpreter"))
        elif "spec_error" in answer:
            field = answer["field"]
            where: FieldPath = ("exercise", field)
            if field.startswith("cases["):
                where = ("exercise", "cases", int(field[len("cases[") : -1]), "args")
            problems.append(_at(card, where, answer["spec_error"]))
            break  # the same for the starter
        elif name == "solution" and answer["state"] != "pass":
            error = (answer["failure"] or {}).get("error") or ""
            problems.append(
                _at(card, path, f"the solution fails: {answer['message']}", _last_line(error))
            )
        elif name == "starter" and answer["state"] == "pass":
            problems.append(
                _at(
                    card,
                    path,
                    "the starter passes every case: it must fail (else the exercise teaches "
                    "nothing)",
                )
            )
    return problems
