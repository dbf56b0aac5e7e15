"""A card's ``exercise`` block: validated at its lines, its solution and starter run by check."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import pytest

from rankcards.cards import CardError, build_cards, load_cards
from rankcards.commands import check

FIXTURES = Path(__file__).parent / "fixtures"
ALPHA_LINES = len((FIXTURES / "ok" / "alpha.yml").read_text().splitlines())

# Appended to the fixture card alpha (55 lines): line 56 is "exercise:".
EXERCISE = """\
exercise:
  task:
    es: "Escribe `reciprocal_rank(ranking, relevant)`: $1/r$ del primer relevante."
    en: "Write `reciprocal_rank(ranking, relevant)`: $1/r$ of the first relevant one."
  function: reciprocal_rank
  signature: "reciprocal_rank(ranking, relevant)"
  starter: |
    def reciprocal_rank(ranking, relevant):
        return 0.0
  reference: "rankcards.metrics:reciprocal_rank"
  cases:
    - name: {es: "primero relevante", en: "first is relevant"}
      args: [["d1", "d2"], ["d1"]]
    - name: {es: "ninguno", en: "none"}
      args: [["d1", "d2"], ["d7"]]
  random: {kind: binary, count: 50, seed: 3}
  hints:
    es: ["Usa `enumerate(ranking, start=1)`."]
    en: ["Use `enumerate(ranking, start=1)`."]
  solution: |
    def reciprocal_rank(ranking, relevant):
        for position, doc in enumerate(ranking, start=1):
            if doc in relevant:
                return 1 / position
        return 0.0
"""


def _line(text: str) -> int:
    """The card line of the exercise line that holds ``text``."""
    index = next(i for i, line in enumerate(EXERCISE.splitlines()) if text in line)
    return ALPHA_LINES + 1 + index


def _cards(tmp_path: Path, exercise: str = EXERCISE) -> Path:
    for path in (FIXTURES / "ok").glob("*.yml"):
        shutil.copy(path, tmp_path / path.name)
    alpha = tmp_path / "alpha.yml"
    alpha.write_text(alpha.read_text() + exercise)
    return tmp_path


def _problems(tmp_path: Path, exercise: str) -> list[str]:
    with pytest.raises(CardError) as caught:
        build_cards(_cards(tmp_path, exercise), timeout=30)
    return [str(problem) for problem in caught.value.problems]


def test_a_valid_exercise_is_rendered_with_its_task_hints_and_spec(tmp_path: Path) -> None:
    [alpha] = [card for card in build_cards(_cards(tmp_path)) if card.card.slug == "alpha"]
    assert alpha.exercise is not None
    assert alpha.exercise.signature == "reciprocal_rank(ranking, relevant)"
    assert "<math" in alpha.views["es"].exercise_task  # inline math rendered
    assert "<code>enumerate(ranking, start=1)</code>" in alpha.views["en"].exercise_hints[0]
    assert '"seed": 3' in alpha.exercise.spec_json
    assert "solution" not in alpha.exercise.spec_json and "hints" not in alpha.exercise.spec_json


def test_a_wrong_solution_is_reported_at_the_solution_with_the_failing_case(
    tmp_path: Path,
) -> None:
    wrong = EXERCISE.replace("return 1 / position", "return 1 / (position + 1)")
    path = tmp_path / "alpha.yml"
    assert _problems(tmp_path, wrong) == [
        f"{path}:{_line('solution: |')}:13: exercise.solution: the solution fails: case "
        "'first is relevant': reciprocal_rank(['d1', 'd2'], ['d1']) returned 0.5, expected 1.0"
    ]


def test_a_solution_that_raises_points_at_the_line_of_the_solution(tmp_path: Path) -> None:
    raises = EXERCISE.replace("return 1 / position", "return 1 / (position - 1)")
    [problem] = _problems(tmp_path, raises)
    line = _line("return 1 / position")
    assert problem.startswith(f"{tmp_path / 'alpha.yml'}:{line}:1: exercise.solution: ")
    assert problem.endswith("raised ZeroDivisionError: division by zero")


def test_a_starter_that_passes_teaches_nothing(tmp_path: Path) -> None:
    solution = EXERCISE.split("  solution: |\n")[1]
    passing = EXERCISE.replace(
        "    def reciprocal_rank(ranking, relevant):\n        return 0.0\n", solution, 1
    )
    assert _problems(tmp_path, passing) == [
        f"{tmp_path / 'alpha.yml'}:{_line('starter: |')}:12: exercise.starter: the starter "
        "passes every case: it must fail (else the exercise teaches nothing)"
    ]


def test_a_case_the_reference_rejects_is_reported_at_its_arguments(tmp_path: Path) -> None:
    repeated = EXERCISE.replace('args: [["d1", "d2"], ["d7"]]', 'args: [["d1", "d1"], ["d7"]]')
    assert _problems(tmp_path, repeated) == [
        f"{tmp_path / 'alpha.yml'}:{_line('d7')}:13: exercise.cases[1].args: the reference "
        "raised ValueError: document 'd1' appears twice in the ranking on "
        "reciprocal_rank(['d1', 'd1'], ['d7'])"
    ]


@pytest.mark.parametrize(
    ("old", "new", "at", "column", "field", "message"),
    [
        (
            'signature: "reciprocal_rank(ranking, relevant)"',
            'signature: "rr(ranking, relevant)"',
            "signature:",
            14,
            "exercise.signature",
            "'rr(ranking, relevant)' must start with the function's name: reciprocal_rank(...)",
        ),
        (
            '    en: ["Use `enumerate(ranking, start=1)`."]',
            '    en: ["Use `enumerate`.", "Stop at the first."]',
            "Use `enumerate`.",
            9,
            "exercise.hints.en",
            "each language lists the same hints (es has 1, en has 2)",
        ),
        (
            "random: {kind: binary,",
            "random: {kind: ordinal,",
            "random:",
            18,
            "exercise.random.kind",
            '"ordinal" is not one of: binary, graded',
        ),
        (
            'reference: "rankcards.metrics:reciprocal_rank"',
            'reference: "os:system"',
            "reference:",
            14,
            "exercise.reference",
            '"os:system" is not valid: ',
        ),
        (
            "        return 0.0\n  reference",
            "        return 0.0 +\n  reference",
            "starter: |",
            12,
            "exercise.starter",
            "invalid Python: invalid syntax (line 2)",
        ),
    ],
)
def test_static_problems_name_the_line_column_and_field(
    tmp_path: Path, old: str, new: str, at: str, column: int, field: str, message: str
) -> None:
    assert old in EXERCISE
    changed = EXERCISE.replace(old, new)
    index = next(i for i, line in enumerate(changed.splitlines()) if at in line)
    if field == "exercise.starter":
        index += 2  # a syntax error points into the block, at the failing line
        column = 1
    _, problems = load_cards(_cards(tmp_path, changed))
    [problem] = [str(problem) for problem in problems]
    assert problem.startswith(
        f"{tmp_path / 'alpha.yml'}:{ALPHA_LINES + 1 + index}:{column}: {field}: {message}"
    )


def test_check_runs_every_exercise(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wrong = EXERCISE.replace("return 1 / position", "return position")
    directory = _cards(tmp_path, wrong)
    assert check.run(argparse.Namespace(directory=directory, timeout=30.0, no_cache=True)) == 1
    # Right on both named cases (1 == 1.0, 0 == 0.0): a random ranking finds it out.
    assert capsys.readouterr().out.endswith(
        ": exercise.solution: the solution fails: random case 2: "
        "reciprocal_rank(['d4', 'd2', 'd1'], ['d2']) returned 2, expected 0.5\n"
    )


def test_the_page_spec_cannot_close_its_script_element(tmp_path: Path) -> None:
    hostile = EXERCISE.replace('en: "none"', 'en: "</script><script>alert(1)</script> & co"')
    [alpha] = [card for card in build_cards(_cards(tmp_path, hostile)) if card.card.slug == "alpha"]
    assert alpha.exercise is not None
    text = alpha.exercise.spec_json
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text)["cases"][1]["name"]["en"] == "</script><script>alert(1)</script> & co"


def test_a_starter_that_never_returns_is_stopped_by_the_time_limit(tmp_path: Path) -> None:
    loops = EXERCISE.replace(
        "        return 0.0\n  reference", "        while True:\n            pass\n  reference"
    )
    with pytest.raises(CardError) as caught:
        build_cards(_cards(tmp_path, loops), timeout=1)
    assert [str(problem) for problem in caught.value.problems] == [
        f"{tmp_path / 'alpha.yml'}:{_line('starter: |')}:12: exercise.starter: the check did not "
        "finish within 1 s"
    ]
