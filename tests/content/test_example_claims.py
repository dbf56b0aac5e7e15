"""What the cards' examples print is what the module computes, not merely what they printed before.

The browser tests compare an example's output in the page with its build-time output, both made
by the same runner: a wrong example (say, a broken ``calculate_mrr`` printing ``equal: False``)
would pass them. Here each stated result is recomputed independently with ``rankcards.metrics``
(or the demo's own functions) and compared with the number printed, at its printed precision.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from rankcards.demos.gold import load_gold
from rankcards.demos.toy import TOY, toy_rankings, toy_relevant
from rankcards.metrics import (
    evaluate,
    hit_rate_at_k,
    mean_recall_at_k,
    mean_reciprocal_rank,
    recall_at_k,
    reciprocal_rank,
)
from rankcards.runner import run_example
from rankcards.viz.gold_dataset import rankings as gold_rankings

CARDS = Path(__file__).resolve().parents[2] / "docs" / "cards"
NUMBER = r"(\d+\.\d+)"


def _outputs(slug: str) -> dict[str, str]:
    """The example's output per language (the sources may differ by their comments)."""
    source = yaml.safe_load((CARDS / f"{slug}.yml").read_text(encoding="utf-8"))["code"]["source"]
    sources = {"es": source, "en": source} if isinstance(source, str) else source
    return {lang: run_example(text).output for lang, text in sources.items()}


def _same(printed: str, value: float) -> bool:
    """``printed`` is ``value`` rounded to the decimals printed."""
    decimals = len(printed.split(".")[1])
    return abs(float(printed) - value) <= 0.5 * 10**-decimals + 1e-12


@pytest.mark.parametrize("slug", sorted(path.stem for path in CARDS.glob("*.yml")))
def test_no_example_prints_a_failed_check(slug: str) -> None:
    for lang, output in _outputs(slug).items():
        assert output.strip(), (slug, lang)
        assert "Traceback" not in output, (slug, lang)
        assert not re.search(r"\bFalse\b", output), f"{slug} ({lang}) prints a failed check"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_mrr_example_states_the_modules_mrr(lang: str) -> None:
    output = _outputs("mrr")[lang]
    mrr = mean_reciprocal_rank(toy_rankings(), toy_relevant())
    found = re.search(
        rf"calculate_mrr = {NUMBER}\s+rankcards = {NUMBER}\s+(?:equal|iguales): True", output
    )
    assert found, output
    assert _same(found.group(1), mrr) and _same(found.group(2), mrr)
    for query in TOY:
        line = re.search(rf"{query.id}: .* RR = {NUMBER}", output)
        assert line and _same(line.group(1), reciprocal_rank(query.ranking, query.relevant))


@pytest.mark.parametrize("lang", ["es", "en"])
def test_hit_rate_example_states_the_modules_hit_rates(lang: str) -> None:
    output = _outputs("hit-rate-at-k")[lang]
    stated = re.findall(rf"Hit Rate@(\d+) = {NUMBER}", output)
    assert len(stated) >= 3, output
    for k, value in stated:
        assert _same(value, hit_rate_at_k(toy_rankings(), toy_relevant(), int(k))), (k, value)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_recall_example_states_the_modules_recall(lang: str) -> None:
    output = _outputs("recall-at-k")[lang]
    per_query = re.findall(rf"(q\d+): .*R@(\d+) = {NUMBER}", output)
    assert len(per_query) == len(TOY), output
    for qid, k, value in per_query:
        query = next(q for q in TOY if q.id == qid)
        assert _same(value, recall_at_k(query.ranking, query.relevant, int(k))), (qid, value)
    mean = re.search(rf"Recall@(\d+)[^=\n]*= {NUMBER}", output)
    assert mean, output
    assert _same(
        mean.group(2), mean_recall_at_k(toy_rankings(), toy_relevant(), int(mean.group(1)))
    )


@pytest.mark.parametrize("lang", ["es", "en"])
def test_gold_example_table_is_what_the_demo_computes(lang: str) -> None:
    """The example's BM25 and random rows equal the demo's own rankings evaluated (two paths)."""
    output = _outputs("gold-dataset")[lang]
    lines = output.splitlines()
    at = next(index for index, line in enumerate(lines) if "RR@10" in line)
    header, bm25_row, random_row = lines[at].split()[1:], lines[at + 1], lines[at + 2]
    gold = load_gold()
    for system, row in (("bm25", bm25_row), ("random", random_row)):
        run = {
            qid: {doc: float(len(docs) - rank) for rank, doc in enumerate(docs)}
            for qid, docs in gold_rankings(system).items()
        }
        means = evaluate(gold.qrels, run, header).aggregate
        for measure, printed in zip(header, row.split()[1:], strict=True):
            assert _same(printed, means[measure]), (system, measure, printed, means[measure])
