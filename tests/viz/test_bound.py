"""rankcards.viz.bound: which bindings an example-bound demo accepts (table-driven), where each
literal is, how a value is written back, and what the page's `locate` answers."""

from __future__ import annotations

import ast

import pytest

from rankcards.viz.bound import (
    find_bindings,
    literal_text,
    locate,
    rewrite,
    same_value,
    utf16_offset,
    value_problem,
)

# source -> (value of k, its literal's text) when k is bound as the rules require
ACCEPTED = {
    "k = 5\n": (5, "5"),
    "k = 5  # cutoff\nprint(k)\n": (5, "5"),
    "k = -3.5\n": (-3.5, "-3.5"),
    "k = (4)\n": (4, "4"),
    "k = True\n": (True, "True"),
    "k = 'RR'\n": ("RR", "'RR'"),
    'k = "a" "b"\n': ("ab", '"a" "b"'),
    'k = """a\nb"""\n': ("a\nb", '"""a\nb"""'),
    "# é😀 ñ\nk = 4  # ñ\n": (4, "4"),
    # Other scopes: a function's parameter and locals, a class body, a comprehension's variable.
    "def f(k):\n    k = 2\n    return k\nk = 4\n": (4, "4"),
    "k = 4\nclass C:\n    k = 5\n": (4, "4"),
    "k = 4\nsquares = [k * k for k in range(3)]\n": (4, "4"),
    "k = 4\nf = lambda k: k\n": (4, "4"),
    # A keyword argument is not a binding.
    "k = 4\nprint(sorted([2, 1], reverse=k > 3))\n": (4, "4"),
}

# source -> (problem code, lines involved)
REFUSED = {
    "print(1)\n": ("missing", ()),
    "k = 5\nk += 1\n": ("twice", (1, 2)),
    "k = 5\nk = 6\n": ("twice", (1, 2)),
    "k = 4\nfor k in range(3):\n    pass\n": ("twice", (1, 2)),
    "k = 4\nwith open('x') as k:\n    pass\n": ("twice", (1, 2)),
    "k = 4\ntry:\n    pass\nexcept ValueError as k:\n    pass\n": ("twice", (1, 4)),
    "k = 4\nimport k\n": ("twice", (1, 2)),
    "k = 4\ndef k():\n    pass\n": ("twice", (1, 2)),
    "k = 4\ndel k\n": ("twice", (1, 2)),
    "k = 4\nprint(k := 5)\n": ("twice", (1, 2)),
    "k = 4\n[(k := i) for i in range(3)]\n": ("twice", (1, 2)),
    "k = 4\nmatch 3:\n    case k:\n        pass\n": ("twice", (1, 3)),
    "def f():\n    global k\n    k = 2\nk = 4\n": ("twice", (2, 4)),
    "if True:\n    k = 5\n": ("nested", (2,)),
    "for i in range(1):\n    k = 5\n": ("nested", (2,)),
    "k = 1 + 2\n": ("not-literal", (1,)),
    "k = f'{1}'\n": ("not-literal", (1,)),
    "k = None\n": ("not-literal", (1,)),
    "k = [1]\n": ("not-literal", (1,)),
    "k = +1\n": ("not-literal", (1,)),
    "k: int = 5\n": ("not-assignment", (1,)),
    "a = k = 5\n": ("not-assignment", (1,)),
    "k, b = 4, 5\n": ("not-assignment", (1,)),
    "import numpy as k\n": ("not-assignment", (1,)),
    "k = \n": ("syntax", (1,)),
}


@pytest.mark.parametrize("source", sorted(ACCEPTED))
def test_accepted_bindings_give_the_literal_and_its_exact_text(source: str) -> None:
    found, problems = find_bindings(source, ["k"])
    assert problems == []
    value, text = ACCEPTED[source]
    binding = found["k"]
    assert same_value(binding.value, value) and type(binding.value) is type(value)
    assert source[binding.start : binding.end] == text
    assert binding.line == source[: binding.start].count("\n") + 1


@pytest.mark.parametrize("source", sorted(REFUSED))
def test_refused_bindings_name_the_rule_and_the_lines(source: str) -> None:
    found, problems = find_bindings(source, ["k"])
    assert found == {}
    [problem] = problems
    assert (problem.name, problem.code, problem.lines) == ("k", *REFUSED[source])


def test_every_name_is_judged_on_its_own() -> None:
    found, problems = find_bindings("a = 1\nb = a + 1\nc = 'x'\n", ["a", "b", "c", "d"])
    assert sorted(found) == ["a", "c"]
    assert [(p.name, p.code) for p in problems] == [("b", "not-literal"), ("d", "missing")]


SLIDER = {"kind": "slider", "bind": "k", "min": 1, "max": 10}
TOGGLE = {"kind": "toggle", "bind": "k"}
SELECT = {"kind": "select", "bind": "k", "options": [{"value": "RR"}, {"value": 2}]}

# (control, value) -> problem code (None: the value fits)
VALUES = [
    (SLIDER, 1, None),
    (SLIDER, 10.0, None),
    (SLIDER, 0, "range"),
    (SLIDER, 10.5, "range"),
    (SLIDER, True, "type"),
    (SLIDER, "5", "type"),
    (TOGGLE, False, None),
    (TOGGLE, 0, "type"),
    (SELECT, "RR", None),
    (SELECT, 2.0, None),
    (SELECT, "rr", "option"),
    (SELECT, True, "option"),
]


@pytest.mark.parametrize(("control", "value", "code"), VALUES)
def test_a_value_fits_its_control(control: dict, value: object, code: str | None) -> None:
    problem = value_problem(control, value)
    assert (problem[0] if problem else None) == code


# value, the literal's type -> the text written (each is Python's own literal for the value)
LITERALS = [
    (7, "int", "7"),
    (7.0, "int", "7"),
    (7.0, "float", "7.0"),
    (0.1 + 0.2, "float", "0.30000000000000004"),
    (1e16, "float", "1e+16"),
    (1e-05, "float", "1e-05"),
    (0.0001, "float", "0.0001"),
    (-0.0, "float", "-0.0"),
    (True, "bool", "True"),
    ("P@10", "str", "'P@10'"),
]


@pytest.mark.parametrize(("value", "like", "text"), LITERALS)
def test_a_literal_is_written_as_python_reads_it_back(value: object, like: str, text: str) -> None:
    written = literal_text(value, like)  # type: ignore[arg-type]
    assert written == text
    assert same_value(ast.literal_eval(written), value)


def test_a_string_keeps_the_examples_quotes_when_it_can() -> None:
    assert literal_text("AP", quote='"') == '"AP"'
    assert literal_text("it's", quote='"') == '"it\'s"'  # repr's own choice when quotes inside
    assert ast.literal_eval(literal_text('say "hi"', quote='"')) == 'say "hi"'


def test_rewrite_replaces_only_the_literal() -> None:
    source = 'depth = 10  # pool depth\nmeasure = "P@10"\nprint(depth, measure)\n'
    found, _ = find_bindings(source, ["depth", "measure"])
    once = rewrite(source, found["depth"], "3")
    assert once == 'depth = 3  # pool depth\nmeasure = "P@10"\nprint(depth, measure)\n'
    again, _ = find_bindings(once, ["measure"])
    assert rewrite(once, again["measure"], '"AP"').splitlines()[1] == 'measure = "AP"'


def test_locate_answers_in_utf16_offsets_for_the_page() -> None:
    source = "# 😀\nk = 3\n"
    units = len(source[: source.index("3")].encode("utf-16-le")) // 2  # the emoji counts two
    assert units == source.index("3") + 1
    answer = locate(source, [SLIDER])
    assert answer == {
        "ok": True,
        "bindings": {"k": {"from": units, "to": units + 1, "value": 3, "type": "int"}},
    }
    assert utf16_offset(source, source.index("3")) == units


def test_locate_names_the_first_broken_control() -> None:
    answer = locate("k = 3\nk = 4\n", [SLIDER])
    assert answer["ok"] is False
    assert answer["problem"]["code"] == "twice"
    assert answer["problem"]["lines"] == [1, 2]
    assert locate("k = 30\n", [SLIDER])["problem"]["code"] == "range"
