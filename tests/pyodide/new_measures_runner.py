"""Runs inside Pyodide: the diversity measures, rank fusion and the RAG scores on fixed cases.

``main`` computes :func:`cases` with the package the site ships; the CPython side of
``test_new_measures_pyodide.py`` computes the same cases and compares the two JSON results.
"""

from __future__ import annotations

import random

from _inside import summary


def cases() -> list[dict[str, object]]:
    """Generated diversity qrels and runs, runs to fuse and verdicts (seeded)."""
    rng = random.Random(23)
    found: list[dict[str, object]] = []
    for _ in range(8):
        judged = {  # (qid, subtopic, docno) -> label, each once
            (f"q{q}", rng.choice("1234"), f"d{rng.randint(0, 15)}"): rng.choice([0, 1, 1, 2])
            for q in range(4)
            for _ in range(rng.randint(3, 25))
        }
        qrels = [f"{q} {s} {d} {label}" for (q, s, d), label in judged.items()]
        run = [
            f"q{q} Q0 d{d} 0 {rng.choice([0.5, 1.0, rng.random()])!r} r"
            for q in range(4)
            for d in rng.sample(range(20), rng.randint(1, 20))
        ]
        found.append({"kind": "diversity", "qrels": qrels, "run": run})
    for method, norm in (
        ("rrf", None),
        ("combsum", "minmax"),
        ("combsum", "zmuv"),
        ("combmnz", "sum"),
        ("combmnz", "none"),
    ):
        runs = [
            {
                f"q{q}": {f"d{d}": rng.uniform(-2, 10) for d in rng.sample(range(30), 12)}
                for q in range(3)
            }
            for _ in range(3)
        ]
        found.append({"kind": "fuse", "runs": runs, "method": method, "norm": norm})
    for _ in range(5):
        verdicts = [rng.choice([0, 1]) for _ in range(rng.randint(1, 9))]  # no NaN
        nuggets = [
            {
                "importance": rng.choice(["vital", "okay"]),
                "assignment": rng.choice(["support", "partial_support", "not_support"]),
            }
            for _ in range(rng.randint(0, 7))
        ]
        found.append({"kind": "rag", "verdicts": verdicts, "nuggets": nuggets})
    return found


MEASURES = [
    "alpha_nDCG@5",
    "alpha_nDCG(alpha=0.3)@20",
    "ERR_IA@10",
    "nERR_IA@5",
    "P_IA@5",
    "StRecall@10",
]


def compute(case: dict[str, object]) -> object:
    """One case's numbers."""
    from rankcards.metrics import (
        alpha_ndcg_at_k,
        evaluate,
        fuse,
        nugget_scores,
        ragas_context_precision,
        ragas_context_recall,
        ragas_id_context_precision,
        ragas_id_context_recall,
        read_qrels,
        read_run,
    )

    if case["kind"] == "diversity":
        result = evaluate(read_qrels(case["qrels"]), read_run(case["run"]), MEASURES, complete=True)
        covers = {"d1": {"a", "b"}, "d2": {"b"}, "d3": {"c"}, "d4": set()}
        teaching = alpha_ndcg_at_k(["d2", "d4", "d1", "d3"], covers, k=3, alpha=0.7)
        return {"per_query": result.per_query, "aggregate": result.aggregate, "teaching": teaching}
    if case["kind"] == "fuse":
        return fuse(case["runs"], case["method"], norm=case["norm"], depth=20)  # type: ignore[arg-type]
    verdicts = case["verdicts"]
    ids = [f"c{v}{i % 3}" for i, v in enumerate(verdicts)]  # type: ignore[arg-type]
    scores = nugget_scores(case["nuggets"])  # type: ignore[arg-type]
    return [
        ragas_context_precision(verdicts),  # type: ignore[arg-type]
        ragas_context_recall(verdicts),  # type: ignore[arg-type]
        ragas_id_context_precision(ids, ["c10", "c11", "c01"]),
        ragas_id_context_recall(ids, ["c10", "c11", "c01"]),
        [scores.strict_vital_score, scores.strict_all_score, scores.vital_score, scores.all_score],
    ]


def main(tests_dir: str) -> str:
    """Compute every case; return a JSON summary with the results."""
    import warnings

    warnings.simplefilter("ignore")  # a case with one subtopic per query warns, as it should
    return summary([compute(case) for case in cases()])
