"""What the inter-annotator-agreement, llm-as-a-judge and synthetic-test-sets cards say about
other tools and about their simulated worlds, checked against those tools and worlds.

The numbers the cards state with three decimals are backed by their examples (``rankcards
check``); these tests hold the rest: the two-decimal figures quoted from scikit-learn,
statsmodels and the ``krippendorff`` package, and the behaviour of the simulations that the
prose describes for control settings other than the card's own.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import yaml

from ci_gate import require_module
from rankcards.demos.bm25 import BM25
from rankcards.demos.judges import collection, simulated_judge
from rankcards.demos.synthetic import SemanticRanker, synthetic_set
from rankcards.metrics import agreement, cohen_kappa, evaluate, fleiss_kappa
from repo_paths import CARDS

sklearn_metrics = require_module("sklearn.metrics", "pip install scikit-learn")
inter_rater = require_module("statsmodels.stats.inter_rater", "pip install statsmodels")
krippendorff = require_module("krippendorff", "pip install krippendorff")

LANGS = ("es", "en")


def _gotchas(slug: str) -> dict[str, str]:
    card = yaml.safe_load((CARDS / f"{slug}.yml").read_text(encoding="utf-8"))
    return {lang: " ".join(card["gotchas"][lang]) for lang in LANGS}


def test_sklearn_weighs_kappa_by_position_in_the_labels_used():
    # The gotcha's case: nobody used grade 1, so without `labels` 0 and 2 are one step apart.
    a, b = [0, 2, 2, 3, 0, 3], [0, 3, 2, 2, 2, 3]
    without = sklearn_metrics.cohen_kappa_score(a, b, weights="linear")
    full = sklearn_metrics.cohen_kappa_score(a, b, weights="linear", labels=[0, 1, 2, 3])
    assert (round(without, 2), round(full, 2)) == (0.40, 0.45)
    assert cohen_kappa(a, b, "linear") == pytest.approx(without, abs=1e-12)
    assert cohen_kappa(a, b, "linear", [0, 1, 2, 3]) == pytest.approx(full, abs=1e-12)
    for text in _gotchas("inter-annotator-agreement").values():
        assert "0.40" in text and "0.45" in text and "labels=[0, 1, 2, 3]" in text


def test_fleiss_kappa_with_two_raters_pools_the_marginals():
    # A 20-document case with different marginals: A says relevant to 10, B to 14.
    a = [0] * 10 + [1] * 10
    b = [0] * 6 + [1] * 14
    table, _ = inter_rater.aggregate_raters(np.array(list(zip(a, b, strict=True))))
    pooled = inter_rater.fleiss_kappa(table, method="fleiss")
    cohen = sklearn_metrics.cohen_kappa_score(a, b)
    assert (round(pooled, 2), round(cohen, 2)) == (0.58, 0.60)
    assert fleiss_kappa(list(zip(a, b, strict=True))) == pytest.approx(pooled, abs=1e-12)
    # Scott's pi: chance from both assessors' shares pooled.
    shares = [(a.count(label) + b.count(label)) / 40 for label in (0, 1)]
    observed = sum(x == y for x, y in zip(a, b, strict=True)) / 20
    chance = sum(share**2 for share in shares)
    assert pooled == pytest.approx((observed - chance) / (1 - chance), abs=1e-12)
    for text in _gotchas("inter-annotator-agreement").values():
        assert "0.58" in text and "0.60" in text


def test_the_shapes_and_defaults_the_agreement_gotcha_names():
    level = inspect.signature(krippendorff.alpha).parameters["level_of_measurement"]
    assert level.default == "interval"
    # statsmodels reads its argument as counts per category (documents x categories): raw labels
    # (documents x raters) fail its assert, or give another number when every row's sum agrees.
    ratings = np.array([[0, 1, 2], [1, 1, 1], [2, 1, 0], [0, 3, 0]])  # labels 0-3, 3 raters
    table, _ = inter_rater.aggregate_raters(ratings)
    counted = inter_rater.fleiss_kappa(table, method="fleiss")
    assert fleiss_kappa(ratings.tolist()) == pytest.approx(counted, abs=1e-12)
    assert abs(inter_rater.fleiss_kappa(ratings, method="fleiss") - counted) > 0.04
    with pytest.raises(AssertionError):
        inter_rater.fleiss_kappa(np.array([[0, 0, 1], [2, 1, 2]]), method="fleiss")


def _judge_systems(**faults: float) -> tuple[float, dict]:
    human, runs = collection()
    favoured = {
        query: sorted(scores, key=scores.get, reverse=True)[:10]
        for query, scores in runs["S4"].items()
    }
    settings = {"noise": 0.2, "leniency": 0.1, "unparsed": 0.05, "self_preference": 0.3}
    settings.update(faults)
    judge = simulated_judge(
        human,
        settings["noise"],
        settings["leniency"],
        settings["unparsed"],
        favoured,
        settings["self_preference"],
    )
    result = agreement(human, judge, runs, measure="nDCG@10")
    return result["cohen_kappa"], result["systems"]


def test_noise_lowers_kappa_long_before_it_touches_the_order():
    kappas, taus = [], []
    for noise in (0.0, 0.1, 0.2, 0.3, 0.4):
        kappa, systems = _judge_systems(noise=noise)
        kappas.append(kappa)
        taus.append(systems["kendall_tau"])
    assert kappas == sorted(kappas, reverse=True) and kappas[0] - kappas[-1] > 0.3
    assert min(taus) >= 0.9


def test_self_preference_lifts_s4_to_first_and_tau_ap_punishes_it_more():
    _, systems = _judge_systems(self_preference=1.0)
    scores = systems["scores"]
    assert max(scores, key=lambda s: scores[s][1]) == "S4"
    assert max(scores, key=lambda s: scores[s][0]) == "S1"
    assert systems["tau_ap"] < systems["kendall_tau"] - 0.2


def test_unparsed_answers_only_remove_relevance_and_swap_neighbours_when_they_abound():
    human, _ = collection()
    judged = simulated_judge(human, unparsed=0.3)
    assert all(judged[q][d] in (0, g) for q, grades in human.items() for d, g in grades.items())
    _, systems = _judge_systems(unparsed=0.3)
    assert systems["kendall_tau"] < 1.0


def test_paraphrased_generated_queries_flip_the_order():
    def mrr(overlap: float) -> dict[str, float]:
        data = synthetic_set(overlap)
        qrels = data.qrels(1.0)
        rankers = {"bm25": BM25(data.passages), "semantic": SemanticRanker(data.passages)}
        return {
            name: evaluate(
                qrels,
                {q: dict(ranker.search(text, 10)) for q, text in data.queries.items()},
                ["RR@10"],
            ).aggregate["RR@10"]
            for name, ranker in rankers.items()
        }

    copied, paraphrased = mrr(0.8), mrr(0.0)
    assert copied["bm25"] > copied["semantic"]
    assert paraphrased["bm25"] < paraphrased["semantic"]
