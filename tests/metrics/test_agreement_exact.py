"""Agreement between assessors checked without the reference packages: published worked
examples, hand counts, and every error. Standard library only and free of pytest, so that
tests/pyodide runs this very module inside Pyodide (``agree_runner.py``); the comparisons with
scikit-learn, krippendorff and statsmodels are in ``test_agreement_references.py``.
"""

from __future__ import annotations

import math

from rankcards.metrics import (
    MeasureError,
    agreement,
    cohen_kappa,
    confusion_matrix,
    fleiss_kappa,
    judged_pairs,
    krippendorff_alpha,
)


def _raises(error: type[Exception], call, *args, **kwargs) -> str:  # type: ignore[no-untyped-def]
    try:
        call(*args, **kwargs)
    except error as caught:
        return str(caught)
    raise AssertionError(f"{call.__name__} did not raise {error.__name__}")


def test_cohen_kappa_by_hand() -> None:
    # 50 items: both yes 20, A yes B no 5, A no B yes 10, both no 15. p_o = 35/50 = 0.7;
    # A says yes to 25, B to 30: p_e = 0.5 * 0.6 + 0.5 * 0.4 = 0.5; κ = 0.2 / 0.5 = 0.4
    a = [1] * 25 + [0] * 25
    b = [1] * 20 + [0] * 5 + [1] * 10 + [0] * 15
    assert abs(cohen_kappa(a, b) - 0.4) <= 1e-12
    assert confusion_matrix(a, b) == [[15, 10], [5, 20]]  # rows: A's 0, 1


def test_weighted_kappa_by_hand() -> None:
    # A: 0 0 2 2, B: 0 2 2 0. Rows and columns total 2 each for 0 and 2: e = 1 per cell.
    # Unweighted: 1 - 2 / 2 = 0. Linear (positions 0, 1: grade 1 unused): same, 0.
    # With labels [0, 1, 2] the misses are two steps apart, and so is every expected one.
    a, b = [0, 0, 2, 2], [0, 2, 2, 0]
    assert cohen_kappa(a, b) == 0.0
    assert cohen_kappa(a, b, "linear") == 0.0
    assert cohen_kappa(a, b, "quadratic", labels=[0, 1, 2]) == 0.0
    # one step off on every item of a graded scale: linear and quadratic weigh it lightly
    human, judge = [0, 1, 2, 3, 0, 1, 2, 3], [0, 1, 2, 3, 1, 2, 3, 2]
    unweighted = cohen_kappa(human, judge)
    linear = cohen_kappa(human, judge, "linear")
    quadratic = cohen_kappa(human, judge, "quadratic")
    assert unweighted < linear < quadratic < 1.0


def test_kappa_is_nan_where_no_disagreement_is_expected() -> None:
    assert math.isnan(cohen_kappa([1, 1, 1], [1, 1, 1]))
    assert math.isnan(cohen_kappa([2], [2], "quadratic"))
    assert cohen_kappa([0, 3], [3, 0]) == -1.0


def test_fleiss_kappa_of_fourteen_raters() -> None:
    # 10 items, 14 raters, 5 categories; statsmodels 0.15.0's fleiss_kappa gives 0.2099307
    table = [
        [0, 0, 0, 0, 14],
        [0, 2, 6, 4, 2],
        [0, 0, 3, 5, 6],
        [0, 3, 9, 2, 0],
        [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0],
        [3, 2, 6, 3, 0],
        [2, 5, 3, 2, 2],
        [6, 5, 2, 1, 0],
        [0, 2, 2, 3, 7],
    ]
    ratings = [[category for category, n in enumerate(row) for _ in range(n)] for row in table]
    assert round(fleiss_kappa(ratings), 7) == 0.2099307
    assert math.isnan(fleiss_kappa([["a", "a"], ["a", "a"]]))


def test_krippendorff_alpha_of_krippendorffs_example() -> None:
    # Krippendorff (2011), "Computing Krippendorff's alpha-reliability", the example with four
    # coders, twelve units and missing values; nominal 0.743, ordinal 0.815, ratio 0.797 as the
    # krippendorff package's doctest quotes it, interval 0.849 as the package computes it
    n = None
    data = [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, n, n, n],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, n, 3],
        [n, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, n],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, n],
    ]
    expected = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849, "ratio": 0.797}
    for level, value in expected.items():
        assert round(krippendorff_alpha(data, level), 3) == value, level  # type: ignore[arg-type]


def test_alpha_ignores_units_one_coder_labelled() -> None:
    both = [[0, 1, 2, 2, 3], [0, 1, 1, 2, 3]]
    padded = [[*both[0], 3, None, 1], [*both[1], None, 2, None]]
    for level in ("nominal", "ordinal", "interval"):
        alone = krippendorff_alpha(both, level)  # type: ignore[arg-type]
        assert krippendorff_alpha(padded, level) == alone, level  # type: ignore[arg-type]


def test_negative_labels_are_not_judgments() -> None:
    a = {"q1": {"d1": 1, "d2": -1, "d3": 0}, "q2": {"d1": 2}}
    b = {"q1": {"d1": 1, "d2": 2, "d3": -2, "d4": 0}}
    paired = judged_pairs(a, b)
    assert paired.pairs == (("q1", "d1"),)
    assert (paired.a, paired.b) == ((1,), (1,))
    assert (paired.only_a, paired.only_b) == (2, 2)  # A: q1 d3, q2 d1; B: q1 d2, q1 d4


def test_agreement_keys_and_undefined_values() -> None:
    result = agreement({"q": {"a": 1, "b": 1}}, {"q": {"a": 1, "b": 1, "c": 0}})
    assert list(result) == [
        "documents",
        "only_a",
        "only_b",
        "grades",
        "confusion",
        "cohen_kappa",
        "cohen_kappa_linear",
        "cohen_kappa_quadratic",
        "krippendorff_alpha",
        "systems",
    ]
    assert (result["documents"], result["only_a"], result["only_b"]) == (2, 0, 1)
    assert result["grades"] == [1] and result["confusion"] == [[2]]
    assert result["cohen_kappa"] is None and result["systems"] is None
    assert result["krippendorff_alpha"] == {"nominal": None, "ordinal": None, "interval": None}


def test_systems_order_runs_by_their_means_under_each_qrels() -> None:
    a = {"q": {"x": 1, "y": 0, "z": 0}}
    b = {"q": {"x": 0, "y": 1, "z": 0}}  # B moves the relevant document from x to y
    runs = {
        "first-x": {"q": {"x": 3.0, "y": 2.0, "z": 1.0}},
        "first-y": {"q": {"y": 3.0, "x": 2.0, "z": 1.0}},
        "first-z": {"q": {"z": 3.0, "x": 2.0, "y": 1.0}},
    }
    systems = agreement(a, b, runs, "RR")["systems"]
    assert isinstance(systems, dict)
    assert systems["measure"] == "RR"
    assert systems["scores"] == {
        "first-x": [1.0, 0.5],
        "first-y": [0.5, 1.0],
        "first-z": [0.5, 1 / 3],
    }
    # A: x > y = z; B: y > x > z. Pairs: (x, y) discordant, (x, z) concordant, (y, z) tied
    # in A: τ_b = 0 / sqrt(2 * 3) = 0
    assert systems["kendall_tau"] == 0.0
    # B's ranks: y (top, skipped), x: above it y, which A puts below: 0/1; z: above it y, x;
    # A puts x above z, ties y and z: 1/2. τ_AP = (2/2) * (0 + 1/2) - 1 = -0.5
    assert systems["tau_ap"] == -0.5


def test_bad_input_is_a_one_line_value_error() -> None:
    a, b = {"q": {"d": 1}}, {"q": {"e": 1}}
    assert "no (query, document) pair is judged in both A and B" in _raises(
        ValueError, agreement, a, b
    )
    run = {"q": {"d": 1.0}}
    assert "at least two runs, got 1" in _raises(ValueError, agreement, a, a, {"r": run})
    two = {"r": run, "s": run}
    assert "num_rel is a counter" in _raises(ValueError, agreement, a, a, two, "num_rel")
    _raises(MeasureError, agreement, a, a, two, "nDGC@10")
    elsewhere = {"r": run, "s": {"other": {"d": 1.0}}}
    assert _raises(ValueError, agreement, a, a, elsewhere).startswith("s: no query appears")
    assert "3 and 2 labels" in _raises(ValueError, cohen_kappa, [0, 1, 1], [0, 1])
    assert "label 2 is not among labels [0, 1]" in _raises(
        ValueError, confusion_matrix, [0, 2], [1, 0], [0, 1]
    )
    assert "weights must be" in _raises(ValueError, cohen_kappa, [0], [0], "cubic")
    assert "level must be one of" in _raises(ValueError, krippendorff_alpha, [[1], [1]], "rank")
    assert "same number of ratings" in _raises(ValueError, fleiss_kappa, [[1, 1], [1]])
    assert "at least two raters" in _raises(ValueError, fleiss_kappa, [[1], [1]])
