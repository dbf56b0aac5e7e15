"""Material's search worker waits while the Python runtime boots, and search still works.

The rankcards plugin names ``search_gate.js`` as Material's search worker (``gate_search``); the
gate holds Material's messages until runtime.js posts "go" on the BroadcastChannel
``rankcards:search`` (at once on a page with nothing to run, else once the runtime is ready or
failed, or the reader opens search), or until its time limit. A test page listens on the same
channel to see when "go" is posted.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from rankcards.web import gate_search

STATE = "document.documentElement.dataset.runtime"
# Records each message on the gate's channel and when the runtime became ready (ms since the
# navigation start).
LISTEN = """
window.rcGate = [];
new BroadcastChannel("rankcards:search").onmessage = (event) =>
  rcGate.push([event.data, performance.now()]);
window.addEventListener("rankcards:runtime", (event) => {
  if (event.detail.state === "ready") window.rcReady ??= performance.now();
});
"""
MATERIAL_PAGE = (
    '<html lang="es"><head><script id="__config" type="application/json">{"base": "../..", '
    '"search": "../../assets/javascripts/workers/search.a7633da7.min.js", "tags": null}'
    "</script></head></html>"
)


def _search(page: Any, words: str) -> list[str]:
    """Type ``words`` into Material's search box -> the titles of the results."""
    box = page.locator("input[data-md-component=search-query]")
    box.click()
    box.press_sequentially(words, delay=20)
    page.wait_for_selector(".md-search-result__item")
    return page.locator(".md-search-result__item h1").all_inner_texts()


def _config(html: str) -> dict[str, Any]:
    found = re.search(r'<script id="__config" type="application/json">(.*?)</script>', html)
    assert found is not None
    return dict(json.loads(found.group(1)))


def test_gate_search_names_the_gate_beside_materials_worker():
    app = _config(gate_search(MATERIAL_PAGE))
    gate = "../../assets/javascripts/workers/search_gate.js?worker=search.a7633da7.min.js&lang=es"
    assert app == {"base": "../..", "search": gate, "tags": None}
    # a page that names no language: the gate keeps lunr's order
    app = _config(gate_search(MATERIAL_PAGE.replace(' lang="es"', "")))
    assert app["search"] == gate.removesuffix("&lang=es")


def test_gate_search_leaves_other_pages_alone():
    plain = "<html><body>no config</body></html>"
    assert gate_search(plain) == plain
    elsewhere = MATERIAL_PAGE.replace("assets/javascripts/workers/", "elsewhere/")
    assert gate_search(elsewhere) == elsewhere  # the gate is written beside Material's worker only
    no_search = MATERIAL_PAGE.replace('"search"', '"other"')
    assert gate_search(no_search) == no_search


def test_gate_search_keeps_the_config_inside_its_script_element():
    # Material writes its config with Jinja's tojson, which escapes "<", ">" and "&".
    escaped = "\\u003c/script\\u003e\\u003cb\\u003e\\u0026"
    gated = gate_search(MATERIAL_PAGE.replace('"tags": null', f'"tags": "{escaped}"'))
    assert gated.count("</script>") == 1
    assert _config(gated)["tags"] == "</script><b>&"


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
def test_the_built_site_starts_materials_worker_through_the_gate(built_site: Path):
    for page in ("en/mrr/index.html", "es/index.html", "en/evaluate/index.html"):
        search = _config((built_site / page).read_text(encoding="utf-8"))["search"]
        gate = search.rpartition("/")[2]
        assert gate.startswith("search_gate.js?worker=search."), page
        worker, _, lang = gate.split("?worker=")[1].partition("&lang=")
        assert lang == page[:2], page  # the page's language: its results come first
        workers = built_site / "assets/javascripts/workers"
        assert (workers / "search_gate.js").is_file() and (workers / worker).is_file()
    assert not (built_site / "assets/rankcards/search_gate.js").exists()


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
def test_search_waits_for_the_runtime_then_works(page: Any, site_server: str):
    page.set_viewport_size({"width": 1280, "height": 1000})  # the demo is near: a boot starts
    page.add_init_script(LISTEN)
    page.goto(f"{site_server}en/mrr/")
    page.wait_for_function(f"{STATE} === 'ready'")
    # Material's script (which starts the gate) runs after the first demo value here (theme.js):
    # the page said "go" as the runtime turned ready, and again to the gate when it asked.
    page.wait_for_function("rcGate.some(([data]) => data === 'waiting')")
    page.wait_for_function("rcGate.filter(([data]) => data === 'go').length === 2")
    gate = [(data, at) for data, at in page.evaluate("rcGate") if data != "hold"]
    assert [data for data, _ in gate] == ["go", "waiting", "go"]  # one gate
    assert gate[0][1] >= page.evaluate("rcReady")  # not while the runtime booted
    assert "MRR (Mean Reciprocal Rank)" in _search(page, "reciprocal")
    assert page.console_errors == []


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
def test_a_page_with_nothing_to_run_releases_search_at_once(page: Any, site_server: str):
    page.add_init_script(LISTEN)
    page.goto(f"{site_server}en/glossary/")
    page.wait_for_function("rcGate.some(([data]) => data === 'go')")
    assert page.evaluate(STATE) == "idle"
    assert "MRR (Mean Reciprocal Rank)" in _search(page, "reciprocal")


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
def test_a_card_whose_demo_is_far_releases_search_when_it_is_opened(page: Any, site_server: str):
    page.set_viewport_size({"width": 1280, "height": 240})  # the demo is screens away
    page.add_init_script(LISTEN)
    page.goto(f"{site_server}en/mrr/")
    page.wait_for_function("rcGate.length > 0")  # the gate asked
    page.wait_for_load_state("load")
    said = "rcGate.map(([data]) => data)"
    assert set(page.evaluate(said)) == {"waiting", "hold"}  # the page may boot later
    assert page.evaluate(STATE) == "idle"
    assert "MRR (Mean Reciprocal Rank)" in _search(page, "reciprocal")  # opening it said "go"
    assert page.evaluate(said).count("go") == 1


# Prepended to the gate's script in the test: the gate's timers are held (not run) and their
# delays posted on a test channel; the page fires them when it says so. The test controls the
# gate's clock, so it needs no wait of its own and sees the exact limit the gate sets.
HELD_CLOCK = """
(() => {
  const clock = new BroadcastChannel("rankcards:test-clock");
  const held = [];
  self.setTimeout = (callback, ms, ...args) => {
    held.push(() => callback(...args));
    clock.postMessage({ timer: ms });
    return -held.length;
  };
  clock.onmessage = ({ data }) => {
    if (data === "fire") for (const fire of held.splice(0)) fire();
  };
})();
"""
LISTEN_CLOCK = """
window.rcClock = [];
const rcClockChannel = new BroadcastChannel("rankcards:test-clock");
rcClockChannel.onmessage = (event) => rcClock.push(event.data.timer);
window.rcFire = () => rcClockChannel.postMessage("fire");
"""


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
def test_search_starts_after_its_time_limit_when_nothing_answers(page: Any, site_server: str):
    """runtime.js never loads here (the page's modules fail): the gate sets a 4 s limit, and
    when that timer fires it starts Material's worker on its own."""
    page.route("**/assets/rankcards/runtime.js", lambda route: route.abort())

    def held_clock(route: Any) -> None:
        response = route.fetch()
        route.fulfill(response=response, body=HELD_CLOCK + response.text())

    page.route("**/workers/search_gate.js*", held_clock)
    page.add_init_script(LISTEN + LISTEN_CLOCK)
    page.goto(f"{site_server}en/")
    page.wait_for_function("rcGate.length > 0 && rcClock.length > 0")  # the gate asks, and waits
    assert page.evaluate("rcClock") == [4000]  # its limit, in ms
    assert page.evaluate("rcGate.map(([data]) => data)") == ["waiting"]  # nobody said "go"
    page.evaluate("rcFire()")  # the limit is reached
    assert "MRR (Mean Reciprocal Rank)" in _search(page, "reciprocal")
    assert page.evaluate("rcGate.map(([data]) => data)") == ["waiting"]  # started on its own
