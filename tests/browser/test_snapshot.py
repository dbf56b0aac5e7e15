"""Pyodide memory snapshots in real Chromium: a first visit restores the one the site ships, a
second visit the copy kept in Cache Storage, and a bad one gives way to a normal boot.

A first visit restores the snapshot made at site build (``build_snapshot.mjs``) and mounts the
standard library when it has downloaded; once idle, the worker keeps that snapshot in Cache
Storage (see ``rankcards/web/snapshot.js``). Without a shipped snapshot (a Pyodide from a CDN),
the worker makes one of its own heap after a normal boot. Once a snapshot is kept, the page
rehearses the next visit's boot in a second worker, then drops it (runtime.js,
``rehearseNextVisit``: Chromium's code caches for the worker's scripts). These tests visit a card
page in one browser context (one Cache Storage) and read ``runtime.timings``.
"""

from __future__ import annotations

import gzip
import re
from typing import Any

import pytest
from static_site import base_url, start_server

import rankcards
from rankcards.metrics import reciprocal_rank

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

RUNTIME = "assets/rankcards/runtime.js"
STORED = "rt.timings.snapshot !== undefined"
REHEARSED = "rt.timings.rehearsal !== undefined"

# Counts the rehearsal workers the page constructs (runtime.js names them) and terminates.
COUNT_REHEARSALS = """
window.rcRehearsals = { started: 0, terminated: 0 };
const NativeWorker = window.Worker;
window.Worker = class extends NativeWorker {
  constructor(url, options) {
    super(url, options);
    this.rehearsal = options?.name === "rankcards-rehearsal";
    if (this.rehearsal) rcRehearsals.started += 1;
  }
  terminate() {
    if (this.rehearsal) rcRehearsals.terminated += 1;
    super.terminate();
  }
};
"""

# Overwrite every stored snapshot: "truncated" keeps the first half of the heap (a valid header
# whose heap does not fit), "garbage" replaces every byte (no valid header at all).
CORRUPT = """async (how) => {
    const cache = await caches.open("rankcards-snapshots");
    const requests = await cache.keys();
    for (const request of requests) {
        const bytes = new Uint8Array(await (await cache.match(request)).arrayBuffer());
        const bad = how === "truncated"
            ? bytes.slice(0, bytes.length >> 1)
            : bytes.map((_, i) => (i * 7919) & 255);
        await cache.put(request, new Response(bad));
    }
    return requests.length;
}"""


def _visit(page: Any, url: str) -> dict[str, Any]:
    """Open ``url``, boot the runtime (as ``window.rt``) and return its boot timings."""
    page.goto(url)
    page.evaluate(f"import('/{RUNTIME}').then(m => {{ window.rt = m.runtime; }})")
    page.evaluate("rt.ensure()")
    assert page.evaluate("document.documentElement.dataset.runtime") == "ready"
    return page.evaluate("rt.timings")


def _works(page: Any) -> None:
    """The booted runtime has this build's package and computes what the module computes."""
    assert page.evaluate("rt.version") == rankcards.__version__
    value = page.evaluate("rt.call('rankcards.metrics:reciprocal_rank', [['a', 'b', 'c'], ['c']])")
    assert value == reciprocal_rank(["a", "b", "c"], ["c"]) == 1 / 3
    assert page.evaluate("rt.run('print(6 * 7)')")["output"] == "42\n"


def _without_shipped_snapshot(page: Any) -> None:
    """Serve the site's config.js as a site without a shipped snapshot would have it."""

    def rewrite(route: Any) -> None:
        text = route.fetch().text()
        text, count = re.subn(r'"snapshot": "[^"]+"', '"snapshot": null', text)
        assert count == 1
        route.fulfill(body=text, content_type="text/javascript")

    page.context.route("**/assets/rankcards/config.js", rewrite)


def test_first_visit_restores_the_shipped_snapshot_before_the_stdlib_arrives(page, site_server):
    held: list[Any] = []  # the standard library's request, answered when the test says so
    page.context.route("**/python_stdlib_pyc.zip", lambda route: held.append(route))
    page.goto(site_server + "en/mrr/")
    page.evaluate(f"import('/{RUNTIME}').then(m => {{ window.rt = m.runtime; }})")
    page.evaluate("() => { rt.ensure(); }")
    ready = "document.documentElement.dataset.runtime === 'ready'"
    page.wait_for_function(ready, timeout=20_000)  # never, if the boot waited for the stdlib
    for _ in range(100):  # the route's handler runs when Playwright dispatches its event
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1
    assert page.evaluate("rt.timings.mode") == "shipped"
    value = page.evaluate("rt.call('rankcards.metrics:reciprocal_rank', [['a', 'b', 'c'], ['c']])")
    assert value == 1 / 3  # the demos' modules are in the heap
    # A run waits for the library: difflib is in no snapshot, it is imported from the zip.
    page.evaluate(
        """() => {
            const code = "import difflib\\nprint(difflib.SequenceMatcher(None, 'a', 'b').ratio())";
            window.released = false;
            window.ran = rt.run(code);
            ran.then(() => { window.ranAfterRelease = window.released; });
        }"""
    )
    page.evaluate("window.released = true")
    held[0].continue_()
    assert page.evaluate("ran")["output"] == "0.0\n"
    assert page.evaluate("window.ranAfterRelease") is True  # it waited for the library
    assert page.console_errors == []


def test_a_bad_shipped_snapshot_gives_way_to_a_normal_boot(page, site_server):
    page.context.route(
        "**/assets/rankcards/snapshot-*.bin",
        lambda route: route.fulfill(body=b"RCS1" + bytes(range(256)) * 64),
    )
    assert _visit(page, site_server + "en/mrr/")["mode"] == "fallback"
    _works(page)


def test_a_shipped_snapshot_the_host_decompressed_is_restored_too(
    page, site_server, built_site, tmp_path
):
    # It is gzipped at build; a host may serve it with Content-Encoding: gzip, and the browser
    # then hands over the bytes already unpacked. They come from a server of their own: handed
    # to the route (route.fulfill), the megabytes crossed Playwright's protocol for 10 s.
    [shipped] = (built_site / "assets/rankcards").glob("snapshot-*.bin")
    (tmp_path / shipped.name).write_bytes(gzip.decompress(shipped.read_bytes()))
    host = start_server(tmp_path)
    unpacked = base_url(host) + shipped.name
    try:
        page.context.route(
            "**/assets/rankcards/snapshot-*.bin", lambda route: route.continue_(url=unpacked)
        )
        assert _visit(page, site_server + "en/mrr/")["mode"] == "shipped"
        _works(page)
    finally:
        host.shutdown()
        host.server_close()


def test_a_device_with_2_gb_of_memory_is_spared_the_rehearsal(page, site_server):
    page.add_init_script(COUNT_REHEARSALS)
    small = "Object.defineProperty(Navigator.prototype, 'deviceMemory', { get: () => 2 })"
    page.add_init_script(small)
    _visit(page, site_server + "en/mrr/")
    page.wait_for_function(STORED)
    # The rehearsal, when there is one, is queued for the page's idle time in the very handler
    # that stores the timings above; an idle callback queued now runs after it.
    page.evaluate(
        "new Promise((done) => (window.requestIdleCallback ?? setTimeout)(() => setTimeout(done)))"
    )
    assert page.evaluate("rcRehearsals") == {"started": 0, "terminated": 0}
    assert "rehearsal" not in page.evaluate("rt.timings")
    _works(page)


def test_a_rehearsal_that_fails_is_dropped_and_the_page_works_on(page, site_server):
    page.add_init_script(COUNT_REHEARSALS)
    _visit(page, site_server + "en/mrr/")
    # From now on the worker's script does not load: the rehearsal worker fails at once.
    page.context.route("**/assets/rankcards/worker.js", lambda route: route.abort())
    page.wait_for_function(STORED)
    page.wait_for_function(REHEARSED, timeout=60_000)
    assert page.evaluate("rt.timings.rehearsal.ok") is False
    assert page.evaluate("rcRehearsals") == {"started": 1, "terminated": 1}
    assert page.evaluate("document.documentElement.dataset.runtime") == "ready"
    _works(page)


# The bytes of the one snapshot Cache Storage holds.
STORED_BYTES = """async () => {
    const cache = await caches.open("rankcards-snapshots");
    const [request] = await cache.keys();
    return (await (await cache.match(request)).arrayBuffer()).byteLength;
}"""


def test_visits_keep_rehearse_and_restore_the_snapshot_and_drop_a_corrupt_copy(page, site_server):
    """A reader's visits to a card in one browser context (one Cache Storage), each step checked
    where the previous left it: (1) a first visit restores the shipped snapshot, keeps its
    non-zero pages, and rehearses the next visit's boot once; (2) the next visit restores the
    kept copy, keeps and rehearses nothing; (3) a kept copy corrupted (truncated, then garbage)
    gives way to a normal boot and is dropped, and the visits after keep and restore it again."""
    page.add_init_script(COUNT_REHEARSALS)
    url = site_server + "en/mrr/"

    # (1) The first visit.
    assert _visit(page, url)["mode"] == "shipped"
    page.wait_for_function(STORED)
    heap = page.evaluate("rt.timings.snapshot.bytes")
    assert heap > 1_000_000
    # A booted heap is mostly zero pages (~60 % here): the stored copy leaves them out.
    assert 1_000_000 < page.evaluate(STORED_BYTES) < 0.7 * heap
    page.wait_for_function(REHEARSED, timeout=60_000)
    rehearsal = page.evaluate("rt.timings.rehearsal")
    assert rehearsal["ok"] is True
    assert 0 < rehearsal["ms"] < 30_000
    assert page.evaluate("rcRehearsals") == {"started": 1, "terminated": 1}
    _works(page)  # the page's own worker is untouched
    assert page.evaluate("rt.boots") == 1

    # (2) The next visit restores the copy the rehearsal booted from, and rehearses nothing.
    second = _visit(page, url)
    assert second["mode"] == "snapshot"
    _works(page)
    page.wait_for_timeout(1500)  # well past the worker's idle work
    assert page.evaluate("rcRehearsals") == {"started": 0, "terminated": 0}
    timings = page.evaluate("rt.timings")
    assert "snapshot" not in timings  # a restored worker does not store another one
    assert "rehearsal" not in timings
    assert page.console_errors == []

    # (3) A corrupt copy: dropped, the boot falls back; kept again by the next visit.
    for how in ("truncated", "garbage"):
        assert page.evaluate(CORRUPT, how) == 1, how
        assert _visit(page, url)["mode"] == "fallback", how
        _works(page)
        assert page.evaluate("caches.open('rankcards-snapshots').then(c => c.keys())") == [], how
        assert _visit(page, url)["mode"] == "shipped", how  # the stored copy was dropped
        page.wait_for_function(STORED)  # and is kept again
        _works(page)
        assert _visit(page, url)["mode"] == "snapshot", how
        _works(page)


def test_the_worker_makes_a_snapshot_but_never_after_the_readers_code_ran(page, site_server):
    """Without a shipped snapshot (a Pyodide from a CDN) the worker keeps one of its own heap
    after a normal boot, but not once the reader's code ran (it may change modules or
    globals); the next visit restores one made without it."""
    _without_shipped_snapshot(page)
    url = site_server + "en/mrr/"
    page.goto(url)
    page.evaluate(
        f"""import('/{RUNTIME}').then(async (m) => {{
            window.rt = m.runtime;
            await rt.ensure();
            await rt.run('import rankcards\\nrankcards.changed_by_reader = 1');
        }})"""
    )
    page.wait_for_timeout(1500)  # well past the worker's idle delay before a snapshot
    assert "snapshot" not in page.evaluate("rt.timings")
    assert _visit(page, url)["mode"] == "normal"  # nothing was kept

    page.wait_for_function(STORED)  # this visit ran nothing of the reader's
    assert page.evaluate("rt.timings.snapshot.bytes") > 1_000_000
    second = _visit(page, url)
    assert second["mode"] == "snapshot"
    check = "import rankcards\\nprint(hasattr(rankcards, 'changed_by_reader'))"
    assert page.evaluate(f'rt.run("{check}")')["output"] == "False\n"
    _works(page)
    assert page.console_errors == []


def test_a_restored_interpreter_is_interrupted_by_stop(page, isolated_server):
    url = isolated_server + "en/mrr/"
    _visit(page, url)
    page.wait_for_function(STORED)
    assert _visit(page, url)["mode"] == "snapshot"
    assert page.evaluate("crossOriginIsolated") is True
    result = page.evaluate(
        """() => {
            // Stop once the loop runs (its first output arrived), not while it waits in line
            const onStdout = () => setTimeout(() => rt.stop(), 100);
            return rt.run('print(1)\\nwhile True: pass', {onStdout});
        }"""
    )
    assert result["reason"] == "stopped"
    assert page.evaluate("rt.boots") == 1  # KeyboardInterrupt through the restored buffer
    assert page.evaluate("rt.run('print(6 * 7)')")["output"] == "42\n"
