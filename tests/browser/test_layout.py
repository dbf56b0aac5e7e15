"""Phone width: no page is wider than a 390 px screen (wide content scrolls inside its box)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _pages(site: Path) -> list[str]:
    """Home, every card, the glossary and the evaluate page, in both languages."""
    names = sorted(p.parent.name for p in (site / "en").glob("*/index.html"))
    paths = ["", *(f"{name}/" for name in names if name != "category")]
    return [f"{lang}/{path}" for lang in ("en", "es") for path in paths]


def test_no_page_overflows_a_phone_screen(page: Any, site_server: str, built_site: Path) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    wide = {}
    for path in _pages(built_site):
        page.goto(f"{site_server}{path}")
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide[path] = width
    assert wide == {}
