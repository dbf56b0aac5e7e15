"""Material's script waits on a page whose first screen runs Python, and the theme still works.

The rankcards plugin writes Material's bundle on such a page as ``<link rel="preload"
data-rc-theme>`` (``defer_theme``); theme.js runs it once the first demo value is shown, as soon
as the reader acts, or ``THEME_WAIT_MS`` after the page's modules ran. The page's modules mount
on the current page at once and on every page Material's instant navigation shows afterwards.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from instant import go_instantly

from rankcards import web
from rankcards.web import defer_theme
from repo_paths import WEB

BUNDLE = '<script src="../../assets/javascripts/bundle.a5f9d56c.min.js"></script>'
PRELOAD = (
    '<link rel="preload" as="script" href="../../assets/javascripts/bundle.a5f9d56c.min.js" '
    "data-rc-theme>"
)
JS_CLASS = '<script>document.documentElement.classList.replace("no-js", "js")</script></head>'
PALETTE = (
    '<form data-md-component="palette"></form><script>var palette=__md_get("__palette");</script>'
)
CARD = (
    f'<html class="no-js"><head></head><body>{PALETTE}'
    f'<div class="rc-example" data-rc-example data-lang="en"></div>{BUNDLE}</body></html>'
)


def _deferred(page: str) -> str:
    """``page`` as defer_theme should write it."""
    script = (Path(web.__file__).parent / "theme_palette.js").read_text(encoding="utf-8")
    return (
        page.replace(BUNDLE, PRELOAD)
        .replace("</head>", JS_CLASS)
        .replace(PALETTE, f"{PALETTE}<script>{script}</script>")
    )


# When the theme's script was put in the page and when it ran (theme.js announces the page to it
# with a second DOMContentLoaded), when the runtime was ready and the first demo
# value shown, and whether Material's `document$` existed then (ms since the navigation start).
RECORD = """
window.rcTheme = {};
new MutationObserver((changes) => {
  for (const change of changes) for (const node of change.addedNodes)
    if (node.tagName === "SCRIPT" && /bundle\\.[0-9a-f]+\\.min\\.js$/.test(node.src))
      rcTheme.inserted ??= performance.now();
}).observe(document, { childList: true, subtree: true });
let announced = 0;  // Material's first page is announced on the second DOMContentLoaded
document.addEventListener("DOMContentLoaded", () => {
  if (++announced === 2) rcTheme.ran = performance.now();
});
window.addEventListener("rankcards:runtime", (event) => {
  if (event.detail.state === "ready") rcTheme.ready ??= [performance.now(), !!window.document$];
});
window.addEventListener("rankcards:demo", () => {
  rcTheme.value ??= [performance.now(), !!window.document$];
}, true);
"""
PARSED = "performance.getEntriesByType('navigation')[0].domInteractive"
WAIT_MS = (
    "import(new URL('../../assets/rankcards/theme.js', location))"
    ".then((module) => module.THEME_WAIT_MS)"
)


def test_defer_theme_preloads_materials_bundle_on_a_page_that_runs_python():
    assert defer_theme(CARD) == _deferred(CARD)
    exercise = 'div data-rc-exercise data-lang="en"'
    markers = ("section data-rc-demo", exercise, "div data-rc-evaluate")
    for marker in markers:
        page = CARD.replace('div class="rc-example" data-rc-example data-lang="en"', marker)
        assert defer_theme(page) == _deferred(page), marker
    no_palette = CARD.replace(PALETTE, "")  # a site without a palette toggle
    assert defer_theme(no_palette) == _deferred(no_palette)


def test_defer_theme_leaves_other_pages_alone():
    nothing_to_run = CARD.replace(" data-rc-example", "")
    assert defer_theme(nothing_to_run) == nothing_to_run
    only_a_status = CARD.replace(" data-rc-example", ' data-rc-demo-status=""')
    assert defer_theme(only_a_status) == only_a_status  # a marker's prefix is not the marker
    no_bundle = CARD.replace(BUNDLE, '<script src="theme.js"></script>')  # another engine's page
    assert defer_theme(no_bundle) == no_bundle


def test_defer_theme_looks_for_what_runtime_js_counts_as_running_python():
    selector = re.search(r'const RUNS_PYTHON = "([^"]+)"', (WEB / "runtime.js").read_text())
    assert selector is not None
    pattern = re.search(r"data-rc-\(\?:([a-z|]+)\)", web._RUNS_PYTHON.pattern)
    assert pattern is not None
    in_runtime = set(re.findall(r"data-rc-([a-z]+)", selector.group(1)))
    assert in_runtime == set(pattern.group(1).split("|"))
    assert in_runtime == {"demo", "example", "exercise", "evaluate"}


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
def test_the_built_site_defers_the_theme_on_pages_that_run_python_only(built_site: Path):
    for path in ("en/mrr/index.html", "es/ndcg/index.html", "en/evaluate/index.html"):
        html = (built_site / path).read_text(encoding="utf-8")
        assert "data-rc-theme" in html and "bundle." in html, path
        assert '<script src="../../assets/javascripts/bundle.' not in html, path
    for path in ("en/index.html", "es/glossary/index.html"):
        html = (built_site / path).read_text(encoding="utf-8")
        assert "data-rc-theme" not in html and "/assets/javascripts/bundle." in html, path


def _open_mrr(page: Any, site_server: str) -> None:
    """Open /en/mrr/ with its demo within a screen (the first screen boots) and RECORD on."""
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.add_init_script(RECORD)
    page.goto(f"{site_server}en/mrr/")


def _theme_ran(page: Any) -> None:
    page.wait_for_function("window.document$ !== undefined && rcTheme.ran !== undefined")


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
def test_the_theme_runs_after_the_first_demo_value_and_then_works(page: Any, site_server: str):
    _open_mrr(page, site_server)
    _theme_ran(page)
    page.wait_for_function("rcTheme.value !== undefined")
    theme = page.evaluate("rcTheme")
    cap = page.evaluate(PARSED) + page.evaluate(WAIT_MS)
    if theme["inserted"] < cap:  # not the time limit (a slow boot may reach it): the value first
        assert theme["ready"][1] is False and theme["value"][1] is False, theme
        assert theme["ran"] >= theme["value"][0], theme
    # The theme works: its instant navigation, to a card whose demo then shows its value (the
    # page's modules follow the pages the theme shows, though they started without it).
    page.evaluate("window.rcSameRealm = true; rcTheme.value = undefined")
    go_instantly(page, f"{site_server}en/ndcg/")
    page.wait_for_function("rcTheme.value !== undefined")
    assert page.evaluate("document.querySelectorAll('section[data-rc-demo]').length") == 1
    assert page.console_errors == []


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
def test_a_boot_that_hangs_holds_the_theme_no_longer_than_its_time_limit(
    page: Any, site_server: str
):
    page.route("**/assets/pyodide/**", lambda route: None)  # never answered: the boot hangs
    _open_mrr(page, site_server)
    _theme_ran(page)
    assert page.evaluate("document.documentElement.dataset.runtime") == "loading"
    assert page.evaluate("rcTheme.inserted") >= page.evaluate(PARSED) + page.evaluate(WAIT_MS)


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
def test_the_readers_first_act_runs_the_theme_at_once_and_keeps_a_palette_choice(
    page: Any, site_server: str
):
    page.route("**/assets/pyodide/**", lambda route: None)
    _open_mrr(page, site_server)
    page.wait_for_function("document.documentElement.dataset.runtime === 'loading'")
    assert page.evaluate("rcTheme.inserted") is None
    media = "document.body.dataset.mdColorMedia"
    assert page.evaluate(media) == "(prefers-color-scheme)"  # drawn as the theme will draw it
    toggle = page.locator("[data-md-component=palette] label:not([hidden])")
    assert toggle.count() == 1
    toggle.click()  # "Switch to light mode", before the theme's script ran
    acted = page.evaluate("performance.now()")
    _theme_ran(page)
    assert page.evaluate("rcTheme.inserted") <= acted
    page.wait_for_function(f"{media} === '(prefers-color-scheme: light)'")  # the choice was kept
    # the search box works once the theme runs
    box = page.locator("input[data-md-component=search-query]")
    box.click()
    box.press_sequentially("reciprocal", delay=20)
    page.wait_for_selector(".md-search-result__item")
