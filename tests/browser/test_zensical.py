"""The site built by Zensical (``make build-zensical``) in real Chromium, on a representative
subset of its pages: what a reader does there works as on the MkDocs build.

What a page is put through follows from what it holds (a demo, one bound to its example, a code
example, an exercise, the evaluate form), so adding a page to the subset is one line of
``ZENSICAL_PAGES``. That both builds publish every page in both languages with the same content
is checked without a browser (tests/site/test_zensical_build.py).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from demo_helpers import move_first_control
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

ZENSICAL_PAGES = (
    "en/ndcg/",  # the measure lab
    "es/gold-dataset/",  # a demo with its own view
    "es/pooling/",  # a demo bound to the card's example
    "en/mrr/",  # an exercise
    "en/evaluate/",  # evaluate your own run
)

DEMO = "section[data-rc-demo]:not([data-rc-bound])"
BOUND = "section[data-rc-demo][data-rc-bound]"
EXAMPLE = "[data-rc-example][data-rc-enhanced]"
EXERCISE = "[data-rc-exercise][data-rc-enhanced]"
READY = "document.documentElement.dataset.runtime === 'ready'"
BOOT_MS = 180_000  # a first boot of Pyodide on a loaded two-core machine


def _metrics(page: Any) -> dict[str, str]:
    """``data-metric -> data-value`` of the demo view's deterministic numbers."""
    return dict(
        page.eval_on_selector_all(
            f"{DEMO} [data-rc-view] [data-metric]:not([data-rc-volatile])",
            "els => els.map(e => [e.dataset.metric, e.dataset.value])",
        )
    )


def _live(page: Any) -> None:
    page.locator(DEMO).scroll_into_view_if_needed()
    page.wait_for_function(
        f"document.querySelector('{DEMO}').dataset.rcState === 'live'", timeout=BOOT_MS
    )


def _change_a_control(page: Any) -> None:
    """Move the demo's first control away from where it is and wait for the worker's view."""
    page.evaluate(
        f"() => {{ window.__updated = new Promise(r => document.querySelector('{DEMO}')"
        ".addEventListener('rankcards:demo', r, {once: true})); }"
    )
    move_first_control(page, DEMO)
    page.wait_for_function("window.__updated.then(() => true)")


def _view(page: Any) -> tuple[dict[str, str], str]:
    """The demo view's deterministic numbers and, unless it shows measurements, its markup."""
    markup = page.inner_html(f"{DEMO} [data-rc-view]")
    return _metrics(page), "" if "data-rc-volatile" in markup else markup


def _check_demo_and_share(page: Any) -> None:
    built = _view(page)
    _live(page)
    assert _view(page) == built  # the worker's view of the initial state is the build's
    _change_a_control(page)
    changed = _view(page)
    assert page.inner_html(f"{DEMO} [data-rc-view]") != built[1]
    page.wait_for_function("location.hash.includes('demo=')")  # written once the change settles
    other = page.context.new_page()
    other.goto(page.url)  # the state in the URL opens the same view
    _live(other)
    assert other.get_attribute(DEMO, "data-rc-shared") == "restored"
    assert _view(other) == changed
    other.close()


def _check_example(page: Any) -> None:
    """Run gives the build's output (the card's own code, a bound demo's included)."""
    block = page.locator(EXAMPLE).first
    output = block.locator("[data-rc-output]")
    built = output.text_content()
    block.scroll_into_view_if_needed()
    page.wait_for_function(READY, timeout=BOOT_MS)
    block.locator("[data-rc-toolbar] button").first.click()  # Run
    page.wait_for_function(
        "document.querySelector('[data-rc-example]').dataset.rcLive &&"
        " !document.querySelector('[data-rc-example]').dataset.rcRunning",
        timeout=BOOT_MS,
    )
    assert output.text_content() == built


def _check_bound(page: Any) -> None:
    """Moving the first slider of an example-bound demo rewrites its literal in the example's
    code and runs it again: the output changes."""
    output = page.locator(f"{EXAMPLE} [data-rc-output]").first
    built = output.text_content()
    page.locator(BOUND).scroll_into_view_if_needed()
    page.wait_for_function(READY, timeout=BOOT_MS)
    page.wait_for_selector(f"{BOUND}[data-rc-bound-state=ready]", timeout=BOOT_MS)
    page.wait_for_selector("[data-rc-example][data-rc-editor=ready]", state="attached")
    page.evaluate(
        "() => { window.__ran = new Promise(r => document.querySelector('[data-rc-example]')"
        ".addEventListener('rankcards:run', r, {once: true})); }"
    )
    slider = page.locator(f"{BOUND} input[type=range]").first
    name, top = slider.get_attribute("data-rc-bind"), slider.get_attribute("max")
    assert slider.input_value() != top
    slider.focus()
    page.keyboard.press("End")
    page.wait_for_function("window.__ran.then(() => true)", timeout=BOOT_MS)
    assert f"{name} = {top}" in (page.locator(f"{EXAMPLE} .cm-content").text_content() or "")
    assert output.text_content() != built


def _check_exercise(page: Any) -> None:
    block = page.locator(EXERCISE)
    block.scroll_into_view_if_needed()
    solution = block.locator("[data-rc-solution] code").text_content() or ""
    starter = block.locator("[data-rc-source]").text_content() or ""
    assert "return" in solution and solution != starter
    source = block.locator("[data-rc-source]")
    if source.is_visible():  # still the code block: pointing at it mounts the editor
        source.click()
    page.wait_for_selector("[data-rc-exercise][data-rc-editor=ready]", timeout=BOOT_MS)
    for code, state in ((starter, "fail"), (solution, "pass")):
        block.locator(".cm-content").click()
        page.keyboard.press("Control+a")
        page.keyboard.insert_text(code)
        block.locator(".rc-exercise__button--check").click()
        block.locator(f"[data-rc-exercise-result][data-state={state}]").wait_for(timeout=BOOT_MS)


def _check_evaluate(page: Any, reference: Any, expected: dict[str, str]) -> None:
    page.wait_for_function(READY, timeout=BOOT_MS)
    page.set_input_files('[data-rc-file="qrels"]', reference / "qrels.test")
    page.set_input_files('[data-rc-file="run"]', reference / "results.test")
    page.fill("[data-rc-measures]", " ".join(expected))
    page.click("[data-rc-evaluate-button]")
    page.wait_for_function(
        "document.querySelector('[data-rc-evaluate]').dataset.rcState === 'done'", timeout=BOOT_MS
    )
    shown = page.eval_on_selector_all(
        "tr.rc-eval-all td", "els => els.map(e => [e.dataset.measure, e.textContent])"
    )
    assert dict(shown) == expected


@pytest.mark.parametrize("url", ZENSICAL_PAGES)
def test_a_page_works_as_on_the_mkdocs_build(
    page, zensical_server, url, trec_eval_reference, out_test_aggregates
):
    failed: list[str] = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.goto(zensical_server + url)
    lang = url.split("/")[0]
    assert page.evaluate("document.documentElement.lang") == lang
    held = {
        name: page.locator(selector).count() > 0
        for name, selector in {
            "demo": DEMO,
            "bound": BOUND,
            "example": EXAMPLE,
            "exercise": EXERCISE,
            "evaluate": "[data-rc-evaluate]",
        }.items()
    }
    assert any(held.values()), f"{url}: nothing to check on this page"
    if held["demo"]:
        _check_demo_and_share(page)
    if held["example"]:
        _check_example(page)
    if held["bound"]:
        _check_bound(page)
    if held["exercise"]:
        _check_exercise(page)
    if held["evaluate"]:
        _check_evaluate(page, trec_eval_reference, out_test_aggregates)
    assert failed == []
    assert page.console_errors == []


def test_the_language_selector_goes_to_the_same_page(page, zensical_server) -> None:
    page.goto(f"{zensical_server}es/recall-at-k/")
    page.locator(".md-header__option .md-select").hover()
    page.locator("a.md-select__link[hreflang=en]").click()
    page.wait_for_url(f"{zensical_server}en/recall-at-k/")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator("article.rc-card").get_attribute("data-rc-card") == "recall-at-k"


def test_instant_navigation_mounts_the_next_pages_demo(page, zensical_server) -> None:
    page.goto(f"{zensical_server}en/mrr/")
    page.evaluate("window.__sameDocument = true")  # gone if the browser loads a new document
    page.locator('.md-nav a[href$="/ndcg/"]').first.click()
    page.wait_for_url(f"{zensical_server}en/ndcg/")
    page.wait_for_selector('article.rc-card[data-rc-card="ndcg"]')  # the new page's content is in
    _live(page)
    assert page.evaluate("window.__sameDocument") is True
    assert page.console_errors == []


@pytest.mark.parametrize(
    ("start", "words"), [("en/", "precisión media"), ("es/", "average precision")]
)
def test_search_finds_a_card_by_its_name_in_the_other_language(
    page, zensical_server, start, words
) -> None:
    page.goto(zensical_server + start)
    page.locator(".md-search__button").click()
    # The dialog focuses its field as it opens; on a busy machine that can come after the click
    # returns, and keys typed before it would go to the page.
    expect(page.locator("dialog input[role=combobox]")).to_be_focused(timeout=30_000)
    page.keyboard.type(words)
    # Zensical draws its search dialog in a shadow root; Playwright's CSS selectors enter it.
    first = page.locator("dialog ol[role=listbox] a[role=option]").first
    # Waited for, not read at once: in one full run the first link, already for the whole
    # query (?h=...), was another card's; the rerun found the card first.
    expect(first).to_have_attribute("href", re.compile(r"/average-precision/\?h="), timeout=60_000)
