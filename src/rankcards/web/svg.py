"""Sanitize SVG produced by card code before it enters a page (build time).

An example's figure is markup written by code, and a shared link may carry someone else's code:
only an allow-list of SVG elements and attributes passes (``svg_allow.json``, the same file the
page's ``svg_sanitize.js`` applies in the browser through DOMPurify's hooks). The rules, the
same on both sides (DOMPurify is stricter in a few corners, see ``svg_sanitize.js``):

* the input is parsed as XML (no DTD: a ``<!DOCTYPE``/``<!ENTITY`` rejects it); its root must be
  ``<svg>``; anything longer than ``max_length`` characters, or not well-formed, is rejected;
* an element not in the SVG namespace (or in none) or not in ``elements`` is dropped with all its
  content (``script``, ``style``, ``foreignObject``, ``image``, animations...); comments and
  processing instructions are dropped;
* an attribute not in ``attributes`` is dropped (every ``on*`` handler among them); so is a value
  holding a backslash (CSS escapes could spell ``url(``), a ``javascript:``/``data:``/``vbscript:``
  scheme, or ``url(...)`` other than ``url(#id)``; a link (``href``, ``xlink:href``) must be a
  ``#fragment`` (no external resource is ever loaded);
* the output is rebuilt from what passed (never the input's text), with escaped text and values.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from rankcards.web._allow import allow_module_text, parse_bounded, read_allow_list

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
XML_NS = "http://www.w3.org/XML/1998/namespace"
ALLOW_FILE = Path(__file__).with_name("svg_allow.json")

_SCHEME = re.compile(r"(?:javascript|data|vbscript)\s*:", re.IGNORECASE)
_LOCAL_URL = re.compile(r"^\s*url\(\s*#[A-Za-z_][\w.:-]*\s*\)\s*$", re.IGNORECASE)
_FRAGMENT = re.compile(r"^#[A-Za-z_][\w.:-]*$")


@cache
def allow_list() -> dict[str, Any]:
    """The shared allow-list: ``elements``, ``attributes``, ``link_attributes``, ``max_length``."""
    return read_allow_list(ALLOW_FILE)


def allow_module() -> str:
    """The allow-list as the ES module ``svg_sanitize.js`` imports (``svg_allow.js``)."""
    return allow_module_text(ALLOW_FILE, "a figure may hold", allow_list())


def _split(tag: str) -> tuple[str, str]:
    """(namespace, local name) of an ElementTree tag or attribute name."""
    if tag.startswith("{"):
        namespace, _, local = tag[1:].partition("}")
        return namespace, local
    return "", tag


def _attribute_name(key: str) -> str | None:
    namespace, local = _split(key)
    prefixes = {"": "", XLINK_NS: "xlink:", XML_NS: "xml:"}
    return prefixes[namespace] + local if namespace in prefixes else None


def value_allowed(name: str, value: str) -> bool:
    """Whether ``name="value"`` may stay (``name`` already in the allow-list).

    >>> value_allowed("fill", "url(#fade)"), value_allowed("fill", "url(https://x/y)")
    (True, False)
    >>> value_allowed("href", "#marker"), value_allowed("href", "javascript:alert(1)")
    (True, False)
    """
    if "\\" in value or _SCHEME.search(value):
        return False
    if name in allow_list()["link_attributes"]:
        return bool(_FRAGMENT.match(value.strip()))
    if "url(" in re.sub(r"\s+", "", value).lower():
        return bool(_LOCAL_URL.match(value))
    return True


def _clean(element: ET.Element, out: list[str], root: bool) -> None:
    rules = allow_list()
    namespace, local = _split(element.tag)
    if namespace not in ("", SVG_NS) or local not in rules["elements"]:
        return
    attributes = []
    if root:
        attributes.append(f"xmlns={quoteattr(SVG_NS)}")
    for key, value in element.attrib.items():
        name = _attribute_name(key)
        if name is None or name not in rules["attributes"] or name.lower().startswith("on"):
            continue
        if value_allowed(name, value):
            attributes.append(f"{name}={quoteattr(value)}")
    if any(a.startswith("xlink:") for a in attributes):
        attributes.append(f"xmlns:xlink={quoteattr(XLINK_NS)}")
    out.append(f"<{' '.join([local, *attributes])}>")
    if element.text:
        out.append(escape(element.text))
    for child in element:
        _clean(child, out, root=False)
        if child.tail:
            out.append(escape(child.tail))
    out.append(f"</{local}>")


def sanitize_svg(markup: str) -> str | None:
    """The allowed part of ``markup`` as SVG markup, or None when it is rejected as a whole (see
    the module docstring).

    >>> sanitize_svg('<svg onload="alert(1)"><script>alert(2)</script><rect width="3"/></svg>')
    '<svg xmlns="http://www.w3.org/2000/svg"><rect width="3"></rect></svg>'
    >>> sanitize_svg("<div>not svg</div>") is None
    True
    """
    root = parse_bounded(markup, allow_list()["max_length"])
    if root is None or _split(root.tag) not in (("", "svg"), (SVG_NS, "svg")):
        return None
    out: list[str] = []
    _clean(root, out, root=True)
    return "".join(out)
