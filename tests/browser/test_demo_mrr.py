"""The MRR card's demo (the measure lab on RR@k) in real Chromium: every displayed number is
what rankcards.metrics computes, through the ranked lists' mouse and keyboard controls.

The page's state is read from the demo itself (its JSON state attribute), the same action is
applied in Python, and the displayed ``data-value`` of each query's RR and of their mean (MRR)
must equal the module's value exactly (the repr of the float travels through ``data-value``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

DEMO = "section[data-rc-demo]"
READY = "document.documentElement.dataset.runtime === 'ready'"


def _shown(page: Any) -> dict[str, float]:
    pairs = page.eval_on_selector_all(
        f"{DEMO} [data-rc-view] [data-metric]",
        "els => els.map(e => [e.dataset.metric, e.dataset.value])",
    )
    return {
        name: float(value) for name, value in pairs if name == "mean" or name.startswith("value:")
    }


def _script_errors(page: Any) -> list[str]:
    """Console errors of the page's code; failed resource loads (fonts, sitemaps, GitHub API:
    the site's configuration, checked by the site and runtime tests) are not this test's subject.
    """
    return [e for e in page.console_errors if not e.startswith("Failed to load resource")]


def _open(page: Any, base: str, lang: str = "en") -> dict[str, Any]:
    page.goto(f"{base}{lang}/mrr/")
    state = json.loads(page.get_attribute(DEMO, "data-rc-initial"))
    page.locator(DEMO).scroll_into_view_if_needed()
    page.wait_for_function(READY, timeout=60_000)
    page.wait_for_function(f"document.querySelector('{DEMO}').dataset.rcState === 'live'")
    return state


def _after(page: Any, act: Any) -> None:
    """Run ``act`` and wait for the recomputed view (the demo's ``rankcards:demo`` event)."""
    page.evaluate(  # a function returning nothing: evaluating the promise itself would wait
        f"() => {{ window.__updated = new Promise(r => document.querySelector('{DEMO}')"
        ".addEventListener('rankcards:demo', r, {once: true})); }"
    )
    act()
    page.wait_for_function("window.__updated.then(() => true)")


def test_prerendered_view_already_shows_the_module_numbers(page, site_server, mrr_demo_values):
    page.route("**/pyodide/**", lambda route: route.abort())  # no runtime at all
    page.goto(f"{site_server}en/mrr/")
    state = json.loads(page.get_attribute(DEMO, "data-rc-initial"))
    assert _shown(page) == mrr_demo_values(state)


def test_toggling_a_result_changes_rr_and_mrr_to_the_module_values(
    page, site_server, mrr_demo_values
):
    state = _open(page, site_server)
    assert _shown(page) == mrr_demo_values(state)
    first = state["queries"][0]
    doc = first["ranking"][0]
    button = page.locator(f'{DEMO} [data-rc-list="0"] li[data-doc="{doc}"] [data-rc-doc]')
    was_relevant = doc in first["relevant"]
    assert button.get_attribute("aria-pressed") == json.dumps(was_relevant)
    _after(page, button.click)
    if was_relevant:
        first["relevant"].remove(doc)
    else:
        first["relevant"].append(doc)
    shown = _shown(page)
    assert shown == mrr_demo_values(state)
    if not was_relevant:
        assert shown[f"value:{first['query']}"] == 1.0
    assert button.get_attribute("aria-pressed") == json.dumps(not was_relevant)
    mrr = page.text_content(f'{DEMO} [data-metric="mean"]')
    assert mrr in page.text_content(f"{DEMO} [data-rc-demo-status]")
    assert _script_errors(page) == []


# Watches the demo while one change is computed and shown: the view's nodes present before it
# (marked), and every change to the class attribute of the section or of any node in it.
WATCH_A_CHANGE = """(demo) => {
  for (const node of demo.querySelectorAll("[data-rc-view] *")) node.rcBefore = true;
  window.rcClassChanges = [];
  new MutationObserver((records) => rcClassChanges.push(...records.map((r) => r.target.nodeName)))
    .observe(demo, { attributes: true, attributeFilter: ["class"], subtree: true });
}"""


def test_a_change_updates_the_view_in_place(page, site_server, mrr_demo_values):
    """The new view is merged into the shown one (demo.js morph): the nodes that stay are kept,
    so the browser restyles, lays out and paints only what changed; and no class changes on the
    way (Material's ``table:not([class])`` rules restyle a whole subtree on any class change)."""
    state = _open(page, site_server)
    first = state["queries"][0]
    doc = first["ranking"][0]
    page.locator(DEMO).evaluate(WATCH_A_CHANGE)
    _after(
        page, page.locator(f'{DEMO} [data-rc-list="0"] li[data-doc="{doc}"] [data-rc-doc]').click
    )
    if doc in first["relevant"]:
        first["relevant"].remove(doc)
    else:
        first["relevant"].append(doc)
    assert _shown(page) == mrr_demo_values(state)
    kept = page.eval_on_selector_all(
        f"{DEMO} [data-rc-view] *", "els => els.filter((e) => e.rcBefore).length"
    )
    total = page.eval_on_selector_all(f"{DEMO} [data-rc-view] *", "els => els.length")
    assert kept >= total * 0.8, (kept, total)  # a row more or less, and the numbers: in place
    caption = page.locator(f"{DEMO} [data-rc-view] table caption").first
    assert caption.evaluate("c => c.rcBefore === true")
    assert page.evaluate("rcClassChanges") == []
    assert _script_errors(page) == []


def test_keyboard_moves_marks_and_slides(page, site_server, mrr_demo_values):
    state = _open(page, site_server, "es")
    second = state["queries"][1]
    doc = second["ranking"][-1]
    item = f'{DEMO} [data-rc-list="1"] li[data-doc="{doc}"] [data-rc-doc]'
    page.focus(item)
    _after(page, lambda: page.keyboard.press("Alt+ArrowUp"))
    second["ranking"].insert(-1, second["ranking"].pop())
    order = page.eval_on_selector_all(
        f'{DEMO} [data-rc-list="1"] li', "els => els.map(e => e.dataset.doc)"
    )
    assert order == second["ranking"]
    assert page.evaluate("document.activeElement.closest('li').dataset.doc") == doc  # focus kept
    _after(page, lambda: page.keyboard.press("Space"))  # mark it relevant (or not)
    if doc in second["relevant"]:
        second["relevant"].remove(doc)
    else:
        second["relevant"].append(doc)
    assert _shown(page) == mrr_demo_values(state)

    slider = page.locator(f'{DEMO} input[type="range"]')
    slider.focus()
    _after(page, lambda: page.keyboard.press("Home"))  # k = min
    state["k"] = int(slider.get_attribute("min"))
    assert _shown(page) == mrr_demo_values(state)
    assert page.text_content(f"{DEMO} [data-rc-shown]") == str(state["k"])
    assert f"RR@{state['k']} = (" in page.text_content(f"{DEMO} .rc-lab-mean")
    assert _script_errors(page) == []


def test_move_buttons_reorder_and_controls_are_labelled(page, site_server, mrr_demo_values):
    state = _open(page, site_server)
    third = state["queries"][2]
    doc = third["ranking"][0]
    down = page.locator(f'{DEMO} [data-rc-list="2"] li[data-doc="{doc}"] [data-rc-delta="1"]')
    assert down.get_attribute("aria-label") == f"Move down {doc}"
    _after(page, down.click)
    third["ranking"][0], third["ranking"][1] = third["ranking"][1], third["ranking"][0]
    assert _shown(page) == mrr_demo_values(state)
    slider = page.locator(f'{DEMO} input[type="range"]')
    label = slider.evaluate("e => e.labels[0].textContent.trim()")
    assert label and page.get_by_role("slider", name=label).count() == 1
    legend = page.text_content(f"{DEMO} fieldset legend").strip()
    assert page.get_by_role("group", name=legend).count() == 1


def test_drag_and_drop_reorders_a_ranking(page, site_server, mrr_demo_values):
    state = _open(page, site_server)
    first = state["queries"][0]
    source, target = first["ranking"][-1], first["ranking"][0]
    items = f'{DEMO} [data-rc-list="0"] li'
    drag = page.locator(f'{items}[data-doc="{source}"]')
    _after(page, lambda: drag.drag_to(page.locator(f'{items}[data-doc="{target}"]')))
    first["ranking"].insert(0, first["ranking"].pop())
    order = page.eval_on_selector_all(items, "els => els.map(e => e.dataset.doc)")
    assert order == first["ranking"]
    assert _shown(page) == mrr_demo_values(state)


def test_instant_navigation_mounts_the_next_demo_without_a_new_boot(page, site_server):
    _open(page, site_server)
    runtime = f"{site_server}assets/rankcards/runtime.js"
    page.evaluate(f"import('{runtime}').then(m => {{ window.rt = m.runtime; }})")
    page.wait_for_function("window.rt && window.rt.boots === 1")
    page.locator('a[href$="hit-rate-at-k/"]:visible').first.click()  # Material's instant navigation
    page.wait_for_url("**/en/hit-rate-at-k/")
    page.wait_for_function("document.querySelector('#rc-demo-hit-rate-at-k')")
    if page.evaluate("typeof window.rt") == "undefined":
        pytest.fail(
            "the click reloaded the whole page instead of Material's instant navigation "
            "(Material fetches the sitemap to know internal URLs: is sitemap.xml served for "
            "this language's base URL?)"
        )
    page.locator(DEMO).scroll_into_view_if_needed()
    page.wait_for_function(f"document.querySelector('{DEMO}').dataset.rcState === 'live'")
    slider = page.locator(f'{DEMO} input[type="range"]').first
    slider.focus()
    _after(page, lambda: page.keyboard.press("Home"))
    assert page.evaluate("window.rt.boots") == 1
    assert _script_errors(page) == []
