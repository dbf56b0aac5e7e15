"""Example-bound demos: the controls of a demo bound to literals of the card's own example.

A card may write ``demo: {example: {controls: [...]}}``: each control's ``bind`` names a variable
that the example (``code.source``) assigns **exactly once, at top level, to a literal**, and the
demo's state is those literals' values. Moving a control rewrites the literal in the page's
editor and runs the example again (``web/bound.js``); ``rankcards check`` holds each binding to
the rules below at the control's YAML line (``rankcards.cards._bound``). This module is the one
definition of those rules: the build calls it in CPython, and the page calls :func:`locate` in
the Pyodide worker each time the reader's edit needs checking, so the page refuses exactly what
``check`` refuses (a JavaScript scanner would be a second parser of Python to keep in step).

The rules, for a bound name ``NAME``:

* the example parses (a syntax error breaks every binding);
* ``NAME`` is bound exactly once in the module's scope. Bindings are every way Python binds a
  name there: ``=`` (also in a tuple or chained target), ``+=`` and the other augmented
  assignments, an annotated assignment, ``for``/``with``/``except ... as`` targets, ``import``
  (``as``), ``def``/``class``, ``:=`` (also inside a comprehension), ``del``, a ``match``
  capture, at any depth of ``if``/``for``/``while``/``try``/``with`` blocks; and a ``global
  NAME`` statement anywhere (a function could rebind it). A function's own parameters and
  locals, a class body's names and a comprehension's loop variables are other scopes and do not
  count;
* that one binding is a statement of the module's top level (not inside a block), of the form
  ``NAME = LITERAL`` with a single plain target;
* ``LITERAL`` is a constant: ``True``/``False``, an integer or float (optionally preceded by
  ``-``), or a string (no f-string); the literal's source text may span lines (a triple-quoted
  string);
* the value fits its control: a slider's a number (not a bool) in ``[min, max]``; a toggle's a
  bool; a select's equal to one of its option values (a bool never equals a number).

:func:`rewrite` replaces one literal's text; :func:`literal_text` writes a value the way the page
writes it (``True``, ``7``, ``0.25``, ``'RR'``: Python's ``repr``; a number bound to an integer
literal stays an integer).
"""

from __future__ import annotations

import ast
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Binding",
    "BindingProblem",
    "find_bindings",
    "literal_text",
    "locate",
    "rewrite",
    "utf16_offset",
    "value_problem",
]

Literal = bool | int | float | str

# Problem codes (the page words each one in both languages: web/bound.js).
SYNTAX, MISSING, TWICE, NESTED, NOT_ASSIGNMENT, NOT_LITERAL = (
    "syntax",
    "missing",
    "twice",
    "nested",
    "not-assignment",
    "not-literal",
)
TYPE, RANGE, OPTION = "type", "range", "option"


@dataclass(frozen=True)
class Binding:
    """``NAME = LITERAL`` at the example's top level: the literal's value and where its text is
    (``start``/``end``: character offsets into the source, end exclusive; ``line``: 1-based)."""

    name: str
    value: Literal
    start: int
    end: int
    line: int

    @property
    def kind(self) -> str:
        """``"bool"``, ``"int"``, ``"float"`` or ``"str"``: the literal's type."""
        return type(self.value).__name__

    def quote(self, source: str) -> str:
        """The quote a string literal opens with in ``source`` (``'`` for any other literal)."""
        text = source[self.start : self.end]
        return '"' if isinstance(self.value, str) and text.lstrip("rRuU").startswith('"') else "'"


@dataclass(frozen=True)
class BindingProblem:
    """Why ``name`` is not bound as the rules require; ``lines`` are the example's lines
    involved (1-based), ``detail`` a short English explanation."""

    name: str
    code: str
    lines: tuple[int, ...]
    detail: str


def _literal(node: ast.expr) -> tuple[bool, Literal | None]:
    """(True, value) when ``node`` is a literal of the rules, else (False, None)."""
    if isinstance(node, ast.Constant) and type(node.value) in (bool, int, float, str):
        return True, node.value
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and type(node.operand.value) in (int, float)
    ):
        return True, -node.operand.value
    return False, None


def _pattern_names(pattern: ast.pattern) -> Iterator[tuple[str, int]]:
    for node in ast.walk(pattern):
        if isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
            yield node.name, node.lineno
        elif isinstance(node, ast.MatchMapping) and node.rest:
            yield node.rest, node.lineno


def _module_bindings(tree: ast.Module) -> Iterator[tuple[str, ast.AST, int]]:
    """(name, node, line) of every binding in the module's scope (see the module docstring)."""
    stack: list[tuple[ast.AST, str]] = [(tree, "module")]  # (node, the scope it is in)
    while stack:
        node, scope = stack.pop()
        if isinstance(node, ast.Global):
            for name in node.names:
                yield name, node, node.lineno
        if scope == "module":
            yield from _bound_here(node)
        elif (
            scope == "comprehension"
            and isinstance(node, ast.NamedExpr)
            and isinstance(node.target, ast.Name)
        ):
            # A walrus in a comprehension binds in the enclosing scope: the module's here.
            yield node.target.id, node, node.lineno
        for child in ast.iter_child_nodes(node):
            stack.append((child, _child_scope(node, scope)))


def _bound_here(node: ast.AST) -> Iterator[tuple[str, ast.AST, int]]:
    """The names ``node`` itself binds in the scope it is in."""
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
        yield node.id, node, node.lineno
    elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield node.name, node, node.lineno
    elif isinstance(node, ast.Import | ast.ImportFrom):
        for alias in node.names:
            yield alias.asname or alias.name.split(".")[0], node, node.lineno
    elif isinstance(node, ast.ExceptHandler) and node.name:
        yield node.name, node, node.lineno
    elif isinstance(node, ast.match_case):
        for name, line in _pattern_names(node.pattern):
            yield name, node, line


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _child_scope(parent: ast.AST, scope: str) -> str:
    """The scope of ``parent``'s children: a function, lambda or class opens its own ("other");
    a comprehension too, but a walrus in it still binds in the enclosing one ("comprehension"
    while that is the module's)."""
    if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
        return "other"
    if isinstance(parent, _COMPREHENSIONS) and scope in ("module", "comprehension"):
        return "comprehension"
    return scope


def _line_starts(source: str) -> list[int]:
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


def _offset(source: str, starts: list[int], line: int, byte_column: int) -> int:
    """Character offset of (1-based ``line``, UTF-8 ``byte_column``) as the ast reports it."""
    begin = starts[line - 1]
    text = source[begin : starts[line] if line < len(starts) else len(source)]
    return begin + len(text.encode("utf-8")[:byte_column].decode("utf-8"))


def find_bindings(
    source: str, names: Sequence[str]
) -> tuple[dict[str, Binding], list[BindingProblem]]:
    """The binding of each of ``names`` in ``source``, and the problem of each that breaks the
    rules (each name is in exactly one of the two).

    >>> found, problems = find_bindings("k = 5  # cutoff\\nprint(k)\\n", ["k", "p"])
    >>> found["k"].value, found["k"].start, found["k"].end
    (5, 4, 5)
    >>> [(p.name, p.code) for p in problems]
    [('p', 'missing')]
    >>> find_bindings("k = 5\\nfor k in range(3): pass\\n", ["k"])[1][0].lines
    (1, 2)
    """
    try:
        tree = ast.parse(source, "<example>", "exec")
    except SyntaxError as error:
        line = error.lineno or 1
        detail = f"the example does not parse: {error.msg}"
        return {}, [BindingProblem(name, SYNTAX, (line,), detail) for name in names]
    wanted = set(names)
    seen: dict[str, list[tuple[ast.AST, int]]] = {name: [] for name in names}
    for name, node, line in _module_bindings(tree):
        if name in wanted:
            seen[name].append((node, line))
    top = {id(statement) for statement in tree.body}
    holder = _statements(tree)
    starts = _line_starts(source)
    found: dict[str, Binding] = {}
    problems: list[BindingProblem] = []
    for name in names:
        where = seen[name]
        lines = tuple(sorted({line for _, line in where}))
        if not where:
            problems.append(BindingProblem(name, MISSING, (), "it is not assigned"))
            continue
        if len(where) > 1:
            detail = f"it is bound {len(where)} times (lines {_lines(lines)})"
            problems.append(BindingProblem(name, TWICE, lines, detail))
            continue
        node, line = where[0]
        statement = holder.get(id(node))
        if not (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and statement.targets[0] is node
        ):
            detail = "it is not bound by a plain `NAME = value` statement"
            problems.append(BindingProblem(name, NOT_ASSIGNMENT, lines, detail))
            continue
        if id(statement) not in top:
            detail = "it is assigned inside a block, not at the top level"
            problems.append(BindingProblem(name, NESTED, lines, detail))
            continue
        is_literal, value = _literal(statement.value)
        if not is_literal or value is None:
            detail = "it is not assigned a literal (a number, True/False or a string)"
            problems.append(BindingProblem(name, NOT_LITERAL, lines, detail))
            continue
        literal = statement.value
        assert literal.end_lineno is not None and literal.end_col_offset is not None
        start = _offset(source, starts, literal.lineno, literal.col_offset)
        end = _offset(source, starts, literal.end_lineno, literal.end_col_offset)
        found[name] = Binding(name, value, start, end, line)
    return found, problems


def _lines(lines: Sequence[int]) -> str:
    return ", ".join(str(line) for line in lines)


def _statements(tree: ast.Module) -> dict[int, ast.stmt]:
    """The innermost statement holding each node, by ``id(node)``."""
    holder: dict[int, ast.stmt] = {}
    stack: list[tuple[ast.AST, ast.stmt | None]] = [(tree, None)]
    while stack:
        node, statement = stack.pop()
        if isinstance(node, ast.stmt):
            statement = node
        if statement is not None:
            holder[id(node)] = statement
        stack.extend((child, statement) for child in ast.iter_child_nodes(node))
    return holder


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def same_value(a: object, b: object) -> bool:
    """Equal as the page compares JSON values: a bool never equals a number, 1 equals 1.0.

    >>> same_value(1, 1.0), same_value(True, 1), same_value("a", "a")
    (True, False, True)
    """
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _is_number(a) and _is_number(b):
        return a == b
    return type(a) is type(b) and a == b


def value_problem(control: Mapping[str, Any], value: object) -> tuple[str, str] | None:
    """(code, detail) when ``value`` does not fit ``control`` (slider, toggle, select)."""
    kind = control.get("kind")
    if kind == "slider":
        low, high = control.get("min"), control.get("max")
        if not _is_number(value):
            return TYPE, f"a slider needs a number, the example assigns {value!r}"
        if _is_number(low) and _is_number(high) and not low <= value <= high:  # type: ignore[operator]
            return RANGE, f"{value!r} is outside the slider's range [{low}, {high}]"
        return None
    if kind == "toggle":
        if not isinstance(value, bool):
            return TYPE, f"a toggle needs True or False, the example assigns {value!r}"
        return None
    if kind == "select":
        values = [option.get("value") for option in control.get("options") or []]
        if not any(same_value(value, option) for option in values):
            listed = ", ".join(repr(option) for option in values)
            return OPTION, f"{value!r} is not one of the options ({listed})"
        return None
    return TYPE, f"a {kind} control cannot be bound to the example"


def literal_text(value: Literal, like: str | None = None, quote: str = "'") -> str:
    """``value`` as the literal the page writes: Python's ``repr`` of a number of the bound
    literal's type (``like``: an integral number bound to an ``"int"`` literal stays an integer,
    any number bound to a ``"float"`` one is a float), and a string holding no quote between
    ``quote`` (the card's own style, e.g. ``"``).

    >>> literal_text(7), literal_text(7.0, "int"), literal_text(7, "float"), literal_text(True)
    ('7', '7', '7.0', 'True')
    >>> literal_text(0.1 + 0.2), literal_text(1e16)
    ('0.30000000000000004', '1e+16')
    >>> literal_text("RR"), literal_text("RR", quote='"')
    ("'RR'", '"RR"')
    """
    if isinstance(value, float) and like == "int" and math.isfinite(value) and value.is_integer():
        return str(int(value))
    if isinstance(value, int) and not isinstance(value, bool) and like == "float":
        return repr(float(value))
    text = repr(value)
    if isinstance(value, str) and quote == '"' and not {"'", '"'} & set(value):
        return f'"{text[1:-1]}"'
    return text


def rewrite(source: str, binding: Binding, text: str) -> str:
    """``source`` with ``binding``'s literal replaced by ``text``.

    >>> found, _ = find_bindings("depth = 10  # pool depth\\n", ["depth"])
    >>> rewrite("depth = 10  # pool depth\\n", found["depth"], "3")
    'depth = 3  # pool depth\\n'
    """
    return source[: binding.start] + text + source[binding.end :]


def utf16_offset(source: str, offset: int) -> int:
    """The UTF-16 offset (a JavaScript string index, CodeMirror's position) of character
    ``offset`` of ``source``.

    >>> utf16_offset("a😀b", 2)
    3
    """
    return offset + sum(1 for char in source[:offset] if ord(char) > 0xFFFF)


def locate(source: str, controls: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """What the page needs of ``source`` for ``controls`` (called in the Pyodide worker):
    ``{"ok": true, "bindings": {name: {"from", "to", "value", "type"}}}`` with UTF-16 offsets,
    or ``{"ok": false, "problem": {"name", "code", "lines", "detail"}}``: the first control
    whose binding breaks the rules (or whose value does not fit it), the example's lines
    involved, and the rule's code (the page words it in the reader's language).

    >>> locate("k = 3\\n", [{"kind": "slider", "bind": "k", "min": 1, "max": 5}])["bindings"]
    {'k': {'from': 4, 'to': 5, 'value': 3, 'type': 'int'}}
    >>> locate("k = 9\\n", [{"kind": "slider", "bind": "k", "min": 1, "max": 5}])["problem"]["code"]
    'range'
    """
    names = [str(control["bind"]) for control in controls]
    found, problems = find_bindings(source, names)
    by_name = {problem.name: problem for problem in problems}
    bindings: dict[str, Any] = {}
    for control, name in zip(controls, names, strict=True):
        if name in by_name:
            problem = by_name[name]
            return {
                "ok": False,
                "problem": {
                    "name": name,
                    "code": problem.code,
                    "lines": list(problem.lines),
                    "detail": problem.detail,
                },
            }
        binding = found[name]
        wrong = value_problem(control, binding.value)
        if wrong is not None:
            code, detail = wrong
            return {
                "ok": False,
                "problem": {"name": name, "code": code, "lines": [binding.line], "detail": detail},
            }
        bindings[name] = {
            "from": utf16_offset(source, binding.start),
            "to": utf16_offset(source, binding.end),
            "value": binding.value,
            "type": binding.kind,
        }
    return {"ok": True, "bindings": bindings}
