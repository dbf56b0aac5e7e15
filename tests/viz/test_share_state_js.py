"""web/state_check.js and web/share.js under Node: a demo state from a shared link is accepted
only when the page's own controls and view buttons could have produced it (the rules of
rankcards/viz/_validate.py, stricter), and everything else is a one-line problem, never a throw."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest

from ci_gate import skip_or_fail
from rankcards.viz import expand
from repo_paths import WEB

NODE = shutil.which("node")

_SCRIPT = """
import { checkSharedState, changesFrom } from %s;
import { encodeJSON, decodeJSON } from %s;
const [initial, controls, cases] = JSON.parse(process.argv[1]);
const out = cases.map((changes) => {
  try {
    const decoded = decodeJSON(encodeJSON(changes));
    const result = checkSharedState(decoded, initial, controls);
    if (result.state) return { changes: changesFrom(result.state, initial) };
    return result;
  } catch (error) {
    return { thrown: String(error) };
  }
});
console.log(JSON.stringify(out));
"""


def _node(script: str, *args: str) -> Any:
    if NODE is None:
        skip_or_fail("node not found on PATH (Node.js >= 20 is needed)")
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script, *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    return json.loads(done.stdout)


def _check(initial: dict[str, Any], controls: list[dict[str, Any]], *cases: Any) -> list[Any]:
    uris = (json.dumps((WEB / name).as_uri()) for name in ("state_check.js", "share.js"))
    return _node(_SCRIPT % tuple(uris), json.dumps([initial, controls, list(cases)]))


MRR_INITIAL = {
    "k": 5,
    "queries": [
        {"query": "q1", "ranking": ["d3", "d1", "d7"], "relevant": ["d1", "d8"]},
        {"query": "q2", "ranking": ["d2", "d5"], "relevant": ["d2"]},
    ],
}
MRR_CONTROLS = [
    {"kind": "slider", "bind": "k", "min": 1, "max": 5, "step": 1},
    {"kind": "ranked-lists", "bind": "queries", "max_grade": 1},
]


def test_a_state_the_controls_can_produce_is_accepted() -> None:
    moved = [
        {"query": "q1", "ranking": ["d1", "d3", "d7"], "relevant": ["d8", "d7"]},
        {"query": "q2", "ranking": ["d5", "d2"], "relevant": []},
    ]
    k_only, lists = _check(MRR_INITIAL, MRR_CONTROLS, {"k": 2}, {"k": 3, "queries": moved})
    assert k_only == {"changes": {"k": 2}}
    assert lists == {"changes": {"k": 3, "queries": moved}}


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"k": "3"}, "state.k: expected a number in [1, 5]"),
        ({"k": 9}, "state.k: expected a number in [1, 5]"),
        ({"k": 2.5}, "state.k: not on the slider's step 1"),
        ({"k": 2, "evil": 1}, "state.evil: unknown key"),
        ([1, 2], "state: expected a mapping"),
        (None, "state: expected a mapping"),
        ({"k": None}, "state.k: unexpected null"),
        ({"queries": []}, "state.queries: expected 2 ranked lists"),
        (
            {"queries": [{"query": "q1", "ranking": ["d3"], "relevant": []}, {}]},
            "state.queries[0].ranking: must list the card's documents",
        ),
        (
            {
                "queries": [
                    {"query": "q1", "ranking": ["d3", "d1", "zz"], "relevant": []},
                    MRR_INITIAL["queries"][1],
                ]
            },
            'state.queries[0].ranking: unknown entry "zz"',
        ),
        (
            {
                "queries": [
                    {"query": "q1", "ranking": ["d3", "d1", "d7"], "relevant": ["d9"]},
                    MRR_INITIAL["queries"][1],
                ]
            },
            'state.queries[0].relevant: unknown entry "d9"',
        ),
        (
            {
                "queries": [
                    {"query": "q1", "ranking": ["d3", "d1", "d7"], "relevant": [], "x": 1},
                    MRR_INITIAL["queries"][1],
                ]
            },
            "state.queries[0]: expected exactly query, ranking and relevant",
        ),
        (
            {
                "queries": [
                    {"query": "<script>alert(1)</script>", "ranking": [], "relevant": []},
                    MRR_INITIAL["queries"][1],
                ]
            },
            "state.queries[0].query: markup or control characters in a string",
        ),
        ({"k": 2, "queries": "x" * 500}, "state.queries: string too long"),
        ({"__proto__": {"k": 1}}, "state.__proto__: unknown key"),
        ({"constructor": 1}, "state.constructor: unknown key"),
        ({"queries": list(range(1000))}, "state.queries: too many items"),
    ],
)
def test_anything_else_is_one_problem_and_never_a_throw(changes: Any, problem: str) -> None:
    assert _check(MRR_INITIAL, MRR_CONTROLS, changes) == [{"problem": problem}]


def test_the_labs_view_keys_only_name_its_own_queries_and_ranks() -> None:
    demo = expand({"lab": {"measure": "AP@k", "k": 3, "conventions": ["ties", "averaging"]}})
    initial = demo["state"]
    controls = [
        {key: value for key, value in control.items() if key not in {"label", "help"}}
        for control in demo["controls"]
    ]
    first, second = (item["query"] for item in initial["queries"][:2])
    results = _check(
        initial,
        controls,
        {"focus": second, "tied": [f"{first}:1"], "absent": [first], "show_ties": True},
        {"focus": "q99"},
        {"tied": [f"{first}:0"]},
        {"tied": [f"{first}:{len(initial['queries'][0]['ranking'])}"]},
        {"absent": [first, first]},
        {"measure": "nDCG@k"},
        {"show_ties": "yes"},
    )
    assert results[0] == {
        "changes": {"focus": second, "tied": [f"{first}:1"], "absent": [first], "show_ties": True}
    }
    assert [result["problem"] for result in results[1:]] == [
        "state.focus: not one of the queries",
        f'state.tied: bad tie "{first}:0"',
        f'state.tied: bad tie "{first}:{len(initial["queries"][0]["ranking"])}"',
        "state.absent: entries must be distinct",
        "state.measure: this key cannot be changed",
        "state.show_ties: expected true or false",
    ]


def test_graded_lists_and_selects() -> None:
    initial = {
        "level": 1,
        "edits": {},
        "queries": [{"query": "q1", "ranking": ["a", "b"], "grades": {"a": 3}}],
    }
    controls = [
        {"kind": "select", "bind": "level", "options": [1, 2]},
        {"kind": "ranked-lists", "bind": "queries", "max_grade": 3},
    ]
    good = {"query": "q1", "ranking": ["b", "a"], "grades": {"b": 2}}
    results = _check(
        initial,
        controls,
        {"level": 2, "queries": [good], "edits": {"q01/d5": 0}},
        {"level": 3},
        {"queries": [{**good, "grades": {"b": 4}}]},
        {"queries": [{**good, "grades": {"zz": 1}}]},
        {"edits": {"q01/d5": 7}},
        {"edits": {"../x": 1}},
    )
    assert results[0] == {"changes": {"level": 2, "queries": [good], "edits": {"q01/d5": 0}}}
    assert [result["problem"] for result in results[1:]] == [
        "state.level: not one of the options",
        "state.queries[0].grades.b: expected an integer 0..3",
        'state.queries[0].grades: unknown document "zz"',
        "state.edits.q01/d5: expected an integer 0..3",
        'state.edits: bad judgment key "../x"',
    ]


_DECODE = """
import { decodeJSON, compressText, decompressText, MAX_PARAM } from %s;
const out = [];
for (const text of JSON.parse(process.argv[1])) {
  try { out.push({ ok: decodeJSON(text) }); } catch (error) { out.push({ error: error.name }); }
}
const code = "print('hola, ñ')\\n".repeat(50);
out.push({ round: (await decompressText(await compressText(code))) === code });
for (const bad of ["not*base64", "bm90LWRlZmxhdGU", await compressText("a".repeat(300_000))]) {
  try { await decompressText(bad); out.push({ ok: true }); }
  catch (error) { out.push({ error: error.message }); }
}
console.log(JSON.stringify(out));
"""


def test_links_that_are_not_base64url_json_throw_for_the_caller_to_catch() -> None:
    script = _DECODE % json.dumps((WEB / "share.js").as_uri())
    cases = ["eyJrIjoyfQ", "%%%", "bm90IGpzb24", "A" * 20_000]
    decoded = _node(script, json.dumps(cases))
    assert decoded[0] == {"ok": {"k": 2}}
    assert all("error" in result for result in decoded[1:4])
    assert decoded[4] == {"round": True}
    # not base64url, not deflate, and a deflate bomb: each an error for the caller, and the
    # streams' own rejections handled (node would end the script on an unhandled one)
    assert decoded[5] == {"error": "not base64url (or too long)"}
    assert "error" in decoded[6] and decoded[6] != {"error": "code too long"}
    assert decoded[7] == {"error": "code too long"}


def test_unjudged_documents_only_where_the_control_offers_them() -> None:
    initial = {"queries": [{"query": "q1", "ranking": ["a", "b", "c"], "relevant": ["a"]}]}
    offered = [{"kind": "ranked-lists", "bind": "queries", "max_grade": 1, "unjudged": True}]
    item = initial["queries"][0]
    results = _check(
        initial,
        offered,
        {"queries": [{**item, "unjudged": ["b", "c"]}]},
        {"queries": [{**item, "unjudged": ["a"]}]},
        {"queries": [{**item, "unjudged": ["zz"]}]},
        {"queries": [{**item, "unjudged": ["b", "b"]}]},
    )
    assert results[0] == {"changes": {"queries": [{**item, "unjudged": ["b", "c"]}]}}
    assert [result["problem"] for result in results[1:]] == [
        'state.queries[0].unjudged: "a" also has a label',
        'state.queries[0].unjudged: unknown entry "zz"',
        "state.queries[0].unjudged: entries must be distinct",
    ]
    plain = [{"kind": "ranked-lists", "bind": "queries", "max_grade": 1}]
    [refused] = _check(initial, plain, {"queries": [{**item, "unjudged": ["b"]}]})
    assert refused == {
        "problem": "state.queries[0].unjudged: this card's rankings have no unjudged state"
    }


def test_the_link_carries_a_demos_changes_and_nothing_for_none() -> None:
    """share.js demoParameter, the `demo` parameter demo.js and bound.js write: the changes
    from the card's own state, encoded; none left (the card's state) takes it out of the link."""
    script = """
import { changesFrom } from %s;
import { decodeJSON, demoParameter } from %s;
const [initial, states] = JSON.parse(process.argv[1]);
console.log(JSON.stringify(states.map((state) => {
  const { demo } = demoParameter(changesFrom(state, initial));
  return demo === null ? null : decodeJSON(demo);
})));
"""
    uris = (json.dumps((WEB / name).as_uri()) for name in ("state_check.js", "share.js"))
    moved = {**MRR_INITIAL, "k": 3}
    got = _node(script % tuple(uris), json.dumps([MRR_INITIAL, [moved, MRR_INITIAL]]))
    assert got == [{"k": 3}, None]
