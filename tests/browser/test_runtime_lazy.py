"""The runtime boots lazily: only when a demo or example comes within a screen of the reader."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

STATE = "document.documentElement.dataset.runtime"

# The page's lazy boot has decided: the examples are enhanced and the demos mounted (each with
# its IntersectionObserver), then an observer created now gets its first entries after theirs,
# in the same task. A boot they would start has started by then: no fixed wait is needed.
SETTLED = """() => new Promise((resolve) => {
  const nodes = [...document.querySelectorAll("section[data-rc-demo], [data-rc-example]")];
  if (nodes.length === 0) return resolve();  // nothing that could boot the runtime
  const observer = new IntersectionObserver(() => {
    observer.disconnect();
    setTimeout(resolve, 0);
  });
  nodes.forEach((node) => observer.observe(node));
})"""
MOUNTED = (
    "[...document.querySelectorAll('[data-rc-example]')]"
    ".every(b => b.dataset.rcEnhanced !== undefined)"
    " && [...document.querySelectorAll('section[data-rc-demo]')].every(s => s.dataset.rcState)"
)


def _settled(page: Any) -> None:
    """Wait until the page's observers have seen where its demos and examples are."""
    page.wait_for_function(MOUNTED)
    page.evaluate(SETTLED)


def test_nothing_boots_while_every_runnable_part_is_screens_away(page: Any, site_server: str):
    # A short window: the MRR card's demo and example lie several screens below the top.
    page.set_viewport_size({"width": 1280, "height": 240})
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{site_server}en/mrr/")
    _settled(page)
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
    _settled(page)
    assert (
        page.evaluate("document.querySelectorAll('[data-rc-demo], [data-rc-example]').length") == 0
    )
    assert page.evaluate(STATE) == "idle"
