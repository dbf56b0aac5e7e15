"""Every card demo of the built site, in real Chromium: the view the worker computes for the
initial state is exactly the build-time view (one renderer), and every control answers.

This is the single-renderer guarantee of rankcards.viz: the page shows the same markup whether
it came from CPython at build time or from Pyodide after the reader touched a control. A view with
measured values (``data-rc-volatile``: timings, throughput) is held to its deterministic numbers
only, since its drawing follows the measurements.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

DEMO = "section[data-rc-demo]"


def _demo_pages(site: Path) -> list[str]:
    """Pages with a demo that has a view of its own (an example-bound demo's view is the
    example: tests/browser/test_bound_demos.py)."""
    pages = []
    for path in site.rglob("index.html"):
        html = path.read_text(encoding="utf-8")
        if "data-rc-demo" in html and "data-rc-bound" not in html:
            pages.append(path.parent.relative_to(site).as_posix() + "/")
    return sorted(pages)


def _fixed_metrics(page: Any) -> dict[str, str]:
    """``data-metric -> data-value`` of the view's deterministic (non-volatile) numbers."""
    return dict(
        page.eval_on_selector_all(
            f"{DEMO} [data-rc-view] [data-metric]:not([data-rc-volatile])",
            "els => els.map(e => [e.dataset.metric, e.dataset.value])",
        )
    )


def _live(page: Any) -> None:
    page.wait_for_function(
        f"document.querySelector('{DEMO}').dataset.rcState === 'live'", timeout=60_000
    )


def _mark_view(page: Any) -> None:
    """Remember the view as it is now: its markup, and a mark on the nodes on screen."""
    page.eval_on_selector(
        f"{DEMO} [data-rc-view]",
        "view => { view.dataset.rcBefore = view.innerHTML;"
        " for (const node of view.children) node.rcOld = true; }",
    )


def _wait_for_a_new_view(page: Any) -> None:
    """Wait until the worker's answer replaced the view with different markup (a view left in
    place, or recomputed unchanged, never satisfies it)."""
    page.wait_for_function(
        f"""() => {{
          const demo = document.querySelector('{DEMO}');
          const view = demo.querySelector('[data-rc-view]');
          return demo.dataset.rcState === 'live' && view.children.length > 0
            && ![...view.children].some((node) => node.rcOld)
            && view.innerHTML !== view.dataset.rcBefore;
        }}""",
        timeout=60_000,
    )


def test_each_demo_recomputes_its_build_time_view_and_answers_a_control(
    page, site_server, built_site
):
    pages = _demo_pages(built_site)
    assert any(url.endswith("/mrr/") for url in pages), pages
    for url in pages:
        page.goto(site_server + url)
        view = page.locator(f"{DEMO} [data-rc-view]")
        built, built_metrics = view.inner_html(), _fixed_metrics(page)
        page.locator(DEMO).scroll_into_view_if_needed()
        _live(page)  # the demo's first compute in the worker replaced the view
        assert _fixed_metrics(page) == built_metrics, url
        if "data-rc-volatile" not in built:  # measured numbers (and their drawings) may vary
            assert view.inner_html() == built, url
        _mark_view(page)
        control = page.locator(f"{DEMO} [data-rc-kind]").first
        kind = control.get_attribute("data-rc-kind")
        # Each action moves the state away from where it is (a slider at its maximum, as MRR's
        # k starts, goes to its minimum): a control that changes nothing proves nothing.
        if kind == "slider":
            control.focus()
            at_max = control.input_value() == control.get_attribute("max")
            page.keyboard.press("Home" if at_max else "End")
        elif kind == "toggle":
            control.check() if not control.is_checked() else control.uncheck()
        elif kind == "select":
            values = control.locator("option").evaluate_all("os => os.map(o => o.value)")
            current = control.input_value()
            control.select_option(values[0] if current == values[-1] else values[-1])
        else:
            control.locator("[data-rc-doc]").first.click()
        _wait_for_a_new_view(page)  # fails (times out) if the control changed nothing on screen
        assert page.locator(f"{DEMO} [data-rc-demo-error]").is_hidden(), url
    errors = [e for e in page.console_errors if not e.startswith("Failed to load resource")]
    assert errors == []
