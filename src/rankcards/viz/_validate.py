"""Structural checks of a demo's ``controls`` against its ``state`` (see :mod:`rankcards.viz`).

Why separate: the rules are the contract the page template and ``web/controls.js`` rely on
(a slider's value inside its range, a ranked list's docnos distinct, ...), so a card that
breaks them is rejected when the site is built rather than misbehaving in a reader's browser.
Each problem is ``"<field path>: <message>"`` with the path relative to the card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_LANGS = ("es", "en")
_KINDS = ("slider", "toggle", "select", "ranked-lists")
_COMMON = {"kind", "bind", "label", "help"}
_EXTRA = {
    "slider": {"min", "max", "step"},
    "toggle": set(),
    "select": {"options"},
    "ranked-lists": {"max_grade", "unjudged"},
}


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _text_problem(value: object) -> str | None:
    if not isinstance(value, Mapping) or set(value) != set(_LANGS):
        return "expected {es: ..., en: ...}"
    if not all(isinstance(value[lang], str) and value[lang].strip() for lang in _LANGS):
        return "both es and en must be non-empty strings"
    return None


def _slider(control: Mapping[str, Any], value: object, where: str) -> list[str]:
    low, high, step = control.get("min"), control.get("max"), control.get("step", 1)
    if not (_is_number(low) and _is_number(high) and low < high):
        return [f"{where}: min and max must be numbers with min < max"]
    if not (_is_number(step) and step > 0):
        return [f"{where}.step: must be a positive number, got {step!r}"]
    if not (_is_number(value) and low <= value <= high):
        return [f"{where}.bind: state value {value!r} is not a number in [{low}, {high}]"]
    return []


def _select(control: Mapping[str, Any], value: object, where: str) -> list[str]:
    options = control.get("options")
    if not isinstance(options, list) or not options:
        return [f"{where}.options: expected a non-empty list of {{value, label}}"]
    problems, values = [], []
    for index, option in enumerate(options):
        if not isinstance(option, Mapping) or set(option) != {"value", "label"}:
            problems.append(f"{where}.options[{index}]: expected exactly value and label")
            continue
        if not isinstance(option["value"], str | int | float | bool):
            problems.append(f"{where}.options[{index}].value: must be a JSON scalar")
        if (problem := _text_problem(option["label"])) is not None:
            problems.append(f"{where}.options[{index}].label: {problem}")
        if option["value"] in values:
            problems.append(f"{where}.options[{index}].value: duplicate {option['value']!r}")
        values.append(option["value"])
    if not problems and value not in values:
        problems.append(f"{where}.bind: state value {value!r} is not one of {values}")
    return problems


def ranked_list_problems(
    item: object, max_grade: int, where: str, unjudged: bool = False
) -> list[str]:
    """Problems of one ranked list (``{query, ranking, relevant|grades}``, plus ``unjudged``
    when the control allows it) at ``where``."""
    labels = "relevant" if max_grade == 1 else "grades"
    keys = {"query", "ranking", labels}
    allowed = keys | {"unjudged"} if unjudged else keys
    if not isinstance(item, Mapping) or not keys <= set(item) <= allowed:
        also = " (and optionally unjudged)" if unjudged else ""
        return [f"{where}: expected exactly query, ranking and {labels}{also}"]
    ranking = item["ranking"]
    if not isinstance(item["query"], str) or not item["query"]:
        return [f"{where}.query: must be a non-empty string"]
    if not isinstance(ranking, list) or not all(isinstance(doc, str) for doc in ranking):
        return [f"{where}.ranking: must be a list of docno strings"]
    if len(set(ranking)) != len(ranking):
        return [f"{where}.ranking: docnos must be distinct"]
    if max_grade == 1:
        marked = item["relevant"]
        if not isinstance(marked, list) or not all(isinstance(doc, str) for doc in marked):
            return [f"{where}.relevant: must be a list of docno strings"]
    else:
        marked = item["grades"]
        if not isinstance(marked, Mapping) or not all(
            isinstance(doc, str) and isinstance(grade, int) and 0 <= grade <= max_grade
            for doc, grade in marked.items()
        ):
            return [f"{where}.grades: must map docnos to integers 0..{max_grade}"]
    return _unjudged_problems(item.get("unjudged", []), ranking, marked, where)


def _unjudged_problems(
    unjudged: object, ranking: list[str], marked: object, where: str
) -> list[str]:
    """An unjudged document is a listed one with no label: not marked relevant, no grade."""
    if not isinstance(unjudged, list) or not all(isinstance(doc, str) for doc in unjudged):
        return [f"{where}.unjudged: must be a list of docno strings"]
    if len(set(unjudged)) != len(unjudged):
        return [f"{where}.unjudged: docnos must be distinct"]
    listed = set(ranking)
    labelled = set(marked) if isinstance(marked, list | Mapping) else set()
    for doc in unjudged:
        if doc not in listed:
            return [f"{where}.unjudged: {doc!r} is not in the ranking"]
        if doc in labelled:
            return [f"{where}.unjudged: {doc!r} also has a label: an unjudged document has none"]
    return []


def _ranked_lists(control: Mapping[str, Any], value: object, where: str) -> list[str]:
    max_grade = control.get("max_grade", 1)
    if not isinstance(max_grade, int) or isinstance(max_grade, bool) or max_grade < 1:
        return [f"{where}.max_grade: must be an integer >= 1, got {max_grade!r}"]
    unjudged = control.get("unjudged", False)
    if not isinstance(unjudged, bool):
        return [f"{where}.unjudged: must be true or false, got {unjudged!r}"]
    if not isinstance(value, list) or not value:
        return [f"{where}.bind: state value must be a non-empty list of ranked lists"]
    problems = []
    for index, item in enumerate(value):
        at = f"demo.state.{control['bind']}[{index}]"
        problems.extend(ranked_list_problems(item, max_grade, at, unjudged))
    return problems


def _control(control: object, state: Mapping[str, Any], where: str) -> list[str]:
    if not isinstance(control, Mapping):
        return [f"{where}: expected a mapping with kind, bind and label"]
    kind = control.get("kind")
    if kind not in _KINDS:
        return [f"{where}.kind: expected one of {', '.join(_KINDS)}, got {kind!r}"]
    unknown = sorted(set(control) - _COMMON - _EXTRA[kind])
    if unknown:
        return [f"{where}: unknown field(s) for a {kind}: {', '.join(unknown)}"]
    problems = []
    for field in ("label", "help"):
        needed = field in control or field == "label"
        if needed and (problem := _text_problem(control.get(field))) is not None:
            problems.append(f"{where}.{field}: {problem}")
    bind = control.get("bind")
    if not isinstance(bind, str) or bind not in state:
        keys = ", ".join(sorted(state))
        return [*problems, f"{where}.bind: {bind!r} is not a key of demo.state ({keys})"]
    value = state[bind]
    if kind == "slider":
        problems.extend(_slider(control, value, where))
    elif kind == "toggle" and not isinstance(value, bool):
        problems.append(f"{where}.bind: state value {value!r} must be true or false")
    elif kind == "select":
        problems.extend(_select(control, value, where))
    elif kind == "ranked-lists":
        problems.extend(_ranked_lists(control, value, where))
    return problems


def validate_controls(controls: object, state: Mapping[str, Any]) -> list[str]:
    """Problems of ``demo.controls`` (a list, possibly empty) given ``demo.state``."""
    if controls is None:
        return []
    if not isinstance(controls, list):
        return ["demo.controls: expected a list of controls"]
    problems = []
    bound: set[str] = set()
    for index, control in enumerate(controls):
        where = f"demo.controls[{index}]"
        problems.extend(_control(control, state, where))
        bind = control.get("bind") if isinstance(control, Mapping) else None
        if isinstance(bind, str):
            if bind in bound:
                problems.append(f"{where}.bind: {bind!r} is already bound by another control")
            bound.add(bind)
    return problems
