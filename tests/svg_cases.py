"""The malicious SVG cases both sanitizers must handle (``tests/data/svg_cases.json``) and the
check that a sanitized figure holds nothing outside the allow-list: shared by
tests/plot/test_svg_sanitize.py (Python) and tests/browser/test_svg_sanitize_js.py (the page)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

from rankcards.web.svg import SVG_NS, XLINK_NS, allow_list
from repo_paths import DATA

CASES: list[dict[str, Any]] = json.loads((DATA / "svg_cases.json").read_text("utf-8"))["cases"]


def assert_only_allowed(markup: str) -> None:
    """Every element and attribute of ``markup`` is in the allow-list; links are fragments."""
    rules = allow_list()
    for element in ET.fromstring(markup).iter():
        assert element.tag.startswith("{" + SVG_NS + "}"), element.tag
        assert element.tag.split("}")[1] in rules["elements"], element.tag
        for key, value in element.attrib.items():
            name = key.replace("{" + XLINK_NS + "}", "xlink:")
            assert name in rules["attributes"] and not name.lower().startswith("on"), name
            if name in rules["link_attributes"]:
                assert value.startswith("#"), value


def assert_case(case: dict[str, Any], cleaned: str | None) -> None:
    """``cleaned`` is what a sanitizer made of ``case["svg"]`` (None: rejected)."""
    if case.get("rejected"):
        assert cleaned is None, case["name"]
        return
    assert cleaned is not None, case["name"]
    assert_only_allowed(cleaned)
    for text in case["absent"]:
        assert text not in cleaned, (case["name"], text)
    for text in case["present"]:
        assert text in cleaned, (case["name"], text)
