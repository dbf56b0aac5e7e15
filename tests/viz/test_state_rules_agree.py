"""web/state_check.js (a shared link's state, in the page) and viz/_validate.py (a card's own
state, at build) agree on every rule a demo state obeys: a value either one refuses for one of
those rules is refused by the other, the page never accepts what the build would reject, and
every card's own state passes the page's check (the page is stricter, never in the way of a
state the card itself ships).

Rules held here, one row each in ``RULES``: a slider's value is a number inside its range; a
toggle's is a boolean; a select's is one of its option values; a ranked-lists value is a list of
ranked lists, each with exactly query, ranking and relevant (or grades; unjudged only where the
control offers it); a ranking's docnos are distinct strings; relevant lists docno strings; a
grade is an integer 0..max_grade; an unjudged document is a listed one with no label, listed once.
The page's own further rules (a slider's step, the card's documents and queries, markup, sizes,
view keys) are tested in test_share_state_js.py.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest
import yaml

from ci_gate import skip_or_fail
from rankcards.viz import expand
from rankcards.viz._validate import validate_controls
from repo_paths import CARDS, WEB

_SCRIPT = """
import { checkSharedState } from %s;
const cases = JSON.parse(process.argv[1]);
console.log(JSON.stringify(cases.map(([changes, initial, controls]) =>
  checkSharedState(changes, initial, controls).problem ?? null)));
"""

LABEL = {"es": "control", "en": "control"}


def _page_problems(cases: list[tuple[Any, Any, Any]]) -> list[str | None]:
    """state_check.js's problem (None: accepted) for each ``(changes, initial, controls)``."""
    node = shutil.which("node")
    if node is None:
        skip_or_fail("node not found on PATH (Node.js >= 20 is needed)")
    script = _SCRIPT % json.dumps((WEB / "state_check.js").as_uri())
    done = subprocess.run(
        [node, "--input-type=module", "-e", script, json.dumps(cases)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(done.stdout)


def _as_rendered(control: dict[str, Any]) -> dict[str, Any]:
    """A card's control as the page reads it back from the rendered demo (demo.js controlsOf)."""
    kind, bind = control["kind"], control["bind"]
    if kind == "slider":
        return {"kind": kind, "bind": bind, "min": control["min"], "max": control["max"],
                "step": control.get("step", 1)}  # fmt: skip
    if kind == "select":
        return {"kind": kind, "bind": bind, "options": [o["value"] for o in control["options"]]}
    if kind == "ranked-lists":
        return {"kind": kind, "bind": bind, "max_grade": control.get("max_grade", 1),
                "unjudged": control.get("unjudged", False)}  # fmt: skip
    return {"kind": kind, "bind": bind}


BINARY = [{"query": "q1", "ranking": ["d1", "d2", "d3"], "relevant": ["d2"]}]
GRADED = [{"query": "q1", "ranking": ["d1", "d2", "d3"], "grades": {"d2": 2}}]
OPEN = [{"query": "q1", "ranking": ["d1", "d2", "d3"], "relevant": ["d2"], "unjudged": ["d3"]}]

SLIDER = {"kind": "slider", "bind": "v", "min": 1, "max": 5, "step": 1, "label": LABEL}
TOGGLE = {"kind": "toggle", "bind": "v", "label": LABEL}
SELECT = {"kind": "select", "bind": "v", "label": LABEL,
          "options": [{"value": "a", "label": LABEL}, {"value": 2, "label": LABEL}]}  # fmt: skip
LISTS = {"kind": "ranked-lists", "bind": "v", "label": LABEL}
GRADED_LISTS = {**LISTS, "max_grade": 3}
OPEN_LISTS = {**LISTS, "unjudged": True}


def _list(base: list[dict[str, Any]], **change: Any) -> list[dict[str, Any]]:
    return [{**base[0], **change}]


# (rule, control, the card's valid value, a value that breaks the rule)
RULES = [
    ("slider below its range", SLIDER, 3, 0),
    ("slider above its range", SLIDER, 3, 6),
    ("slider value not a number", SLIDER, 3, "3"),
    ("slider value a boolean", SLIDER, 3, True),
    ("toggle value not a boolean", TOGGLE, False, 1),
    ("select value not an option", SELECT, "a", "b"),
    ("select value of another type", SELECT, 2, "2"),
    ("ranked lists not a list", LISTS, BINARY, {"q1": BINARY[0]}),
    ("ranked list with an extra key", LISTS, BINARY, _list(BINARY, extra=1)),
    ("ranked list without relevant", LISTS, BINARY, [{"query": "q1", "ranking": ["d1"]}]),
    ("binary list with grades", LISTS, BINARY, [{"query": "q1", "ranking": [], "grades": {}}]),
    ("ranking with a repeated docno", LISTS, BINARY, _list(BINARY, ranking=["d1", "d1", "d2"])),
    ("ranking of non-strings", LISTS, BINARY, _list(BINARY, ranking=[1, 2, 3])),
    ("relevant not a list", LISTS, BINARY, _list(BINARY, relevant="d2")),
    ("relevant of non-strings", LISTS, BINARY, _list(BINARY, relevant=[2])),
    ("grade above max_grade", GRADED_LISTS, GRADED, _list(GRADED, grades={"d2": 4})),
    ("negative grade", GRADED_LISTS, GRADED, _list(GRADED, grades={"d2": -1})),
    ("grade not an integer", GRADED_LISTS, GRADED, _list(GRADED, grades={"d2": 1.5})),
    ("grades not a mapping", GRADED_LISTS, GRADED, _list(GRADED, grades=["d2"])),
    ("unjudged where not offered", LISTS, BINARY, _list(BINARY, unjudged=["d3"])),
    ("unjudged and relevant", OPEN_LISTS, OPEN, _list(OPEN, unjudged=["d2"])),
    ("unjudged not listed", OPEN_LISTS, OPEN, _list(OPEN, unjudged=["d9"])),
    ("unjudged twice", OPEN_LISTS, OPEN, _list(OPEN, unjudged=["d3", "d3"])),
    ("unjudged not a list", OPEN_LISTS, OPEN, _list(OPEN, unjudged="d3")),
]


@pytest.fixture(scope="module")
def page_verdicts() -> dict[str, tuple[str | None, str | None]]:
    """Per rule: the page's problem with the card's own value, and with the breaking value."""
    cases = []
    for _, control, good, bad in RULES:
        rendered = [_as_rendered(control)]
        cases += [({"v": good}, {"v": good}, rendered), ({"v": bad}, {"v": good}, rendered)]
    problems = _page_problems(cases)
    return {rule: (problems[2 * i], problems[2 * i + 1]) for i, (rule, *_) in enumerate(RULES)}


@pytest.mark.parametrize(("rule", "control", "good", "bad"), RULES, ids=[r[0] for r in RULES])
def test_the_build_and_the_page_refuse_a_value_that_breaks_the_rule(
    rule: str, control: dict[str, Any], good: Any, bad: Any, page_verdicts: dict[str, Any]
) -> None:
    assert validate_controls([control], {"v": good}) == [], rule
    assert validate_controls([control], {"v": bad}) != [], f"the build accepts: {rule}"
    own, broken = page_verdicts[rule]
    assert own is None, f"the page refuses the valid value ({rule}): {own}"
    assert broken is not None and broken.startswith("state.v"), f"the page accepts: {rule}"


def _card_demos() -> list[tuple[str, dict[str, Any]]]:
    demos = []
    for path in sorted(CARDS.glob("*.yml")):
        demo = yaml.safe_load(path.read_text(encoding="utf-8")).get("demo")
        if demo and "state" in expand(demo):  # an example-bound demo's state is its literals
            demos.append((path.stem, expand(demo)))
    return demos


def test_every_cards_own_state_passes_the_page_check() -> None:
    """Each card's state, every controlled and view key sent as if a link carried it: what the
    build accepted, the page accepts unchanged (a stricter page rule must not refuse a card)."""
    demos = _card_demos()
    assert len(demos) >= 15, [slug for slug, _ in demos]
    cases = []
    for _, demo in demos:
        state, controls = demo["state"], demo.get("controls") or []
        assert validate_controls(controls, state) == []
        cases.append((state, state, [_as_rendered(control) for control in controls]))
    problems = _page_problems(cases)
    refused = {slug: p for (slug, _), p in zip(demos, problems, strict=True) if p is not None}
    assert refused == {}
