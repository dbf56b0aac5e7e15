"""The exercise checker (rankcards.exercises): the same code the page runs in Pyodide."""

from __future__ import annotations

import json
from typing import Any

from rankcards import exercises
from rankcards.metrics import hit_at_k, ndcg_at_k, reciprocal_rank

RR_SPEC: dict[str, Any] = {
    "function": "reciprocal_rank",
    "reference": "rankcards.metrics:reciprocal_rank",
    "cases": [
        {"name": {"es": "primero relevante", "en": "first is relevant"}, "args": [["d1"], ["d1"]]},
        {
            "name": {"es": "ninguno relevante", "en": "none relevant"},
            "args": [["d1", "d2"], ["d9"]],
        },
        {"name": {"es": "segundo", "en": "second"}, "args": [["d3", "d1", "d2"], ["d1", "d2"]]},
    ],
    "random": {"kind": "binary", "count": 200, "seed": 7},
}

RIGHT = """
def reciprocal_rank(ranking, relevant):
    for rank, doc in enumerate(ranking, start=1):
        if doc in relevant:
            return 1 / rank
    return 0.0
"""

# Off by one: ranks counted from 0, so the first rank divides by... 1 only from the second on.
OFF_BY_ONE = """
def reciprocal_rank(ranking, relevant):
    for rank, doc in enumerate(ranking):
        if doc in relevant:
            return 1 / (rank + 2)
    return 0.0
"""


def test_the_right_solution_passes_every_named_and_random_case() -> None:
    result = exercises.check(RIGHT, RR_SPEC)
    assert result == {"state": "pass", "passed": 203, "total": 203, "failure": None}


def test_an_off_by_one_fails_at_the_first_named_case_with_its_input_and_both_values() -> None:
    result = exercises.check(OFF_BY_ONE, RR_SPEC)
    assert result["state"] == "fail"
    assert result["passed"] == 0
    failure = result["failure"]
    assert failure["case"]["name"]["en"] == "first is relevant"
    assert failure["call"] == "reciprocal_rank(['d1'], ['d1'])"
    assert (failure["expected"], failure["got"]) == ("1.0", "0.5")
    assert failure["error"] is None
    assert exercises.describe(result) == (
        "case 'first is relevant': reciprocal_rank(['d1'], ['d1']) returned 0.5, expected 1.0"
    )


def test_a_wrong_value_found_only_by_random_cases_names_the_random_case() -> None:
    # Right on the named cases, wrong when a relevant document is missing from the ranking.
    ignores_missing = RIGHT.replace("return 0.0", "return 1.0 if not relevant else 0.0")
    spec = {**RR_SPEC, "cases": RR_SPEC["cases"][:1]}
    result = exercises.check(ignores_missing, spec)
    assert result["state"] == "fail"
    case = result["failure"]["case"]
    assert case["name"] is None and case["random"] >= 1
    assert result["passed"] == case["random"]  # the named case and the random ones before it
    ranking, relevant = case["args"]
    assert relevant == [] and reciprocal_rank(ranking, relevant) == 0.0
    assert exercises.describe(result).startswith(f"random case {case['random']}: ")


def test_an_exception_is_trimmed_to_the_readers_code() -> None:
    raises = "def reciprocal_rank(ranking, relevant):\n    x = 1\n    return ranking[5] / x\n"
    result = exercises.check(raises, RR_SPEC)
    assert result["state"] == "error"
    error = result["failure"]["error"]
    assert error.startswith("Traceback (most recent call last):\n")
    assert 'File "<exercise>", line 3, in reciprocal_rank' in error
    assert "return ranking[5] / x" in error  # the reader's line is quoted
    assert "exercises.py" not in error  # the checker's frames are gone
    assert error.strip().endswith("IndexError: list index out of range")
    assert result["failure"]["got"] is None


def test_code_that_does_not_run_or_lacks_the_function_is_an_error_before_any_case() -> None:
    syntax = exercises.check("def reciprocal_rank(ranking, relevant)\n    return 0\n", RR_SPEC)
    assert syntax["state"] == "error" and syntax["failure"]["case"] is None
    assert "SyntaxError" in syntax["failure"]["error"]
    assert exercises.describe(syntax).startswith("does not run: SyntaxError")
    missing = exercises.check("def rr(ranking, relevant):\n    return 0.0\n", RR_SPEC)
    assert missing["failure"]["error"] == "NameError: define a function named 'reciprocal_rank'\n"


def test_floats_match_within_the_tolerance_and_a_non_number_does_not() -> None:
    spec = {**RR_SPEC, "random": None}
    close = RIGHT.replace("return 1 / rank", "return 1 / rank + 1e-12")
    assert exercises.check(close, spec)["state"] == "pass"
    far = RIGHT.replace("return 1 / rank", "return 1 / rank + 1e-6")
    assert exercises.check(far, spec)["state"] == "fail"
    text = RIGHT.replace("return 1 / rank", "return str(1 / rank)")
    assert exercises.check(text, spec)["failure"]["got"] == "'1.0'"


def test_a_bool_is_not_a_float_answer_though_true_equals_one() -> None:
    spec = {**RR_SPEC, "random": None}
    # 1.0 on the first case, 0.0 on the second, 1/2 on the third, as bools where they can be.
    as_bools = RIGHT.replace("return 1 / rank", "return True if rank == 1 else 1 / rank")
    result = exercises.check(as_bools, spec)
    assert result["state"] == "fail"
    assert result["failure"]["case"]["name"]["en"] == "first is relevant"
    assert (result["failure"]["expected"], result["failure"]["got"]) == ("1.0", "True")
    falsy = RIGHT.replace("return 0.0", "return False")
    failure = exercises.check(falsy, spec)["failure"]
    assert (failure["case"]["name"]["en"], failure["got"]) == ("none relevant", "False")


def test_a_float_next_to_an_expected_zero_matches_within_the_absolute_tolerance() -> None:
    spec = {**RR_SPEC, "random": None}  # the second case expects 0.0: no relative margin
    tiny = RIGHT.replace("return 0.0", "return 1e-17")
    assert exercises.check(tiny, spec)["state"] == "pass"
    off = RIGHT.replace("return 0.0", "return 1e-6")
    assert exercises.check(off, spec)["failure"]["case"]["name"]["en"] == "none relevant"


def test_the_readers_prints_are_kept_with_the_failure_not_mixed_with_the_result() -> None:
    noisy = OFF_BY_ONE.replace("for rank", "print('looking at', ranking)\n    for rank")
    result = exercises.check(noisy, RR_SPEC)
    assert result["failure"]["output"] == "looking at ['d1']\n"


def test_the_reader_cannot_change_the_arguments_the_reference_sees() -> None:
    mutates = RIGHT.replace("for rank", "ranking.reverse()\n    relevant.clear()\n    for rank")
    result = exercises.check(mutates, RR_SPEC)
    assert result["state"] == "fail"
    assert result["failure"]["case"]["args"] == [["d1"], ["d1"]]  # as given, not as mutated


def test_random_cases_are_reproducible_varied_and_carry_k() -> None:
    spec = {"kind": "binary", "count": 300, "seed": 3, "k": [1, 3, 5]}
    first, again = list(exercises.random_cases(spec)), list(exercises.random_cases(spec))
    assert first == again
    assert {case["kwargs"]["k"] for case in first} == {1, 3, 5}
    assert any(case["args"][0] == [] for case in first)  # an empty ranking
    assert any(not case["args"][1] for case in first)  # no relevant document
    assert any(set(case["args"][1]) - set(case["args"][0]) for case in first)  # missed ones
    assert {hit_at_k(*case["args"], **case["kwargs"]) for case in first} == {0.0, 1.0}
    graded = list(exercises.random_cases({"kind": "graded", "count": 100, "seed": 3}))
    grades = {grade for case in graded for grade in case["args"][1].values()}
    assert grades == {0, 1, 2, 3}
    assert len({ndcg_at_k(*case["args"]) for case in graded}) > 20


def test_page_check_prints_one_json_line_after_the_marker(capsys: Any) -> None:
    exercises.page_check(OFF_BY_ONE, json.dumps(RR_SPEC))
    out = capsys.readouterr().out
    assert out.startswith(exercises.MARKER) and out.count("\n") == 1
    assert json.loads(out[len(exercises.MARKER) :]) == exercises.check(OFF_BY_ONE, RR_SPEC)


def test_a_figure_the_readers_code_displays_reaches_the_run_like_an_examples() -> None:
    from rankcards.runner import run_example

    source = RIGHT + "\nfrom rankcards.plot import line\ndisplay(line([1, 2], [0.5, 1.0]))\n"
    spec = json.dumps(RR_SPEC)
    check = f"from rankcards.exercises import page_check\npage_check({source!r}, {spec!r})\n"
    result = run_example(check)
    assert result.error is None, result.output
    assert json.loads(result.output.split(exercises.MARKER, 1)[1])["state"] == "pass"
    assert len(result.figures) == 1 and result.figures[0].startswith("<svg")
