"""The measure lab in real Chromium, on a site whose card is the lab fixture (AP@k with ties,
cutoff and averaging): every control and view action recomputes the view in Pyodide, and every
number shown equals what the module computes in CPython for the same state.

Each step applies the reader's action to a copy of the state in Python, then compares the page's
``data-value``s with :func:`rankcards.viz.lab.view` on that state (the view that the unit tests
hold to :func:`rankcards.metrics.evaluate`) and the mean with ``evaluate`` directly.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from lab_site import build_lab_site
from playwright.sync_api import expect
from static_site import base_url, start_server

from rankcards.metrics import evaluate
from rankcards.viz._lab_spec import measure_at
from rankcards.viz.lab import view

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

DEMO = "section[data-rc-demo]"
READY = "document.documentElement.dataset.runtime === 'ready'"
_METRIC = re.compile(r'data-metric="([^"]*)" data-value="([^"]*)"')


@pytest.fixture(scope="module")
def lab_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site, error = build_lab_site(tmp_path_factory.mktemp("lab-project"))
    if site is None:
        pytest.fail(f"mkdocs build of the lab fixture site failed:\n{error}")
    server = start_server(site)
    try:
        yield base_url(server)
    finally:
        server.shutdown()


def _shown(page: Any) -> dict[str, float]:
    pairs = page.eval_on_selector_all(
        f"{DEMO} [data-rc-view] [data-metric][data-value]",
        "els => els.map(e => [e.dataset.metric, e.dataset.value])",
    )
    return {name: float(value) for name, value in pairs}


def _module(state: dict[str, Any], lang: str) -> dict[str, float]:
    return {name: float(value) for name, value in _METRIC.findall(view(state, lang))}


def _mean(state: dict[str, Any]) -> float:
    """evaluate() on the state's data: listed documents judged, ties only with the toggle on."""
    qrels, run = {}, {}
    tied = set(state.get("tied", [])) if state.get("show_ties") else set()
    absent = set(state.get("absent", [])) if state.get("show_averaging") else set()
    for item in state["queries"]:
        qid = item["query"]
        marks = item["grades"] if "grades" in item else dict.fromkeys(item["relevant"], 1)
        qrels[qid] = {**dict.fromkeys(item["ranking"], 0), **marks}
        if qid in absent:
            continue
        scores, score = {}, 100.0
        for rank, doc in enumerate(item["ranking"], 1):
            if rank > 1 and f"{qid}:{rank - 1}" not in tied:
                score -= 1
            scores[doc] = score
        run[qid] = scores
    name = measure_at(state["measure"], state.get("k"))
    return evaluate(qrels, run, [name]).aggregate[name]


def _after(page: Any, act: Any) -> None:
    """Run ``act`` and wait for the recomputed view (the demo's ``rankcards:demo`` event)."""
    page.evaluate(
        f"() => {{ window.__updated = new Promise(r => document.querySelector('{DEMO}')"
        ".addEventListener('rankcards:demo', r, {once: true})); }"
    )
    act()
    page.wait_for_function("window.__updated.then(() => true)")


def _page_state(page: Any) -> dict[str, Any]:
    return page.evaluate(  # the live demo's state, from demo.js's demoOf
        f"""async () => {{
          const {{ demoOf }} = await import(document.querySelector('script[src*="demo.js"]').src);
          return demoOf(document.querySelector('{DEMO}')).state;
        }}"""
    )


def _open(page: Any, url: str) -> dict[str, Any]:
    page.goto(url)
    state = json.loads(page.get_attribute(DEMO, "data-rc-initial"))
    page.locator(DEMO).scroll_into_view_if_needed()
    page.wait_for_function(READY, timeout=120_000)
    page.wait_for_function(f"document.querySelector('{DEMO}').dataset.rcState === 'live'")
    return state


def test_graded_lab_cycles_a_grade_and_shows_both_gains(page: Any, lab_server: str) -> None:
    state = _open(page, f"{lab_server}en/lab-ndcg/")
    assert _shown(page) == _module(state, "en")
    doc = state["queries"][0]["ranking"][0]  # d3, grade 0 in the toy example
    button = page.locator(f'{DEMO} [data-rc-list="0"] li[data-doc="{doc}"] [data-rc-doc]')
    _after(page, button.click)
    _after(page, button.click)
    state["queries"][0]["grades"][doc] = 2
    # The button is named by its text (the grade is visible; the words are visually hidden).
    expect(button).to_have_accessible_name(re.compile(rf"^{doc}\s*: grade 2$"))
    _after(page, page.locator(f'{DEMO} [data-rc-bind="show_gain"]').check)
    state["show_gain"] = True
    shown = _shown(page)
    assert shown == _module(state, "en") and shown["mean"] == _mean(state)
    assert shown["gain:default"] == shown["mean"] != shown["gain:other"]
    assert page.locator(f"{DEMO} table.rc-lab-ideal tbody tr").count() >= 1  # the ideal ranking
    assert _page_state(page) == state


@pytest.mark.parametrize("lang", ["en", "es"])
def test_slider_marking_conventions_and_view_buttons_show_the_module_numbers(
    page: Any, lab_server: str, lang: str
) -> None:
    page.goto(f"{lab_server}{lang}/lab-ap/")
    state = json.loads(page.get_attribute(DEMO, "data-rc-initial"))
    built, built_html = _shown(page), page.locator(f"{DEMO} [data-rc-view]").inner_html()
    assert built == _module(state, lang) and built["mean"] == _mean(state)
    page.locator(DEMO).scroll_into_view_if_needed()
    page.wait_for_function(READY, timeout=120_000)
    page.wait_for_function(f"document.querySelector('{DEMO}').dataset.rcState === 'live'")
    # the worker's first view is the build-time view (what test_every_card_page checks)
    assert page.locator(f"{DEMO} [data-rc-view]").inner_html() == built_html

    # 1. the K slider, to 2
    slider = page.locator(f'{DEMO} [data-rc-kind="slider"]')
    _after(page, lambda: slider.fill("2"))
    state["k"] = 2
    assert page.get_attribute(f"{DEMO} .rc-lab", "data-measure") == "AP@2"
    shown = _shown(page)
    assert shown == _module(state, lang) and shown["mean"] == _mean(state)

    # 2. mark q1's first document (d3) relevant
    doc = state["queries"][0]["ranking"][0]
    _after(
        page, page.locator(f'{DEMO} [data-rc-list="0"] li[data-doc="{doc}"] [data-rc-doc]').click
    )
    state["queries"][0]["relevant"].append(doc)
    shown = _shown(page)
    assert shown == _module(state, lang) and shown["mean"] == _mean(state)
    assert shown["value:q1"] > built["value:q1"]
    assert _page_state(page) == state

    # 3. the ties convention: both values side by side, the initial tie q1:2 applied
    _after(page, page.locator(f'{DEMO} [data-rc-bind="show_ties"]').check)
    state["show_ties"] = True
    shown = _shown(page)
    assert shown == _module(state, lang) and shown["mean"] == _mean(state)
    assert shown["ties:default"] == shown["mean"] and "ties:other" in shown

    # 4. view buttons: untie q1:2 then tie q1:1; look at q2's terms; averaging without q4
    _after(page, page.locator(f'{DEMO} [data-rc-item="q1:2"]').click)
    state["tied"].remove("q1:2")
    _after(page, page.locator(f'{DEMO} [data-rc-item="q1:1"]').click)
    state["tied"].append("q1:1")
    assert _shown(page) == _module(state, lang)
    _after(page, page.locator(f'{DEMO} tr[data-query="q2"] button.rc-lab-focus').click)
    state["focus"] = "q2"
    _after(page, page.locator(f'{DEMO} [data-rc-bind="show_averaging"]').check)
    state["show_averaging"] = True
    shown = _shown(page)
    assert shown == _module(state, lang) and shown["mean"] == _mean(state)
    assert shown["averaging:other"] < shown["averaging:default"]  # q4 counts 0 with -c
    assert page.get_attribute(f"{DEMO} .rc-lab-focus-query", "data-query") == "q2"
    assert _page_state(page) == state
    status = page.locator(f"{DEMO} [data-rc-demo-status]").text_content()
    assert ("media de AP@2" if lang == "es" else "mean AP@2") in status
    assert [e for e in page.console_errors if "Failed to load resource" not in e] == []
