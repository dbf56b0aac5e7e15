"""A card's second visit in a reader's browser: Chromium with no DevTools client attached.

Run by hand (needs a built site and Chromium; not a test, nothing is asserted):

    .venv/bin/mkdocs build && .venv/bin/python bench/browser_reader.py [--site site] [--runs 3]
        [--page en/mrr/]

``browser_boot.py`` drives Chromium with Playwright, whose DevTools sessions (the page's and its
worker's) and driver process share the machine's cores with the page: on two cores they made a
second visit 160-280 ms slower, and the bare boot no slower (bench/README.md, "Eleventh
session"). A reader's browser has none of them. Here each round launches Chromium itself
(headless, the test suite's flags, a new profile on disk, a 1280x1000 window: the report prints
the page's viewport) on a launcher page, which opens each of these in a new tab once the one
before has closed:

* the bare page of ``browser_boot.py`` (stock Pyodide's ``loadPyodide()`` from
  ``node_modules/pyodide``), cold: nothing of it is cached yet;
* the card page three times: the first visit (the snapshot the site ships; before its tab is
  closed, the page keeps its copy of the snapshot and rehearses the next visit, as a reader
  reading the page would let it), then the second and the third visit.

The pages report by ``navigator.sendBeacon`` to this script: the bare page when ``loadPyodide``
returns, the card page (a copy with ``browser_boot.PROBE`` inlined at the top of its head, at
the same depth so its relative URLs resolve) when its runtime is ready, its first demo value
shown and, on a first visit, the next visit prepared. Times are ms from each page's navigation
start. A round's ratios divide by that round's bare boot (the same browser, a minute apart):
the bare boot moves by up to half between rounds on a shared host, and the ratio of the
medians would mix one round's visits with another's boot.
"""

from __future__ import annotations

import http.server
import json
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from browser_boot import (  # noqa: E402
    BARE_PAGE,
    PROBE,
    card_page_arguments,
    link_site,
    write_page_copy,
)
from static_site import LAUNCH_ARGS, base_url, find_chromium, start_server  # noqa: E402

# Headless tabs opened by a script: the popup blocker lets them open, and the backgrounding
# switches keep each one running as the foreground tab it stands for (Playwright passes the same).
READER_ARGS = [
    *LAUNCH_ARGS,
    "--headless",
    "--hide-scrollbars",
    "--window-size=1280,1000",
    "--disable-popup-blocking",
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    "--disable-renderer-backgrounding",
]
REPORT_WAIT_S = 120
VISITS = ("first", "second", "third")

# Shared by the bare and the card page: report(figures) sends them to this script;
# closeSoon(ms) asks the launcher for the next page and closes this tab.
REPORTER = """<script>
window.report = (figures) => navigator.sendBeacon(%s, JSON.stringify(figures));
window.closeSoon = (ms) => setTimeout(() => {
  new BroadcastChannel("rc-reader").postMessage("next");
  window.close();
}, ms);
</script>"""

# On the card page, after PROBE: once the runtime is ready and the first demo value shown, and
# (on a first visit) the snapshot kept and the next visit rehearsed, as prepare_next_visit waits
# (polled by a timer: no animation frames asked of the page, unlike Playwright's default wait).
CARD_REPORT = """<script type="module">
const sleep = () => new Promise((resolve) => setTimeout(resolve, 50));
while (window.rcReady === undefined) await sleep();
const { runtime } = await import(new URL("/assets/rankcards/runtime.js", location.href));
const settled = () => {
  const timings = runtime.timings;
  const preparing = timings.mode === "normal" || timings.mode === "shipped";
  const prepared = timings.snapshot !== undefined && timings.rehearsal !== undefined;
  return rcDemoTimes.length > 0 && (!preparing || prepared);
};
while (!settled()) await sleep();
report({
  page: "card",
  ready: rcReady,
  construct: rcBootStart,
  value: rcDemoTimes[0],
  mode: runtime.timings.mode,
  window: [innerWidth, innerHeight],
  parsed: performance.getEntriesByType("navigation")[0].domInteractive,
  painted: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
});
closeSoon(1000); // Chromium writes its caches (browser_boot.py waits as long)
</script>"""

LAUNCHER = """<!doctype html><meta charset="utf-8"><title>launcher</title><script>
const pages = %s;
const next = () => {
  const url = pages.shift();
  if (url) window.open(url, "_blank", "noopener");
};
new BroadcastChannel("rc-reader").onmessage = () => setTimeout(next, 200);
setTimeout(next, 1500); // the browser's own start-up first
</script>"""


class _Reports(http.server.BaseHTTPRequestHandler):
    received: queue.Queue[dict[str, Any]] = queue.Queue()

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.received.put(json.loads(body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the figures are what matters."""


def _write_pages(site: Path, card: str, root: Path, report_url: str) -> str:
    """Under ``root``: the site (linked), the bare page and a probed copy of ``card`` at the
    same depth; -> the copy's URL relative to the server's root."""
    reporter = REPORTER % json.dumps(report_url)
    bare = BARE_PAGE.replace(
        "window.bareReady = performance.now();",
        'window.bareReady = performance.now();\nreport({page: "bare", ready: bareReady});\n'
        "closeSoon(500);",
    )
    link_site(site, root, {"rc-bare": reporter + bare})
    page = (site / card / "index.html").read_text(encoding="utf-8")
    head = page.index("<head>") + len("<head>")
    probed = page[:head] + reporter + f"<script>{PROBE}</script>" + CARD_REPORT + page[head:]
    return write_page_copy(root, card, "reader", probed)


def _round(chromium: str, root: Path, base: str, card: str, number: int) -> dict[str, Any]:
    """One browser, one new profile: the bare page, then the card's three visits."""
    pages = [base + "rc-bare/"] + [base + card] * len(VISITS)
    launcher = f"rc-launch-{number}.html"
    (root / launcher).write_text(LAUNCHER % json.dumps(pages), encoding="utf-8")
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        args = [chromium, *READER_ARGS, f"--user-data-dir={profile}", base + launcher]
        browser = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            figures: dict[str, Any] = {}
            for name in ("bare", *VISITS):
                try:
                    figures[name] = _Reports.received.get(timeout=REPORT_WAIT_S)
                except queue.Empty:
                    sys.exit(f"browser_reader: no report from the {name} page in {REPORT_WAIT_S} s")
        finally:
            browser.terminate()
            browser.wait()
    if [figures[name]["page"] for name in ("bare", *VISITS)] != ["bare", "card", "card", "card"]:
        sys.exit(f"browser_reader: the pages reported out of order: {figures}")
    return figures


def main() -> None:
    args = card_page_arguments(__doc__ or "", "browser_reader")
    chromium = find_chromium() or sys.exit("browser_reader: no Chromium (set RANKCARDS_CHROMIUM)")
    reports = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Reports)
    threading.Thread(target=reports.serve_forever, daemon=True).start()
    rounds = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        copy = _write_pages(args.site, args.page, root, f"http://127.0.0.1:{reports.server_port}/")
        base = base_url(start_server(root, immutable=True))
        for number in range(args.runs):
            figures = _round(chromium, root, base, copy, number)
            rounds.append(figures)
            bare = figures["bare"]["ready"]
            visits = ", ".join(
                f"{name} {figures[name]['ready']:.0f} ({figures[name]['mode']})" for name in VISITS
            )
            print(f"round {number + 1}: bare {bare:.0f} ms; ready: {visits}", flush=True)
    reports.shutdown()
    _report(args.page, rounds)


def _report(card: str, rounds: list[dict[str, Any]]) -> None:
    def figure(label: str, values: list[float], bare: list[float] | None = None) -> None:
        spread = f"{min(values):.0f}-{max(values):.0f}"
        line = f"{label:38} {statistics.median(values):6.0f} ms ({spread})"
        if bare is not None:
            ratios = [value / boot for value, boot in zip(values, bare, strict=True)]
            line += f"  {statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f}x)"
        print(line)

    bare = [r["bare"]["ready"] for r in rounds]
    print(f"page: {card}   rounds: {len(rounds)}, no DevTools client; median (range), and the")
    print("median (range) of each round's ratio to its own bare boot")
    figure("bare stock Pyodide boot (cold)", bare)
    figure("first visit -> demo value", [r["first"]["value"] for r in rounds], bare)
    for name in VISITS:
        figure(f"{name} visit -> runtime ready", [r[name]["ready"] for r in rounds], bare)
    print("the second visit's page:")
    for key, label in (("painted", "first paint"), ("parsed", "parsed (domInteractive)")):
        figure(f"  {label}", [r["second"][key] for r in rounds])
    figure("  worker constructed", [r["second"]["construct"] for r in rounds])
    restored = sum(r["second"]["mode"] == "snapshot" for r in rounds)
    print(f"second visits restoring the kept snapshot {restored} / {len(rounds)}")
    window = {tuple(r["second"]["window"]) for r in rounds}
    print(f"window (inner) {', '.join(f'{w}x{h}' for w, h in sorted(window))}")
    ratios = [r["second"]["ready"] / r["bare"]["ready"] for r in rounds]
    print(
        f"issue 24: second visit, profile on disk, no DevTools client "
        f"{statistics.median(ratios):.2f}x (<= 0.25); median of {len(rounds)} rounds"
    )


if __name__ == "__main__":
    main()
