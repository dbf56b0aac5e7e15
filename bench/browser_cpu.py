"""Where a second visit's CPU goes: a card page against a page that only boots the runtime.

Run by hand on Linux (reads /proc; needs a built site and Chromium; nothing is asserted):

    .venv/bin/mkdocs build && .venv/bin/python bench/browser_cpu.py [--site site] [--runs 3]
        [--page en/mrr/]

Two pages of the same site, each in a fresh browser profile on disk, in the 1280x1000 window:
the card page, and a floor page holding one empty demo section and runtime.js, which boots the
runtime as the card page does once its modules run. The first visit keeps the snapshot and
rehearses the next visit (as in ``browser_boot.py``); the second visit, in a new tab, is
measured from just before the navigation to the runtime's ``ready`` event: its time, and the CPU
time every thread of the browser (Playwright's Chromium and its child processes) used meanwhile,
by process type and thread name (/proc's ``utime + stime``, 10 ms ticks). Medians of ``--runs``.

What it shows: how much work the card page adds to the boot's own on two cores, and where.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from browser_boot import (  # noqa: E402
    PROBE,
    WINDOWS,
    card_page_arguments,
    link_site,
    prepare_next_visit,
)
from static_site import LAUNCH_ARGS, base_url, find_chromium, start_server  # noqa: E402

FLOOR_PAGE = """<!doctype html><meta charset="utf-8"><title>runtime floor</title>
<section data-rc-demo>a demo</section>
<script type="module" src="../assets/rankcards/runtime.js"></script>"""
TICK_MS = 1000 / os.sysconf("SC_CLK_TCK")
LINES = 12  # the busiest thread groups shown


def main() -> None:
    args = card_page_arguments(__doc__ or "", "browser_cpu")
    if not Path("/proc/self/task").is_dir():
        sys.exit("browser_cpu: needs Linux's /proc")
    if not (args.site / args.page / "index.html").is_file():
        sys.exit(f"browser_cpu: {args.site} has no page {args.page}")
    chromium = find_chromium() or sys.exit("browser_cpu: no Chromium (set RANKCARDS_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    pages = {"card": args.page, "floor": "rc-floor/"}
    visits: dict[str, list[tuple[float, Counter[str]]]] = {name: [] for name in pages}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        link_site(args.site, root, {"rc-floor": FLOOR_PAGE})
        base = base_url(start_server(root, immutable=True))
        with sync_playwright() as playwright:
            for _ in range(args.runs):
                for name, page in pages.items():
                    visits[name].append(_second_visit(playwright, chromium, base + page))
    _report(args.page, args.runs, visits)


def _second_visit(playwright: Any, chromium: str, url: str) -> tuple[float, Counter[str]]:
    """-> (ms to ready, CPU ms by thread group) of the second visit to ``url`` in a new
    profile on disk."""
    with tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=chromium, args=LAUNCH_ARGS, viewport=WINDOWS["near"]
        )
        context.add_init_script(PROBE)
        page = context.new_page()
        page.goto(url, wait_until="commit")
        page.wait_for_function("window.rcReady !== undefined", timeout=120_000)
        prepare_next_visit(page)
        page.wait_for_timeout(1000)  # Chromium writes its caches
        page.close()
        page = context.new_page()
        page.wait_for_timeout(1000)  # the first tab's process winds down
        before = _thread_times()
        page.goto(url, wait_until="commit")
        page.wait_for_function("window.rcReady !== undefined", timeout=120_000)
        after = _thread_times()
        ready = float(page.evaluate("rcReady"))
        context.close()
    used: Counter[str] = Counter()
    for thread, (group, ms) in after.items():
        used[group] += ms - before.get(thread, (group, 0.0))[1]
    return ready, used


def _thread_times() -> dict[str, tuple[str, float]]:
    """CPU ms so far of every thread of this process's descendants (the Playwright driver and
    the browser it launched): {"pid/tid": (group, ms)}; the group is the process type and the
    thread's name, e.g. "renderer DedicatedWorker" or "renderer main"."""
    parents: dict[int, int] = {}
    for path in Path("/proc").glob("[0-9]*/stat"):
        stat = _stat(path)
        if stat is not None:
            _, fields = stat
            parents[int(path.parent.name)] = int(fields[1])
    mine = {os.getpid()}
    grown = True
    while grown:
        found = {pid for pid, parent in parents.items() if parent in mine} - mine
        mine |= found
        grown = bool(found)
    mine.discard(os.getpid())
    times: dict[str, tuple[str, float]] = {}
    for pid in mine:
        kind = _process_type(pid)
        if kind is None:
            continue
        for path in Path(f"/proc/{pid}/task").glob("[0-9]*/stat"):
            stat = _stat(path)
            if stat is None:
                continue
            thread, fields = stat
            tid = int(path.parent.name)
            name = "main" if tid == pid else thread
            ms = (int(fields[11]) + int(fields[12])) * TICK_MS
            times[f"{pid}/{tid}"] = (f"{kind} {name}", ms)
    return times


def _stat(path: Path) -> tuple[str, list[str]] | None:
    """A /proc stat file's command name (a thread's own name) and the fields after it (state,
    ppid, ...), or None if the process or thread has ended."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return text[text.find("(") + 1 : text.rfind(")")], text[text.rfind(")") + 2 :].split()


def _process_type(pid: int) -> str | None:
    """Chromium's process type from its command line ("browser" without --type); None for a
    process that is not Chromium's (the Playwright driver) or has ended."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    words = command.replace(b"\0", b" ").decode(errors="replace").split()
    if not words or "chrom" not in Path(words[0]).name:
        return None
    for word in words:
        if word.startswith("--utility-sub-type="):
            return word.removeprefix("--utility-sub-type=").split(".")[0]  # e.g. "network"
    for word in words:
        if word.startswith("--type="):
            return word.removeprefix("--type=")
    return "browser"


def _report(card: str, runs: int, visits: dict[str, list[tuple[float, Counter[str]]]]) -> None:
    def median(name: str, group: str | None = None) -> float:
        if group is None:
            return statistics.median(sum(used.values()) for _, used in visits[name])
        return statistics.median(used[group] for _, used in visits[name])

    print(f"second visit, profile on disk: {card} against a page that only boots the runtime")
    print(f"median of {runs} runs; CPU in core-ms from the navigation to the runtime's ready\n")
    print(f"{'':34}{'card':>8}{'floor':>8}{'added':>8}")
    ready = [statistics.median(ms for ms, _ in visits[name]) for name in ("card", "floor")]
    print(f"{'runtime ready (ms)':34}{ready[0]:8.0f}{ready[1]:8.0f}{ready[0] - ready[1]:8.0f}")
    total = [median("card"), median("floor")]
    print(f"{'CPU, every thread':34}{total[0]:8.0f}{total[1]:8.0f}{total[0] - total[1]:8.0f}")
    groups: Counter[str] = Counter()
    for name in visits:
        for _, used in visits[name]:
            groups.update(used)
    for group, _ in groups.most_common(LINES):
        card_ms, floor_ms = median("card", group), median("floor", group)
        print(f"  {group:32}{card_ms:8.0f}{floor_ms:8.0f}{card_ms - floor_ms:8.0f}")


if __name__ == "__main__":
    main()
