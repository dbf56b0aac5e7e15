"""`check`'s rules for an example-bound demo (``demo: {example: {controls: [...]}}``).

The binding rules themselves are :mod:`rankcards.viz.bound`'s (the page applies the same
function); here they are reported at the control's YAML line, and the example is run again with
every value a reader can reach at the ends of the controls:

* static (:func:`static_problems`, no running): a slider's ``min < max``, a positive ``step``,
  integers throughout when its literal is an integer, its value on the step's grid; a select's
  option values distinct; a variable bound by two controls; each binding in each language's
  source (assigned once, at top level, to a literal that fits the control); Spanish and English
  sources binding the same values;
* run (:func:`jobs`, then :func:`run_problems`): the example with each slider at its ``min``
  and ``max``, each toggle flipped and each select at every other option (the values the
  teaching rule moves a control to, :func:`rankcards.viz._teaches.moved_values`), within the
  example's time limit: the first variant of a control that raises, times out or crashes is
  reported here; the runs that did not fail go to the teaching rule, the one every demo kind
  answers to (:data:`rankcards.viz._teaches.CHECKERS`, ``"example"``): a control that changes
  nothing the example shows (text, figures, tables) in the card's default state, or a select
  option that does not, is reported at the control's ``bind``.
"""

from __future__ import annotations

import copy
import re
from decimal import Decimal
from typing import Any

from rankcards.cards._model import LANGS, Card
from rankcards.cards._problems import FieldPath, Problem, format_field, parse_field
from rankcards.viz._teaches import EXAMPLE_SLIDER_SAMPLES, moved_values, silent_controls
from rankcards.viz.bound import (
    Binding,
    find_bindings,
    literal_text,
    rewrite,
    same_value,
    value_problem,
)

_EXAMPLE_LINE = re.compile(r'File "<example>", line (\d+)')
_LANGUAGE = {"es": "Spanish", "en": "English"}


def controls_of(card: Card) -> list[dict[str, Any]] | None:
    """The bound controls of ``card``'s demo, or None when its demo is not example-bound."""
    demo = card.data.get("demo")
    if not isinstance(demo, dict) or "example" not in demo:
        return None
    return list(demo["example"]["controls"])


def _at(card: Card, index: int, message: str, field: str = "bind") -> Problem:
    path: FieldPath = ("demo", "example", "controls", index, field)
    line, column = card.marks.of_value(path)
    return Problem(card.path, line, column, format_field(path), message)


def _sources(card: Card) -> list[tuple[str, str]]:
    """(language, source) of the example: one pair when both languages share it."""
    if isinstance(card.data["code"]["source"], str):
        return [("", card.source("en"))]
    return [(lang, card.source(lang)) for lang in LANGS]


def _in(lang: str) -> str:
    return f" in the {_LANGUAGE[lang]} example" if lang else ""


def _decimal(value: float) -> Decimal:
    return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)


def _control_problems(card: Card, index: int, control: dict[str, Any]) -> list[Problem]:
    kind = control["kind"]
    extra = {"slider": {"min", "max", "step"}, "select": {"options"}, "toggle": set()}[kind]
    stray = sorted({"min", "max", "step", "options"} & set(control) - extra)
    if stray:
        return [_at(card, index, f"a {kind} has no {', '.join(stray)}", stray[0])]
    if kind == "slider":
        if "min" not in control or "max" not in control:
            return [_at(card, index, "a slider needs min and max")]
        if not control["min"] < control["max"]:
            return [_at(card, index, "min must be less than max", "min")]
    if kind == "select":
        if "options" not in control:
            return [_at(card, index, "a select needs options")]
        values = [option["value"] for option in control["options"]]
        for position, value in enumerate(values):
            if any(same_value(value, other) for other in values[:position]):
                return [_at(card, index, f"option value {value!r} is listed twice", "options")]
    return []


def _fits(control: dict[str, Any], binding: Binding) -> str | None:
    """What is wrong with the literal's value for its control (beyond :func:`value_problem`: a
    slider's integers, its value on the step's grid), with ``{in}`` where the language goes."""
    wrong = value_problem(control, binding.value)
    if wrong is not None:
        return f"{wrong[1]}{{in}} (line {binding.line})"
    if control["kind"] != "slider":
        return None
    step = control.get("step", 1)
    if binding.kind == "int" and not all(
        isinstance(control.get(key, 1), int) for key in ("min", "max", "step")
    ):
        return (
            f"'{binding.name}' is an integer literal{{in}}: min, max and step must be integers "
            "too (or write the literal as a float, e.g. 10.0)"
        )
    offset = (_decimal(binding.value) - _decimal(control["min"])) / _decimal(step)
    if offset != offset.to_integral_value():
        return (
            f"{binding.value!r}{{in}} is not on the slider's steps "
            f"({control['min']}, {control['min']} + {step}, ...)"
        )
    return None


def _broken(problem: Any) -> str:
    """A broken binding's message, with ``{in}`` where the language goes."""
    where = "" if problem.code == "twice" or not problem.lines else f" (line {problem.lines[0]})"
    message = f"'{problem.name}': {problem.detail}{{in}}{where}"
    if problem.code == "missing":
        message += f"; the example must assign it once, at the top: `{problem.name} = ...`"
    return message


def _bindings(
    card: Card, controls: list[dict[str, Any]]
) -> tuple[dict[str, dict[str, Binding]], list[Problem]]:
    """Each language's bindings (by "" when shared), and the problems of the rules: a problem
    both languages share is said once, without naming either."""
    names = [control["bind"] for control in controls]
    index_of = {name: index for index, name in reversed(list(enumerate(names)))}
    found_by_lang: dict[str, dict[str, Binding]] = {}
    said: dict[tuple[int, str], list[str]] = {}  # (control, message) -> languages
    for lang, source in _sources(card):
        found, broken = find_bindings(source, list(index_of))
        found_by_lang[lang] = found
        for problem in broken:
            said.setdefault((index_of[problem.name], _broken(problem)), []).append(lang)
        for name, binding in found.items():
            message = _fits(controls[index_of[name]], binding)
            if message is not None:
                said.setdefault((index_of[name], message), []).append(lang)
    problems = [
        _at(card, index, message.replace("{in}", _in(langs[0]) if len(langs) == 1 else ""))
        for (index, message), langs in said.items()
    ]
    if set(found_by_lang) == {"es", "en"}:
        es, en = found_by_lang["es"], found_by_lang["en"]
        wrong = {index for index, _ in said}  # a value that breaks its control is said already
        for name in sorted(es.keys() & en.keys() - {names[index] for index in wrong}):
            if not same_value(es[name].value, en[name].value) or es[name].kind != en[name].kind:
                message = (
                    f"the Spanish example assigns {name} = {es[name].value!r}, the English one "
                    f"{name} = {en[name].value!r}: both languages bind the same values"
                )
                problems.append(_at(card, index_of[name], message))
    return found_by_lang, problems


def static_problems(card: Card) -> list[Problem]:
    """Every rule of the module docstring that needs no running (an empty list otherwise)."""
    controls = controls_of(card)
    if controls is None:
        return []
    problems: list[Problem] = []
    seen: set[str] = set()
    for index, control in enumerate(controls):
        problems += _control_problems(card, index, control)
        if control["bind"] in seen:
            problems.append(
                _at(card, index, f"'{control['bind']}' is already bound by another control")
            )
        seen.add(control["bind"])
    if problems:
        return problems
    return _bindings(card, controls)[1]


def state(card: Card) -> dict[str, Any]:
    """The demo's state: each bound name's literal value (the card is valid)."""
    controls = controls_of(card) or []
    found = _bindings(card, controls)[0]
    first = next(iter(found.values()))
    return {control["bind"]: first[control["bind"]].value for control in controls}


def page_bindings(card: Card, lang: str) -> dict[str, dict[str, Any]]:
    """What the page needs of ``lang``'s original example: each literal's UTF-16 span and type
    (``rankcards.viz.bound.locate``'s answer for the unedited code)."""
    from rankcards.viz.bound import locate

    controls = controls_of(card) or []
    answer = locate(card.source(lang), controls)
    return {
        name: {"from": found["from"], "to": found["to"], "type": found["type"]}
        for name, found in answer["bindings"].items()
    }


def page_controls(card: Card, lang: str) -> list[dict[str, Any]]:
    """The controls as the page template renders them in ``lang``: each select option with the
    literal the page writes for it (``literal``: Python's repr, in the quotes the example uses;
    the page never formats a string)."""
    controls = copy.deepcopy(controls_of(card) or [])
    source = card.source(lang)
    found, _ = find_bindings(source, [control["bind"] for control in controls])
    for control in controls:
        binding = found[control["bind"]]
        for option in control.get("options", []):
            option["literal"] = literal_text(option["value"], quote=binding.quote(source))
    return controls


def _variants(control: dict[str, Any], value: Any) -> list[tuple[Any, str]]:
    """(value, how the reader reaches it) of each other value ``check`` runs the example with:
    the values the teaching rule moves the control to (:func:`rankcards.viz._teaches.moved_values`,
    a slider at its two ends)."""
    kind = control["kind"]
    moved = moved_values(control, value, EXAMPLE_SLIDER_SAMPLES)
    if kind == "toggle":
        return [(other, "the toggle's other value") for other in moved]
    if kind == "select":
        return [(other, "an option") for other in moved]
    ends = zip(moved, ("the slider's min", "the slider's max"), strict=True)
    return [(end, where) for end, where in ends if not same_value(end, value)]


def _plan(card: Card) -> list[tuple[str, int, Any, str, str]]:
    """(language, control index, value, where, rewritten source) of every variant to run."""
    controls = controls_of(card)
    if controls is None or static_problems(card):
        return []
    found_by_lang, _ = _bindings(card, controls)
    plan = []
    for lang, source in _sources(card):
        found = found_by_lang[lang]
        for index, control in enumerate(controls):
            binding = found[control["bind"]]
            for value, where in _variants(control, binding.value):
                text = literal_text(value, binding.kind, binding.quote(source))
                plan.append((lang, index, value, where, rewrite(source, binding, text)))
    return plan


def jobs(card: Card) -> list[dict[str, Any]]:
    """The worker jobs (:mod:`rankcards.cards._worker`) of every variant, in :func:`_plan`'s
    order; none when the demo is not example-bound or its bindings are broken."""
    return [{"kind": "example", "source": source} for *_, source in _plan(card)]


def _failure(answer: dict[str, Any]) -> str | None:
    if "timeout" in answer:
        return f"did not finish within {answer['timeout']:g} s"
    if "crashed" in answer:
        return "crashed the Python interpreter"
    error = answer.get("error")
    if error is None:
        return None
    lines = _EXAMPLE_LINE.findall(error)
    where = f" (example line {lines[-1]})" if lines else ""
    return f"raised {error.strip().splitlines()[-1]}{where}"


def run_problems(
    card: Card, defaults: dict[str, dict[str, Any]], answers: list[dict[str, Any]]
) -> list[Problem]:
    """Problems of the variants' ``answers`` (in :func:`jobs`' order) given each language's
    default answer (``defaults``, by language: the build's own run of the example). A control's
    first failing variant is reported (once when both languages fail alike); a control that
    changes nothing the reader sees is the teaching rule's to say
    (:func:`rankcards.viz._teaches.silent_controls`, on the runs that did not fail)."""
    controls = controls_of(card) or []
    said: dict[tuple[int, str], list[str]] = {}  # (control, message) -> languages
    failed: dict[int, dict[str, str]] = {}  # control -> language -> its first failing variant
    runs = {lang: {"default": defaults[lang or "en"], "moved": []} for lang, _ in _sources(card)}
    for (lang, index, value, where, _), answer in zip(_plan(card), answers, strict=True):
        failure = _failure(answer)
        if failure is None:
            runs[lang]["moved"].append((index, value, answer))
            continue
        message = (
            f"the example with {controls[index]['bind']} = {value!r} ({where}){{in}} {failure}"
        )
        failed.setdefault(index, {}).setdefault(lang, message)
    for index, by_lang in failed.items():
        first_lang, first = next(iter(by_lang.items()))
        alike = len(set(by_lang.values())) == 1  # both languages fail alike: said once for both
        said.setdefault((index, first), []).extend(by_lang if alike else [first_lang])
    problems = [
        _at(card, index, message.replace("{in}", _in(langs[0]) if len(langs) == 1 else ""))
        for (index, message), langs in said.items()
    ]
    demo = {"example": {"controls": controls}, "state": state(card), "runs": runs}
    for text in silent_controls(demo):
        field, _, message = text.partition(": ")
        path = parse_field(field)  # demo.example.controls[i].bind, where the binding is written
        problems.append(Problem(card.path, *card.marks.of_value(path), field, message))
    return sorted(set(problems))
