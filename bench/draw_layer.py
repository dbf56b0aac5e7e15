"""Cost of the Draw / Notes layer with many notes on a real card page, in real Chromium.

For N stored strokes of P points each (synthetic zig-zags spread over the A-Z glossary), measures:

* restore: main-thread script time of a page load with the notes minus one without them
  (Chromium's ``ScriptDuration`` metric over CDP, so the page's own work cancels out);
* relayout: script time of a viewport resize (every stroke is re-anchored and re-pathed);
* draw: script time of one 60-point mouse stroke added on top (build, save to localStorage);
* export: time in the page from the Export PNG click to the download being handed to the
  browser (the status line says so), first and median of the next 3 (Chromium's first download
  in a session costs about a second by itself), and the PNG's size;
* storage: bytes of localStorage the N strokes take.

Run by hand (not a test); the machine's load matters:

    .venv/bin/python bench/draw_layer.py                # builds the site with mkdocs
    .venv/bin/python bench/draw_layer.py --site site    # or reuse a built site
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from static_site import base_url, build_site, find_chromium, start_server  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
PAGE = "en/glossary/"  # a long page without a live demo: fewer other scripts
KEY = "rankcards.draw.v1:/" + PAGE


# Runs in the page: click Export PNG, resolve with the ms until the status line reports it.
_EXPORT = """
async () => {
  const status = document.querySelector(".rc-draw-status");
  const start = performance.now();
  const done = new Promise((resolve) => {
    new MutationObserver((_, observer) => {
      if (status.textContent !== "PNG exported") return;
      observer.disconnect();
      resolve(performance.now() - start);
    }).observe(status, { childList: true, characterData: true, subtree: true });
  });
  document.querySelector(".rc-draw-toolbar [data-draw-key=export]").click();
  return done;
}
"""


def _strokes(count: int, points: int) -> list[dict[str, Any]]:
    """Zig-zag pen strokes anchored to the content box, stacked down the page."""
    out = []
    for i in range(count):
        y0 = 0.05 + (i % 50) * 0.04
        pts: list[float] = []
        for j in range(points):
            pts += [round(0.05 + 0.9 * j / points, 4), round(y0 + 0.01 * math.sin(j), 4)]
        out.append(
            {
                "tool": "pen",
                "color": "red",
                "width": 2.5,
                "anchor": [],
                "tag": "DIV",
                "box": [0, 0, 1],
                "pts": pts,
            }
        )
    return out


def _script_ms(cdp: Any) -> float:
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return 1000 * next(m["value"] for m in metrics if m["name"] == "ScriptDuration")


def _measure(browser: Any, base: str, count: int, points: int) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    page.goto(base + PAGE)
    page.wait_for_selector(".rc-draw-layer", state="attached")
    data = json.dumps({"v": 1, "strokes": _strokes(count, points)})
    restores = []
    for _ in range(5):  # page loads vary: the median difference of 5 pairs
        page.evaluate(f"localStorage.removeItem('{KEY}')")
        before = _script_ms(cdp)
        page.reload()
        page.wait_for_selector(".rc-draw-layer", state="attached")
        empty_load = _script_ms(cdp) - before
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY, data])
        before = _script_ms(cdp)
        page.reload()
        page.wait_for_function(f"document.querySelectorAll('.rc-draw-stroke').length === {count}")
        restores.append(_script_ms(cdp) - before - empty_load)
    restore = statistics.median(restores)

    before = _script_ms(cdp)
    page.set_viewport_size({"width": 1000, "height": 900})
    page.wait_for_timeout(300)
    relayout = _script_ms(cdp) - before

    page.click(".rc-draw-toggle")
    page.mouse.move(300, 300)
    before = _script_ms(cdp)
    page.mouse.down()
    for j in range(60):
        page.mouse.move(300 + 5 * j, 300 + 20 * math.sin(j / 3))
    page.mouse.up()
    page.wait_for_function(f"document.querySelectorAll('.rc-draw-stroke').length === {count + 1}")
    draw = _script_ms(cdp) - before

    exports = []
    for _ in range(4):
        with page.expect_download() as info:
            exports.append(page.evaluate(_EXPORT))
    size = Path(info.value.path()).stat().st_size
    stored = page.evaluate(f"localStorage.getItem('{KEY}').length")
    context.close()
    return {
        "restore_ms": restore,
        "relayout_ms": relayout,
        "draw_ms": draw,
        "export_first_ms": exports[0],
        "export_ms": statistics.median(exports[1:]),
        "png_kb": size / 1024,
        "storage_kb": stored / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="an already built site (default: build one)")
    parser.add_argument("--strokes", type=int, nargs="+", default=[10, 100, 500])
    parser.add_argument("--points", type=int, default=120, help="points per stroke")
    args = parser.parse_args()
    site = args.site
    if site is None:
        site = Path(tempfile.mkdtemp(prefix="rankcards-bench-"))
        error = build_site(site)
        if error is not None:
            sys.exit(f"draw_layer: mkdocs build failed: {error.strip().splitlines()[-1:]}")
    chromium = find_chromium()
    if chromium is None:
        sys.exit("draw_layer: no Chromium found; set RANKCARDS_CHROMIUM")
    from playwright.sync_api import sync_playwright

    base = base_url(start_server(site))
    print(
        f"{'strokes':>8} {'restore':>9} {'relayout':>9} {'draw':>7} {'export 1st':>11} "
        f"{'export':>8} {'png':>8} {'storage':>9}"
    )
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        for count in args.strokes:
            r = _measure(browser, base, count, args.points)
            print(
                f"{count:>8} {r['restore_ms']:>7.1f}ms {r['relayout_ms']:>7.1f}ms "
                f"{r['draw_ms']:>5.1f}ms {r['export_first_ms']:>9.0f}ms {r['export_ms']:>6.1f}ms "
                f"{r['png_kb']:>6.0f}KB "
                f"{r['storage_kb']:>7.1f}KB"
            )
        browser.close()


if __name__ == "__main__":
    main()
