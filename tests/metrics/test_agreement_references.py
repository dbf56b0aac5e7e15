"""The agreement functions against their reference implementations (dev dependencies; the
metrics module never imports them): scikit-learn's ``cohen_kappa_score`` and
``confusion_matrix``, the ``krippendorff`` package's ``alpha`` and statsmodels'
``fleiss_kappa``. Missing, they skip locally and fail under CI (``ci_gate``).

Inputs are random pairs of qrels shaped like human and LLM judgments of one pool: grades 0-3
skewed towards 0, ties everywhere, pairs judged on one side only, negative labels (not
judgments), and degenerate cases (one pair, one grade on both sides). The reference side
pairs the labels itself from the dicts, so ``judged_pairs`` is checked too.
"""

from __future__ import annotations

import math
import random
import warnings

import pytest

from ci_gate import require_module
from rankcards.metrics import (
    agreement,
    cohen_kappa,
    confusion_matrix,
    evaluate,
    fleiss_kappa,
    kendall_tau,
    krippendorff_alpha,
    tau_ap,
)

_TOLERANCE = 1e-9
_GRADES = [0, 0, 0, 0, 1, 1, 2, 3]

Qrels = dict[str, dict[str, int]]


def _qrels_pair(generator: random.Random) -> tuple[Qrels, Qrels]:
    """Two judgments of overlapping pools; B agrees with A often, is off by one sometimes."""
    a: Qrels = {}
    b: Qrels = {}
    for query in range(generator.randint(1, 6)):
        qid = f"q{query}"
        docs = [f"d{i}" for i in range(generator.randint(1, 25))]
        for doc in docs:
            label = generator.choice(_GRADES)
            roll = generator.random()
            if roll < 0.85:
                a.setdefault(qid, {})[doc] = label
            if generator.random() < 0.85:
                agree = generator.random() < generator.choice([0.3, 0.6, 0.9])
                other = label if agree else min(3, max(0, label + generator.choice([-1, 1, 2])))
                b.setdefault(qid, {})[doc] = other
            if generator.random() < 0.05:
                a.setdefault(qid, {})[doc] = -1  # in the pool, not judged
    return a, b


def _pairs(a: Qrels, b: Qrels) -> tuple[list[int], list[int], int, int]:
    """Written from the definition: pairs with a label >= 0 on both sides."""
    judged_a = {(q, d): v for q, docs in a.items() for d, v in docs.items() if v >= 0}
    judged_b = {(q, d): v for q, docs in b.items() for d, v in docs.items() if v >= 0}
    both = sorted(judged_a.keys() & judged_b.keys())
    return (
        [judged_a[key] for key in both],
        [judged_b[key] for key in both],
        len(judged_a) - len(both),
        len(judged_b) - len(both),
    )


def _cases() -> list[tuple[Qrels, Qrels]]:
    generator = random.Random(2017)
    cases = [_qrels_pair(generator) for _ in range(120)]
    cases.append(({"q": {"d": 2}}, {"q": {"d": 2}}))  # one pair: κ undefined
    cases.append(({"q": {"d": 1, "e": 1}}, {"q": {"d": 1, "e": 1, "f": 0}}))  # one grade
    cases.append(({"q": {"d": 0, "e": 3}}, {"q": {"d": 3, "e": 0}}))  # full disagreement
    cases.append(({"q": {"d": 0, "e": 3, "f": 1}}, {"q": {"d": 0, "e": 3, "f": 3}}))  # no 2
    return [(a, b) for a, b in cases if _pairs(a, b)[0]]


CASES = _cases()


def _same(ours: float | None, theirs: float) -> None:
    if math.isnan(theirs):
        assert ours is None or math.isnan(ours)
    else:
        assert ours is not None and abs(ours - theirs) <= _TOLERANCE, (ours, theirs)


def test_agreement_equals_sklearn_cohen_kappa_and_confusion_matrix() -> None:
    metrics = require_module("sklearn.metrics", "pip install -e '.[dev]'")
    undefined = 0
    for a, b in CASES:
        labels_a, labels_b, only_a, only_b = _pairs(a, b)
        result = agreement(a, b)
        assert (result["documents"], result["only_a"], result["only_b"]) == (
            len(labels_a),
            only_a,
            only_b,
        )
        assert result["grades"] == sorted(set(labels_a) | set(labels_b))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # sklearn warns of one label, and of κ undefined
            assert result["confusion"] == metrics.confusion_matrix(labels_a, labels_b).tolist()
            for key, weights in (
                ("cohen_kappa", None),
                ("cohen_kappa_linear", "linear"),
                ("cohen_kappa_quadratic", "quadratic"),
            ):
                theirs = float(metrics.cohen_kappa_score(labels_a, labels_b, weights=weights))
                _same(result[key], theirs)  # type: ignore[arg-type]
                undefined += math.isnan(theirs)
    assert undefined >= 3  # the undefined cases are among those compared


def test_weights_follow_the_labels_given_as_sklearn_does() -> None:
    # a grade neither side used is no step unless the scale is given in full
    metrics = require_module("sklearn.metrics", "pip install -e '.[dev]'")
    generator = random.Random(5)
    for _ in range(60):
        size = generator.randint(2, 40)
        a = [generator.choice([0, 1, 3]) for _ in range(size)]
        b = [generator.choice([0, 1, 3]) for _ in range(size)]
        for labels in (None, [0, 1, 2, 3], [3, 1, 0]):
            for weights in (None, "linear", "quadratic"):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    theirs = float(metrics.cohen_kappa_score(a, b, weights=weights, labels=labels))
                _same(cohen_kappa(a, b, weights, labels), theirs)  # type: ignore[arg-type]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                expected = metrics.confusion_matrix(a, b, labels=labels).tolist()
            assert confusion_matrix(a, b, labels) == expected


def test_agreement_equals_the_krippendorff_package() -> None:
    krippendorff = require_module("krippendorff", "pip install -e '.[dev]'")
    undefined = 0
    for a, b in CASES:
        labels_a, labels_b, _, _ = _pairs(a, b)
        result = agreement(a, b)
        alphas = result["krippendorff_alpha"]
        assert isinstance(alphas, dict) and list(alphas) == ["nominal", "ordinal", "interval"]
        for level, ours in alphas.items():
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # 0/0 where no disagreement is expected
                    theirs = float(
                        krippendorff.alpha([labels_a, labels_b], level_of_measurement=level)
                    )
            except ValueError:  # the package refuses data with a single distinct value
                theirs = math.nan
            _same(ours, theirs)
            undefined += math.isnan(theirs)
    assert undefined >= 3  # the single-grade cases are among those compared


def _coders(generator: random.Random) -> list[list[float | None]]:
    """2-6 coders, 1-30 units, values 0-4 (some units unanimous), some values missing."""
    coders, units = generator.randint(2, 6), generator.randint(1, 30)
    truth = [generator.randint(0, 4) for _ in range(units)]
    data: list[list[float | None]] = []
    for _ in range(coders):
        row: list[float | None] = []
        for value in truth:
            if generator.random() < 0.2:
                row.append(None)
            elif generator.random() < 0.6:
                row.append(value)
            else:
                row.append(generator.randint(0, 4))
        data.append(row)
    return data


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_krippendorff_alpha_with_many_coders_and_missing_values(level: str) -> None:
    krippendorff = require_module("krippendorff", "pip install -e '.[dev]'")
    np = require_module("numpy", "a dependency of krippendorff")
    generator = random.Random(43)
    compared = 0
    for _ in range(300):
        data = _coders(generator)
        array = np.array([[np.nan if v is None else v for v in row] for row in data], dtype=float)
        if not any(sum(v is not None for v in unit) >= 2 for unit in zip(*data, strict=True)):
            with pytest.raises(ValueError, match="no unit has values from two coders"):
                krippendorff_alpha(data, level)  # type: ignore[arg-type]
            with pytest.raises(ValueError):  # the package refuses it too
                krippendorff.alpha(array, level_of_measurement=level)
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # 0/0 where no disagreement is expected
                theirs = float(krippendorff.alpha(array, level_of_measurement=level))
        except ValueError:  # the package refuses data with a single distinct value
            assert math.isnan(krippendorff_alpha(data, level))  # type: ignore[arg-type]
            continue
        _same(krippendorff_alpha(data, level), theirs)  # type: ignore[arg-type]
        nan_missing = [[math.nan if v is None else v for v in row] for row in data]
        _same(krippendorff_alpha(nan_missing, level), theirs)  # type: ignore[arg-type]
        compared += 1
    assert compared > 250


def test_fleiss_kappa_equals_statsmodels() -> None:
    inter_rater = require_module("statsmodels.stats.inter_rater", "pip install -e '.[dev]'")
    generator = random.Random(1971)
    compared = 0
    for _ in range(300):
        raters, items = generator.randint(2, 7), generator.randint(1, 40)
        categories = generator.choice([[0, 1], [0, 1, 2, 3], ["rel", "non"], [1, 2, 5]])
        ratings = []
        for _ in range(items):
            usual = generator.choice(categories)
            ratings.append(
                [
                    usual if generator.random() < 0.7 else generator.choice(categories)
                    for _ in range(raters)
                ]
            )
        table, _ = inter_rater.aggregate_raters(ratings)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = float(inter_rater.fleiss_kappa(table, method="fleiss"))
        _same(fleiss_kappa(ratings), theirs)
        compared += not math.isnan(theirs)
    assert compared > 250


def test_systems_are_evaluate_means_ordered_by_scipy_kendall_tau() -> None:
    stats = require_module("scipy.stats", "pip install -e '.[dev]'")
    generator = random.Random(11)
    compared = 0
    for a, b in CASES[:60]:
        pool = {qid: {*a.get(qid, {}), *b.get(qid, {})} for qid in {*a, *b}}
        runs = {
            f"run{n}": {
                qid: {doc: generator.choice([0.0, 0.5, 1.0, generator.random()]) for doc in docs}
                for qid, docs in pool.items()
            }
            for n in range(generator.randint(2, 6))
        }
        systems = agreement(a, b, runs, "AP")["systems"]
        compared += 1
        assert isinstance(systems, dict) and systems["measure"] == "AP"
        under_a = [evaluate(a, run, ["AP"]).aggregate["AP"] for run in runs.values()]
        under_b = [evaluate(b, run, ["AP"]).aggregate["AP"] for run in runs.values()]
        assert systems["scores"] == {
            name: [x, y] for name, x, y in zip(runs, under_a, under_b, strict=True)
        }
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = float(stats.kendalltau(under_a, under_b).statistic)
        if math.isnan(theirs):
            assert systems["kendall_tau"] is None
        else:
            assert abs(systems["kendall_tau"] - theirs) <= 1e-12
        expected = tau_ap(under_a, under_b)
        assert systems["tau_ap"] == (None if math.isnan(expected) else expected)
        assert kendall_tau(under_a, under_b) == pytest.approx(theirs, nan_ok=True)
    assert compared == 60
