"""The rule that every demo control teaches: in the card's default state, moving it changes a
number the reader sees. :func:`rankcards.viz.validate` applies it, so ``rankcards check``
reports a control that changes nothing at its YAML line, before a reviewer has to.

What the reader sees, per demo kind:

* a view's **numbers** are its ``data-metric`` values (:func:`rankcards.viz._html.metric`),
  except measured ones (``data-rc-volatile``: timings, throughput), read from the English view
  (both languages show the same numbers: the views' tests check it);
* in the **measure lab** the number that matters is the mean (``data-metric="mean"``) for the K
  slider and the parameter sliders, and for a convention its two sides shown with its toggle on
  (``<convention>:default`` and ``<convention>:other``), which must differ.

How each control is moved, alone, from the card's initial state:

* ``slider``: its values from min to max by step, at most :data:`SLIDER_SAMPLES` of them evenly
  spread, both ends included; some value must show other numbers than the initial one;
* ``toggle``: switched; the numbers must change;
* ``select``: every other option; each must change the numbers;
* ``ranked-lists``: not moved (the rankings are the data: a press always changes a label).

A demo kind plugs in with one function ``checker(demo) -> ["<field path>: message", ...]`` in
:data:`CHECKERS`, keyed by the kind's field in the ``demo`` block (``lab``, ``compute``). The
helpers below (:func:`shown_numbers`, :func:`slider_values`, :func:`moved_values`) are the parts
a new kind reuses.

>>> slider_values({"min": 1, "max": 5})
[1, 2, 3, 4, 5]
>>> slider_values({"min": 0, "max": 0.1, "step": 0.01})  # 11 values, thinned to 9
[0.0, 0.01, 0.02, 0.04, 0.05, 0.06, 0.08, 0.09, 0.1]
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from typing import Any

from rankcards.viz._html import fmt

__all__ = [
    "CHECKERS",
    "SLIDER_SAMPLES",
    "moved_values",
    "shown_numbers",
    "silent_controls",
    "slider_values",
]

#: the most values of one slider that are rendered (the ends always among them)
SLIDER_SAMPLES = 9
_METRIC = re.compile(r"<[^>]*\sdata-metric=\"([^\"]*)\"[^>]*>")
_VALUE = re.compile(r"\sdata-value=\"([^\"]*)\"")
Numbers = dict[str, float]
Checker = Callable[[Mapping[str, Any]], list[str]]


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


def slider_values(control: Mapping[str, Any]) -> list[float]:
    """The slider's values from min to max by step, thinned to :data:`SLIDER_SAMPLES`."""
    low, high, step = control["min"], control["max"], control.get("step", 1)
    count = round((high - low) / step) + 1
    picks = range(count)
    if count > SLIDER_SAMPLES:
        picks = sorted(
            {round(i * (count - 1) / (SLIDER_SAMPLES - 1)) for i in range(SLIDER_SAMPLES)}
        )
    # the state's own number type: integers stay integers, decimals keep the step's digits
    decimals = max(0, len(repr(float(step)).partition(".")[2].rstrip("0")))
    values = [low + i * step for i in picks]
    if all(isinstance(x, int) for x in (low, high, step)):
        return [int(v) for v in values]
    return [round(v, decimals + 2) for v in values]


def moved_values(control: Mapping[str, Any], initial: object) -> list[object]:
    """The values a control is moved to: a slider's (initial included), the other toggle
    position, a select's other options; none for ranked lists."""
    kind = control["kind"]
    if kind == "slider":
        return list(slider_values(control))
    if kind == "toggle":
        return [not initial]
    if kind == "select":
        return [option["value"] for option in control["options"] if option["value"] != initial]
    return []


def _quoted(control: Mapping[str, Any]) -> str:
    return f'the {control["kind"]} "{control["label"]["en"]}"'


def _compute_silent(demo: Mapping[str, Any]) -> list[str]:
    """A ``compute`` demo: each control must change some number of the view."""
    from rankcards.viz import load_compute

    compute = load_compute(demo["compute"])
    state = demo["state"]

    def numbers(bind: str, value: object) -> Numbers:
        return shown_numbers(compute(copy.deepcopy({**state, bind: value}), "en"))

    initial = shown_numbers(compute(copy.deepcopy(dict(state)), "en"))
    problems = []
    for index, control in enumerate(demo.get("controls") or []):
        bind, where = control["bind"], f"demo.controls[{index}]"
        values = moved_values(control, state[bind])
        if control["kind"] == "slider":  # one value that changes something is enough
            if any(numbers(bind, value) != initial for value in values if value != state[bind]):
                continue
            same = values
        else:
            same = [value for value in values if numbers(bind, value) == initial]
        if control["kind"] == "slider":
            tried = ", ".join(fmt(float(value), 4) for value in values)
            problems.append(
                f"{where}: {_quoted(control)} changes no number the view shows in the card's "
                f"default state (tried {tried}): give it a range or a state where it matters"
            )
        elif control["kind"] == "toggle" and same:
            problems.append(
                f"{where}: switching {_quoted(control)} changes no number the view shows in the "
                "card's default state: give it a state where it matters, or remove it"
            )
        elif control["kind"] == "select" and same:
            problems.append(
                f"{where}: option {same[0]!r} of {_quoted(control)} shows the same numbers as "
                f"the default {state[bind]!r}: each option must change what the view shows"
            )
    return problems


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


#: the checker of each demo kind, by the field that names the kind in the ``demo`` block
CHECKERS: dict[str, Checker] = {"lab": _lab_silent, "compute": _compute_silent}


def silent_controls(demo: Mapping[str, Any]) -> list[str]:
    """``"<field path>: message"`` for each control of a valid demo that changes nothing the
    reader sees in the card's default state (the kind's checker; [] for an unknown kind)."""
    for kind, checker in CHECKERS.items():
        if kind in demo:
            return checker(demo)
    return []
