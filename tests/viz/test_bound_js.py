"""web/bound_literals.js under Node agrees with rankcards.viz.bound (Python): the literal a value
is written as, the rewrite of one literal, and the page's fast path that recognises the card's own
code with only its bound literals changed (whenever it answers, Python's `locate` answers the
same places and values; where it cannot tell, it says so and the worker's `locate` decides)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from typing import Any

import pytest

from ci_gate import skip_or_fail
from rankcards.viz.bound import find_bindings, literal_text, locate, rewrite
from repo_paths import WEB

MODULE = WEB / "bound_literals.js"
NODE = shutil.which("node")

_SCRIPT = """
import * as bound from %s;
const requests = JSON.parse(process.argv[1]);
const out = requests.map(([name, args]) => bound[name](...args));
console.log(JSON.stringify(out));
"""


def _js(*requests: tuple[str, list[Any]]) -> list[Any]:
    if NODE is None:
        skip_or_fail("node not found on PATH (Node.js >= 20 is needed)")
    script = _SCRIPT % json.dumps(MODULE.as_uri())
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script, json.dumps(list(requests))],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(done.stdout)


def _floats() -> list[float]:
    fixed = [0.1, 0.2, 0.1 + 0.2, 1.0, 10.0, 2.5, 1e-4, 1e-5, 1.5e-7, 123456789.125, 1e15]
    fixed += [9.999999999999998e15, 1e16, 1.5e16, 1e100, 5e-324, 1.7976931348623157e308, 0.5]
    fixed += [-0.25, -1e-5, 0.95, 0.85, 1 / 3, 2 / 3, 100.0, 123.456]
    draw = random.Random("bound-js")
    fixed += [draw.uniform(-1000, 1000) for _ in range(150)]
    fixed += [draw.random() * 10 ** draw.randint(-12, 20) for _ in range(150)]
    return fixed


def test_python_float_repr_is_written_the_same_way() -> None:
    values = _floats()
    written = _js(*(("pyFloatRepr", [value]) for value in values))
    assert written == [repr(value) for value in values]


def test_negative_zero_and_integers_follow_the_literals_type() -> None:
    # JSON cannot carry -0.0: the page gets it from a slider as a number, as here.
    cases = [(7, "int"), (7, "float"), (-3, "int"), (0.5, "float"), (True, "bool"), (False, "bool")]
    written = _js(*(("literalText", [value, like]) for value, like in cases))
    assert written == [literal_text(value, like) for value, like in cases]


SOURCE = (
    "# ejemplo: profundidad y medida 😀\n"
    "depth = 10  # pool depth\n"
    "ratio = 0.50  # written the card's way\n"
    "pooled = False\n"
    'measure = "P@10"\n'
    "print(depth, ratio, pooled, measure)\n"
)
CONTROLS = [
    {"kind": "slider", "bind": "depth", "min": 1, "max": 50, "step": 1},
    {"kind": "slider", "bind": "ratio", "min": 0.05, "max": 0.95, "step": 0.05},
    {"kind": "toggle", "bind": "pooled"},
    {"kind": "select", "bind": "measure", "options": ["P@10", "AP"]},
]
PAGE_CONTROLS = [
    {**control, "literals": ['"P@10"', '"AP"'] if control["kind"] == "select" else []}
    for control in CONTROLS
]
INITIAL = {"depth": 10, "ratio": 0.5, "pooled": False, "measure": "P@10"}


def _spans(source: str) -> dict[str, dict[str, Any]]:
    controls = [
        {**c, "options": [{"value": v} for v in c["options"]]} if c["kind"] == "select" else c
        for c in CONTROLS
    ]
    answer = locate(source, controls)
    assert answer["ok"], answer
    return answer["bindings"]


def _original_bindings() -> dict[str, dict[str, Any]]:
    return {
        name: {"from": b["from"], "to": b["to"], "type": b["type"]}
        for name, b in _spans(SOURCE).items()
    }


# edited source -> whether the fast path must recognise it (True) or leave it to Python (False)
EDITS = {
    SOURCE: True,
    SOURCE.replace("depth = 10", "depth = 3"): True,
    SOURCE.replace("depth = 10", "depth = 50"): True,
    SOURCE.replace("ratio = 0.50", "ratio = 0.85"): True,
    SOURCE.replace("pooled = False", "pooled = True"): True,
    SOURCE.replace('measure = "P@10"', 'measure = "AP"'): True,
    SOURCE.replace("depth = 10", "depth = 20").replace("pooled = False", "pooled = True"): True,
    # Not the page's own texts, or not a value the control allows: left to Python.
    SOURCE.replace("depth = 10", "depth = 010"): False,
    SOURCE.replace("depth = 10", "depth = 1_0"): False,
    SOURCE.replace("depth = 10", "depth = 10.0"): False,
    SOURCE.replace("depth = 10", "depth = 100"): False,
    SOURCE.replace("depth = 10", "depth = 10 + 1"): False,
    SOURCE.replace("depth = 10", "depth = 1e1"): False,
    SOURCE.replace('measure = "P@10"', "measure = 'P@10'"): False,
    SOURCE.replace("# pool depth", "# depth of the pool"): False,
    SOURCE + "depth = 11\n": False,
    SOURCE.replace("pooled = False", "pooled = Falsey"): False,
}


@pytest.mark.parametrize("edited", list(EDITS), ids=[f"edit{i}" for i in range(len(EDITS))])
def test_the_fast_path_is_sound_against_the_python_rules(edited: str) -> None:
    (matched,) = _js(
        ("matchOriginal", [edited, SOURCE, _original_bindings(), PAGE_CONTROLS, INITIAL])
    )
    assert (matched is not None) == EDITS[edited]
    if matched is None:
        return
    spans = _spans(edited)  # Python's own answer for the same code
    assert matched["bindings"] == {
        name: {"from": b["from"], "to": b["to"], "type": b["type"]} for name, b in spans.items()
    }
    assert matched["values"] == {name: b["value"] for name, b in spans.items()}


# name, value -> the rewrite both sides make
REWRITES = [("depth", 3), ("depth", 50), ("ratio", 0.85), ("pooled", True), ("measure", "AP")]


@pytest.mark.parametrize(("name", "value"), REWRITES)
def test_a_rewrite_gives_the_same_code_and_places_as_python(name: str, value: Any) -> None:
    bindings = _original_bindings()
    found, _ = find_bindings(SOURCE, [c["bind"] for c in CONTROLS])
    quote = found[name].quote(SOURCE)
    text = literal_text(value, found[name].kind, quote)
    expected = rewrite(SOURCE, found[name], text)
    if isinstance(value, str):
        js_text = text  # a select's literal is written by the build (data-rc-literal)
    else:
        (js_text,) = _js(("literalText", [value, bindings[name]["type"]]))
    assert js_text == text
    (result,) = _js(("rewriteLiteral", [SOURCE, bindings, name, js_text]))
    assert result["source"] == expected
    assert result["bindings"] == {
        n: {"from": b["from"], "to": b["to"], "type": b["type"]}
        for n, b in _spans(expected).items()
    }
