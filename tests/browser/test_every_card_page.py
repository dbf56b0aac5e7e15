"""Every card page of the built site, in real Chromium, in both languages: its example is
enhanced with the toolbar in the page's language, the runtime is ready with the package's
version, its demo's view as the worker computes it for the initial state is exactly the
build-time view (one renderer), the demo's first control changes that view, and nothing is
logged as an error.

One visit per page, in one tab per language, as a reader goes from card to card: the first page
is loaded and boots the runtime, every other one is reached by Material's instant navigation,
which keeps the booted runtime (so each page costs its own work, not a Pyodide boot: the suite
grows by one instant navigation a card). The build-time view is read from the page's HTML as
served (what a reader without JavaScript sees), so it does not matter that the demo may compute
its live view before the test looks. A view with measured values (``data-rc-volatile``:
timings, throughput) is held to its deterministic numbers only, since its drawing follows the
measurements. An example-bound demo's view is its example: tests/browser/test_bound_demos.py and
test_bound_every_card.py move those.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from demo_helpers import move_first_control
from instant import visit_each

import rankcards

pytestmark = pytest.mark.browser

DEMO = "section[data-rc-demo]"
EXAMPLE = "[data-rc-example][data-rc-enhanced]"
NAMES = {
    "en": ["Run", "Stop", "Reset", "Copy", "Share with code"],
    "es": ["Ejecutar", "Detener", "Restablecer", "Copiar", "Compartir con el código"],
}

# The demo's view and its deterministic numbers, as the page's HTML holds them before any script.
_BUILT = """async ([url, demo]) => {
  const html = await (await fetch(url)).text();
  const view = new DOMParser().parseFromString(html, "text/html")
    .querySelector(`${demo} [data-rc-view]`);
  if (!view) return null;
  const fixed = [...view.querySelectorAll("[data-metric]:not([data-rc-volatile])")]
    .map((e) => [e.dataset.metric, e.dataset.value]);
  return {html: view.innerHTML, fixed};
}"""

_LIVE_FIXED = f"""() => [...document.querySelectorAll(
  '{DEMO} [data-rc-view] [data-metric]:not([data-rc-volatile])')]
  .map((e) => [e.dataset.metric, e.dataset.value])"""


def _card_pages(examples: list[Any], lang: str) -> list[str]:
    return list(dict.fromkeys(e.url for e in examples if e.lang == lang))


def _mark_view(page: Any) -> None:
    """Remember the view's markup, and listen for the demo's next recompute."""
    page.eval_on_selector(
        DEMO,
        "demo => { demo.querySelector('[data-rc-view]').dataset.rcBefore ="
        " demo.querySelector('[data-rc-view]').innerHTML;"
        " window.__recomputed = new Promise((resolve) =>"
        " demo.addEventListener('rankcards:demo', () => resolve(true), {once: true})); }",
    )


def _wait_for_a_new_view(page: Any, url: str) -> None:
    """Wait for the worker's answer to be shown (the demo's ``rankcards:demo`` event: the view
    is merged in place, so its nodes may stay), and check that its markup changed."""
    page.wait_for_function("window.__recomputed", timeout=60_000)
    changed = page.eval_on_selector(
        f"{DEMO} [data-rc-view]",
        "view => view.children.length > 0 && view.innerHTML !== view.dataset.rcBefore",
    )
    assert changed, f"{url}: moving the demo's first control changed nothing on screen"


def _demo_pages(site: Path, lang: str) -> list[str]:
    """Pages of ``lang`` with a demo that has a view of its own (not bound to its example)."""
    found = []
    for path in sorted((site / lang).glob("*/index.html")):
        html = path.read_text(encoding="utf-8")
        if "data-rc-demo" in html and "data-rc-bound" not in html:
            found.append(path.parent.relative_to(site).as_posix() + "/")
    return found


def _check_demo(page: Any, url: str) -> bool:
    """Check the page's demo if it has a view of its own; whether it had."""
    built = page.evaluate(_BUILT, [url, f"{DEMO}:not([data-rc-bound])"])
    if built is None:  # an example-bound demo: its example is its view
        return False
    page.locator(DEMO).scroll_into_view_if_needed()
    page.wait_for_function(
        f"document.querySelector('{DEMO}').dataset.rcState === 'live'", timeout=60_000
    )
    assert dict(page.evaluate(_LIVE_FIXED)) == dict(built["fixed"]), url
    if "data-rc-volatile" not in built["html"]:  # measured numbers (and their drawings) vary
        assert page.inner_html(f"{DEMO} [data-rc-view]") == built["html"], url
    _mark_view(page)
    move_first_control(page)
    _wait_for_a_new_view(page, url)
    assert page.locator(f"{DEMO} [data-rc-demo-error]").is_hidden(), url
    return True


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_card_page_mounts_its_example_and_computes_its_demo_live(
    page, site_server, built_site, examples, lang
):
    pages = _card_pages(examples, lang)
    assert len(pages) >= 40 and any(url.endswith("/mrr/") for url in pages), pages
    demos = []
    for url in visit_each(page, site_server, pages):
        page.wait_for_selector(f"{EXAMPLE}:not([data-rc-left])", state="attached")
        page.locator(EXAMPLE).first.scroll_into_view_if_needed()  # examples boot the runtime
        page.wait_for_function("document.documentElement.dataset.runtime === 'ready'")
        block = page.locator(f"{EXAMPLE}:not([data-rc-left])").first
        names = [b.inner_text() for b in block.locator("[data-rc-toolbar] button").all()]
        assert names == NAMES[lang], url
        assert page.evaluate("document.documentElement.dataset.runtimeVersion") == (
            rankcards.__version__
        ), url
        if _check_demo(page, site_server + url):
            demos.append(url)
        assert page.console_errors == [], url
    assert demos == _demo_pages(built_site, lang)  # every demo with a view of its own, checked
    boots = page.evaluate(
        f"import('{site_server}assets/rankcards/runtime.js').then((m) => m.runtime.boots)"
    )
    assert boots == 1, "the runtime booted again on the way"
