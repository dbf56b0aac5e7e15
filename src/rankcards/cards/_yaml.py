"""Read a card's YAML keeping the line and column of every field.

PyYAML's composer gives each node a start mark; building the Python value ourselves from the
node tree lets every later check (schema, cross-card, LaTeX, example) point at the exact line.
Duplicate keys, which PyYAML silently overwrites, are reported instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rankcards.cards._problems import FieldPath, Problem, format_field


@dataclass
class Marks:
    """1-based ``(line, column)`` positions of values and of mapping keys, by field path."""

    values: dict[FieldPath, tuple[int, int]] = field(default_factory=dict)
    keys: dict[FieldPath, tuple[int, int]] = field(default_factory=dict)
    block_scalars: set[FieldPath] = field(default_factory=set)

    def of_value(self, path: FieldPath) -> tuple[int, int]:
        """Position of the value at ``path``, or of its nearest existing parent."""
        for end in range(len(path), -1, -1):
            if path[:end] in self.values:
                return self.values[path[:end]]
        return (1, 1)

    def of_key(self, path: FieldPath) -> tuple[int, int]:
        """Position of the key naming ``path`` (where an unknown field is written)."""
        return self.keys.get(path) or self.of_value(path)


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
    return loader.construct_object(node, deep=True)


def parse_card_file(path: Path) -> ParsedFile:
    """Parse one card file; YAML errors become problems, never exceptions."""
    out = ParsedFile(path, None, Marks(), [])
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        out.problems.append(Problem(path, 1, 1, "(card)", f"cannot read the file: {error}"))
        return out
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
        out.problems.append(Problem(path, line, column, "(yaml)", f"YAML syntax error: {reason}"))
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
