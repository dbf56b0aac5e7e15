"""What a cold card page downloads before its Python runtime, and what waits for first use.

Issue 24: before the runtime download starts, a cold ``/en/mrr/`` fetches at most 600 KB in all
(page and workers, uncompressed, from a plain static server); the search index's documents wait
until the runtime is ready or the reader opens search (``rankcards.web.defer_search_docs`` and
``search_gate.js``); the evaluate, exercise and example-bound modules, the sanitizers, share and
the state check load on first use (``page_modules.js``, ``editor.js``, ``demo.js``); a demo
writes its URL once per settled change. Bytes are deterministic for a build, so they are
asserted; times are measured by ``bench/browser_boot.py``, never here.
"""

from __future__ import annotations

import base64
import json
import time
from pathlib import Path
from typing import Any

import pytest

from rankcards.web import defer_search_docs

STATE = "document.documentElement.dataset.runtime"
DEMO = "document.querySelector('section[data-rc-demo]')"
BUDGET = 600 * 1024
# Requests that are the runtime's download: the first of them ends "before the runtime".
RUNTIME_FILES = ("/assets/pyodide/", "/assets/rankcards/rankcards-", "/assets/rankcards/snapshot-")
# Modules no card page needs before its runtime (the MRR card has no example-bound demo and is
# not the evaluate page: those two never load there).
FIRST_USE = (
    "evaluate.js",
    "evaluate_agree.js",
    "exercise.js",
    "bound.js",
    "bound_literals.js",
    "share.js",
    "state_check.js",
    "svg_sanitize.js",
    "table_sanitize.js",
    "draw_export.js",
)
NEVER_ON_MRR = ("evaluate.js", "evaluate_agree.js", "bound.js", "bound_literals.js")


def _recorded(page: Any) -> list[Any]:
    """Every finished request of the page's context (its workers' too), in order."""
    seen: list[Any] = []
    page.context.on("requestfinished", lambda request: seen.append(request))
    return seen


def _path(request: Any) -> str:
    return str(request.url).split("?")[0]


def _name(request: Any) -> str:
    return _path(request).rsplit("/", 1)[-1]


def _before_runtime(requests: list[Any]) -> list[Any]:
    for index, request in enumerate(requests):
        if any(part in request.url for part in RUNTIME_FILES):
            return requests[:index]
    raise AssertionError("the runtime was never downloaded")


def _wait_for(page: Any, predicate: Any, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        page.wait_for_timeout(100)


def _search(page: Any, words: str) -> list[str]:
    box = page.locator("input[data-md-component=search-query]")
    box.click()
    box.press_sequentially(words, delay=20)
    page.wait_for_selector(".md-search-result__item")
    return page.locator(".md-search-result__item h1").all_inner_texts()


def test_defer_search_docs_moves_the_documents_beside_the_index(tmp_path: Path):
    search = tmp_path / "search"
    search.mkdir()
    docs = [{"location": "en/mrr/", "title": "MRR", "text": "reciprocal rank"}]
    index = search / "search_index.json"
    index.write_text(json.dumps({"config": {"lang": ["en", "es"]}, "docs": docs}), encoding="utf-8")
    defer_search_docs(tmp_path)
    slim = json.loads(index.read_text(encoding="utf-8"))
    name = slim["config"]["rankcards_docs"]
    assert slim == {"config": {"lang": ["en", "es"], "rankcards_docs": name}, "docs": []}
    assert name.startswith("search_docs.") and name.endswith(".json")
    assert json.loads((search / name).read_text(encoding="utf-8")) == docs
    defer_search_docs(tmp_path)  # a second pass finds no documents: the index stays as it is
    assert json.loads(index.read_text(encoding="utf-8")) == slim
    assert sorted(path.name for path in search.iterdir()) == sorted(["search_index.json", name])
    # other documents, another name: a static host's cache never serves the old ones
    index.write_text(json.dumps({"config": {}, "docs": [*docs, *docs]}), encoding="utf-8")
    defer_search_docs(tmp_path)
    assert json.loads(index.read_text(encoding="utf-8"))["config"]["rankcards_docs"] != name


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
def test_the_built_index_holds_no_documents(built_site: Path):
    index = json.loads((built_site / "search/search_index.json").read_text(encoding="utf-8"))
    assert index["docs"] == []
    docs_file = built_site / "search" / index["config"]["rankcards_docs"]
    docs = json.loads(docs_file.read_text(encoding="utf-8"))
    assert {"en/mrr/", "es/mrr/"} <= {doc["location"] for doc in docs}


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
def test_a_cold_card_page_fetches_at_most_600_kb_before_its_runtime(page: Any, site_server: str):
    page.set_viewport_size({"width": 1280, "height": 1000})  # the demo is near: the boot starts
    requests = _recorded(page)
    page.goto(f"{site_server}en/mrr/")
    page.wait_for_function(f"{STATE} === 'ready'", timeout=120_000)
    page.wait_for_function(f"{DEMO}.dataset.rcState === 'live'")
    before = _before_runtime(requests)
    names = [_name(request) for request in before]
    assert any(_path(r).endswith("/en/mrr/") for r in before)
    # Material's script, which fetches the search index, runs after the first demo value (theme.js)
    assert "search_index.json" not in names
    total = sum(len(request.response().body()) for request in before)
    assert total <= BUDGET, f"{total / 1024:.0f} KB before the runtime"
    assert not [name for name in names if name in FIRST_USE or name.startswith("search_docs.")]
    # the documents come once the runtime is ready, and search works
    _wait_for(page, lambda: any(_name(r).startswith("search_docs.") for r in requests))
    assert not [_name(r) for r in requests if _name(r) in NEVER_ON_MRR]
    assert "MRR (Mean Reciprocal Rank)" in _search(page, "reciprocal")
    assert page.console_errors == []


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
def test_search_documents_wait_for_the_reader_to_open_search(page: Any, site_server: str):
    """The runtime's download never ends here: only the reader opening search starts the gate,
    which then fetches the documents. The page says "hold", so the gate's own time limit (4 s,
    for a page whose scripts never ran) does not start it either."""
    page.set_viewport_size({"width": 1280, "height": 1000})
    held: list[Any] = []
    # never answered: the boot never ends
    page.context.route("**/assets/pyodide/**", lambda route: held.append(route))
    requests = _recorded(page)
    page.goto(f"{site_server}en/mrr/")
    page.wait_for_function(f"{STATE} === 'loading'")
    _wait_for(page, lambda: held)  # the runtime's download has started
    page.wait_for_load_state("load")
    page.wait_for_timeout(4500)  # past the gate's time limit
    fetched = [_name(r) for r in requests]
    assert "search_index.json" in fetched
    assert not [name for name in fetched if name.startswith("search_docs.")]
    assert "MRR (Mean Reciprocal Rank)" in _search(page, "reciprocal")
    assert [_name(r) for r in requests if _name(r).startswith("search_docs.")] != []
    assert page.evaluate(STATE) == "loading"  # search did not wait for the runtime


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
def test_a_card_loads_its_exercise_when_it_comes_near(page: Any, site_server: str):
    page.set_viewport_size({"width": 1280, "height": 1000})
    requests = _recorded(page)
    page.goto(f"{site_server}en/mrr/")
    page.wait_for_function(f"{STATE} === 'ready'", timeout=120_000)
    page.wait_for_timeout(300)
    assert "exercise.js" not in [_name(r) for r in requests]
    exercise = page.locator("[data-rc-exercise]")
    exercise.scroll_into_view_if_needed()
    page.wait_for_selector("[data-rc-exercise] [data-rc-toolbar]:not([hidden])")
    assert "exercise.js" in [_name(r) for r in requests]


# Records the page's URL writes (share.js writes with history.replaceState; Material's own calls
# that only keep a state pass no URL).
COUNT_WRITES = """
window.rcWrites = [];
const replace = history.replaceState.bind(history);
history.replaceState = (state, unused, url) => {
  if (url !== undefined) rcWrites.push(String(url));
  return replace(state, unused, url);
};
"""


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
def test_a_demo_writes_its_url_once_per_settled_change(page: Any, site_server: str):
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.add_init_script(COUNT_WRITES)
    page.goto(f"{site_server}en/mrr/")
    page.wait_for_function(f"{DEMO}.dataset.rcState === 'live'", timeout=120_000)
    assert page.evaluate("rcWrites") == []  # the first view changed nothing
    slider = page.locator("section[data-rc-demo] input[type=range]").first
    low, high = (float(slider.get_attribute(name) or 0) for name in ("min", "max"))
    assert high - low >= 2
    drag = """([slider, values]) => {
      for (const value of values) {
        slider.value = String(value);
        slider.dispatchEvent(new Event("input", { bubbles: true }));
      }
    }"""
    steps = [low + 1, high, low + 2, high - 1]  # a drag: four input events in one task
    page.evaluate(drag, [slider.element_handle(), steps])
    page.wait_for_function("rcWrites.length > 0")
    page.wait_for_function(f"{DEMO}.dataset.rcState === 'live'")
    page.wait_for_timeout(300)  # a second write would come right after the settled view
    writes = page.evaluate("rcWrites")
    assert len(writes) == 1 and "#demo=" in writes[0]
    assert writes[0] == page.evaluate("location.href")
    page.evaluate(drag, [slider.element_handle(), [low]])  # the next change: one more write
    page.wait_for_function("rcWrites.length > 1")
    page.wait_for_timeout(300)
    assert len(page.evaluate("rcWrites")) == 2
    assert page.console_errors == []


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
def test_a_drag_whose_steps_each_show_their_view_writes_the_url_once(page: Any, site_server: str):
    """A slower drag: each step's view is computed and shown before the next input event. The
    URL is written once the demo is quiet (share.js writeLinkSoon), with the last step's state,
    not once per step (each write cost the browser ~10 ms of CPU, bench/README.md)."""
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.add_init_script(COUNT_WRITES)
    page.goto(f"{site_server}en/mrr/")
    page.wait_for_function(f"{DEMO}.dataset.rcState === 'live'", timeout=120_000)
    slider = page.locator("section[data-rc-demo] input[type=range]").first
    low, high = (int(float(slider.get_attribute(name) or 0)) for name in ("min", "max"))
    steps = [low + 1, high, low + 2, high - 1]
    shown = page.evaluate(
        """async ([slider, values]) => {
          const demo = slider.closest("section[data-rc-demo]");
          const shown = [];
          for (const value of values) {
            const done = new Promise((r) =>
              demo.addEventListener("rankcards:demo", r, { once: true }));
            slider.value = String(value);
            slider.dispatchEvent(new Event("input", { bubbles: true }));
            shown.push((await done).detail.state.k);
          }
          return shown;
        }""",
        [slider.element_handle(), steps],
    )
    assert shown == steps  # every step was computed and shown on its own
    page.wait_for_function("rcWrites.length > 0")
    page.wait_for_timeout(600)  # twice the write's delay: a second write would be in by now
    writes = page.evaluate("rcWrites")
    assert len(writes) == 1 and writes[0] == page.evaluate("location.href")
    encoded = writes[0].split("#demo=")[1]
    decoded = json.loads(base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)))
    assert decoded == {"k": steps[-1]}
    assert page.console_errors == []


# Records where the page reads an element's scrollWidth outside a ResizeObserver's callback
# (which runs once layout is done: a read there forces none).
RECORD_LAYOUT_READS = """
window.rcLayoutReads = [];
let rcInObserver = false;
const NativeObserver = window.ResizeObserver;
window.ResizeObserver = class extends NativeObserver {
  constructor(callback) {
    super((...args) => {
      rcInObserver = true;
      try { callback(...args); } finally { rcInObserver = false; }
    });
  }
};
const width = Object.getOwnPropertyDescriptor(Element.prototype, "scrollWidth");
Object.defineProperty(Element.prototype, "scrollWidth", {
  get() {
    if (!rcInObserver) rcLayoutReads.push(new Error().stack);
    return width.get.call(this);
  },
});
"""
CHANGE = """(demo) => new Promise((resolve) => {
  demo.addEventListener("rankcards:demo", () => requestAnimationFrame(() => resolve()), {
    once: true,
  });
  demo.querySelector('[data-rc-list="0"] [data-rc-doc]').click();
})"""


@pytest.mark.browser
@pytest.mark.xdist_group("browser")
def test_a_demos_view_update_reads_no_layout(page: Any, site_server: str):
    """The page's own modules read no layout while a change updates the view (CodeMirror, the
    example's editor, measures in its own animation frames: not the demo's path)."""
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.add_init_script(RECORD_LAYOUT_READS)
    page.goto(f"{site_server}en/mrr/")
    page.wait_for_function(f"{DEMO}.dataset.rcState === 'live'", timeout=120_000)
    page.evaluate("rcLayoutReads = []")
    demo = page.locator("section[data-rc-demo]").element_handle()
    for _ in range(4):  # each click marks or unmarks a document: the view is computed again
        page.evaluate(CHANGE, demo)
    assert page.locator("section[data-rc-demo] .rc-table").count() > 0  # tables were replaced
    ours = [
        stack
        for stack in page.evaluate("rcLayoutReads")
        if "/assets/rankcards/" in stack and "/codemirror.js" not in stack
    ]
    assert ours == []
