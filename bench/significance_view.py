"""Time the statistics cards' view (rankcards.viz.significance) in CPython, over every state a
reader reaches with one control.

usage: python bench/significance_view.py [--repeat N]

Each state of the three cards' controls (the queries, effect, seed, target and systems sliders
at several values; every test and correction) is rendered in both languages ``--repeat`` times
after one warm-up; the figure is CPU time (``time.process_time``), so a loaded machine does
not inflate it. Prints the median, p95 and worst per mode. Pyodide is typically 1.5-3x slower
than CPython on this pure-Python code.
"""

from __future__ import annotations

import argparse
import statistics
import time

from rankcards.viz.significance import view

TESTS = ("t", "wilcoxon", "randomization", "bootstrap")


def _states() -> dict[str, list[dict]]:
    test = [
        {"mode": "test", "test": t, "queries": n, "effect": e, "seed": s}
        for t in TESTS
        for n in (5, 12, 16, 17, 20, 35, 50)
        for e in (0.0, 0.05, 0.1)
        for s in (1, 7)
    ]
    interval = [
        {"mode": "interval", "test": t, "queries": n, "effect": 0.05, "seed": s, "target": h}
        for t in ("t", "bootstrap")
        for n in (5, 20, 50)
        for s in (1, 7)
        for h in (0.01, 0.05, 0.1)
    ]
    multiple = [
        {"mode": "multiple", "systems": m, "correction": c, "effect": e, "queries": n, "seed": 6}
        for m in (1, 5, 10, 20)
        for c in ("none", "holm", "bonferroni")
        for e in (0.0, 0.1)
        for n in (10, 30, 50)
    ]
    return {"test": test, "interval": interval, "multiple": multiple}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    for mode, states in _states().items():
        times = []
        for state in states:
            for lang in ("en", "es"):
                view(dict(state), lang)  # warm-up: the simulated world's caches
                for _ in range(repeat):
                    started = time.process_time()
                    view(dict(state), lang)
                    times.append((time.process_time() - started) * 1000)
        times.sort()
        p95 = times[int(0.95 * (len(times) - 1))]
        print(
            f"{mode:<9} {len(states):>3} states: median {statistics.median(times):5.1f} ms"
            f"  p95 {p95:5.1f} ms  worst {times[-1]:5.1f} ms"
        )


if __name__ == "__main__":
    main()
