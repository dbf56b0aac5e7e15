"""Benchmark: rankcards.metrics end to end against pytrec_eval, ir_measures and ranx.

The job: read a synthetic qrels and run (2,000 queries x 1,000 documents, graded labels,
see gen_synthetic.py) and compute RR, P@10, R@100, nDCG@10, AP, Rprec and Success@10,
averaged over queries. Each contender runs in a fresh process (so imports, caches and peak
memory do not leak between them), a few times; the best wall and CPU times and the highest
peak RSS are reported, next to the time Python takes just to read and split the run file.
CPU time is the steadier figure when other work shares the machine.

``rankcards`` runs as ``rankcards eval`` does by default: the run is read by as many processes
as there are CPUs (``jobs``); ``rankcards -j 1`` reads it in one. Their CPU time includes the
child processes', and their peak RSS adds the largest child's to the parent's (an upper
bound: the pages a child shares with its parent are counted twice).

usage: python bench/metrics_speed.py [--queries 2000] [--docs 1000] [--repeat 3] [--data DIR]
Run by hand; not part of the test suite. ir_measures and ranx are optional (pip install
ir-measures ranx); missing ones are reported as such.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MEASURES = ["RR", "P@10", "R@100", "nDCG@10", "AP", "Rprec", "Success@10"]
_TREC = {
    "RR": "recip_rank",
    "P@10": "P_10",
    "R@100": "recall_100",
    "nDCG@10": "ndcg_cut_10",
    "AP": "map",
    "Rprec": "Rprec",
    "Success@10": "success_10",
}
_RANX = {
    "RR": "mrr",
    "P@10": "precision@10",
    "R@100": "recall@100",
    "nDCG@10": "ndcg@10",
    "AP": "map",
    "Rprec": "r-precision",
    "Success@10": "hit_rate@10",
}
CONTENDERS = ("read+split", "rankcards", "rankcards -j 1", "pytrec_eval", "ir_measures", "ranx")


def _read_split(qrels: str, run: str) -> dict[str, float]:
    with open(run, encoding="utf-8") as handle:
        for line in handle:
            line.split()
    return {}


def _rankcards(qrels: str, run: str, jobs: int | None = None) -> dict[str, float]:
    from rankcards.metrics import evaluate_files  # what `rankcards eval` runs
    from rankcards.metrics._parts import default_jobs  # its default -j

    return evaluate_files(qrels, run, MEASURES, jobs=jobs or default_jobs()).aggregate


def _rankcards_alone(qrels: str, run: str) -> dict[str, float]:
    return _rankcards(qrels, run, jobs=1)


def _pytrec_eval(qrels: str, run: str) -> dict[str, float]:
    import pytrec_eval

    judged: dict[str, dict[str, int]] = {}
    with open(qrels, encoding="utf-8") as handle:
        for line in handle:
            qid, _, docno, rel = line.split()
            judged.setdefault(qid, {})[docno] = int(rel)
    ranked: dict[str, dict[str, float]] = {}
    with open(run, encoding="utf-8") as handle:
        for line in handle:
            qid, _, docno, _, score, _ = line.split()
            ranked.setdefault(qid, {})[docno] = float(score)
    names = {"recip_rank", "P.10", "recall.100", "ndcg_cut.10", "map", "Rprec", "success.10"}
    per_query = pytrec_eval.RelevanceEvaluator(judged, names).evaluate(ranked)
    return {
        ours: statistics.fmean(values[theirs] for values in per_query.values())
        for ours, theirs in _TREC.items()
    }


def _ir_measures(qrels: str, run: str) -> dict[str, float]:
    import ir_measures

    measures = [ir_measures.parse_measure(name) for name in MEASURES]
    result = ir_measures.calc_aggregate(
        measures, ir_measures.read_trec_qrels(qrels), ir_measures.read_trec_run(run)
    )
    return {str(measure): value for measure, value in result.items()}


def _ranx(qrels: str, run: str) -> dict[str, float]:
    from ranx import Qrels, Run, evaluate

    scores = evaluate(
        Qrels.from_file(qrels, kind="trec"), Run.from_file(run, kind="trec"), list(_RANX.values())
    )
    return {ours: float(scores[theirs]) for ours, theirs in _RANX.items()}


_JOBS = {
    "read+split": _read_split,
    "rankcards": _rankcards,
    "rankcards -j 1": _rankcards_alone,
    "pytrec_eval": _pytrec_eval,
    "ir_measures": _ir_measures,
    "ranx": _ranx,
}


def _child(name: str, qrels: str, run: str) -> None:
    """Run one contender in this fresh process; print time, memory and values as JSON."""
    start_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started, cpu_started = time.perf_counter(), time.process_time()
    values = _JOBS[name](qrels, run)
    seconds = time.perf_counter() - started
    children = resource.getrusage(resource.RUSAGE_CHILDREN)  # processes forked by the job
    # steadier than wall time on a busy machine
    cpu = time.process_time() - cpu_started + children.ru_utime + children.ru_stime
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss + children.ru_maxrss  # KiB
    print(json.dumps({"seconds": seconds, "cpu": cpu, "peak_mb": peak / 1024,
                      "start_mb": start_rss / 1024, "values": values}))  # fmt: skip


def _measure(name: str, qrels: Path, run: Path, repeat: int) -> dict[str, object] | str:
    """Best time and highest peak over ``repeat`` fresh processes, or why it could not run."""
    runs = []
    for _ in range(repeat):
        done = subprocess.run(
            [sys.executable, __file__, "--child", name, str(qrels), str(run)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["failed"])[-1]
            return f"not run: {last}"
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return {
        "seconds": min(r["seconds"] for r in runs),
        "cpu": min(r["cpu"] for r in runs),
        "peak_mb": max(r["peak_mb"] for r in runs),
        "values": runs[0]["values"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--docs", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--data", type=Path, default=Path(tempfile.gettempdir()) / "rankcards-bench"
    )
    parser.add_argument(
        "--child", nargs=3, metavar=("NAME", "QRELS", "RUN"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.child:
        _child(*args.child)
        return
    sys.path.insert(0, str(Path(__file__).parent))
    from gen_synthetic import generate

    folder = args.data / f"{args.queries}x{args.docs}"
    qrels, run = folder / "synthetic.qrels", folder / "synthetic.run"
    if not run.is_file():
        generate(folder, args.queries, args.docs, seed=42)
    print(f"data: {run} ({run.stat().st_size / 1e6:.1f} MB), {args.queries} queries x "
          f"{args.docs} docs; python {sys.version.split()[0]}; {os.cpu_count()} CPUs; "
          f"best of {args.repeat}")  # fmt: skip
    results = {name: _measure(name, qrels, run, args.repeat) for name in CONTENDERS}
    _report(results)


def _report(results: dict[str, dict[str, object] | str]) -> None:
    """Print a Markdown table with ratios, and how far each agrees with pytrec_eval."""
    ours = results["rankcards"]
    base = results["read+split"]
    trec = results["pytrec_eval"]
    print("\n| job | time (s) | CPU (s) | vs rankcards | peak RSS (MB) | max diff vs pytrec_eval |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, result in results.items():
        if isinstance(result, str):
            print(f"| {name} | {result} | | | | |")
            continue
        ratio = result["seconds"] / ours["seconds"] if isinstance(ours, dict) else float("nan")
        diff = ""
        if isinstance(trec, dict) and result["values"]:
            diff = f"{max(abs(result['values'][m] - trec['values'][m]) for m in MEASURES):.1e}"
        row = [name, f"{result['seconds']:.2f}", f"{result['cpu']:.2f}", f"{ratio:.2f}x",
               f"{result['peak_mb']:.0f}", diff]  # fmt: skip
        print("| " + " | ".join(row) + " |")
    if isinstance(ours, dict) and isinstance(base, dict) and isinstance(trec, dict):
        print(
            f"\nrankcards / read+split = {ours['seconds'] / base['seconds']:.2f} "
            f"(CPU {ours['cpu'] / base['cpu']:.2f}; target <= 2)"
        )
        print(
            f"rankcards / pytrec_eval time = {ours['seconds'] / trec['seconds']:.2f} (target <= 1)"
        )
        memory = ours["peak_mb"] / trec["peak_mb"]
        print(f"rankcards / pytrec_eval peak RSS = {memory:.2f} (target <= 1)")


if __name__ == "__main__":
    main()
