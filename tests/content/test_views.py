"""The four visualizers show exactly what rankcards.metrics computes for the state they get."""

from __future__ import annotations

import copy
import math
import re

import pytest
import yaml

from rankcards.demos.bm25 import BM25
from rankcards.demos.gold import load_gold
from rankcards.demos.rankers import random_ranking
from rankcards.demos.toy import toy_state
from rankcards.metrics import (
    evaluate,
    hit_at_k,
    hit_rate_at_k,
    mean_recall_at_k,
    recall_at_k,
)
from rankcards.viz import expand, gold_dataset, index_benchmarking, lab, recall
from repo_paths import CARDS

from ._view import read, shown

TOY = {"queries": toy_state()}


def _hit_rate_lab(k: int, lang: str = "en") -> dict[str, float]:
    """The Hit Rate card's demo (the measure lab on Success@k) at cutoff ``k``."""
    card = yaml.safe_load((CARDS / "hit-rate-at-k.yml").read_text(encoding="utf-8"))
    state = expand(card["demo"])["state"]
    return shown(lab.view({**state, "k": k}, lang))


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_hit_rate_card_shows_the_module_hits_and_counts(k):
    values = _hit_rate_lab(k)
    rankings = [q["ranking"] for q in TOY["queries"]]
    relevant = [set(q["relevant"]) for q in TOY["queries"]]
    assert values["mean"] == hit_rate_at_k(rankings, relevant, k)
    for item, ranking, rel in zip(TOY["queries"], rankings, relevant, strict=True):
        assert values[f"value:{item['query']}"] == hit_at_k(ranking, rel, k)
    # the focused query's relevant documents in the top k: the "hits@k" count of the gotcha
    assert values["quantity:relevant_retrieved"] == len(set(rankings[0][:k]) & relevant[0])


def test_hit_rate_on_the_toy_example_by_hand():
    rates = [_hit_rate_lab(k, "es")["mean"] for k in (1, 2, 3, 5)]
    assert rates == [0.25, 0.5, 0.75, 0.75]  # q2 at 1, q1 at 2, q3 at 3, q4 never


@pytest.mark.parametrize(("k", "missed"), [(1, 0), (3, 0), (5, 0), (5, 2), (2, 5)])
def test_recall_view_equals_the_module_with_a_visible_denominator(k, missed):
    state = {"k": k, "missed": missed, **copy.deepcopy(TOY)}
    values = shown(recall.view(state, "en"))
    rankings = [q["ranking"] for q in state["queries"]]
    extra = {f"missed {n}" for n in range(1, missed + 1)}
    relevant = [set(q["relevant"]) | extra for q in state["queries"]]
    assert values["Recall"] == mean_recall_at_k(rankings, relevant, k)
    for item, ranking, rel in zip(state["queries"], rankings, relevant, strict=True):
        qid = item["query"]
        assert values[f"R:{qid}"] == recall_at_k(ranking, rel, k)
        assert values[f"total:{qid}"] == len(rel)
        assert values[f"ceiling:{qid}"] == min(k, len(rel)) / len(rel)


def test_recall_toy_numbers_by_hand():
    values = shown(recall.view({"k": 5, "missed": 0, **TOY}, "en"))
    assert values["R:q1"] == 2 / 3  # d1, d4 found; d8 never retrieved
    assert values["Recall"] == pytest.approx((2 / 3 + 1 + 1 + 0) / 4)
    capped = shown(recall.view({"k": 1, "missed": 3, **TOY}, "en"))
    assert capped["ceiling:q2"] == 1 / 4  # R = 1 + 3 > K = 1


def _gold_state(**changes):
    return {"query": "q16", "k": 10, "level": 1, "seed": 0, "edits": {}, **changes}


def test_gold_view_equals_trec_eval_style_evaluation_of_both_systems():
    gold = load_gold()
    bm25 = BM25(gold.documents)
    bm25_run = {q: dict(bm25.search(text, 10)) for q, text in gold.queries.items()}
    random_run = {
        q: {doc: 10.0 - i for i, doc in enumerate(random_ranking(gold.documents, q, 10))}
        for q in gold.queries
    }
    values = shown(gold_dataset.view(_gold_state(), "en"))
    for system, run in (("bm25", bm25_run), ("random", random_run)):
        result = evaluate(gold.qrels, run, ["RR@10", "Success@10", "R@10"])
        assert values[f"{system}:MRR"] == pytest.approx(result.aggregate["RR@10"], abs=1e-12)
        assert values[f"{system}:HitRate"] == pytest.approx(result.aggregate["Success@10"])
        assert values[f"{system}:Recall"] == pytest.approx(result.aggregate["R@10"], abs=1e-12)
        for qid in gold.queries:
            assert values[f"{system}:RR:{qid}"] == result.per_query[qid]["RR@10"]
            assert values[f"{system}:R:{qid}"] == result.per_query[qid]["R@10"]


def test_gold_dataset_numbers():
    """BM25 (k1=0.9, b=0.4) and the seed-0 random ranker on the bundled dataset, K = 10."""
    values = shown(gold_dataset.view(_gold_state(), "en"))
    assert values["bm25:MRR"] == 0.9375  # 18 queries at rank 1, q11 at 2, q16 at 4
    assert values["bm25:HitRate"] == 1.0
    assert values["bm25:Recall"] == pytest.approx(101 / 120)  # 101 of 6 x 20 relevant found
    assert values["bm25:RR:q16"] == 0.25  # three keyword traps ("opening", "principles") first
    assert values["random:HitRate"] == 0.5
    assert values["random:Recall"] == pytest.approx(11 / 120)


def test_editing_one_judgment_moves_every_metric():
    before = shown(gold_dataset.view(_gold_state(), "en"))
    trap = gold_dataset.rankings("bm25")["q16"][0]  # a grade-0 keyword trap at rank 1
    assert load_gold().qrels["q16"][trap] == 0
    after = shown(gold_dataset.view(_gold_state(edits={f"q16/{trap}": 2}), "en"))
    assert after["bm25:RR:q16"] == 1.0
    assert after["bm25:MRR"] == before["bm25:MRR"] + (1.0 - 0.25) / 20
    # q16: BM25 finds 5 of its 6 relevant documents; the edited one joins both sides: 6 / 7.
    assert (before["bm25:R:q16"], after["bm25:R:q16"]) == (5 / 6, 6 / 7)
    assert after["bm25:Recall"] > before["bm25:Recall"]
    html = gold_dataset.view(_gold_state(edits={f"q16/{trap}": 2}), "es")
    assert "Deshacer ediciones (1)" in read(html).texts


def test_relevance_level_and_cutoff_change_the_binary_metrics():
    strict = shown(gold_dataset.view(_gold_state(level=3), "en"))
    assert strict["bm25:MRR"] < 0.9375
    top1 = shown(gold_dataset.view(_gold_state(k=1), "en"))
    assert top1["bm25:HitRate"] == top1["bm25:MRR"] == 18 / 20


def test_gold_view_rejects_bad_edits_and_queries_with_the_field_name():
    with pytest.raises(ValueError, match=r"edits: 'q99/d001' -> 2"):
        gold_dataset.view(_gold_state(edits={"q99/d001": 2}), "en")
    with pytest.raises(ValueError, match=r"query: unknown query id 'q00'"):
        gold_dataset.view(_gold_state(query="q00"), "en")


@pytest.mark.parametrize(
    ("nprobe", "expected"), [(1, 0.62), (2, 0.792), (4, 0.918), (8, 0.988), (32, 1.0)]
)
def test_index_view_recall_is_exact_and_qps_is_measured(nprobe, expected):
    values = shown(index_benchmarking.view({"nprobe": nprobe}, "en"))
    assert values["recall"] == pytest.approx(expected, abs=1e-12)
    assert values[f"recall:{nprobe}"] == values["recall"]
    assert values["qps"] > 0 and values["exact_qps"] > 0 and values["build_ms"] > 0
    assert values["distances"] > 32  # centroids plus the probed lists' points
    sweep = {name for name in values if name.startswith("recall:")}
    assert {f"recall:{p}" for p in index_benchmarking.SWEEP} <= sweep


def test_index_view_sweep_is_monotone_and_highlights_the_current_point():
    html = index_benchmarking.view({"nprobe": 5}, "es")
    values = shown(html)
    recalls = [values[f"recall:{p}"] for p in sorted({*index_benchmarking.SWEEP, 5})]
    assert recalls == sorted(recalls)
    assert (
        html.count('data-current=""') + html.count("data-current ") + html.count("data-current>")
        >= 1
    )
    assert 'data-nprobe="5"' in html


def test_index_view_rejects_out_of_range_nprobe():
    with pytest.raises(ValueError, match=r"nprobe: expected 1..32, got 0"):
        index_benchmarking.view({"nprobe": 0}, "en")


def test_gold_view_shows_unjudged_documents_as_a_dash_not_a_zero():
    gold = load_gold()
    html = gold_dataset.view(_gold_state(), "es")
    reader = read(html)
    # BM25's top 10 for q16 holds judged traps (grade 0), the random ranker's unjudged documents.
    top = gold_dataset.rankings("bm25")["q16"] + gold_dataset.rankings("random")["q16"]
    unjudged = [doc for doc in top if doc not in gold.qrels["q16"]]
    judged_zero = [doc for doc in top if gold.qrels["q16"].get(doc) == 0]
    assert unjudged and judged_zero  # the view must tell these two apart
    for doc in unjudged:
        item = html[html.index(f'data-doc="{doc}"') :]
        button = item[: item.index("</button>")]
        assert "data-unjudged" in button and "data-grade" not in button
        assert button.endswith(f">{gold_dataset.UNJUDGED}") and gold_dataset.UNJUDGED == "\u2013"
        assert f"{doc} sin juzgar" in button
    for doc in judged_zero:
        item = html[html.index(f'data-doc="{doc}"') :]
        button = item[: item.index("</button>")]
        assert 'data-grade="0"' in button and button.endswith(">0")
        assert "grado 0 (irrelevante)" in button
    assert gold_dataset.UNJUDGED in reader.texts


def test_pressing_an_unjudged_document_records_a_judgment_of_zero_that_changes_no_metric():
    gold = load_gold()
    top = gold_dataset.rankings("random")["q16"]
    doc = next(doc for doc in top if doc not in gold.qrels["q16"])
    html = gold_dataset.view(_gold_state(), "en")
    item = html[html.index(f'data-doc="{doc}"') :]
    assert f'data-rc-set="edits.q16/{doc}" data-rc-value="0"' in item[: item.index("</button>")]
    assert "press to judge it 0" in item[: item.index("</button>")]
    before = shown(html)
    after_html = gold_dataset.view(_gold_state(edits={f"q16/{doc}": 0}), "en")
    assert shown(after_html) == before  # unjudged and 0 count the same...
    edited = after_html[after_html.index(f'data-doc="{doc}"') :]
    assert 'data-grade="0"' in edited[: edited.index("</button>")]  # ...but now it is judged


def test_index_sweep_shows_a_machine_independent_cost_that_grows_with_nprobe():
    values = shown(index_benchmarking.view({"nprobe": 4}, "en"))
    costs = [values[f"distances:{p}"] for p in index_benchmarking.SWEEP]
    assert costs == sorted(costs) and len(set(costs)) == len(costs)
    assert values["distances"] == values["distances:4"]


def test_index_timing_takes_turns_and_keeps_the_best_of_enough_passes():
    now = [0.0]
    cost = {"fast": 0.001, "slow": 0.010}  # seconds per query, on a fake clock
    order = []

    def search(name):
        def run(query):
            order.append(name)
            now[0] += cost[name]
            return [query]

        return run

    timings = index_benchmarking._interleaved(
        {name: search(name) for name in cost}, [1, 2], clock=lambda: now[0]
    )
    fast, slow = timings["fast"], timings["slow"]
    # 2 ms per fast pass: passes until they add up to _MIN_SECONDS; 20 ms per slow pass: the
    # minimum number of passes.
    assert fast.passes == max(
        index_benchmarking._MIN_PASSES, math.ceil(index_benchmarking._MIN_SECONDS / 0.002)
    )
    assert slow.passes == index_benchmarking._MIN_PASSES
    assert fast.best == pytest.approx(0.002) and slow.best == pytest.approx(0.020)
    assert fast.results == [[1], [2]]
    # Turns: the settings alternate pass by pass while both still need passes.
    passes = [order[i] for i in range(0, len(order), 2)]
    assert passes[: 2 * index_benchmarking._MIN_PASSES] == ["fast", "slow"] * 3


def test_index_view_says_qps_is_one_over_latency_only_because_the_run_is_sequential():
    for lang, words in (("en", "one after another in one thread"), ("es", "una tras otra")):
        caption = read(index_benchmarking.view({"nprobe": 2}, lang)).texts
        assert any(words in text and "1 / " in text for text in caption), lang


def test_index_chart_plots_the_machine_independent_speed_up_with_the_live_dots_beside_it():
    html = index_benchmarking.view({"nprobe": 4}, "en")
    line = re.search(r'<polyline points="([^"]+)"[^>]*data-series="fixed"', html)
    assert line, "the fixed (distance-count) series"
    ys = [float(point.split(",")[1]) for point in line.group(1).split()]
    # Larger nprobe, more distances, less speed-up: the line only goes down (SVG y grows).
    assert ys == sorted(ys) and len(set(ys)) == len(ys)
    live = set(re.findall(r'data-live="(\d+)"', html))
    assert live == {str(p) for p in index_benchmarking.SWEEP}
    assert "distance computations saved" in html and "measured QPS / exact QPS" in html


def test_the_inspected_query_shows_its_own_values_so_the_query_select_teaches():
    for qid in ("q16", "q05"):
        values = shown(gold_dataset.view(_gold_state(query=qid), "en"))
        for system in ("bm25", "random"):
            for key in ("RR", "Hit", "R"):
                assert values[f"{system}:{key}:query"] == values[f"{system}:{key}:{qid}"]
    assert shown(gold_dataset.view(_gold_state(), "en"))["bm25:RR:query"] == 0.25
    assert shown(gold_dataset.view(_gold_state(query="q05"), "en"))["bm25:RR:query"] == 1.0
