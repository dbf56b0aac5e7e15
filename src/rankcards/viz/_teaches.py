"""The rule that every demo control teaches: in the card's default state, moving it changes
something the reader sees. It lives here, once, for every demo kind: :func:`rankcards.viz.validate`
applies it to a ``compute`` or ``lab`` demo, and ``rankcards check`` to an example-bound one
(:mod:`rankcards.cards._bound`), so a control that changes nothing is reported at its YAML line
before a reviewer has to.

What the reader sees, per demo kind:

* a view's **numbers** are its ``data-metric`` values (:func:`rankcards.viz._html.metric`),
  except measured ones (``data-rc-volatile``: timings, throughput), read from the English view
  (both languages show the same numbers: the views' tests check it);
* in the **measure lab** the number that matters is the mean (``data-metric="mean"``) for the K
  slider and the parameter sliders, and for a convention its two sides shown with its toggle on
  (``<convention>:default`` and ``<convention>:other``), which must differ;
* an **example-bound demo** (``demo: {example: {controls}}``) shows the example's output: its
  text, figures and tables (:func:`example_shown`), in each language's example.

How each control is moved, alone, from the card's initial state (:func:`moved_values`):

* ``slider``: its values from min to max by step, at most :data:`SLIDER_SAMPLES` of them evenly
  spread, both ends included (an example-bound demo's at its two ends only,
  :data:`EXAMPLE_SLIDER_SAMPLES`: each value is a run of the example); some value must show
  something other than the initial one;
* ``toggle``: switched; what is shown must change;
* ``select``: every other option; each must change what is shown;
* ``ranked-lists``: not moved (the rankings are the data: a press always changes a label).

A demo kind plugs in with one function ``checker(demo) -> ["<field path>: message", ...]`` in
:data:`CHECKERS`, keyed by the kind's field in the ``demo`` block (``lab``, ``compute``,
``example``); :func:`silent_in` is the rule and its wording, which a kind calls with what moving
each control shows. The example kind's runs are ``check``'s worker jobs (parallel, cached, each
within a time limit): ``rankcards.cards._bound`` plans them with :func:`moved_values` and hands
their answers to the checker, which judges them here.

>>> slider_values({"min": 1, "max": 5})
[1, 2, 3, 4, 5]
>>> slider_values({"min": 0, "max": 0.1, "step": 0.01})  # 11 values, thinned to 9
[0.0, 0.01, 0.02, 0.04, 0.05, 0.06, 0.08, 0.09, 0.1]
>>> slider_values({"min": 1, "max": 50}, EXAMPLE_SLIDER_SAMPLES)
[1, 50]
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from rankcards.viz._html import fmt
from rankcards.viz.bound import same_value

__all__ = [
    "CHECKERS",
    "EXAMPLE_SLIDER_SAMPLES",
    "SLIDER_SAMPLES",
    "Seen",
    "example_shown",
    "moved_values",
    "shown_numbers",
    "silent_controls",
    "silent_in",
    "slider_values",
]

#: the most values of one slider that are rendered (the ends always among them)
SLIDER_SAMPLES = 9
#: an example-bound demo's slider is run at its two ends: each value is a run of the example
EXAMPLE_SLIDER_SAMPLES = 2
_METRIC = re.compile(r"<[^>]*\sdata-metric=\"([^\"]*)\"[^>]*>")
_VALUE = re.compile(r"\sdata-value=\"([^\"]*)\"")
Numbers = dict[str, float]
Checker = Callable[[Mapping[str, Any]], list[str]]
#: whether moving control ``index`` to ``value`` changes what the reader sees (None: unknown,
#: e.g. that run failed, which is reported elsewhere)
Moves = Callable[[int, object], bool | None]


class Seen(NamedTuple):
    """How the messages name what the reader sees of a demo kind."""

    nothing: str  # "changes <nothing> in the card's default state"
    same: str  # "shows <same> as the default"
    what: str  # "each option must change <what>"


_VIEW = Seen("no number the view shows", "the same numbers", "what the view shows")


def shown_numbers(html: str) -> Numbers:
    """The view's numbers: ``data-metric`` name -> ``data-value``, measured ones left out.

    >>> shown_numbers('<span data-metric="mean" data-value="0.5">0.5</span>'
    ...               '<span data-metric="qps" data-value="9.0" data-rc-volatile>9</span>')
    {'mean': 0.5}
    """
    numbers = {}
    for tag in _METRIC.finditer(html):
        value = _VALUE.search(tag.group(0))
        if value is not None and " data-rc-volatile" not in tag.group(0):
            numbers[tag.group(1)] = float(value.group(1))
    return numbers


def example_shown(answer: Mapping[str, Any]) -> tuple[object, ...]:
    """What a run of the example shows: its text output, figures and tables (a worker's answer,
    :mod:`rankcards.cards._worker`).

    >>> example_shown({"output": "P@10 = 0.4\\n", "figures": [], "tables": ["<table>"]})
    ('P@10 = 0.4\\n', [], ['<table>'])
    """
    return (answer.get("output"), answer.get("figures"), answer.get("tables"))


def slider_values(control: Mapping[str, Any], samples: int = SLIDER_SAMPLES) -> list[float]:
    """The slider's values from min to max by step, thinned to ``samples`` (ends included)."""
    low, high, step = control["min"], control["max"], control.get("step", 1)
    count = round((high - low) / step) + 1
    picks = range(count)
    if count > samples:
        picks = sorted({round(i * (count - 1) / (samples - 1)) for i in range(samples)})
    # the state's own number type: integers stay integers, decimals keep the step's digits
    decimals = max(0, len(repr(float(step)).partition(".")[2].rstrip("0")))
    values = [low + i * step for i in picks]
    if all(isinstance(x, int) for x in (low, high, step)):
        return [int(v) for v in values]
    return [round(v, decimals + 2) for v in values]


def moved_values(
    control: Mapping[str, Any], initial: object, samples: int = SLIDER_SAMPLES
) -> list[object]:
    """The values a control is moved to: a slider's (initial included), the other toggle
    position, a select's other options (compared as the page compares JSON values: 1 is 1.0, a
    bool is no number); none for ranked lists."""
    kind = control["kind"]
    if kind == "slider":
        return list(slider_values(control, samples))
    if kind == "toggle":
        return [not initial]
    if kind == "select":
        return [
            option["value"]
            for option in control["options"]
            if not same_value(option["value"], initial)
        ]
    return []


def _quoted(control: Mapping[str, Any]) -> str:
    return f'the {control["kind"]} "{control["label"]["en"]}"'


def silent_in(
    controls: Sequence[Mapping[str, Any]],
    state: Mapping[str, Any],
    moves: Moves,
    *,
    field: Callable[[int], str],
    seen: Seen = _VIEW,
    samples: int = SLIDER_SAMPLES,
) -> list[str]:
    """The rule, for any demo kind: ``"<field(index)>: message"`` for each control that teaches
    nothing, moved as :func:`moved_values` says and judged by ``moves``. A slider teaches when
    some value moves something; a toggle when switched; a select when each other option does. A
    value whose effect is unknown (None) is never judged silent."""
    problems = []
    for index, control in enumerate(controls):
        default = state[control["bind"]]
        values = [
            value
            for value in moved_values(control, default, samples)
            if control["kind"] != "slider" or not same_value(value, default)
        ]
        verdicts: list[bool | None] = []
        for value in values:  # a slider or toggle needs one value that moves something
            verdicts.append(moves(index, value))
            if verdicts[-1] and control["kind"] != "select":
                break
        if control["kind"] == "slider" and not any(verdicts) and None not in verdicts:
            tried = ", ".join(
                fmt(float(value), 4) for value in moved_values(control, default, samples)
            )
            problems.append(
                f"{field(index)}: {_quoted(control)} changes {seen.nothing} in the card's default "
                f"state (tried {tried}): give it a range or a state where it matters"
            )
        elif control["kind"] == "toggle" and verdicts == [False]:
            problems.append(
                f"{field(index)}: switching {_quoted(control)} changes {seen.nothing} in the "
                "card's default state: give it a state where it matters, or remove it"
            )
        elif control["kind"] == "select":
            same = [value for value, moved in zip(values, verdicts, strict=True) if moved is False]
            if same:
                options = ", ".join(repr(value) for value in same)
                option, shows = ("option", "shows") if len(same) == 1 else ("options", "show")
                problems.append(
                    f"{field(index)}: {option} {options} of {_quoted(control)} {shows} "
                    f"{seen.same} as the default {default!r}: each option must change "
                    f"{seen.what}"
                )
    return problems


def _compute_silent(demo: Mapping[str, Any]) -> list[str]:
    """A ``compute`` demo: each control must change some number of the view."""
    from rankcards.viz import load_compute

    compute = load_compute(demo["compute"])
    state = demo["state"]
    controls = demo.get("controls") or []

    def numbers(changes: Mapping[str, object]) -> Numbers:
        return shown_numbers(compute(copy.deepcopy({**state, **changes}), "en"))

    initial = numbers({})

    def moves(index: int, value: object) -> bool:
        return numbers({controls[index]["bind"]: value}) != initial

    return silent_in(controls, state, moves, field=lambda index: f"demo.controls[{index}]")


def _lab_silent(demo: Mapping[str, Any]) -> list[str]:
    """The measure lab: the K and parameter sliders move the mean; conventions differ."""
    from rankcards.viz import expand
    from rankcards.viz._lab_spec import PARAM_PREFIX
    from rankcards.viz.lab import view

    spec = demo["lab"]
    expanded = expand(demo)
    state = expanded["state"]

    def shown(**changes: object) -> Numbers:
        return shown_numbers(view(copy.deepcopy({**state, **changes}), "en"))

    problems = []
    for control in expanded["controls"]:
        bind = control["bind"]
        if control["kind"] == "slider":
            values = slider_values(control)
            mean = shown().get("mean")
            if any(shown(**{bind: value}).get("mean") != mean for value in values):
                continue
            if bind == "k":
                where, what, cause = "demo.lab.k", "the K slider", "the cutoff"
            else:
                name = bind.removeprefix(PARAM_PREFIX)
                where, what, cause = f"demo.lab.params.{name}", f"the {name} slider", name
            problems.append(
                f"{where}: {what} leaves the mean at {_shown(mean)} for every value from "
                f"{fmt(values[0], 4)} to {fmt(values[-1], 4)} in the card's default state: "
                f"choose demo.lab.queries where {cause} changes the mean"
            )
        elif control["kind"] == "toggle":
            convention = bind.removeprefix("show_")
            numbers = shown(**{bind: True})
            first, second = numbers.get(f"{convention}:default"), numbers.get(f"{convention}:other")
            if first != second:
                continue
            index = list(spec["conventions"]).index(convention)
            problems.append(
                f'demo.lab.conventions[{index}]: "{convention}" shows the same mean on both '
                f"sides ({_shown(first)} and {_shown(second)}) in the card's default state: "
                "choose demo.lab.queries (or k) where the two conventions differ"
            )
    return problems


def _shown(value: float | None) -> str:
    return "no value" if value is None else fmt(value, 4)


_EXAMPLE = {"": "the example", "es": "the Spanish example", "en": "the English example"}


def _example_seen(lang: str) -> Seen:
    example = _EXAMPLE[lang]
    return Seen(
        f"nothing {example} shows (text, figures, tables)",
        "the same output",
        f"what {example} shows",
    )


def _example_moves(runs: Mapping[str, Any]) -> Moves:
    """Whether a run moved the example's output from its default run (None: it did not run)."""
    default = example_shown(runs["default"])
    shown = {(index, repr(value)): example_shown(answer) for index, value, answer in runs["moved"]}

    def moves(index: int, value: object) -> bool | None:
        seen = shown.get((index, repr(value)))
        return None if seen is None else seen != default

    return moves


def _example_silent(demo: Mapping[str, Any]) -> list[str]:
    """An example-bound demo, judged on the runs ``check``'s worker made
    (:mod:`rankcards.cards._bound`): ``demo["state"]`` holds the bound literals' values and
    ``demo["runs"]`` maps each language's example (``""`` when both share one source) to
    ``{"default": answer, "moved": [(control index, value, answer), ...]}``, the values as
    :func:`moved_values` gives them with :data:`EXAMPLE_SLIDER_SAMPLES` and the answers as the
    worker gives them; a run that failed is left out (``check`` reports it). A control silent
    alike in every language is said once; otherwise each problem names its language's example.
    With no runs, nothing is judged."""
    controls = demo["example"]["controls"]
    state = demo["state"]

    def field(index: int) -> str:
        return f"demo.example.controls[{index}].bind"

    said: dict[str, list[str]] = {}  # a language's problems, in neutral words
    named: dict[str, list[str]] = {}  # the same problems, naming the language's example
    for lang, runs in (demo.get("runs") or {}).items():
        moves = _example_moves(runs)
        for words, where in ((said, ""), (named, lang)):
            words[lang] = silent_in(
                controls,
                state,
                moves,
                field=field,
                seen=_example_seen(where),
                samples=EXAMPLE_SLIDER_SAMPLES,
            )
    problems: list[str] = []
    for lang, messages in said.items():
        for message, in_lang in zip(messages, named[lang], strict=True):
            alike = all(message in others for others in said.values())
            problem = message if alike else in_lang
            if problem not in problems:
                problems.append(problem)
    return problems


#: the checker of each demo kind, by the field that names the kind in the ``demo`` block
CHECKERS: dict[str, Checker] = {
    "lab": _lab_silent,
    "compute": _compute_silent,
    "example": _example_silent,
}


def silent_controls(demo: Mapping[str, Any]) -> list[str]:
    """``"<field path>: message"`` for each control of a valid demo that changes nothing the
    reader sees in the card's default state (the kind's checker; [] for an unknown kind)."""
    for kind, checker in CHECKERS.items():
        if kind in demo:
            return checker(demo)
    return []
