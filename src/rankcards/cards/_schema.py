"""The card JSON Schema and kind, positioned messages for its violations.

The schema is the contract published to editors (``rankcards schema``, and the site serves
``/schema/card.schema.json``); raw ``jsonschema`` messages are rewritten so a contributor
reads "missing language 'en'" at the line of the text, not a dump of the instance.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from jsonschema.exceptions import ValidationError, best_match  # type: ignore[import-untyped]

from rankcards.cards._problems import FieldPath, Problem, format_field
from rankcards.cards._yaml import Marks

_TYPE_NAMES = {
    "object": "a mapping",
    "array": "a list",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
}
_LANGS = ("es", "en")


def schema_text() -> str:
    """The schema exactly as shipped (what `rankcards schema` prints and the site serves)."""
    return resources.files("rankcards.cards").joinpath("card.schema.json").read_text("utf-8")


@cache
def card_schema() -> dict[str, Any]:
    """The parsed card schema."""
    schema: dict[str, Any] = json.loads(schema_text())
    return schema


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(card_schema())


def _describe(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def _type_name(value: object) -> str:
    for name, python_type in (("boolean", bool), ("integer", int), ("number", float)):
        if isinstance(value, python_type):
            return name
    names: dict[type, str] = {dict: "mapping", list: "list", str: "string"}
    return names.get(type(value), type(value).__name__)


def _problem(file: Path, marks: Marks, error: ValidationError) -> Problem:
    path: FieldPath = tuple(error.absolute_path)
    line, column = marks.of_value(path)
    message = error.message
    kind = error.validator
    if kind in ("oneOf", "anyOf") and error.context:
        return _problem(file, marks, best_match(error.context))
    if kind == "required":
        missing = error.message.split("'")[1]
        if set(error.validator_value) == set(_LANGS):
            message = f"missing language '{missing}' (every text needs both es and en)"
        else:
            message = f"missing field '{missing}'"
    elif kind == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        unknown = sorted(set(error.instance) - set(allowed))
        line, column = marks.of_key((*path, unknown[0]))
        path = (*path, unknown[0])
        message = f"unknown field '{unknown[0]}' (expected one of: {', '.join(allowed)})"
    elif kind == "type":
        expected = _TYPE_NAMES.get(str(error.validator_value), str(error.validator_value))
        message = (
            f"expected {expected}, got {_type_name(error.instance)} {_describe(error.instance)}"
        )
    elif kind == "enum":
        options = ", ".join(str(option) for option in error.validator_value)
        message = f"{_describe(error.instance)} is not one of: {options}"
    elif kind == "pattern":
        hint = error.schema.get("description") or f"pattern {error.validator_value}"
        message = f"{_describe(error.instance)} is not valid: {hint}"
    elif kind in ("minLength", "minItems"):
        message = "must not be empty"
    elif kind == "uniqueItems":
        message = "has repeated entries"
    return Problem(file, line, column, format_field(path), message)


def schema_problems(file: Path, data: dict[str, Any], marks: Marks) -> list[Problem]:
    """Every schema violation of one card, positioned at the offending field."""
    return [_problem(file, marks, error) for error in _validator().iter_errors(data)]
