"""Every number a card states is what the modules compute.

Each test finds the sentence in the card (both languages) and recomputes its numbers with
``rankcards.metrics`` / ``rankcards.demos`` / ``rankcards.viz``: a reworded sentence or a changed
module makes it fail. Example outputs are read as the build runs them (``build_cards``), so a
broken example (e.g. a ``calculate_mrr`` that no longer matches the module) fails here too.
"""

from __future__ import annotations

import re
import statistics
from pathlib import Path

import pytest
import yaml

from rankcards.cards import build_cards
from rankcards.demos.gold import GRADE_NAMES, load_gold
from rankcards.demos.toy import toy_rankings, toy_relevant
from rankcards.demos.vectors import synthetic
from rankcards.metrics import (
    average_precision,
    hit_rate_at_k,
    mean_average_precision,
    mean_precision_at_k,
    mean_recall_at_k,
    mean_reciprocal_rank,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
)
from rankcards.viz import index_benchmarking

ROOT = Path(__file__).resolve().parents[2]
CARDS = ROOT / "docs" / "cards"
LANGS = ("es", "en")


def _card(slug: str) -> dict:
    return yaml.safe_load((CARDS / f"{slug}.yml").read_text(encoding="utf-8"))


def _text(card: dict, lang: str) -> str:
    """Every prose field of ``card`` in ``lang``, joined (where a number may be stated)."""
    parts = [card[field][lang] for field in ("summary", "definition", "intuition")]
    parts += card["key_points"][lang] + card["gotchas"][lang]
    if "formula" in card:
        parts.append(card["formula"]["where"][lang])
    return "\n".join(parts)


@pytest.fixture(scope="module")
def outputs() -> dict[tuple[str, str], str]:
    """What each card's example printed, by (slug, lang)."""
    return {
        (rendered.card.slug, lang): rendered.examples[lang].output
        for rendered in build_cards(CARDS)
        for lang in LANGS
    }


def _lines(output: str) -> list[str]:
    return output.strip().splitlines()


def _first_hit_at(rank: int) -> list[str]:
    """A ranking whose first relevant document, "r", is at ``rank``."""
    return [f"n{i}" for i in range(1, rank)] + ["r"]


# --- MRR -------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_mrr_example_prints_the_modules_values_and_the_seed_function_agrees(outputs, lang):
    lines = _lines(outputs[("mrr", lang)])
    rankings, relevant = toy_rankings(), toy_relevant()
    for number, (ranking, gold) in enumerate(zip(rankings, relevant, strict=True), start=1):
        assert (
            lines[number - 1] == f"q{number}: {ranking} RR = {reciprocal_rank(ranking, gold):.3f}"
        )
    mrr = mean_reciprocal_rank(rankings, relevant)
    equal = {"es": "iguales", "en": "equal"}[lang]
    # The seed card's calculate_mrr must give exactly the module's value: a broken copy prints
    # another number or "False" here.
    assert lines[4] == f"calculate_mrr = {mrr:.4f}   rankcards = {mrr:.4f}   {equal}: True"
    mean_rank = {"es": "1/rango medio", "en": "1/mean rank"}[lang]
    first_hits = [["x", "r"], ["r"], ["x", "y", "r"]]  # first relevant at ranks 2, 1 and 3
    spread = mean_reciprocal_rank(first_hits, [{"r"}] * 3)
    assert lines[5] == f"MRR = {spread:.4f}   {mean_rank} = {3 / (2 + 1 + 3):.4f}"


@pytest.mark.parametrize("lang", LANGS)
def test_mrr_stated_numbers(lang):
    card = _card("mrr")
    text = _text(card, lang)
    first_hits = [["x", "r"], ["r"], ["x", "y", "r"]]
    mrr = mean_reciprocal_rank(first_hits, [{"r"}] * 3)
    harmonic = statistics.harmonic_mean([2, 1, 3])
    assert "(1/2 + 1 + 1/3) / 3 ≈ 0.611" in text and f"{mrr:.3f}" == "0.611"
    assert "3 / (1/2 + 1 + 1/3) ≈ 1.636" in text and f"{harmonic:.3f}" == "1.636"
    assert "1 / 1.636 ≈ 0.611" in text and mrr == pytest.approx(1 / harmonic)
    slip = reciprocal_rank(["r"], {"r"}) - reciprocal_rank(["x", "r"], {"r"})
    late = reciprocal_rank(_first_hit_at(10), {"r"}) - reciprocal_rank(_first_hit_at(11), {"r"})
    assert "0.5" in text and slip == 0.5
    assert "0.009" in text and f"{late:.3f}" == "0.009"
    rank15 = reciprocal_rank(_first_hit_at(15), {"r"})
    assert "1/15 ≈ 0.067" in text and f"{rank15:.3f}" == "0.067"
    assert reciprocal_rank(_first_hit_at(15), {"r"}, 10) == 0.0
    definition = card["definition"][lang]
    assert "1/2 = 0.5" in definition and "1/3 ≈ 0.33" in definition


def test_mrr_relations_stated_in_the_cards_hold_on_the_shared_example():
    rankings, relevant = toy_rankings(), toy_relevant()
    for lang in LANGS:
        mrr_text = _text(_card("mrr"), lang)
        hit_text = _text(_card("hit-rate-at-k"), lang)
        for text in (mrr_text, hit_text):
            assert "MRR@K ≤ Hit Rate@K" in text
        assert "MRR@1 = Hit Rate@1 = " in mrr_text and "Hit Rate@1 = MRR@1 = " in hit_text
        assert "MRR = MAP" in mrr_text
    for k in range(1, 6):
        assert mean_reciprocal_rank(rankings, relevant, k) <= hit_rate_at_k(rankings, relevant, k)
    at_one = mean_reciprocal_rank(rankings, relevant, 1)
    assert (
        at_one == hit_rate_at_k(rankings, relevant, 1) == mean_precision_at_k(rankings, relevant, 1)
    )
    # MRR = MAP when every query has exactly one relevant document (AP = 1 / rank).
    single = [{ranking[i]} for ranking, i in zip(rankings, (1, 0, 4, 2), strict=True)]
    assert mean_reciprocal_rank(rankings, single) == mean_average_precision(rankings, single)
    assert average_precision(["x", "y", "r"], {"r"}) == reciprocal_rank(["x", "y", "r"], {"r"})


# --- Hit Rate@K ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_hit_rate_stated_numbers_and_example(outputs, lang):
    rankings, relevant = toy_rankings(), toy_relevant()
    text = _text(_card("hit-rate-at-k"), lang)
    stated = re.search(r"MRR@3 = (\d\.\d+) \w+ Hit Rate@3 = (\d\.\d+)", text)
    assert stated, "the MRR@3 / Hit Rate@3 sentence"
    assert float(stated.group(1)) == round(mean_reciprocal_rank(rankings, relevant, 3), 4)
    assert float(stated.group(2)) == hit_rate_at_k(rankings, relevant, 3)
    lines = _lines(outputs[("hit-rate-at-k", lang)])
    for line, k in zip(lines, (1, 2, 3, 5), strict=False):
        assert line.endswith(f"Hit Rate@{k} = {hit_rate_at_k(rankings, relevant, k):.2f}")
    q1, q1_relevant = rankings[0], relevant[0]
    assert "Recall = 1/3" in text and recall_at_k(q1, q1_relevant, 3) == pytest.approx(1 / 3)
    assert lines[-1].endswith(f"1.0 {round(recall_at_k(q1, q1_relevant, 3), 3)}")


# --- Recall@K --------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_recall_sheep_analogy_gives_recall_different_from_precision(lang):
    intuition = _card("recall-at-k")["intuition"][lang]
    # 10 sheep lost; 8 animals brought back: 6 sheep and 2 goats; a pen of 5.
    sheep = {f"sheep{i}" for i in range(10)}
    brought = [f"sheep{i}" for i in range(6)] + ["goat1", "goat2"]
    recall, precision = recall_at_k(brought, sheep, 8), precision_at_k(brought, sheep, 8)
    assert "6/10 = 0.6" in intuition and recall == 0.6
    assert "6/8 = 0.75" in intuition and precision == 0.75
    assert recall != precision
    best_pen = recall_at_k(sorted(sheep), sheep, 5)
    assert "5/10 = 0.5" in intuition and best_pen == 0.5


@pytest.mark.parametrize("lang", LANGS)
def test_recall_stated_numbers_and_example(outputs, lang):
    rankings, relevant = toy_rankings(), toy_relevant()
    card = _card("recall-at-k")
    text = _text(card, lang)
    macro = mean_recall_at_k(rankings, relevant, 5)
    found = sum(len(set(r[:5]) & g) for r, g in zip(rankings, relevant, strict=True))
    total = sum(len(g) for g in relevant)
    assert "(2/3 + 1 + 1 + 0) / 4 ≈ 0.6667" in text and f"{macro:.4f}" == "0.6667"
    assert "5/7 ≈ 0.7143" in text and (found, total) == (5, 7)
    assert f"{found / total:.4f}" == "0.7143"
    assert "Recall@10 = 3/4 = 0.75" in card["definition"][lang]
    four = {"a", "b", "c", "d"}
    assert recall_at_k(["a", "x", "b", "c", *_first_hit_at(7)[:-1]], four, 10) == 0.75
    # ceilings: R = 20, K = 10 -> 0.5; R = 40, K = 10 -> 0.25
    many = {f"r{i}" for i in range(40)}
    assert "40" in text and "0.25" in text
    assert recall_at_k(sorted(many)[:10], many, 10) == 0.25
    twenty = {f"r{i}" for i in range(20)}
    assert "R = 20" in text and recall_at_k(sorted(twenty)[:10], twenty, 10) == 0.5
    lines = _lines(outputs[("recall-at-k", lang)])
    assert lines[4].endswith(f"= {macro:.4f}")
    assert lines[5].endswith(f"= {found}/{total} = {found / total:.4f}")
    assert lines[6].endswith(": 0.5")


# --- Gold dataset ----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_gold_dataset_sizes_and_grade_names_agree_with_the_module(lang):
    card = _card("gold-dataset")
    gold = load_gold()
    judged = sum(len(judgments) for judgments in gold.qrels.values())
    sizes = (len(gold.queries), len(gold.documents), judged)
    assert sizes == (20, 200, 200)
    words = {"es": "20 consultas, 200 documentos, 200 juicios", "en": "20 queries, 200 documents"}
    assert words[lang] in card["definition"][lang]
    names = GRADE_NAMES[lang]
    for grade, name in names.items():
        assert f"{grade} = {name}" in card["definition"][lang]
    level = next(c for c in card["demo"]["controls"] if c["bind"] == "level")
    assert [(o["value"], o["label"][lang]) for o in level["options"]] == [
        (grade, f"{grade} ({names[grade]})") for grade in (1, 2, 3)
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_gold_example_prints_what_evaluate_computes(outputs, lang):
    from rankcards.demos.bm25 import BM25
    from rankcards.metrics import evaluate

    gold = load_gold()
    bm25 = BM25(gold.documents)
    run = {q: dict(bm25.search(text, 10)) for q, text in gold.queries.items()}
    means = evaluate(gold.qrels, run, ["RR@10", "Success@10", "R@10", "nDCG@10"]).aggregate
    lines = _lines(outputs[("gold-dataset", lang)])
    assert lines[1].split()[1:] == [f"{means[m]:.4f}" for m in means]
    strict = evaluate(gold.qrels, run, ["RR@10", "R@10"], rel_level=3).aggregate
    assert lines[3].endswith(str({m: round(v, 4) for m, v in strict.items()}))
    best = max(gold.qrels["q16"], key=gold.qrels["q16"].get)
    gold.qrels["q16"][best] = 0
    after = evaluate(gold.qrels, run, ["R@10"]).aggregate["R@10"]
    assert best in lines[4] and lines[4].endswith(f"{after:.4f}")
    assert ("reetiquetar" if lang == "es" else "relabelling") in lines[4]


# --- Index benchmarking ----------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_index_example_uses_the_visualizers_setup_and_numbers(outputs, lang):
    lines = _lines(outputs[("index-benchmarking", lang)])
    vectors = synthetic()
    assert lines[0].startswith(f"{index_benchmarking.N_LISTS} ")
    assert re.fullmatch(r"\D+\d+ ms\D+", lines[1]), lines[1]  # the build is timed, not claimed
    sweep = [line for line in lines if line.startswith("nprobe=")]
    assert len(sweep) == 6
    for line in sweep:
        nprobe = int(re.match(r"nprobe=\s*(\d+)", line).group(1))
        recall, cost = (float(x) for x in re.findall(r"=\s*([\d.]+)", line)[1:])
        assert recall == round(index_benchmarking.recall_at(nprobe), 3)
        assert cost == round(index_benchmarking._cost(nprobe), 1)
    assert lines[-1].endswith(f"{len(vectors.data):6.1f}")


@pytest.mark.parametrize("lang", LANGS)
def test_index_card_numbers(lang):
    card = _card("index-benchmarking")
    # The stadium of the intuition has as many sections as the visualizer's index has lists.
    sections = {"es": "dividido en {n} sectores", "en": "split into {n} sections"}[lang]
    assert sections.format(n=index_benchmarking.N_LISTS) in card["intuition"][lang]
    # "With nprobe = number of lists, IVF is exact but slower than brute force."
    assert index_benchmarking.recall_at(index_benchmarking.N_LISTS) == 1.0
    assert index_benchmarking._cost(index_benchmarking.N_LISTS) > len(synthetic().data)
