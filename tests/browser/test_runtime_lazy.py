"""The runtime boots lazily: only when a demo or example comes within a screen of the reader."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

STATE = "document.documentElement.dataset.runtime"


def test_nothing_boots_while_every_runnable_part_is_screens_away(page: Any, site_server: str):
    # A short window: the MRR card's demo and example lie several screens below the top.
    page.set_viewport_size({"width": 1280, "height": 240})
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{site_server}en/mrr/")
    page.wait_for_timeout(1500)
    assert page.evaluate(STATE) == "idle"
    assert not [url for url in requests if "/assets/pyodide/" in url]
    page.locator("section[data-rc-demo]").scroll_into_view_if_needed()
    page.wait_for_function(f"{STATE} === 'ready'")
    assert [url for url in requests if url.endswith("pyodide.asm.wasm")]


def test_a_demo_within_a_screen_boots_at_once(page: Any, site_server: str):
    # A tall window puts the MRR card's demo within one screen of the viewport: no scrolling.
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(f"{site_server}en/mrr/")
    page.wait_for_function(f"{STATE} === 'ready'")
    assert page.evaluate("scrollY") == 0


def test_pages_without_runnable_parts_never_boot(page: Any, site_server: str):
    page.goto(f"{site_server}en/glossary/")
    page.wait_for_timeout(1000)
    assert page.evaluate(STATE) == "idle"
