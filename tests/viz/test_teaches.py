"""The rule that every demo control teaches (rankcards.viz._teaches), on a compute module made
for the test: which numbers count, how each control kind is moved, and the messages."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest

from rankcards.viz import validate
from rankcards.viz._teaches import (
    CHECKERS,
    EXAMPLE_SLIDER_SAMPLES,
    moved_values,
    shown_numbers,
    silent_controls,
    slider_values,
)

_LABEL = {"es": "Etiqueta", "en": "Label"}


@pytest.fixture
def fake_module() -> Iterator[None]:
    """A view that shows ``shown`` and a timing; ``ignored`` and ``when`` move no number
    except ``when`` beyond 3, and the select's "same" option shows what "a" shows."""
    module = types.ModuleType("rankcards.viz.fake_teaches")

    def view(state: dict[str, Any], lang: str) -> str:
        value = state["shown"] + (state["when"] > 3) + {"a": 0, "same": 0, "b": 5}[state["pick"]]
        timing = f'<i data-metric="ms" data-value="{float(state["ignored"])!r}" data-rc-volatile>'
        return f'<b data-metric="x" data-value="{float(value)!r}">{value}</b>{timing}</i>'

    module.view = view  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
    yield
    del sys.modules[module.__name__]


def _demo(*controls: dict[str, Any], **state: Any) -> dict[str, Any]:
    return {
        "compute": "rankcards.viz.fake_teaches:view",
        "controls": [{"label": _LABEL, **control} for control in controls],
        "state": {"shown": 1, "ignored": 1, "when": 1, "pick": "a", "flag": False, **state},
    }


@pytest.mark.usefixtures("fake_module")
def test_a_slider_teaches_if_some_value_changes_a_number() -> None:
    teaching = _demo({"kind": "slider", "bind": "when", "min": 1, "max": 5})
    assert validate(teaching) == []  # numbers change only at 4 and 5: that is enough
    silent = _demo({"kind": "slider", "bind": "ignored", "min": 1, "max": 5})
    assert validate(silent) == [
        'demo.controls[0]: the slider "Label" changes no number the view shows in the card\'s '
        "default state (tried 1, 2, 3, 4, 5): give it a range or a state where it matters"
    ]  # the only number it moves is a measured one (data-rc-volatile)


@pytest.mark.usefixtures("fake_module")
def test_a_toggle_and_each_select_option_must_change_a_number() -> None:
    toggle = _demo({"kind": "toggle", "bind": "flag"})
    [problem] = validate(toggle)
    assert problem.startswith('demo.controls[0]: switching the toggle "Label" changes no number')
    options = [{"value": v, "label": _LABEL} for v in ("a", "same", "b")]
    [problem] = validate(_demo({"kind": "select", "bind": "pick", "options": options}))
    assert problem.startswith(
        "demo.controls[0]: option 'same' of the select \"Label\" shows the same numbers as the "
        "default 'a'"
    )
    assert validate(_demo({"kind": "select", "bind": "pick", "options": options[::2]})) == []


def test_how_controls_are_moved() -> None:
    assert slider_values({"min": 1, "max": 32}) == [1, 5, 9, 13, 17, 20, 24, 28, 32]
    assert slider_values({"min": 0.5, "max": 0.6, "step": 0.05}) == [0.5, 0.55, 0.6]
    assert moved_values({"kind": "toggle"}, False) == [True]
    select = {"kind": "select", "options": [{"value": 1}, {"value": 2}, {"value": 3}]}
    assert moved_values(select, 2) == [1, 3]
    assert moved_values({"kind": "ranked-lists"}, []) == []


def test_shown_numbers_leave_out_measured_values() -> None:
    html = (
        '<span class="rc-num" data-metric="mean" data-value="0.25">0.25</span>'
        '<span class="rc-num" data-metric="qps" data-value="812.0" data-rc-volatile>812</span>'
    )
    assert shown_numbers(html) == {"mean": 0.25}


def test_each_demo_kind_has_a_checker() -> None:
    assert set(CHECKERS) >= {"lab", "compute", "example"}


def _shows(output: str) -> dict[str, Any]:
    """A worker's answer for a run of the example that printed ``output``."""
    return {"output": output, "error": None, "figures": [], "tables": []}


def test_an_example_bound_demo_is_judged_on_the_runs_check_made() -> None:
    """The example kind runs in check's worker (rankcards.cards._bound); the rule judges the
    answers: a slider moved at its ends, a run that failed (absent) never judged silent, a
    problem both languages share said once, one language's naming its example."""
    options = [{"value": v, "label": _LABEL} for v in ("mean", "max", "sum")]
    controls = [
        {"kind": "slider", "bind": "k", "label": _LABEL, "min": 1, "max": 4},
        {"kind": "toggle", "bind": "strict", "label": _LABEL},
        {"kind": "select", "bind": "mode", "label": _LABEL, "options": options},
        {"kind": "slider", "bind": "depth", "label": _LABEL, "min": 1, "max": 50},
    ]
    state = {"k": 3, "strict": False, "mode": "mean", "depth": 10}
    assert moved_values(controls[0], 3, EXAMPLE_SLIDER_SAMPLES) == [1, 4]
    default = _shows("mean 0.75")

    def runs(sum_shows: str) -> dict[str, Any]:
        moved = [
            (0, 1, _shows("mean 1.0")),  # k moves the output at its min: it teaches
            (0, 4, default),
            (1, True, default),  # the toggle changes nothing in either language
            (2, "max", _shows("max 1.0")),
            (2, "sum", _shows(sum_shows)),
            (3, 50, default),  # depth's run at 1 failed: not judged silent
        ]
        return {"default": default, "moved": moved}

    demo = {
        "example": {"controls": controls},
        "state": state,
        "runs": {"es": runs("mean 0.75"), "en": runs("sum 2.25")},
    }
    assert silent_controls(demo) == [
        'demo.example.controls[1].bind: switching the toggle "Label" changes nothing the '
        "example shows (text, figures, tables) in the card's default state: give it a state "
        "where it matters, or remove it",
        "demo.example.controls[2].bind: option 'sum' of the select \"Label\" shows the same "
        "output as the default 'mean': each option must change what the Spanish example shows",
    ]
    assert silent_controls({"example": {"controls": controls}, "state": state}) == []
