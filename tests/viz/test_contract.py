"""rankcards.viz.render / validate: the demo contract checked on good and broken demo blocks."""

from __future__ import annotations

import copy
import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from rankcards.viz import DemoError, load_compute, render, validate
from repo_paths import CARDS

_LABEL = {"es": "Etiqueta", "en": "Label"}


@pytest.fixture
def fake_module() -> Iterator[types.ModuleType]:
    """A compute module under rankcards.viz that exists only for the test."""
    module = types.ModuleType("rankcards.viz.fake_for_tests")

    def view(state: dict[str, Any], lang: str) -> str:
        state["mutated"] = True  # render must hand compute a copy
        return f"<p>{lang}:{state['k']}</p>" + _numbers(state)

    def boom(state: dict[str, Any], lang: str) -> str:
        raise ZeroDivisionError("division by zero")

    def not_html(state: dict[str, Any], lang: str) -> int:
        return 3

    module.view, module.boom, module.not_html = view, boom, not_html
    sys.modules[module.__name__] = module
    yield module
    del sys.modules[module.__name__]


def _numbers(state: dict[str, Any]) -> str:
    """A number that each control moves (every control must teach: rankcards.viz._teaches)."""
    value = state["k"] + 10 * state["complete"] + 100 * (state["measure"] == "P")
    return f'<span data-metric="x" data-value="{float(value)!r}"></span>'


def _demo(**changes: Any) -> dict[str, Any]:
    demo: dict[str, Any] = {
        "compute": "rankcards.viz.fake_for_tests:view",
        "controls": [
            {"kind": "slider", "bind": "k", "label": _LABEL, "min": 1, "max": 5},
            {"kind": "toggle", "bind": "complete", "label": _LABEL},
            {
                "kind": "select",
                "bind": "measure",
                "label": _LABEL,
                "options": [{"value": "RR", "label": _LABEL}, {"value": "P", "label": _LABEL}],
            },
            {"kind": "ranked-lists", "bind": "queries", "label": _LABEL},
        ],
        "state": {
            "k": 3,
            "complete": False,
            "measure": "RR",
            "queries": [{"query": "q1", "ranking": ["d1", "d2"], "relevant": ["d2"]}],
        },
    }
    demo.update(changes)
    return demo


def test_render_calls_compute_on_a_copy_of_the_state(fake_module: types.ModuleType) -> None:
    demo = _demo()
    before = copy.deepcopy(demo)
    assert render(demo, "es").startswith("<p>es:3</p><span data-metric")
    assert demo == before


def test_a_valid_demo_has_no_problems(fake_module: types.ModuleType) -> None:
    assert validate(_demo()) == []


def _control(index: int, **changes: Any) -> dict[str, Any]:
    demo = _demo()
    demo["controls"][index].update(changes)
    return demo


def _state(**changes: Any) -> dict[str, Any]:
    demo = _demo()
    demo["state"].update(changes)
    return demo


BROKEN = [
    (_demo(compute="rankcards.viz.fake_for_tests"), "demo.compute: expected 'module:function'"),
    (_demo(compute="os:system"), "must live in rankcards.viz or rankcards.demos"),
    (_demo(compute="rankcards.viz.nope:view"), "demo.compute: cannot import 'rankcards.viz.nope'"),
    (_demo(compute="rankcards.viz.fake_for_tests:nope"), "has no function 'nope'"),
    (
        _demo(compute="rankcards.viz.fake_for_tests:boom"),
        "failed on the initial state (es): ZeroDivisionError: division by zero",
    ),
    (_demo(compute="rankcards.viz.fake_for_tests:not_html"), "returned int, expected str"),
    (_demo(state=[1]), "demo.state: expected a mapping"),
    (_demo(controls={"k": 1}), "demo.controls: expected a list"),
    (_control(0, kind="knob"), "demo.controls[0].kind: expected one of slider, toggle"),
    (_control(0, bind="n"), "demo.controls[0].bind: 'n' is not a key of demo.state"),
    (_control(0, colour="red"), "demo.controls[0]: unknown field(s) for a slider: colour"),
    (_control(0, label={"es": "x"}), "demo.controls[0].label: expected {es: ..., en: ...}"),
    (_control(0, label={"es": "x", "en": " "}), "demo.controls[0].label: both es and en"),
    (_control(0, min=5, max=1), "demo.controls[0]: min and max must be numbers with min < max"),
    (_control(0, step=0), "demo.controls[0].step: must be a positive number"),
    (_state(k=9), "demo.controls[0].bind: state value 9 is not a number in [1, 5]"),
    (_state(complete="yes"), "demo.controls[1].bind: state value 'yes' must be true or false"),
    (_state(measure="AP"), "demo.controls[2].bind: state value 'AP' is not one of ['RR', 'P']"),
    (_control(2, options=[]), "demo.controls[2].options: expected a non-empty list"),
    (
        _control(2, options=[{"value": "RR", "label": _LABEL}] * 2),
        "demo.controls[2].options[1].value: duplicate 'RR'",
    ),
    (_control(3, max_grade=0), "demo.controls[3].max_grade: must be an integer >= 1"),
    (_state(queries=[]), "demo.controls[3].bind: state value must be a non-empty list"),
    (
        _state(queries=[{"query": "q1", "ranking": ["d1", "d1"], "relevant": []}]),
        "demo.state.queries[0].ranking: docnos must be distinct",
    ),
    (
        _state(queries=[{"query": "q1", "ranking": ["d1"], "grades": {}}]),
        "demo.state.queries[0]: expected exactly query, ranking and relevant",
    ),
    (
        _state(queries=[{"query": "q1", "ranking": ["d1"], "relevant": "d1"}]),
        "demo.state.queries[0].relevant: must be a list of docno strings",
    ),
]


@pytest.mark.parametrize(("demo", "message"), BROKEN)
def test_each_broken_demo_names_its_field(
    fake_module: types.ModuleType, demo: dict[str, Any], message: str
) -> None:
    problems = validate(demo)
    assert any(message in problem for problem in problems), problems
    assert all("\n" not in problem for problem in problems)


def test_graded_ranked_lists_check_grades(fake_module: types.ModuleType) -> None:
    demo = _control(3, max_grade=3)
    demo["state"]["queries"] = [{"query": "q1", "ranking": ["d1"], "grades": {"d1": 3}}]
    assert validate(demo) == []
    demo["state"]["queries"][0]["grades"]["d1"] = 4
    assert validate(demo) == ["demo.state.queries[0].grades: must map docnos to integers 0..3"]


def test_two_controls_on_one_key_are_refused(fake_module: types.ModuleType) -> None:
    demo = _demo()
    demo["controls"].append(dict(demo["controls"][0]))
    assert validate(demo) == ["demo.controls[4].bind: 'k' is already bound by another control"]


def test_render_errors_are_one_line_demo_errors(fake_module: types.ModuleType) -> None:
    with pytest.raises(DemoError, match=r"^lang: expected one of"):
        render(_demo(), "fr")
    with pytest.raises(DemoError, match=r"ZeroDivisionError: division by zero$"):
        render(_demo(compute="rankcards.viz.fake_for_tests:boom"), "en")
    assert validate("nope") == ["demo: expected a mapping with compute, controls and state"]


def test_load_compute_refuses_non_strings() -> None:
    with pytest.raises(DemoError, match="expected 'module:function', got 3"):
        load_compute(3)


def test_the_mrr_card_demo_is_valid() -> None:
    card = yaml.safe_load((CARDS / "mrr.yml").read_text(encoding="utf-8"))
    assert validate(card["demo"]) == []
    assert 'data-measure="RR@5"' in render(card["demo"], "en")  # the lab: MRR@5 is mean RR@5
