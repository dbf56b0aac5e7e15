"""Sanitize an HTML table produced by card code before it enters a page (build time).

A value with ``_repr_html_`` (e.g. :class:`rankcards.plot.Table`) is shown as a table under an
example's output; its markup was written by code, and a shared link may carry someone else's
code: only an allow-list passes (``table_allow.json``, the same file the page's
``table_sanitize.js`` applies in the browser). The rules, identical on both sides:

* the input is parsed as XML (no DTD: a ``<!DOCTYPE``/``<!ENTITY`` rejects it, and so does any
  entity but XML's five); its root must be ``<table>`` with no namespace or XHTML's; anything
  longer than ``max_length`` characters, or not well-formed, is rejected as a whole;
* an element not in ``elements`` (or in another namespace) is dropped with all its content
  (``script``, ``style``, ``img``, ``a``, ``iframe``, forms...); comments and processing
  instructions are dropped;
* an attribute is kept only when ``attributes`` lists it and its value passes that entry's
  rule: one of its ``values``; for ``class``, the tokens (split at ASCII whitespace) that are
  in ``tokens`` (none left: the attribute is dropped); or the whole value matching its
  ``pattern``. Every ``on*`` handler, ``style``, ``href`` and ``src`` are thereby dropped;
* the output is rebuilt from what passed (never the input's text), serialized as a browser
  serializes HTML (``outerHTML``): double-quoted attributes, ``&amp; &lt; &gt;`` in text,
  ``&amp; &quot;`` in values, a no-break space as ``&nbsp;``, void elements without an end tag.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any

from rankcards.web._allow import allow_module_text, parse_bounded, read_allow_list

XHTML_NS = "http://www.w3.org/1999/xhtml"
ALLOW_FILE = Path(__file__).with_name("table_allow.json")

_SPACE = re.compile(r"[\t\n\f\r ]+")  # HTML's class separators: ASCII whitespace only


@cache
def allow_list() -> dict[str, Any]:
    """The shared allow-list: ``elements``, ``void``, ``attributes`` (name -> rule),
    ``max_length``."""
    return read_allow_list(ALLOW_FILE)


def allow_module() -> str:
    """The allow-list as the ES module ``table_sanitize.js`` imports (``table_allow.js``)."""
    return allow_module_text(ALLOW_FILE, "a table may hold", allow_list())


def allowed_value(name: str, value: str) -> str | None:
    """The value ``name`` keeps (None: the attribute is dropped).

    >>> allowed_value("class", "rc-num evil"), allowed_value("class", "evil")
    ('rc-num', None)
    >>> allowed_value("colspan", "2"), allowed_value("colspan", "2; x")
    ('2', None)
    >>> allowed_value("onclick", "x") is None
    True
    """
    rule = allow_list()["attributes"].get(name)
    if rule is None:
        return None
    if "tokens" in rule:
        kept = [token for token in _SPACE.split(value) if token in rule["tokens"]]
        return " ".join(kept) or None
    if "values" in rule:
        return value if value in rule["values"] else None
    return value if re.fullmatch(rule["pattern"], value) else None


def _text(text: str) -> str:
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\xa0", "&nbsp;")
    )


def _value(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("\xa0", "&nbsp;")


def _local(tag: str) -> str | None:
    """The element's name when it has no namespace or XHTML's, else None."""
    if tag.startswith("{"):
        namespace, _, local = tag[1:].partition("}")
        return local if namespace == XHTML_NS else None
    return tag


def _clean(element: ET.Element, out: list[str]) -> None:
    rules = allow_list()
    name = _local(element.tag)
    if name is None or name not in rules["elements"]:
        return
    attributes = [name]
    for key, raw in element.attrib.items():
        if key.startswith("{"):
            continue  # a namespaced attribute (xml:, xlink:...) is never in the list
        value = allowed_value(key, raw)
        if value is not None:
            attributes.append(f'{key}="{_value(value)}"')
    out.append(f"<{' '.join(attributes)}>")
    if name in rules["void"]:
        return  # nothing inside a void element survives (a browser would not keep it)
    if element.text:
        out.append(_text(element.text))
    for child in element:
        _clean(child, out)
        if child.tail:
            out.append(_text(child.tail))
    out.append(f"</{name}>")


def sanitize_table(markup: str) -> str | None:
    """The allowed part of ``markup`` as HTML, or None when it is rejected as a whole (see the
    module docstring).

    >>> sanitize_table('<table onclick="x()"><tr><td style="color:red">1<script>x()</script>'
    ...                '</td></tr></table>')
    '<table><tr><td>1</td></tr></table>'
    >>> sanitize_table("<div>not a table</div>") is None
    True
    """
    root = parse_bounded(markup, allow_list()["max_length"])
    if root is None or _local(root.tag) != "table":
        return None
    out: list[str] = []
    _clean(root, out)
    return "".join(out)
