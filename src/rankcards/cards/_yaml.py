"""Read a card's YAML keeping the line and column of every field, and of every character of a
text.

PyYAML's composer gives each node a start and an end mark; building the Python value ourselves
from the node tree lets every later check (schema, cross-card, LaTeX, example, stated numbers)
point at the exact line, and at the column of a word inside a text (:meth:`Marks.position`).
Duplicate keys, which PyYAML silently overwrites, are reported instead.
"""

from __future__ import annotations

import bisect
import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rankcards.cards._problems import YAML_FIELD, FieldPath, Problem, format_field


@dataclass
class Marks:
    """1-based ``(line, column)`` positions of values and of mapping keys, by field path."""

    values: dict[FieldPath, tuple[int, int]] = field(default_factory=dict)
    keys: dict[FieldPath, tuple[int, int]] = field(default_factory=dict)
    block_scalars: set[FieldPath] = field(default_factory=set)
    source: str = ""  # the file's text
    # Where each scalar is written in ``source`` (start and end character indices) ...
    spans: dict[FieldPath, tuple[int, int]] = field(default_factory=dict)
    # ... and the value of each string scalar (what the checks read).
    texts: dict[FieldPath, str] = field(default_factory=dict)
    _line_starts: list[int] = field(default_factory=list, repr=False)
    _alignments: dict[FieldPath, list[int]] = field(default_factory=dict, repr=False)

    def of_value(self, path: FieldPath) -> tuple[int, int]:
        """Position of the value at ``path``, or of its nearest existing parent."""
        for end in range(len(path), -1, -1):
            if path[:end] in self.values:
                return self.values[path[:end]]
        return (1, 1)

    def of_key(self, path: FieldPath) -> tuple[int, int]:
        """Position of the key naming ``path`` (where an unknown field is written)."""
        return self.keys.get(path) or self.of_value(path)

    def position(self, path: FieldPath, offset: int) -> tuple[int, int]:
        """Line and column of the character at ``offset`` in the string value at ``path``.

        The value and its source differ by the YAML syntax around it (quotes, ``\\`` escapes,
        a block's indentation, folded lines); the two are aligned character by character
        (:func:`align`), so a character of the value maps to where it is written. A path that
        is not a string gives the value's own position.
        """
        if path not in self.texts:
            return self.of_value(path)
        value, (start, end) = self.texts[path], self.spans[path]
        if path not in self._alignments:
            self._alignments[path] = align(value, self.source[start:end])
        indices = self._alignments[path]
        if not indices:
            return self.of_value(path)
        return self._line_column(start + indices[max(0, min(offset, len(indices) - 1))])

    def line_position(self, path: FieldPath, line: int) -> tuple[int, int]:
        """Line and column where line ``line`` (1-based) of the string value at ``path`` starts,
        e.g. the line of a code example that a traceback names."""
        if path not in self.texts:
            return self.of_value(path)
        lines = self.texts[path].split("\n")
        offset = sum(len(text) + 1 for text in lines[: max(line - 1, 0)])
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        return self.position(path, offset + len(text) - len(text.lstrip()))

    def _line_column(self, index: int) -> tuple[int, int]:
        if not self._line_starts:
            self._line_starts = [0] + [i + 1 for i, char in enumerate(self.source) if char == "\n"]
        line = bisect.bisect_right(self._line_starts, index)
        return line, index - self._line_starts[line - 1] + 1


_SIMPLE_ESCAPE_WIDTH = {"x": 4, "u": 6, "U": 10}  # \\x41, \\u00e9, \\U0001F4A1


def align(value: str, written: str) -> list[int]:
    """For each character of ``value``, its index in ``written``, the scalar as the file writes
    it (quotes, escapes, block header and indentation, folded lines included).

    Walks both at once: equal characters pair; a ``\\`` escape (or a quote doubled inside
    single quotes) pairs the one character it stands for; a line break or indentation of the
    source pairs a space or a line break of the value, or nothing. Should the two ever fail
    to pair up, a character-level diff aligns them instead.

    >>> align('a "b"', r'"a \\"b\\""')
    [1, 2, 3, 5, 6]
    >>> align("x y", "x\\n  y")  # a folded line break reads as a space
    [0, 1, 4]
    """
    indices: list[int] = []
    i = 0
    opening = written[:1]
    j = written.index("\n") + 1 if opening in ("|", ">") else int(opening in ("'", '"'))
    double, single = opening == '"', opening == "'"
    while i < len(value) and j < len(written):
        char, source = value[i], written[j]
        if double and source == "\\" and j + 1 < len(written):
            escaped = written[j + 1]
            if escaped == "\n":  # an escaped line break: the line goes on, without a space
                j += 2
                while j < len(written) and written[j] in " \t":
                    j += 1
                continue
            indices.append(j)
            i, j = i + 1, j + _SIMPLE_ESCAPE_WIDTH.get(escaped, 2)
        elif char == source or (char.isspace() and source.isspace()):
            indices.append(j)
            doubled_quote = single and written[j : j + 2] == "''"
            i, j = i + 1, j + (2 if doubled_quote else 1)
        elif source.isspace():
            j += 1  # indentation, or a line break that folded into the space already paired
        else:
            break
    if i < len(value):
        blocks = difflib.SequenceMatcher(None, value, written, autojunk=False).get_matching_blocks()
        indices = []
        for index in range(len(value)):
            block = max((b for b in blocks if b.a <= index), key=lambda b: b.a, default=None)
            indices.append(0 if block is None else block.b + min(index - block.a, block.size))
    return indices


@dataclass
class ParsedFile:
    """A card file's data with its marks, or the problems that kept it from being read."""

    path: Path
    data: dict[str, Any] | None
    marks: Marks
    problems: list[Problem]


def _position(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


# libyaml's parser (same nodes and marks, several times faster) when PyYAML was built with it.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _build(node: yaml.Node, path: FieldPath, loader: Any, out: ParsedFile) -> Any:
    out.marks.values[path] = _position(node)
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)  # resolves YAML merge keys (<<)
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, str):
                key = str(key)
            child = (*path, key)
            if key in result:
                line, column = _position(key_node)
                out.problems.append(
                    Problem(out.path, line, column, format_field(child), "duplicate key")
                )
            out.marks.keys[child] = _position(key_node)
            result[key] = _build(value_node, child, loader, out)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, (*path, i), loader, out) for i, item in enumerate(node.value)]
    if isinstance(node, yaml.ScalarNode) and node.style in ("|", ">"):
        out.marks.block_scalars.add(path)
    value = loader.construct_object(node, deep=True)
    out.marks.spans[path] = (node.start_mark.index, node.end_mark.index)
    if isinstance(value, str):
        out.marks.texts[path] = value
    return value


def parse_card_file(path: Path) -> ParsedFile:
    """Parse one card file; YAML errors become problems, never exceptions."""
    out = ParsedFile(path, None, Marks(), [])
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        out.problems.append(Problem(path, 1, 1, "(card)", f"cannot read the file: {error}"))
        return out
    out.marks.source = text
    loader = _Loader(text)
    try:
        root = loader.get_single_node()
        if root is None:
            out.problems.append(Problem(path, 1, 1, "(card)", "the file is empty"))
            return out
        data = _build(root, (), loader, out)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        reason = error.problem or "invalid YAML"
        context = error.context_mark
        if error.context and context and context is not mark:
            reason = f"{error.context} (started at line {context.line + 1}): {reason}"
        out.problems.append(Problem(path, line, column, YAML_FIELD, f"YAML syntax error: {reason}"))
        return out
    finally:
        loader.dispose()
    if not isinstance(data, dict):
        out.problems.append(
            Problem(
                path, 1, 1, "(card)", f"expected a mapping of fields, got {type(data).__name__}"
            )
        )
        return out
    out.data = data
    return out
