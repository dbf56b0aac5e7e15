"""Time the per-query and interleaving demos' views in CPython, over every control change.

usage: python bench/demos_online_per_query.py [--repeat N]

Each state of the cards' controls is rendered ``--repeat`` times after one warm-up pass (the
BM25 index and the PRF rankings are cached per process, as in the page's worker); prints
p50 / p95 / max in milliseconds of CPU time (``time.process_time``: this process's own
cost, which a busy machine does not inflate as it does the wall clock). Each timed view
misses the views' per-state caches (cleared before it): a state seen for the first time.
Target: p95 <= 50 ms per control change. Pyodide is typically 1.5-3x slower than CPython on
this kind of code; ``bench/browser_controls.py`` measures the page.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time
from collections.abc import Callable
from typing import Any

from rankcards.viz import interleaving, per_query


def _clear() -> None:
    per_query._paired.cache_clear()
    interleaving._simulate.cache_clear()


def _times(view: Callable[[dict[str, Any], str], str], states: list[dict], repeat: int) -> list:
    for state in states:  # warm-up: caches filled, as after the page's first compute
        view(state, "en")
    times = []
    for _ in range(repeat):
        for state in states:
            _clear()
            started = time.process_time()
            view(state, "en")
            times.append((time.process_time() - started) * 1000)
    return sorted(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    cases = {
        "per-query (4 measures x 11 terms)": (
            per_query.view,
            [
                {"measure": m, "terms": t}
                for m, t in itertools.product(per_query.MEASURES, range(11))
            ],
        ),
        "interleaving (4 x 3 x 50/500/1000 impressions x 2 seeds)": (
            interleaving.view,
            [
                {"contender": c, "model": m, "impressions": n, "seed": s}
                for c, m, n, s in itertools.product(
                    interleaving.CONTENDERS,
                    ("perfect", "navigational", "informational"),
                    (50, 500, 1000),
                    (0, 7),
                )
            ],
        ),
    }
    print(f"{'view':<58}{'p50 ms':>8}{'p95 ms':>8}{'max ms':>8}")
    for name, (view, states) in cases.items():
        times = _times(view, states, repeat)
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"{name:<58}{statistics.median(times):>8.1f}{p95:>8.1f}{times[-1]:>8.1f}")


if __name__ == "__main__":
    main()
