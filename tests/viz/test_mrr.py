"""The MRR view shows exactly what rankcards.metrics computes for the state it is given."""

from __future__ import annotations

import copy
from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from content._view import shown as metrics
from content._view import text
from rankcards.viz import render
from rankcards.viz.mrr import view

ROOT = Path(__file__).resolve().parents[2]
CARD_DEMO = yaml.safe_load((ROOT / "docs" / "cards" / "mrr.yml").read_text(encoding="utf-8"))[
    "demo"
]


def _shown(html: str) -> dict[str, float]:
    return {name: value for name, value in metrics(html).items() if not name.startswith("rank:")}


STATE = {
    "k": 5,
    "queries": [
        {"query": "q1", "ranking": ["d3", "d1", "d7", "d4", "d9"], "relevant": ["d1"]},
        {"query": "q2", "ranking": ["d2", "d5", "d9", "d1", "d6"], "relevant": ["d2"]},
        {"query": "q3", "ranking": ["d4", "d8", "d6", "d2", "d3"], "relevant": ["d6"]},
    ],
}


def test_the_card_demo_shows_the_module_numbers(mrr_demo_values) -> None:
    html = render(CARD_DEMO, "en")
    assert _shown(html) == mrr_demo_values(CARD_DEMO["state"])


def test_numbers_and_written_out_sum(mrr_demo_values) -> None:
    html = view(copy.deepcopy(STATE), "en")
    shown = metrics(html)
    assert shown["RR:q1"] == 0.5 and shown["RR:q2"] == 1.0 and shown["RR:q3"] == 1 / 3
    assert shown["rank:q1"] == 2.0 and shown["rank:q3"] == 3.0
    assert shown["MRR"] == mrr_demo_values(STATE)["MRR"]
    assert "MRR@5 = (1/2 + 1/1 + 1/3) / 3 = 0.6111" in text(html)


def test_k_cuts_the_rankings() -> None:
    state = copy.deepcopy(STATE)
    state["k"] = 2
    html = view(state, "es")
    assert metrics(html)["RR:q3"] == 0.0  # d6 is at rank 3, beyond k
    assert metrics(html)["rank:q3"] == 0.0
    assert "MRR@2 = (1/2 + 1/1 + 0) / 3 = 0.5" in text(html)
    assert "ninguno en el top 2" in html


def test_toggling_relevance_changes_rr_and_mrr(mrr_demo_values) -> None:
    state = copy.deepcopy(STATE)
    state["queries"][0]["relevant"].append("d3")  # now rank 1 is relevant
    assert _shown(view(state, "en")) == mrr_demo_values(state)
    assert metrics(view(state, "en"))["RR:q1"] == 1.0


def test_query_ids_are_escaped() -> None:
    state = {"k": 3, "queries": [{"query": "<img src=x>", "ranking": ["d<1>"], "relevant": []}]}
    html = view(state, "en")
    assert "<img" not in html and "&lt;img src=x&gt;" in html


_DOCS = st.lists(st.sampled_from([f"d{i}" for i in range(8)]), min_size=0, max_size=8, unique=True)
_QUERY = st.tuples(_DOCS, st.lists(st.sampled_from([f"d{i}" for i in range(8)]), max_size=4))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 8), st.lists(_QUERY, min_size=1, max_size=4))
def test_every_number_equals_the_module(
    mrr_demo_values, k: int, queries: list[tuple[list[str], list[str]]]
) -> None:
    state = {
        "k": k,
        "queries": [
            {"query": f"q{index}", "ranking": ranking, "relevant": relevant}
            for index, (ranking, relevant) in enumerate(queries)
        ],
    }
    assert _shown(view(state, "en")) == mrr_demo_values(state)
