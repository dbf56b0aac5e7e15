"""What a reader sees once on screen, not twice (issue 13, defects 1 and 2), in real Chromium.

* The example's code: the static block until the editor mounts, then only the editor, in the
  same place and at the same height: tests/browser/test_layout.py checks it on every page with
  one, in the same visit as the page's other checks at laptop width.
* A demo's polite live region repeats the view's own sentence for screen readers: visually hidden.
* A ranked-lists control prints one help line (the card's help, plus the keys), which is also the
  control's accessible description.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from instant import visit_each
from static_site import pages_with

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

DEMO = "section[data-rc-demo]"


def _box(locator: Any) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None, "not rendered"
    return box


def test_the_live_region_is_heard_not_seen(page: Any, site_server: str) -> None:
    page.goto(site_server + "en/mrr/")
    page.locator(DEMO).scroll_into_view_if_needed()
    page.locator(f"{DEMO} [data-rc-kind=slider]").fill("3")  # a change the view announces
    status = page.locator(f"{DEMO} [data-rc-demo-status]")
    page.wait_for_function(
        # the MRR card's lab announces its mean: "mean RR@3 = (...) / 4 = ..."
        f"document.querySelector('{DEMO} [data-rc-demo-status]').textContent.includes('RR@3')",
        timeout=120_000,
    )
    announced = page.locator(f"{DEMO} [data-rc-view] [data-rc-announce]").first.inner_text()
    assert announced.strip() in status.text_content()  # screen readers still hear it
    box = _box(status)
    assert box["width"] <= 1 and box["height"] <= 1, f"the live region is on screen: {box}"
    assert status.evaluate("e => getComputedStyle(e).clipPath") != "none"


def test_a_ranked_lists_control_prints_one_help_line(
    page: Any, site_server: str, built_site: Path
) -> None:
    pages = pages_with(built_site, 'data-rc-kind="ranked-lists"')
    assert len(pages) >= 6, pages  # mrr, hit-rate-at-k, recall-at-k in both languages
    keys = "Alt+↑/↓"
    page.route("**/assets/pyodide/**", lambda route: route.abort())  # the markup needs no Python
    for path in visit_each(page, site_server, pages):
        shown = page.locator(f"{DEMO}:not([data-rc-left]) [data-rc-kind=ranked-lists]")
        for control in shown.all():
            cid = control.get_attribute("id")
            # the control's help paragraphs are named after it: "<id>-help" (and "<id>-keys")
            helps = page.locator(f"p[id^='{cid}-']:visible")
            assert helps.count() == 1, f"{path} {cid}: {helps.all_inner_texts()}"
            described = control.get_attribute("aria-describedby").split()
            text = " ".join(page.locator(f"[id='{i}']").inner_text() for i in described)
            assert keys in text, f"{path} {cid}: the keys are not in its description: {text}"
            assert text.strip() == helps.first.inner_text().strip(), path


@pytest.mark.parametrize("card", ["gold-dataset", "index-benchmarking"])
def test_a_spoken_summary_is_not_shown_beside_its_table(
    page: Any, site_server: str, card: str
) -> None:
    page.goto(f"{site_server}en/{card}/")
    spoken = page.locator(f"{DEMO} [data-rc-view] .rc-demo-hint[data-rc-announce]")
    assert spoken.count() == 1
    assert spoken.text_content().strip()  # still in the page, for the live region to read out
    box = _box(spoken)
    assert box["width"] <= 1 and box["height"] <= 1, f"{card}: the summary is shown twice: {box}"
