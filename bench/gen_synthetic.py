"""Generate a synthetic TREC collection for the benchmarks: graded qrels and a large run.

Default: 2,000 queries x 1,000 retrieved documents (about 70 MB of run), about 150 judged
documents per query with labels 0-3 (most ranked, some not), and 10% tied scores.

usage: python bench/gen_synthetic.py OUT_DIR [--queries N] [--docs N] [--seed N]
writes OUT_DIR/synthetic.qrels and OUT_DIR/synthetic.run
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path


def generate(out_dir: Path, queries: int, docs: int, seed: int) -> tuple[Path, Path]:
    """Write the qrels and the run; return their paths."""
    rng = random.Random(seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    qrels_path = out_dir / "synthetic.qrels"
    run_path = out_dir / "synthetic.run"
    with (
        qrels_path.open("w", encoding="utf-8") as qrels,
        run_path.open("w", encoding="utf-8") as run,
    ):
        for q in range(queries):
            qid = str(1000 + q)
            pool = [f"D{rng.randrange(10**8):08d}" for _ in range(docs + 200)]
            pool = list(dict.fromkeys(pool))
            retrieved = pool[:docs]
            judged = rng.sample(retrieved[:300], 100) + pool[docs : docs + 50]
            for docno in judged:
                label = rng.choices((0, 1, 2, 3), weights=(60, 25, 10, 5))[0]
                qrels.write(f"{qid} 0 {docno} {label}\n")
            score = 30.0
            lines = []
            for rank, docno in enumerate(retrieved, 1):
                if rng.random() > 0.1:  # 10% ties with the previous document
                    score -= rng.random() * 0.05
                lines.append(f"{qid} Q0 {docno} {rank} {score:.5f} bench\n")
            run.writelines(lines)
    return qrels_path, run_path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--docs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    qrels, run = generate(args.out_dir, args.queries, args.docs, args.seed)
    print(
        f"{qrels} ({qrels.stat().st_size / 1e6:.1f} MB)\n{run} ({run.stat().st_size / 1e6:.1f} MB)"
    )


if __name__ == "__main__":
    main()
