"""The judged-at-k card: every number it states is recomputed here, from its example's output,
its demo, and trec_eval's / ir_measures' rules as their sources write them."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from rankcards.runner import run_example
from rankcards.viz import expand
from rankcards.viz.lab import view

CARD = yaml.safe_load(
    (Path(__file__).resolve().parents[2] / "docs" / "cards" / "judged-at-k.yml").read_text(
        encoding="utf-8"
    )
)
PROSE = {
    lang: " ".join(
        [CARD["definition"][lang], CARD["intuition"][lang], *CARD["key_points"][lang]]
        + CARD["gotchas"][lang]
    )
    for lang in ("es", "en")
}


def _says(number: str) -> None:
    for lang, text in PROSE.items():
        assert re.search(rf"(?<![\d.]){re.escape(number)}(?!\d)", text), (lang, number)


def _mean(state: dict[str, Any]) -> float:
    found = re.search(r'data-metric="mean" data-value="([^"]+)"', view(state, "en"))
    assert found
    return float(found.group(1))


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_example_prints_what_the_key_points_state(lang: str) -> None:
    result = run_example(CARD["code"]["source"][lang])
    assert result.error is None
    rows = [re.findall(r"= ([\d.]+)", line) for line in result.output.splitlines()]
    assert rows == [
        ["0.70", "0.25", "0.4250", "0.4375"],  # the pooled run
        ["0.60", "0.15", "0.1927", "0.4375"],  # two unjudged documents on top
        ["1.00", "0.35", "0.6107", "0.6167"],  # the same, its two documents judged
    ]
    for number in ("0.4250", "0.1927", "0.70", "0.60", "0.4375", "0.6107"):
        _says(number)


def test_the_demo_is_the_examples_new_run_and_judging_a_hole_moves_it() -> None:
    state = expand(CARD["demo"])["state"]
    assert _mean(state) == pytest.approx(0.6)  # 3 of the top 5 judged, in every query
    _says("0.6")
    judged = copy.deepcopy(state)
    judged["queries"][0]["unjudged"].remove("n1")  # the tip: press n1 once (? -> 0)
    assert _mean(judged) == pytest.approx((0.8 + 0.6 * 3) / 4)
    assert [_mean({**state, "k": k}) for k in (1, 2, 3, 7)] == pytest.approx(
        [0.0, 0.0, 1 / 3, (4 / 7 + 3 / 7 + 4 / 7 + 3 / 7) / 4]
    )


def test_the_unj_gotcha_follows_m_unjudged_c() -> None:
    """trec_eval 10.0 m_unjudged.c: unjudged among the retrieved, over the cutoff k; ir_measures
    Judged: judged among the top min(k, n), over min(k, n). 3 retrieved, 2 judged, k = 5."""
    ranking, judged, k = ["a", "b", "c"], {"a", "b"}, 5
    unj = sum(doc not in judged for doc in ranking[:k]) / k
    state = expand(
        {
            "lab": {
                "measure": "Judged@5",
                "unjudged": True,
                "queries": [{"query": "q", "ranking": ranking, "relevant": [], "unjudged": ["c"]}],
            }
        }
    )["state"]
    assert (round(_mean(state), 3), unj) == (0.667, 0.2)
    _says("0.667")
    _says("0.2")
    _says("3/5 = 0.6")
