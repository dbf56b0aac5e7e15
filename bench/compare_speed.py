"""Benchmark: `rankcards compare` on 3 runs x 2,000 queries, 10,000 random samples.

The issue's target: at most 2 s of CPU beyond reading the runs for the randomization test
(every comparison also computes its bootstrap interval from the same number of resamples).
The script writes a synthetic collection (2,000 queries, 100 retrieved documents per query
and run, about 60 judged per query with labels 0-3; the second run a little better than the
baseline, the third a little worse), then times in this process, best of ``--repeat``:

- reading: ``read_qrels`` and ``read_run`` of the three files (not counted by the target);
- evaluating: :func:`paired_scores` (the measures for every run and query);
- each test: :func:`compare_scores` on those paired scores, baseline against the 2 others;

and prints CPU seconds (``time.process_time``), for one measure (AP) and for four.

usage: python bench/compare_speed.py [--queries 2000] [--docs 100] [--samples 10000]
                                     [--repeat 3] [--data DIR]
Run by hand; not part of the test suite.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rankcards.metrics import compare_scores, paired_scores, read_qrels, read_run

TESTS = ("t", "wilcoxon", "randomization", "bootstrap")
MEASURE_SETS = (("AP",), ("AP", "nDCG@10", "RR", "P@10"))


def generate(folder: Path, queries: int, docs: int, seed: int = 0) -> tuple[Path, list[Path]]:
    """Write qrels and three runs whose quality differs a little; return their paths."""
    generator = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    qrels_lines: list[str] = []
    runs_lines: list[list[str]] = [[], [], []]
    for q in range(queries):
        qid = str(1000 + q)
        pool = [f"D{q}-{i}" for i in range(docs * 2)]
        labels = {doc: generator.choices((0, 1, 2, 3), weights=(55, 25, 12, 8))[0] for doc in
                  generator.sample(pool, 60)}  # fmt: skip
        qrels_lines.extend(f"{qid} 0 {doc} {label}\n" for doc, label in labels.items())
        for run_lines, boost in zip(runs_lines, (0.0, 0.02, -0.015), strict=True):
            scored = sorted(
                ((generator.random() + (boost + 0.3) * labels.get(doc, 0), doc) for doc in pool),
                reverse=True,
            )[:docs]
            run_lines.extend(
                f"{qid} Q0 {doc} {rank} {score:.6f} run\n"
                for rank, (score, doc) in enumerate(scored, 1)
            )
    qrels_path = folder / "compare.qrels"
    qrels_path.write_text("".join(qrels_lines), encoding="utf-8")
    run_paths = []
    for name, run_lines in zip(("base", "better", "worse"), runs_lines, strict=True):
        path = folder / f"{name}.run"
        path.write_text("".join(run_lines), encoding="utf-8")
        run_paths.append(path)
    return qrels_path, run_paths


def best_cpu(work: Callable[[], object], repeat: int) -> tuple[float, object]:
    """Lowest CPU time of ``repeat`` calls, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.process_time()
        result = work()
        times.append(time.process_time() - start)
    return min(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--docs", type=int, default=100)
    parser.add_argument("--samples", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data", type=Path, help="folder for the synthetic files (default: temp)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.data or Path(temporary)
        qrels_path, run_paths = generate(folder, args.queries, args.docs)
        reading, loaded = best_cpu(
            lambda: (read_qrels(qrels_path), {str(p): read_run(p) for p in run_paths}),
            args.repeat,
        )
    qrels, runs = loaded  # type: ignore[misc]
    print(f"{len(run_paths)} runs x {args.queries} queries x {args.docs} documents, "
          f"{args.samples} samples; CPU seconds, best of {args.repeat}")  # fmt: skip
    print(f"read qrels + runs (not counted): {reading:.3f}")
    for measures in MEASURE_SETS:
        evaluating, paired = best_cpu(
            lambda: paired_scores(qrels, runs, measures),  # noqa: B023 (called at once)
            args.repeat,
        )
        print(f"\nmeasures {' '.join(measures)}: evaluate {evaluating:.3f}")
        for test in TESTS:
            comparing, result = best_cpu(
                lambda: compare_scores(paired.scores, test, samples=args.samples),  # noqa: B023 (called at once)
                args.repeat,
            )
            rows = result["comparisons"]  # type: ignore[index]
            p = " ".join(f"{row['p']:.4f}" for row in rows)
            print(
                f"  {test:<13} compare {comparing:.3f}  evaluate + compare "
                f"{evaluating + comparing:.3f}  (p: {p})"
            )


if __name__ == "__main__":
    main()
