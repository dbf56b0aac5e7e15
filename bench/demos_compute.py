"""Time the content demos' Python in CPython: what a reader's control change costs.

usage: python bench/demos_compute.py [--repeat N]

Run by hand; the figures go to the README. Pyodide is typically 1.5-3x slower than CPython on
this kind of pure-Python code, so each warm figure here should stay well under ~100 ms to keep
a control change under ~300 ms in the page. Prints the median and worst of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from rankcards.demos import gold as gold_module
from rankcards.demos.bm25 import BM25
from rankcards.demos.gold import load_gold
from rankcards.demos.ivf import IVFIndex
from rankcards.demos.toy import toy_state
from rankcards.demos.vectors import ground_truth, synthetic
from rankcards.viz import gold_dataset, index_benchmarking, lab, recall
from rankcards.viz._lab_spec import expand_lab


def _ms(function: Callable[[], object], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    repeat = parser.parse_args().repeat

    started = time.perf_counter()
    index_benchmarking.view({"nprobe": 4}, "en")  # data, exact answers, index, sweep
    cold = (time.perf_counter() - started) * 1000
    print(f"index-benchmarking first view (cold caches): {cold:.0f} ms")
    gold = load_gold()
    vectors = synthetic()
    rows = [
        ("gold dataset parse (3 files, uncached)", lambda: gold_module._load.__wrapped__()),
        ("BM25 index build (200 docs)", lambda: BM25(gold.documents)),
        ("BM25 search x 20 queries", lambda: [BM25_INDEX.search(q) for q in gold.queries.values()]),
        ("synthetic 2000 x 16 (uncached)", lambda: synthetic.__wrapped__()),
        ("exact k-NN x 50 queries (uncached)", lambda: ground_truth.__wrapped__(vectors, 10)),
        ("IVF build, 32 lists", lambda: IVFIndex(vectors.data, n_lists=32)),
        ("view lab, RR@k (the MRR card's demo)", lambda: lab.view(_LAB_STATE, "en")),
        (
            "view recall-at-k",
            lambda: recall.view({"k": 5, "missed": 2, "queries": toy_state()}, "en"),
        ),
        ("view gold-dataset (warm)", lambda: gold_dataset.view(_GOLD_STATE, "en")),
        (
            "view index-benchmarking nprobe=1 (warm)",
            lambda: index_benchmarking.view({"nprobe": 1}, "en"),
        ),
        (
            "view index-benchmarking nprobe=8 (warm)",
            lambda: index_benchmarking.view({"nprobe": 8}, "en"),
        ),
        (
            "view index-benchmarking nprobe=32 (warm)",
            lambda: index_benchmarking.view({"nprobe": 32}, "en"),
        ),
    ]
    print(f"{'step':<44}{'median ms':>10}{'max ms':>9}   ({repeat} runs)")
    for name, function in rows:
        median, worst = _ms(function, repeat)
        print(f"{name:<44}{median:>10.1f}{worst:>9.1f}")


BM25_INDEX = BM25(load_gold().documents)
_LAB_STATE = expand_lab({"measure": "RR@k", "k": 5})["state"]
_GOLD_STATE = {"query": "q16", "k": 10, "level": 1, "seed": 0, "edits": {"q16/d103": 2}}

if __name__ == "__main__":
    main()
