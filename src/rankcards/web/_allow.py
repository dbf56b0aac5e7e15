"""What the build's two sanitizers (``svg.py``, ``table.py``) share: an allow-list read from the
JSON file the page's sanitizer imports too (as an ES module the build writes), and the first
rule of both: markup longer than the list's ``max_length``, with a DTD (``<!DOCTYPE``,
``<!ENTITY``) or not well-formed XML is rejected as a whole.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

_DTD = re.compile(r"<!(?:DOCTYPE|ENTITY)", re.IGNORECASE)


def read_allow_list(path: Path) -> dict[str, Any]:
    """The allow-list in the JSON file ``path``."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def allow_module_text(path: Path, holds: str, allow_list: dict[str, Any]) -> str:
    """``allow_list`` as an ES module, saying that it is ``path``'s list of what ``holds``."""
    return (
        f"// Written by rankcards.web.write_assets from {path.name}: what {holds}.\n"
        f"export default {json.dumps(allow_list)};\n"
    )


def parse_bounded(markup: str, max_length: int) -> ET.Element | None:
    """``markup`` parsed as XML, or None when it is longer than ``max_length``, has a DTD or
    is not well-formed.

    >>> parse_bounded("<a><b/></a>", 20).tag, parse_bounded("<a><b/></a>", 5)
    ('a', None)
    >>> parse_bounded('<!DOCTYPE a><a/>', 99), parse_bounded("<a>", 99)
    (None, None)
    """
    if len(markup) > max_length or _DTD.search(markup):
        return None
    try:
        return ET.fromstring(markup)
    except ET.ParseError:
        return None
