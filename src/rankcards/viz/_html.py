"""A tiny escaping HTML builder for visualizer views, plus the view's action attributes.

Why: a view is produced by Python both at build time and in the Pyodide worker, and the browser
inserts it into the page. Every piece of text therefore goes through :func:`escape` (or is built
with :func:`el`), so card data such as a query id can never inject markup. Only :class:`Html`
values — produced by this module — are inserted verbatim.

Stdlib-only, because it ships to the browser with :mod:`rankcards.metrics`.

>>> str(el("span", {"class": "x", "data-n": 2}, "a < b"))
'<span class="x" data-n="2">a &lt; b</span>'
>>> str(metric("RR", 0.5))
'<span class="rc-num" data-metric="RR" data-value="0.5">0.5</span>'
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from html import escape as _escape_text

__all__ = [
    "Html",
    "act_cycle",
    "act_move",
    "act_set",
    "act_toggle",
    "el",
    "escape",
    "fmt",
    "join",
    "metric",
]

_NAME = re.compile(r"^[a-zA-Z][a-zA-Z0-9:_-]*$")
_VOID = frozenset({"br", "hr", "img", "input", "meta", "link", "wbr", "col", "source"})

AttrValue = str | int | float | bool | None


class Html(str):
    """A string of markup that is already safe to insert (built by this module only)."""

    __slots__ = ()


# A view repeats the same few texts and attribute pairs (query and document ids, classes,
# scopes, metric names) on every change: their escaped forms are kept (here and in _attr).
@lru_cache(maxsize=4096)
def _escaped_text(value: str) -> str:
    return _escape_text(value, quote=True)


def escape(value: object) -> Html:
    """Escape text for element content or a quoted attribute; :class:`Html` passes through."""
    if isinstance(value, Html):
        return value
    return Html(_escaped_text(str(value)))


def _child(value: object) -> str:
    kind = type(value)  # exact-type fast paths first: views build thousands of nodes per change
    if kind is Html:
        return value  # type: ignore[return-value]
    if kind is str:
        return _escaped_text(value)  # type: ignore[arg-type]
    if kind is list or kind is tuple:
        return "".join([_child(item) for item in value])  # type: ignore[attr-defined]
    if value is None or value is False:
        return ""
    if isinstance(value, str | int | float):
        return escape(fmt(value) if isinstance(value, float) else value)
    if isinstance(value, Iterable) and not isinstance(value, Mapping):
        return "".join(_child(item) for item in value)
    raise TypeError(f"cannot render {type(value).__name__} as HTML")


@lru_cache(maxsize=512)
def _checked(name: str, what: str) -> str:
    """``name`` if it is a valid tag/attribute name (cached: views reuse a few names)."""
    if not _NAME.match(name):
        raise ValueError(f"invalid HTML {what} name {name!r}")
    return name


# typed: an Html value and the equal str are rendered differently, and so are True and 1
@lru_cache(maxsize=4096, typed=True)
def _attr(name: str, value: AttrValue) -> str:
    _checked(name, "attribute")
    if value is None or value is False:
        return ""
    if value is True:
        return f" {name}"
    return f' {name}="{escape(value)}"'


def el(tag: str, attrs: Mapping[str, AttrValue] | None = None, *children: object) -> Html:
    """Build ``<tag attrs>children</tag>``; text children and attribute values are escaped.

    ``None``/``False`` attributes are omitted and ``True`` renders a bare boolean attribute;
    children may be text, numbers (floats via :func:`fmt`), :class:`Html` or nested iterables.
    """
    _checked(tag, "tag")
    attributes = "".join([_attr(name, value) for name, value in attrs.items()]) if attrs else ""
    if tag in _VOID:
        if children:
            raise ValueError(f"<{tag}> cannot have children")
        return Html(f"<{tag}{attributes}>")
    return Html(f"<{tag}{attributes}>{_child(children)}</{tag}>")


def join(parts: Iterable[object], separator: object = "") -> Html:
    """Concatenate escaped parts with an (escaped) separator."""
    return Html(escape(separator).join(_child(part) for part in parts))


def fmt(value: float, digits: int = 3) -> str:
    """Display form of a number: at most ``digits`` decimals, trailing zeros dropped.

    >>> fmt(1 / 3), fmt(0.5), fmt(1.0), fmt(0)
    ('0.333', '0.5', '1', '0')
    """
    text = f"{float(value):.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def metric(
    name: str, value: float, text: str | None = None, volatile: bool = False, **attrs: AttrValue
) -> Html:
    """A displayed number carrying its exact value: ``data-metric`` and ``data-value=repr``.

    Tests (and readers' scripts) read ``data-value`` to compare with :mod:`rankcards.metrics`
    exactly, while the text shows a rounded form. ``volatile`` marks a measured value (a wall
    clock timing, a throughput) with ``data-rc-volatile``: it legitimately differs between the
    build and the browser, so the build-time/live identity check skips it.
    """
    base: dict[str, AttrValue] = {
        "class": "rc-num",
        "data-metric": name,
        "data-value": repr(float(value)),
        "data-rc-volatile": volatile,
    }
    base.update({key.replace("_", "-"): val for key, val in attrs.items()})
    return el("span", base, fmt(value) if text is None else text)


#: separated cells with a little air between columns, for tables of numbers
SPACED = "border-collapse: separate; border-spacing: 0.7em 0.15em"


def table(
    classes: str,
    caption: object | None,
    headers: Sequence[object] | None,
    rows: Iterable[object],
    style: str | None = None,
) -> Html:
    """A data table: optional caption, column headers (``scope="col"``) and body rows.

    >>> html = table("rc-x", "Cap", ["a"], [el("tr", {}, el("td", {}, 1))])
    >>> html.startswith('<table class="rc-table rc-x"><caption>Cap</caption><thead><tr>')
    True
    >>> html.endswith('a</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>')
    True
    """
    head = el("tr", {}, [el("th", {"scope": "col"}, h) for h in headers]) if headers else None
    return el(
        "table",
        {"class": f"rc-table {classes}", "style": style},
        el("caption", {}, caption) if caption is not None else "",
        el("thead", {}, head) if head is not None else "",
        el("tbody", {}, list(rows)),
    )


def live_sum(template: str, terms: Sequence[object], result: Html, **fields: object) -> Html:
    """The formula written out with live numbers: ``template`` holds ``({terms})``.

    >>> print(live_sum("M@{k} = ({terms}) / {n}", ["1/2", "0"], Html("0.25"), k=3, n=2))
    <p class="rc-formula" data-rc-announce>M@3 = (1/2 + 0) / 2 = 0.25</p>
    """
    left, _, right = template.partition("({terms})")
    joined = [part for i, term in enumerate(terms) for part in ((" + ", term) if i else (term,))]
    return el(
        "p",
        {"class": "rc-formula", "data-rc-announce": True},
        left.format(**fields),
        "(",
        joined,
        ")",
        right.format(**fields),
        " = ",
        result,
    )


def _path(path: str | Sequence[str | int]) -> str:
    parts = [path] if isinstance(path, str) else [str(part) for part in path]
    return ".".join(parts)


def act_toggle(path: str | Sequence[str | int], item: str) -> dict[str, AttrValue]:
    """Attributes for a button that toggles ``item`` in the list at ``path``."""
    return {"data-rc-toggle": _path(path), "data-rc-item": item}


def act_set(path: str | Sequence[str | int], value: object) -> dict[str, AttrValue]:
    """Attributes for a button that sets the state at ``path`` to a JSON value."""
    return {"data-rc-set": _path(path), "data-rc-value": json.dumps(value)}


def act_cycle(path: str | Sequence[str | int], key: str, top: int) -> dict[str, AttrValue]:
    """Attributes for a button that cycles ``mapping[key]`` through ``0..top`` (0 removes it)."""
    return {"data-rc-cycle": _path(path), "data-rc-item": key, "data-rc-max": top}


def act_move(path: str | Sequence[str | int], index: int, delta: int) -> dict[str, AttrValue]:
    """Attributes for a button that moves list element ``index`` by ``delta`` positions."""
    return {"data-rc-move": _path(path), "data-rc-index": index, "data-rc-delta": delta}
