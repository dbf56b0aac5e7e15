"""web/demo_state.js under Node: the view actions of the demo contract change the state as
documented (toggle, set, cycle, move), never in place, and refuse bad paths."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

from ci_gate import skip_or_fail
from repo_paths import WEB

MODULE = WEB / "demo_state.js"
NODE = shutil.which("node")

_SCRIPT = """
import { applyAction } from %s;
const [state, actions] = JSON.parse(process.argv[1]);
const out = actions.map((action) => {
  const before = JSON.stringify(state);
  try {
    const next = applyAction(state, action);
    if (JSON.stringify(state) !== before) throw new Error("mutated in place");
    return { ok: next };
  } catch (error) {
    return { error: error.message };
  }
});
console.log(JSON.stringify(out));
"""


def _apply(state: dict[str, Any], *actions: dict[str, Any]) -> list[dict[str, Any]]:
    if NODE is None:
        skip_or_fail("node not found on PATH (Node.js >= 20 is needed)")
    script = _SCRIPT % json.dumps(MODULE.as_uri())
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script, json.dumps([state, list(actions)])],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    return json.loads(done.stdout)


STATE = {"k": 3, "queries": [{"query": "q1", "ranking": ["a", "b", "c"], "relevant": ["b"]}]}
GRADED = {"queries": [{"query": "q1", "ranking": ["a"], "grades": {"a": 2}}]}


def test_toggle_set_and_move() -> None:
    toggled_on, toggled_off, k, down, up, clamped = _apply(
        STATE,
        {"type": "toggle", "path": "queries.0.relevant", "item": "a"},
        {"type": "toggle", "path": "queries.0.relevant", "item": "b"},
        {"type": "set", "path": "k", "value": 1},
        {"type": "move", "path": "queries.0.ranking", "index": 0, "delta": 1},
        {"type": "move", "path": "queries.0.ranking", "index": 2, "delta": -2},
        {"type": "move", "path": "queries.0.ranking", "index": 1, "delta": 9},
    )
    assert toggled_on["ok"]["queries"][0]["relevant"] == ["b", "a"]
    assert toggled_off["ok"]["queries"][0]["relevant"] == []
    assert k["ok"]["k"] == 1
    assert down["ok"]["queries"][0]["ranking"] == ["b", "a", "c"]
    assert up["ok"]["queries"][0]["ranking"] == ["c", "a", "b"]
    assert clamped["ok"]["queries"][0]["ranking"] == ["a", "c", "b"]


def test_cycle_goes_round_and_zero_deletes() -> None:
    cycle = {"type": "cycle", "path": "queries.0.grades", "max": 2}
    top, new = _apply(GRADED, {**cycle, "item": "a"}, {**cycle, "item": "z"})
    assert top["ok"]["queries"][0]["grades"] == {}
    assert new["ok"]["queries"][0]["grades"] == {"a": 2, "z": 1}


def test_bad_paths_are_errors() -> None:
    missing, not_list, unknown = _apply(
        STATE,
        {"type": "toggle", "path": "queries.5.relevant", "item": "a"},
        {"type": "move", "path": "k", "index": 0, "delta": 1},
        {"type": "explode", "path": "k"},
    )
    assert missing == {"error": "state path queries.5.relevant: no 5"}
    assert not_list == {"error": "state path k: not a list"}
    assert unknown == {"error": "unknown state action explode"}


def test_label_cycles_a_ranked_lists_document_through_unjudged() -> None:
    """0 -> 1 -> unjudged -> 0 (binary), 2 -> 3 -> unjudged -> 0 (graded), written together."""
    binary = {"queries": [{"query": "q1", "ranking": ["a", "b"], "relevant": ["b"]}]}
    press = {"type": "label", "path": "queries.0", "max": 1, "unjudged": True}
    to_one, to_unjudged, plain = _apply(
        binary,
        {**press, "item": "a"},
        {**press, "item": "b"},
        {**press, "item": "b", "unjudged": False},
    )
    assert to_one["ok"]["queries"][0]["relevant"] == ["b", "a"]
    assert to_unjudged["ok"]["queries"][0] == {
        "query": "q1",
        "ranking": ["a", "b"],
        "relevant": [],
        "unjudged": ["b"],
    }
    assert plain["ok"]["queries"][0]["relevant"] == []  # without the unjudged state: 1 -> 0
    assert "unjudged" not in plain["ok"]["queries"][0]
    left_out = {"queries": [{**binary["queries"][0], "relevant": [], "unjudged": ["b"]}]}
    [judged] = _apply(left_out, {**press, "item": "b"})
    assert (
        judged["ok"]["queries"][0]["unjudged"] == []
        and judged["ok"]["queries"][0]["relevant"] == []
    )
    graded = {"queries": [{"query": "q1", "ranking": ["a"], "grades": {"a": 3}}]}
    press = {"type": "label", "path": "queries.0", "item": "a", "max": 3, "unjudged": True}
    [unjudged] = _apply(graded, press)
    assert unjudged["ok"]["queries"][0] == {
        "query": "q1",
        "ranking": ["a"],
        "grades": {},
        "unjudged": ["a"],
    }
    [back] = _apply(unjudged["ok"], press)
    assert back["ok"]["queries"][0]["grades"] == {} and back["ok"]["queries"][0]["unjudged"] == []
    [bad] = _apply(graded, {**press, "path": "queries"})
    assert bad == {"error": "state path queries: not a ranked list"}
