"""When a card page starts its one Pyodide worker (the runtime boots lazily).

runtime.js, a deferred module, starts it when the page's first demo or example is within one
screen of the viewport, at once or when the reader scrolls near it; never on a page without
one, and never while the page is parsed, where the worker's start-up competed with the
theme's for the CPU and added long tasks without making the demo live sooner (README,
"Benchmarks"). These tests count every ``Worker`` the page constructs (an init script wraps
the constructor), so a second, orphaned worker cannot hide behind ``runtime.boots``; only the
worker runtime.js names "rankcards-rehearsal" is not counted (once a first visit has kept a
snapshot, it rehearses the next visit's boot and is dropped: see test_snapshot.py).
"""

from __future__ import annotations

from typing import Any

import pytest
from instant import wait_for_instant_navigation

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

STATE = "document.documentElement.dataset.runtime"
RUNTIME = "assets/rankcards/runtime.js"
# Records the time (ms since navigation start) each rankcards worker is constructed, across the
# whole visit (instant navigation keeps the same window); Material's search worker is not ours.
COUNT_WORKERS = """
window.rcWorkers = [];
const NativeWorker = window.Worker;
window.Worker = function (url, options) {
  const ours = String(url).includes("/assets/rankcards/worker.js");
  if (ours && options?.name !== "rankcards-rehearsal") window.rcWorkers.push(performance.now());
  return new NativeWorker(url, options);
};
"""


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


def _parsed(page: Any) -> float:
    """When the parser finished the document: deferred modules (runtime.js) run only after."""
    return float(page.evaluate("performance.getEntriesByType('navigation')[0].domInteractive"))


def _runtime(page: Any, base: str) -> None:
    page.evaluate(f"import('{base}{RUNTIME}').then(m => {{ window.rt = m.runtime; }})")


def test_a_near_demo_starts_one_worker_once_the_page_is_parsed(page: Any, site_server: str):
    # A tall window puts the MRR card's demo within one screen of the viewport: no scrolling.
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.add_init_script(COUNT_WORKERS)
    page.goto(f"{site_server}en/mrr/")
    page.wait_for_function(f"{STATE} === 'ready'")
    assert page.evaluate("scrollY") == 0
    created = page.evaluate("rcWorkers")
    assert len(created) == 1
    assert created[0] >= _parsed(page)  # by runtime.js, not by a script while parsing
    _runtime(page, site_server)
    assert page.evaluate("rt.boots") == 1
    assert page.evaluate("rt.call('rankcards.metrics:reciprocal_rank', [['a', 'b'], ['b']])") == 0.5
    assert page.console_errors == []


def test_a_far_demo_starts_nothing_until_the_reader_scrolls_near(page: Any, site_server: str):
    # A short window: the MRR card's demo and example lie several screens below the top.
    page.set_viewport_size({"width": 1280, "height": 240})
    page.add_init_script(COUNT_WORKERS)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{site_server}en/mrr/")
    _settled(page)
    assert page.evaluate("rcWorkers") == []
    assert page.evaluate(STATE) == "idle"
    assert not [url for url in requests if "/assets/pyodide/" in url]
    # Scrolling there starts exactly one worker, which loads Pyodide.
    page.locator("section[data-rc-demo]").scroll_into_view_if_needed()
    page.wait_for_function(f"{STATE} === 'ready'")
    assert len(page.evaluate("rcWorkers")) == 1
    assert [url for url in requests if url.endswith("pyodide.asm.wasm")]


def test_pages_without_runnable_parts_never_boot(page: Any, site_server: str):
    page.add_init_script(COUNT_WORKERS)
    page.goto(f"{site_server}en/glossary/")
    _settled(page)
    runnable = "document.querySelectorAll('[data-rc-demo], [data-rc-example]').length"
    assert page.evaluate(runnable) == 0
    assert page.evaluate(STATE) == "idle"
    assert page.evaluate("rcWorkers") == []


@pytest.mark.parametrize(("isolated", "workers"), [(False, 2), (True, 1)])
def test_stop_on_the_first_worker(page: Any, request: Any, isolated: bool, workers: int):
    """Without isolation Stop terminates the worker and starts a second one; with
    ``crossOriginIsolated`` a SharedArrayBuffer interrupts the same worker."""
    base = request.getfixturevalue("isolated_server" if isolated else "site_server")
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.add_init_script(COUNT_WORKERS)
    page.goto(f"{base}en/mrr/")
    page.wait_for_function(f"{STATE} === 'ready'")
    assert page.evaluate("crossOriginIsolated") is isolated
    _runtime(page, base)
    # Stop once the loop runs (its first output arrived), not while it waits in line
    page.evaluate(
        "() => { window.looping = rt.run('print(1)\\nwhile True: pass',"
        " {onStdout: () => setTimeout(() => rt.stop(), 100)}); }"
    )
    assert page.evaluate("looping.then(r => r.reason)") == "stopped"
    page.wait_for_function(f"{STATE} === 'ready'")
    assert page.evaluate("rt.run('print(6 * 7)')")["output"] == "42\n"
    assert page.evaluate("[rt.boots, rcWorkers.length]") == [workers, workers]


def test_instant_navigation_starts_no_worker(page: Any, site_server: str):
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.add_init_script(COUNT_WORKERS)
    page.goto(f"{site_server}en/mrr/")
    page.wait_for_function(f"{STATE} === 'ready'")
    _runtime(page, site_server)
    page.evaluate("window.rcMarker = 'kept'")
    wait_for_instant_navigation(page)
    links = page.eval_on_selector_all("a[data-rc-related]", "links => links.map(a => a.href)")
    assert links, "the MRR card links to related cards"
    page.evaluate(
        "(u) => [...document.querySelectorAll('a[data-rc-related]')].find(a => a.href === u)"
        ".click()",
        links[0],
    )
    page.wait_for_url(links[0])
    page.wait_for_selector("[data-rc-example][data-rc-enhanced]")
    assert page.evaluate("window.rcMarker") == "kept"  # no reload: the same window
    _settled(page)
    assert page.evaluate("[rt.boots, rcWorkers.length]") == [1, 1]
