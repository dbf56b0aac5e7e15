"""Differential test against pytrec_eval (trec_eval's C code) on thousands of random inputs.

Each pair is a tiny collection (1-5 queries, up to 12 documents) with tied scores, graded
labels including negative ones, queries without relevant documents and queries missing
from either side. Every measure trec_eval also has is compared to 1e-9, per query and in
aggregate, at relevance levels 1 and 2, with and without ``complete``.

pytrec_eval has no ``-c`` and no ``-M``; we emulate them: ``complete`` averages its
per-query values over all qrels queries with missing ones scoring 0 (their ``num_rel`` still
counts, as trec_eval -c prints); RR@k is recip_rank when 1/recip_rank <= k, else 0; and a
depth is applied by handing pytrec_eval the run cut by a plain sort on (score, docno), both
descending, independent of our ranking code.
The seed is random per run (set RANKCARDS_DIFF_SEED to replay one); failures print it.
"""

from __future__ import annotations

import os
import random

from ci_gate import require_module
from rankcards.metrics import evaluate

pytrec_eval = require_module("pytrec_eval", "pip install pytrec-eval-terrier, in .[dev]")

PAIRS = 2400
_TOLERANCE = 1e-9
_DOCS = ["d1", "d2", "d10", "D3", "doc-b", "doc-a", "d\u00e9", "z", "a", "x7", "x70", "\u00fcber"]
_SCORES = [0.0, 0.5, 1.0, 1.0, 2.0, -1.0]  # few values: many ties
_LABELS = [-1, 0, 0, 1, 1, 2, 3]
_CUTS = (1, 3, 10)

# ours -> pytrec_eval key
_PAIRS_OF_NAMES = {
    "RR": "recip_rank",
    "Rprec": "Rprec",
    "AP": "map",
    "nDCG": "ndcg",
    "bpref": "bpref",
    "num_ret": "num_ret",
    "num_rel": "num_rel",
    "num_rel_ret": "num_rel_ret",
    **{f"P@{k}": f"P_{k}" for k in _CUTS},
    **{f"R@{k}": f"recall_{k}" for k in _CUTS},
    **{f"AP@{k}": f"map_cut_{k}" for k in _CUTS},
    **{f"nDCG@{k}": f"ndcg_cut_{k}" for k in _CUTS},
    **{f"Success@{k}": f"success_{k}" for k in _CUTS},
}
_TREC_MEASURES = {
    "recip_rank", "Rprec", "map", "ndcg", "bpref", "num_ret", "num_rel", "num_rel_ret",
    "P.1,3,10", "recall.1,3,10", "map_cut.1,3,10", "ndcg_cut.1,3,10", "success.1,3,10",
}  # fmt: skip
_OURS = [*_PAIRS_OF_NAMES, "RR@1", "RR@3", "num_q"]
_COUNTERS = {"num_ret", "num_rel", "num_rel_ret"}


def _collection(rng: random.Random) -> tuple[dict, dict]:
    qids = [f"q{i}" for i in range(rng.randint(1, 5))]
    qrels = {}
    for qid in qids:
        docs = rng.sample(_DOCS, rng.randint(1, 8))
        qrels[qid] = {doc: rng.choice(_LABELS) for doc in docs}
        if max(qrels[qid].values()) < 0:
            qrels[qid][docs[0]] = 0  # pytrec_eval never returns when all labels are negative
    run = {}
    for qid in [*qids, "q_unjudged"]:
        if rng.random() < 0.2:
            continue  # missing from the run
        docs = rng.sample(_DOCS, rng.randint(1, len(_DOCS)))
        scores = _SCORES if rng.random() < 0.7 else [rng.uniform(-5, 5) for _ in range(6)]
        run[qid] = {doc: rng.choice(scores) for doc in docs}
    if not any(qid in qrels for qid in run):
        run[qids[0]] = {rng.choice(_DOCS): 1.0}
    return qrels, run


def _cut(run: dict, depth: int) -> dict:
    """trec_eval's -M: keep the top ``depth`` by score, then docno, both descending."""
    return {
        qid: dict(sorted(scored.items(), key=lambda item: (item[1], item[0]), reverse=True)[:depth])
        for qid, scored in run.items()
    }


def _expected(trec: dict, qrels: dict, level: int, complete: bool) -> tuple[dict, dict]:
    """Per-query and aggregate values as trec_eval would print them."""
    per_query: dict[str, dict[str, float]] = {}
    for qid, values in trec.items():
        row = {ours: values[theirs] for ours, theirs in _PAIRS_OF_NAMES.items()}
        for k in (1, 3):
            rr = values["recip_rank"]
            row[f"RR@{k}"] = rr if rr > 0 and 1 / rr <= k + 1e-12 else 0.0
        per_query[qid] = row
    if complete:
        for qid, judged in qrels.items():
            if qid not in per_query:
                per_query[qid] = dict.fromkeys(_OURS[:-1], 0.0)
                per_query[qid]["num_rel"] = float(sum(1 for v in judged.values() if v >= level))
    count = len(per_query)
    aggregate = {"num_q": float(count)}
    for name in _OURS[:-1]:
        total = sum(row[name] for row in per_query.values())
        aggregate[name] = total if name in _COUNTERS else total / count
    return per_query, aggregate


def _compare(got: dict, want: dict, where: str) -> None:
    assert set(got) == set(want), f"{where}: keys {sorted(got)} != {sorted(want)}"
    for name, value in want.items():
        assert abs(got[name] - value) <= _TOLERANCE, f"{where} {name}: ours {got[name]}, C {value}"


def test_random_collections_match_pytrec_eval() -> None:
    seed = int(os.environ.get("RANKCARDS_DIFF_SEED", random.randrange(2**32)))
    rng = random.Random(seed)
    compared = 0
    for pair in range(PAIRS):
        qrels, run = _collection(rng)
        level = rng.choice((1, 1, 2))
        depth = rng.choice((None, None, 1, 3, 5))
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, _TREC_MEASURES, relevance_level=level)
        trec = evaluator.evaluate(run if depth is None else _cut(run, depth))
        for complete in (False, True):
            ours = evaluate(qrels, run, _OURS, complete=complete, depth=depth, rel_level=level)
            per_query, aggregate = _expected(trec, qrels, level, complete)
            where = f"seed {seed} pair {pair} level {level} depth {depth} complete {complete}"
            assert list(ours.per_query) == sorted(per_query), where
            for qid, row in per_query.items():
                _compare(ours.per_query[qid], row, f"{where} query {qid}")
            _compare(ours.aggregate, aggregate, f"{where} aggregate")
            compared += len(per_query)
    assert compared > PAIRS  # many queries compared, not just pairs
