"""The four content demos in real Chromium: move the main control, read the displayed numbers,
compare them with what rankcards.metrics computes in CPython for the same state.

MRR has its own file (test_demo_mrr.py). Every displayed number carries its exact value in
``data-value``; the page's live state travels with the ``rankcards:demo`` event.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from demo_helpers import DEMO, console_errors, open_card_demo, shown_numbers, state_after

from rankcards.demos.bm25 import BM25
from rankcards.demos.gold import load_gold
from rankcards.demos.rankers import random_ranking
from rankcards.metrics import evaluate, hit_at_k, hit_rate_at_k, mean_recall_at_k, recall_at_k
from rankcards.viz.index_benchmarking import recall_at

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _slide(page: Any, control: str, key: str) -> dict[str, Any]:
    slider = page.locator(f"{DEMO} #{control}")
    slider.focus()
    return state_after(page, lambda: page.keyboard.press(key))


@pytest.mark.parametrize("lang", ["en", "es"])
def test_hit_rate_slider_shows_the_module_values(card_tab, lang):
    """The Hit Rate card's lab (Success@k): each query's hit and the rate, at each k."""
    page = open_card_demo(card_tab, lang, "hit-rate-at-k")
    for key in ("Home", "ArrowRight", "End"):
        state = _slide(page, "rc-demo-hit-rate-at-k-k", key)
        for name, value in _toy_values(state, "hit-rate-at-k").items():
            assert shown_numbers(page)[name] == value, (key, name)
    assert state["k"] == 5 and shown_numbers(page)["mean"] == 0.75
    assert console_errors(page) == []


def test_recall_sliders_move_numerator_and_denominator(card_tab):
    page = open_card_demo(card_tab, "en", "recall-at-k")
    _slide(page, "rc-demo-recall-at-k-k", "Home")
    state = _slide(page, "rc-demo-recall-at-k-missed", "ArrowRight")
    assert (state["k"], state["missed"]) == (1, 1)
    rankings = [q["ranking"] for q in state["queries"]]
    relevant = [set(q["relevant"]) | {"missed 1"} for q in state["queries"]]
    shown = shown_numbers(page)
    assert shown["Recall"] == mean_recall_at_k(rankings, relevant, 1)
    for item, ranking, rel in zip(state["queries"], rankings, relevant, strict=True):
        assert shown[f"R:{item['query']}"] == recall_at_k(ranking, rel, 1)
        assert shown[f"total:{item['query']}"] == len(rel)
    assert "Recall@1 = (0/4 + 1/2 + 0/3 + 0/2) / 4" in page.text_content(f"{DEMO} .rc-formula")
    assert console_errors(page) == []


def _gold_expected(state: dict[str, Any]) -> dict[str, float]:
    gold = load_gold()
    for key, grade in state["edits"].items():
        qid, _, doc = key.partition("/")
        gold.qrels[qid][doc] = grade
    bm25 = BM25(gold.documents)
    k = state["k"]
    runs = {
        "bm25": {q: dict(bm25.search(text, 10)[:k]) for q, text in gold.queries.items()},
        "random": {
            q: {
                d: 10.0 - i
                for i, d in enumerate(random_ranking(gold.documents, q, 10, state["seed"])[:k])
            }
            for q in gold.queries
        },
    }
    values = {}
    for system, run in runs.items():
        result = evaluate(gold.qrels, run, ["RR", "Success@10", "R@10"], rel_level=state["level"])
        values[f"{system}:MRR"] = result.aggregate["RR"]
        values[f"{system}:HitRate"] = result.aggregate["Success@10"]
        values[f"{system}:Recall"] = result.aggregate["R@10"]
    return values


def test_gold_dataset_editing_a_judgment_moves_every_metric(card_tab):
    page = open_card_demo(card_tab, "en", "gold-dataset")
    before = shown_numbers(page)
    # BM25's first result for q16 is a keyword trap judged 0: judge it relevant (0 -> 1).
    button = page.locator(f'{DEMO} [data-system="bm25"] li:first-child button.rc-grade')
    assert button.text_content() == "0"
    state = state_after(page, button.click)
    assert len(state["edits"]) == 1
    shown = shown_numbers(page)
    for name, value in _gold_expected(state).items():
        assert shown[name] == pytest.approx(value, abs=1e-12), name
    assert shown["bm25:RR:q16"] == 1.0 and before["bm25:RR:q16"] == 0.25
    assert shown["bm25:MRR"] > before["bm25:MRR"]
    assert (
        page.locator(f'{DEMO} [data-system="bm25"] li:first-child button.rc-grade').text_content()
        == "1*"
    )
    state = state_after(
        page, lambda: page.select_option(f"{DEMO} #rc-demo-gold-dataset-level", "2")
    )
    shown = shown_numbers(page)
    for name, value in _gold_expected(state).items():
        assert shown[name] == pytest.approx(value, abs=1e-12), name
    assert console_errors(page) == []


def _assert_gold_view(page: Any, state: dict[str, Any]) -> dict[str, float]:
    """The view shows the module's numbers for ``state``, and the chosen query's top k."""
    shown = shown_numbers(page)
    for name, value in _gold_expected(state).items():
        assert shown[name] == pytest.approx(value, abs=1e-12), name
    gold, bm25 = load_gold(), BM25(load_gold().documents)
    top = {
        "bm25": [doc for doc, _ in bm25.search(gold.queries[state["query"]], 10)][: state["k"]],
        "random": random_ranking(gold.documents, state["query"], 10, state["seed"])[: state["k"]],
    }
    for system, docs in top.items():
        listed = page.eval_on_selector_all(
            f'{DEMO} .rc-gold-list[data-system="{system}"] li[data-doc]',
            "items => items.map(item => item.dataset.doc)",
        )
        assert listed == docs, (system, state)
    return shown


def test_gold_dataset_query_k_and_seed_controls_show_the_module_values(card_tab):
    """Each of the gold demo's other controls changes what is shown, to the module's values."""
    page = open_card_demo(card_tab, "en", "gold-dataset")
    initial = json.loads(page.get_attribute(DEMO, "data-rc-initial"))
    before = _assert_gold_view(page, initial)
    assert initial["query"] != "q05" and initial["k"] > 1 and initial["seed"] != 9

    state = state_after(
        page, lambda: page.select_option(f"{DEMO} #rc-demo-gold-dataset-query", '"q05"')
    )
    assert state["query"] == "q05"
    _assert_gold_view(page, state)

    state = _slide(page, "rc-demo-gold-dataset-k", "Home")
    assert state["k"] == 1
    after_k = _assert_gold_view(page, state)
    assert after_k["bm25:Recall"] != before["bm25:Recall"]

    state = _slide(page, "rc-demo-gold-dataset-seed", "End")
    assert state["seed"] == 9
    _assert_gold_view(page, state)
    state = _slide(page, "rc-demo-gold-dataset-k", "End")
    after_seed = _assert_gold_view(page, state)
    assert after_seed["bm25:MRR"] == before["bm25:MRR"]  # the seed moves the random ranker only
    assert after_seed["random:MRR"] != before["random:MRR"]
    assert console_errors(page) == []


def _toy_values(state: dict[str, Any], slug: str) -> dict[str, float]:
    """What the hit-rate lab or the recall view must show for ``state``, from rankcards.metrics."""
    k = state["k"]
    rankings = [q["ranking"] for q in state["queries"]]
    relevant = [set(q["relevant"]) for q in state["queries"]]
    if slug == "hit-rate-at-k":
        values = {"mean": hit_rate_at_k(rankings, relevant, k)}
        for item, ranking, rel in zip(state["queries"], rankings, relevant, strict=True):
            values[f"value:{item['query']}"] = hit_at_k(ranking, rel, k)
        return values
    relevant = [rel | {f"missed {n}" for n in range(1, state["missed"] + 1)} for rel in relevant]
    values = {"Recall": mean_recall_at_k(rankings, relevant, k)}
    for item, ranking, rel in zip(state["queries"], rankings, relevant, strict=True):
        values[f"R:{item['query']}"] = recall_at_k(ranking, rel, k)
    return values


@pytest.mark.parametrize("slug", ["hit-rate-at-k", "recall-at-k"])
def test_ranked_lists_marking_and_moving_a_document_show_the_module_values(card_tab, slug):
    page = open_card_demo(card_tab, "en", slug)
    q4 = f"{DEMO} [data-rc-list='3']"  # q4 retrieves nothing relevant in the toy example
    before = shown_numbers(page)
    # Mark q4's document at rank 2 relevant: q4 gets a hit (and recall) within k.
    state = state_after(page, page.locator(f"{q4} li[data-doc='d7'] [data-rc-doc]").click)
    assert "d7" in state["queries"][3]["relevant"]
    shown = shown_numbers(page)
    for name, value in _toy_values(state, slug).items():
        assert shown[name] == value, name
    metric = "mean" if slug == "hit-rate-at-k" else "Recall"
    assert shown[metric] > before[metric]
    # At k = 1 it is out of reach; move it up to rank 1 with the keyboard, as a reader would.
    _slide(page, f"rc-demo-{slug}-k", "Home")
    at_top = shown_numbers(page)
    page.locator(f"{q4} li[data-doc='d7'] [data-rc-doc]").focus()
    state = state_after(page, lambda: page.keyboard.press("Alt+ArrowUp"))
    assert state["queries"][3]["ranking"][:2] == ["d7", "d5"]
    shown = shown_numbers(page)
    for name, value in _toy_values(state, slug).items():
        assert shown[name] == value, name
    assert shown[metric] > at_top[metric]  # d7 now at rank 1, within k = 1
    assert console_errors(page) == []


def test_index_benchmarking_nprobe_slider_measures_live(card_tab):
    page = open_card_demo(card_tab, "es", "index-benchmarking")
    for key, nprobe in (("Home", 1), ("ArrowRight", 2), ("End", 32)):
        state = _slide(page, "rc-demo-index-benchmarking-nprobe", key)
        assert state["nprobe"] == nprobe
        shown = shown_numbers(page)
        assert shown["recall"] == recall_at(nprobe), nprobe
        assert shown["qps"] > 0 and shown["exact_qps"] > 0 and shown["build_ms"] > 0
        current = page.locator(f"{DEMO} svg circle[data-current]")
        assert current.get_attribute("data-nprobe") == str(nprobe)
    assert console_errors(page) == []
