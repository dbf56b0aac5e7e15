"""Pyodide memory snapshots in real Chromium: a second visit restores one, a bad one is dropped.

The worker stores a snapshot of its booted interpreter in Cache Storage once it is idle after a
normal boot (see ``rankcards/web/snapshot.js``); these tests visit a card page twice in one
browser context (one Cache Storage) and read ``runtime.timings.mode``.
"""

from __future__ import annotations

from typing import Any

import pytest

import rankcards
from rankcards.metrics import reciprocal_rank

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

RUNTIME = "assets/rankcards/runtime.js"
STORED = "rt.timings.snapshot !== undefined"

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


def test_second_visit_restores_the_snapshot(page, site_server):
    url = site_server + "en/mrr/"
    assert _visit(page, url)["mode"] == "normal"
    page.wait_for_function(STORED)
    assert page.evaluate("rt.timings.snapshot.bytes") > 1_000_000
    second = _visit(page, url)
    assert second["mode"] == "snapshot"
    assert "snapshot" not in second  # a restored worker does not store another one
    _works(page)
    assert page.console_errors == []


def test_only_the_non_zero_pages_of_the_heap_are_stored(page, site_server):
    _visit(page, site_server + "en/mrr/")
    page.wait_for_function(STORED)
    heap = page.evaluate("rt.timings.snapshot.bytes")
    stored = page.evaluate(
        """async () => {
            const cache = await caches.open("rankcards-snapshots");
            const [request] = await cache.keys();
            return (await (await cache.match(request)).arrayBuffer()).byteLength;
        }"""
    )
    # A booted heap is mostly zero pages (~60 % here): the stored copy leaves them out.
    assert 1_000_000 < stored < 0.7 * heap


@pytest.mark.parametrize("how", ["truncated", "garbage"])
def test_a_corrupt_snapshot_is_dropped_and_the_boot_falls_back(page, site_server, how):
    url = site_server + "en/mrr/"
    _visit(page, url)
    page.wait_for_function(STORED)
    assert page.evaluate(CORRUPT, how) == 1
    assert _visit(page, url)["mode"] == "fallback"
    page.wait_for_function(STORED)  # the fallback boot stores a good snapshot in place of it
    _works(page)
    assert _visit(page, url)["mode"] == "snapshot"
    _works(page)


def test_no_snapshot_is_made_after_the_readers_code_ran(page, site_server):
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
    assert _visit(page, url)["mode"] == "normal"
    check = "import rankcards\\nprint(hasattr(rankcards, 'changed_by_reader'))"
    assert page.evaluate(f'rt.run("{check}")')["output"] == "False\n"


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
