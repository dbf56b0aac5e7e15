"""How fast the page's Python is, against a bare page booting the stock npm Pyodide.

Run by hand (needs a built site and Chromium; not a test, nothing is asserted):

    .venv/bin/mkdocs build && .venv/bin/python bench/browser_boot.py [--site site] [--runs 3]
        [--page en/mrr/]

Everything is measured in the same Chromium, from the navigation start, median of ``--runs``,
in two windows: 1280x1000, where the card's demo lies within one screen of the viewport on
arrival (runtime.js starts the worker as soon as it runs, once the page is parsed), and
1280x720, where it lies further down and the reader scrolls to it as soon as Playwright can
(the boot starts with that scroll):

* ``bare``: a page importing ``pyodide.mjs`` from ``node_modules/pyodide`` and calling
  ``loadPyodide()`` with default options, until it returns;
* ``cold``: a card page in a fresh browser context until its demo shows a view computed by
  Python in the worker (the first ``rankcards:demo`` event) — target <= 0.5x bare; ``cold
  visits restoring the shipped snapshot`` counts the boots that restored the snapshot the site
  ships (mode ``shipped``) rather than starting Python;
* ``warm``: the second visit: the same page in a new tab of the same context, the first one
  closed (HTTP cache, compiled wasm cache, and the copy of the snapshot the first visit's
  worker kept in Cache Storage once idle, after which the page rehearses the next visit's boot:
  the bench waits for both, as a reader reading the page would) — ready <= 0.25x; ``warm
  visits restoring the snapshot`` counts those that restored that copy (mode ``snapshot``);
* ``reload``: the same page again in the first visit's tab, whose page and worker are torn
  down while the new one loads (the warm figure of this bench's earlier versions);
* ``profile on disk``: the second and third visits, each in a new tab, in a browser profile on
  disk (a persistent context, near window only), as a reader's browser has: Playwright's other
  contexts are off the record, where Chromium keeps no code cache (V8's or the compiled wasm's),
  while in a profile it produces one for a script on its second load and uses it from the third
  (the first visit's rehearsal is that second load for the worker's scripts); Playwright's
  DevTools sessions make these visits 160-280 ms slower than in a reader's browser, and the bare
  boot no slower: ``browser_reader.py`` measures them without a DevTools client;
* ``boot``: from the construction of the rankcards worker to the runtime's ``ready`` event;
* ``long tasks``: main-thread long tasks (PerformanceObserver ``longtask``) while the runtime
  boots (the same span) — <= 100 ms in total, on the cold visits and the second visit in a
  profile on disk; also shown: all long tasks from navigation start to the demo value, and
  (``Material alone``) those of the same page stripped of every rankcards script, over the same
  span from navigation start: the theme's own start-up;
* ``theme``: when Material's script ran (its ``document$`` announced the page): on a card page
  whose first screen boots the runtime, after the first demo value (rankcards' theme.js), so
  the theme's start-up no longer competes with the boot (the "long tasks before demo" shrink
  by it; the work is done after);
* ``instant nav``: from a click on a link to another card (Material's instant navigation) to its
  example live (editor mounted, a Python round trip done) and to its demo view recomputed by
  Python — <= 300 ms;
* ``before runtime``: bytes of every response (the page's and its workers') requested before
  the first runtime download (Pyodide files, the rankcards archive or its snapshot), on a cold
  visit in the near window: uncompressed, as a plain static server sends them (issue 24: <= 600
  KB), and gzip-compressed, as most hosts do.

The last lines repeat the figures issue 24 names: KB before the runtime, the cold demo value
(near window) and the second visit in a profile on disk, each against the bare boot.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from instant import wait_for_instant_navigation  # noqa: E402
from static_site import LAUNCH_ARGS, base_url, find_chromium, start_server  # noqa: E402

BARE_PAGE = """<!doctype html><meta charset="utf-8"><title>bare pyodide</title>
<script type="module">
import { loadPyodide } from "./pyodide/pyodide.mjs";
const pyodide = await loadPyodide();
window.bareReady = performance.now();
window.bareVersion = pyodide.runPython("import sys; sys.version.split()[0]");
</script>"""

# Installed before any page script: records main-thread long tasks, when runtime.js constructs
# the rankcards worker, and the time (ms since the navigation start) of each demo view
# recomputed by Python (demo.js's `rankcards:demo` event, caught in the capture phase; a demo
# primes its view as soon as the runtime is ready).
PROBE = """
window.rcLongTasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) rcLongTasks.push([entry.startTime, entry.duration]);
}).observe({ type: "longtask", buffered: true });
window.rcDemoTimes = [];
const NativeWorker = window.Worker;
window.Worker = function (url, options) {
  if (String(url).includes("/assets/rankcards/worker.js")) window.rcBootStart ??= performance.now();
  return new NativeWorker(url, options);
};
window.addEventListener("rankcards:runtime", (event) => {
  if (event.detail.state === "ready") window.rcReady ??= performance.now();
});
window.addEventListener("rankcards:demo", () => rcDemoTimes.push(performance.now()), true);
// Material's script announces the page on DOMContentLoaded (theme.js sends a second one when it
// runs the script late).
document.addEventListener("DOMContentLoaded", () => {
  if (window.document$) window.rcTheme ??= performance.now();
});
"""


def _chromium() -> str:
    return find_chromium() or sys.exit("browser_boot: no Chromium (set RANKCARDS_CHROMIUM)")


def _cards_with_demo(site: Path, first: str) -> tuple[str, list[str]]:
    """``first`` (site-relative URL) and the other English card pages that have a demo."""
    pages = sorted(
        p.parent.relative_to(site).as_posix() + "/"
        for p in site.glob("en/*/index.html")
        if "data-rc-demo" in p.read_text(encoding="utf-8")
    )
    if first not in pages or len(pages) < 2:
        sys.exit(f"browser_boot: {site} needs {first} and another English card page with a demo")
    return first, [page for page in pages if page != first]


def _bare(browser: Any, base: str) -> float:
    context = browser.new_context()
    page = context.new_page()
    page.goto(base + "bare/")
    page.wait_for_function("window.bareReady !== undefined", timeout=120_000)
    elapsed = float(page.evaluate("bareReady"))
    context.close()
    return elapsed


def prepare_next_visit(page: Any) -> dict[str, Any]:
    """Once the page's runtime is ready: after a boot without a stored snapshot, wait until the
    worker has kept one (once idle) and the page has rehearsed the next visit's boot (runtime.js,
    rehearseNextVisit), as a reader reading the page would; -> the runtime's timings."""
    runtime = "import(new URL('/assets/rankcards/runtime.js', location.href))"
    worker: dict[str, Any] = page.evaluate(
        f"{runtime}.then(m => (window.rcRuntime = m.runtime).timings)"
    )
    if worker["mode"] in ("normal", "shipped"):
        page.wait_for_function("rcRuntime.timings.snapshot !== undefined", timeout=30_000)
        page.wait_for_function("rcRuntime.timings.rehearsal !== undefined", timeout=60_000)
        worker = page.evaluate("rcRuntime.timings")
    return worker


def _visit(page: Any, url: str) -> dict[str, float]:
    """Open ``url`` and bring the demo into view; -> ms (from navigation start) to runtime ready
    and to a demo view computed by Python, and long-task ms during the boot and before the view.
    """
    page.goto(url, wait_until="commit")  # a reader scrolls to the demo as soon as it is there
    page.locator("section[data-rc-demo]").first.scroll_into_view_if_needed()
    page.wait_for_function("rcDemoTimes.length > 0", timeout=120_000)
    page.wait_for_function("window.rcTheme !== undefined", timeout=30_000)
    figures = "[rcReady, rcBootStart, rcDemoTimes[0], rcTheme]"
    ready, boot_start, value, theme = page.evaluate(figures)
    worker = prepare_next_visit(page)
    tasks = page.evaluate("rcLongTasks")
    if os.environ.get("BENCH_VERBOSE"):
        print(f"boot {boot_start:.0f}..{ready:.0f}, long tasks {tasks}", file=sys.stderr)
    return {
        "boot": ready - boot_start,
        "worker": worker["total"],
        "snapshot": worker["snapshot"]["ms"] if "snapshot" in worker else float("nan"),
        "restored": float(worker["mode"] == "snapshot"),
        "shipped": float(worker["mode"] == "shipped"),
        "ready": ready,
        "value": value,
        "theme": theme,
        "boot_tasks": sum(d for s, d in tasks if s + d > boot_start and s < ready),
        "page_tasks": sum(d for s, d in tasks if s < value),
    }


# The rankcards scripts of a card page: its modules.
RANKCARDS_SCRIPTS = re.compile(
    r'<script src="[^"]*/assets/rankcards/\w+\.js" type="module"></script>'
)


DEFERRED_THEME = re.compile(r'<link rel="preload" as="script" href="([^"]+)" data-rc-theme>')


def _write_material_alone(site: Path, card: str, root: Path) -> str:
    """Write the card page without its rankcards scripts under ``root``, at the same depth (its
    relative asset URLs still resolve); -> its URL relative to the server's root."""
    page = (site / card / "index.html").read_text(encoding="utf-8")
    # Material's script run as the page is parsed, as without rankcards (web.defer_theme)
    page = DEFERRED_THEME.sub(r'<script src="\1"></script>', page)
    # Material's own search worker, not the gate holding it while the runtime boots
    page = page.replace("/search_gate.js?worker=", "/")
    stripped, count = RANKCARDS_SCRIPTS.subn("", page)
    if re.search(r"<script[^>]*/assets/rankcards/", stripped) or count < 2:
        sys.exit(f"browser_boot: cannot strip the rankcards scripts of {card}")
    return write_page_copy(root, card, "material-alone", stripped)


def link_site(site: Path, root: Path, pages: dict[str, str]) -> None:
    """Under ``root`` (what the bench serves): every entry of the built ``site`` linked, and
    each of ``pages`` ({folder: html}) written as ``folder/index.html``, with Pyodide from
    ``node_modules`` beside it (the bare page imports ``./pyodide/pyodide.mjs``)."""
    for entry in site.iterdir():
        (root / entry.name).symlink_to(entry.resolve())
    for folder, html in pages.items():
        (root / folder).mkdir()
        (root / folder / "index.html").write_text(html, encoding="utf-8")
        (root / folder / "pyodide").symlink_to(ROOT / "node_modules/pyodide")


def write_page_copy(root: Path, card: str, suffix: str, html: str) -> str:
    """Write ``html`` as a copy of the page ``card`` under ``root``, at the same depth so its
    relative asset URLs still resolve (``en/mrr/`` -> ``en-<suffix>/mrr/``); -> its URL
    relative to the server's root."""
    first, *rest = card.strip("/").split("/")
    copy = "/".join([f"{first}-{suffix}", *rest]) + "/"
    (root / copy).mkdir(parents=True)
    (root / copy / "index.html").write_text(html, encoding="utf-8")
    return copy


def _material_alone_tasks(page: Any, url: str, span: float) -> float:
    """Long-task ms in the first ``span`` ms of ``url``, driven as ``_visit`` drives a card page
    (Playwright's injected script runs on the page's main thread in both)."""
    page.goto(url, wait_until="commit")
    page.locator("section[data-rc-demo]").first.scroll_into_view_if_needed()
    page.wait_for_function(f"performance.now() > {span + 500}", timeout=120_000)
    return float(sum(d for s, d in page.evaluate("rcLongTasks") if s < span))


def _profile_visits(playwright: Any, base: str, card: str) -> list[dict[str, float]]:
    """Visit ``card`` three times, each in a new tab, in a fresh browser profile on disk; -> the
    figures of each visit (see ``_visit``)."""
    with tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=_chromium(), args=LAUNCH_ARGS, viewport=WINDOWS["near"]
        )
        context.add_init_script(PROBE)
        visits = []
        for _ in range(3):
            page = context.new_page()
            visits.append(_visit(page, base + card))
            page.wait_for_timeout(1000)  # Chromium writes its caches
            page.close()
        context.close()
    return visits


def _instant(page: Any, base: str, targets: list[str]) -> tuple[float, float]:
    """Click a link to another card -> (ms until its example is live: editor mounted and a
    Python round trip done; ms until its demo view is recomputed by Python, NaN if never)."""
    links = page.eval_on_selector_all(".md-content a[href]", "links => links.map(a => a.href)")
    wait_for_instant_navigation(page)  # Material's script runs late here (theme.js)
    target = next((link for link in links if link.removeprefix(base) in targets), None)
    if target is None:
        return float("nan"), float("nan")
    times = page.evaluate(
        """async (target) => {
            const url = new URL("/assets/rankcards/runtime.js", location.href);
            const { runtime } = await import(url);
            const old = document.querySelector("[data-rc-example]");
            const seen = rcDemoTimes.length;
            const started = performance.now();
            const links = [...document.querySelectorAll(".md-content a")];
            links.find((a) => a.href === target).click();
            const sleep = () => new Promise((resolve) => setTimeout(resolve, 2));
            const fresh = () => document.querySelector("[data-rc-example][data-rc-enhanced]");
            while (location.href !== target || !fresh() || fresh() === old) {
                if (performance.now() - started > 10_000) throw new Error(`no ${target}`);
                await sleep();
            }
            await runtime.run("");
            const example = performance.now() - started;
            const late = () => performance.now() - started > 3_000;
            while (rcDemoTimes.length === seen && !late()) await sleep();
            const demo = rcDemoTimes.length > seen ? rcDemoTimes[seen] - started : null;
            return [example, demo];
        }""",
        target,
    )
    return float(times[0]), float("nan") if times[1] is None else float(times[1])


def _bytes_before_runtime(browser: Any, url: str) -> tuple[int, int]:
    """-> (uncompressed, gzip) bytes of the responses before the runtime's first download."""
    context = browser.new_context(viewport=WINDOWS["near"])
    page = context.new_page()
    seen: list[Any] = []
    context.on("requestfinished", lambda request: seen.append(request))
    page.goto(url)
    page.locator("section[data-rc-demo]").first.scroll_into_view_if_needed()
    page.wait_for_function("document.documentElement.dataset.runtime === 'ready'", timeout=120_000)
    plain = packed = 0
    for request in seen:
        if any(part in request.url for part in RUNTIME_FILES):
            break
        response = request.response()
        if response is not None and request.url.startswith(url.split("/en/")[0]):
            body = response.body()
            plain += len(body)
            packed += len(gzip.compress(body)) + 300  # + headers, roughly
    context.close()
    return plain, packed


RUNTIME_FILES = ("/assets/pyodide/", "/assets/rankcards/rankcards-", "/assets/rankcards/snapshot-")


def card_page_arguments(doc: str, script: str) -> argparse.Namespace:
    """The arguments of a benchmark of one card page (this one, browser_cpu.py): ``--site``
    (checked to be a built site), ``--runs``, ``--page``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--page", default="en/mrr/", help="the card page measured")
    args = parser.parse_args()
    if not (args.site / "assets/rankcards/config.js").is_file():
        sys.exit(f"{script}: {args.site} is not a built site (run `mkdocs build`)")
    return args


def main() -> None:
    args = card_page_arguments(__doc__ or "", "browser_boot")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        link_site(args.site, root, {"bare": BARE_PAGE})
        base = base_url(start_server(root, immutable=True))
        card, others = _cards_with_demo(args.site, args.page)
        alone = _write_material_alone(args.site, card, root)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=_chromium(), args=LAUNCH_ARGS)
            rows = _measure(browser, base, card, others, args.runs, alone)
            for _ in range(args.runs):
                _, second, third = _profile_visits(playwright, base, card)
                rows.setdefault("profile second", []).append(second["ready"])
                rows.setdefault("profile second tasks", []).append(second["boot_tasks"])
                rows.setdefault("profile second theme", []).append(second["theme"])
                rows.setdefault("profile second value", []).append(second["value"])
                rows.setdefault("profile third", []).append(third["ready"])
            before = _bytes_before_runtime(browser, base + card)
            browser.close()
    _report(rows, card, args.runs, before)


# The two windows (see the module docstring): the card's demo near on arrival, or further down.
WINDOWS = {"near": {"width": 1280, "height": 1000}, "below": {"width": 1280, "height": 720}}


def _measure(
    browser: Any, base: str, card: str, others: list[str], runs: int, alone: str
) -> dict[str, list[float]]:
    """Per run: the bare boot, then per window a cold visit, (near only) an instant navigation,
    a reload in that tab and a warm visit in a new tab, in one browser context, then the page
    without rankcards in a fresh context, over the cold visit's span; -> every figure of every
    run, by name."""
    rows: dict[str, list[float]] = {}
    for _ in range(runs):
        rows.setdefault("bare", []).append(_bare(browser, base))
        for window, size in WINDOWS.items():
            context = _context(browser, size)
            page = context.new_page()
            for key, value in _visit(page, base + card).items():
                rows.setdefault(f"{window} cold {key}", []).append(value)
            if window == "near":
                nav, nav_demo = _instant(page, base, others)
                rows.setdefault("nav", []).append(nav)
                rows.setdefault("nav demo", []).append(nav_demo)
            for key, value in _visit(page, base + card).items():
                rows.setdefault(f"{window} reload {key}", []).append(value)
            page.close()
            page = context.new_page()
            for key, value in _visit(page, base + card).items():
                rows.setdefault(f"{window} warm {key}", []).append(value)
            context.close()
            context = _context(browser, size)
            span = rows[f"{window} cold value"][-1]
            tasks = _material_alone_tasks(context.new_page(), base + alone, span)
            rows.setdefault(f"{window} alone tasks", []).append(tasks)
            context.close()
    return rows


def _context(browser: Any, viewport: dict[str, int]) -> Any:
    """A fresh browser context (its own caches) with PROBE installed."""
    context = browser.new_context(viewport=viewport)
    context.add_init_script(PROBE)
    return context


def _report(rows: dict[str, list[float]], card: str, runs: int, before: tuple[int, int]) -> None:
    median = {key: statistics.median(values) for key, values in rows.items()}
    bare = median["bare"]
    print(f"page: {card}   runs: {runs} (median)")
    each = ", ".join(f"{value:.0f}" for value in rows["bare"])
    # The ratios below divide by this median: the bare boot compiles Pyodide's wasm on every
    # core, and moves with the machine's load more than the card's visits do.
    print(f"bare stock Pyodide boot                 {bare:7.0f} ms  (each run: {each})")
    for window, title in (
        ("near", "demo within a screen on arrival (1280x1000)"),
        ("below", "demo further down, scrolled to at once (1280x720)"),
    ):
        print(title)
        for visit in ("cold", "warm", "reload"):
            for key, label in (("ready", "runtime ready"), ("value", "demo value")):
                value = median[f"{window} {visit} {key}"]
                print(f"  {visit:6} card -> {label:14}   {value:7.0f} ms  {value / bare:.2f}x bare")
        for visit in ("cold", "warm", "reload"):
            boot, worker = median[f"{window} {visit} boot"], median[f"{window} {visit} worker"]
            print(f"  {visit:6} boot (worker -> ready)    {boot:7.0f} ms  {boot / bare:.2f}x bare")
            print(f"  {visit:6} boot inside the worker    {worker:7.0f} ms")
        shipped = sum(rows[f"{window} cold shipped"])
        print(f"  cold visits restoring the shipped snapshot {shipped:3.0f} / {runs}")
        restored = sum(rows[f"{window} warm restored"])
        print(f"  warm visits restoring the snapshot   {restored:3.0f} / {runs}")
        print(f"  long tasks while booting (cold)   {median[f'{window} cold boot_tasks']:7.0f} ms")
        print(f"  long tasks before demo (cold)     {median[f'{window} cold page_tasks']:7.0f} ms")
        print(f"  the same, Material alone          {median[f'{window} alone tasks']:7.0f} ms")
        print(f"  Material's script ran (cold)      {median[f'{window} cold theme']:7.0f} ms")
    for visit in ("second", "third"):
        value = median[f"profile {visit}"]
        label = f"{visit} visit, profile on disk -> ready"
        print(f"{label:39} {value:7.0f} ms  {value / bare:.2f}x bare")
    print(f"  long tasks while booting (second)   {median['profile second tasks']:7.0f} ms")
    print(f"  demo value (second)                 {median['profile second value']:7.0f} ms")
    print(f"  Material's script ran (second)      {median['profile second theme']:7.0f} ms")
    print(f"snapshot kept (cold, in the worker)     {median['near cold snapshot']:7.0f} ms")
    print(f"instant nav -> example live             {median['nav']:7.0f} ms")
    print(f"instant nav -> demo value               {median['nav demo']:7.0f} ms")
    plain, packed = before
    gz = packed / 1024
    print(f"bytes before runtime download           {plain / 1024:7.0f} KB ({gz:.0f} KB gzip)")
    cold, second = median["near cold value"] / bare, median["profile second"] / bare
    print(f"issue 24: before runtime {plain / 1024:.0f} KB (<= 600),")
    print(f"          cold demo value {cold:.2f}x (<= 0.45),")
    print(f"          second visit, profile on disk {second:.2f}x (<= 0.25); median of {runs} runs")
    print("          (under Playwright; as a reader's browser runs it: bench/browser_reader.py)")


if __name__ == "__main__":
    main()
