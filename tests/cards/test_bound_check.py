"""`rankcards check` on an example-bound demo: each broken binding rule, each failing variant and
each control that teaches nothing is reported once, at the control's file:line:column.

The fixture (fixtures/bound/gamma.yml) is a valid card whose demo binds a slider ``k``, a toggle
``strict`` and a select ``mode`` to literals of its example; each case edits it (a table of text
replacements) and names the control whose line must carry the one problem.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rankcards.cards import CardError, build_cards, load_cards

FIXTURE = Path(__file__).parent / "fixtures" / "bound" / "gamma.yml"
TEXT = FIXTURE.read_text(encoding="utf-8")


def _bind_position(text: str, name: str) -> tuple[int, int]:
    """(line, column) of ``bind: <name>`` in the card: where `check` must point."""
    for number, line in enumerate(text.splitlines(), 1):
        match = re.search(rf"\bbind: ({re.escape(name)})\b", line)
        if match:
            return number, match.start(1) + 1
    raise AssertionError(f"no control binds {name}")


def _card(tmp_path: Path, edits: list[tuple[str, str]]) -> tuple[Path, str]:
    text = TEXT
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / "gamma.yml"
    path.write_text(text, encoding="utf-8")
    return path, text


EN_K = "      k = 3  # cutoff\n"
ES_K = "      k = 3  # corte\n"
EN_PRINT = '      print("max" if mode == "max"'

# name -> (edits, control bound, field suffix, message fragment): problems found without running
STATIC = {
    "not assigned": (
        [(EN_K, "")],
        "k",
        "bind",
        "'k': it is not assigned in the English example; the example must assign it once, "
        "at the top: `k = ...`",
    ),
    "assigned twice": (
        [(EN_PRINT, "      k = 4\n" + EN_PRINT)],
        "k",
        "bind",
        "'k': it is bound 2 times (lines 1, 10) in the English example",
    ),
    "rebound by a for loop": (
        [(EN_PRINT, "      for k in range(2):\n          pass\n" + EN_PRINT)],
        "k",
        "bind",
        "'k': it is bound 2 times (lines 1, 10) in the English example",
    ),
    "not at top level": (
        [(EN_K, "      if True:\n          k = 3\n")],
        "k",
        "bind",
        "'k': it is assigned inside a block, not at the top level in the English example (line 2)",
    ),
    "not a literal": (
        [(EN_K, "      k = 1 + 2\n")],
        "k",
        "bind",
        "'k': it is not assigned a literal (a number, True/False or a string) in the English "
        "example (line 1)",
    ),
    "annotated, not a plain assignment": (
        [(EN_K, "      k: int = 3\n")],
        "k",
        "bind",
        "'k': it is not bound by a plain `NAME = value` statement in the English example (line 1)",
    ),
    "toggle bound to a number": (
        [("      strict = False  # only", "      strict = 0  # only")],
        "strict",
        "bind",
        "a toggle needs True or False, the example assigns 0 in the English example (line 2)",
    ),
    "slider out of range": (
        [(EN_K, "      k = 9\n"), (ES_K, "      k = 9\n")],
        "k",
        "bind",
        "9 is outside the slider's range [1, 4] (line 1)",
    ),
    "select value not an option": (
        [('      mode = "mean"  # how', '      mode = "median"  # how')],
        "mode",
        "bind",
        "'median' is not one of the options ('mean', 'max') in the English example (line 3)",
    ),
    "Spanish and English disagree": (
        [(ES_K, "      k = 2  # corte\n")],
        "k",
        "bind",
        "the Spanish example assigns k = 2, the English one k = 3: both languages bind the "
        "same values",
    ),
    "integer literal, fractional step": (
        [("min: 1, max: 4}", "min: 1, max: 4, step: 0.5}")],
        "k",
        "bind",
        "'k' is an integer literal: min, max and step must be integers too (or write the "
        "literal as a float, e.g. 10.0)",
    ),
    "value off the slider's steps": (
        [("min: 1, max: 4}", "min: 0, max: 4, step: 2}")],
        "k",
        "bind",
        "3 is not on the slider's steps (0, 0 + 2, ...)",
    ),
    "two controls on one name": (
        [("bind: strict,", "bind: k,")],
        "k",
        None,
        "'k' is already bound by another control",
    ),
    "a toggle with a range": (
        [("label: {es: Estricto, en: Strict}}", "label: {es: Estricto, en: Strict}, min: 0}")],
        "strict",
        "min",
        "a toggle has no min",
    ),
}


@pytest.mark.parametrize("case", sorted(STATIC))
def test_each_binding_rule_is_reported_at_the_controls_line(tmp_path: Path, case: str) -> None:
    edits, name, suffix, fragment = STATIC[case]
    path, text = _card(tmp_path, edits)
    _, problems = load_cards(tmp_path)
    assert len(problems) == 1, [str(p) for p in problems]
    [problem] = problems
    line, column = _bind_position(text, name)
    if case == "two controls on one name":  # the second control, the toggle's, is the duplicate
        line = _bind_position(TEXT, "strict")[0]
        column = text.splitlines()[line - 1].index("bind: k") + len("bind: ") + 1
    if suffix == "min":
        column = text.splitlines()[line - 1].index("min: 0") + len("min: ") + 1
    index = {"k": 0, "strict": 1, "mode": 2}[name] if case != "two controls on one name" else 1
    field = f"demo.example.controls[{index}].{suffix or 'bind'}"
    assert str(problem) == f"{path}:{line}:{column}: {field}: {fragment}"


# name -> (edits, control bound, message): problems found by running the example's variants
RUNS = {
    "the slider's max raises": (
        [(EN_PRINT, "      assert k < 4, 'k too large'\n" + EN_PRINT)],
        "k",
        "the example with k = 4 (the slider's max) in the English example raised "
        "AssertionError: k too large (example line 10)",
    ),
    "an option times out": (
        [(EN_PRINT, "      while mode == 'max':\n          pass\n" + EN_PRINT)],
        "mode",
        "the example with mode = 'max' (an option) in the English example did not finish "
        "within 3 s",
    ),
    # The teaching rule (rankcards.viz._teaches, the one every demo kind answers to)
    "a slider that changes nothing": (
        [("sorted(values, reverse=True)[:k]", "sorted(values, reverse=True)[:3]")],
        "k",
        'the slider "Cutoff" changes nothing the example shows (text, figures, tables) in the '
        "card's default state (tried 1, 4): give it a range or a state where it matters",
    ),
    "a toggle that changes nothing": (
        [("      if strict:\n          top = [value for value in top if value > 0.5]\n", "")],
        "strict",
        'switching the toggle "Strict" changes nothing the example shows (text, figures, tables) '
        "in the card's default state: give it a state where it matters, or remove it",
    ),
    "an option that changes nothing": (
        [
            (
                "          - {value: max, label: {es: máximo, en: maximum}}",
                "          - {value: max, label: {es: máximo, en: maximum}}\n"
                "          - {value: sum, label: {es: suma, en: sum}}",
            ),
        ],
        "mode",
        "option 'sum' of the select \"Aggregation\" shows the same output as the default 'mean': "
        "each option must change what the example shows",
    ),
    "an option that changes nothing in one language": (
        [
            (
                '      print("máximo" if mode == "max" else "media", max(top) if mode == "max" '
                "else sum(top) / len(top))",
                '      print("media", sum(top) / len(top))',
            ),
        ],
        "mode",
        "option 'max' of the select \"Aggregation\" shows the same output as the default 'mean': "
        "each option must change what the Spanish example shows",
    ),
}


@pytest.mark.parametrize("case", sorted(RUNS))
def test_each_failing_variant_is_reported_at_the_controls_line(tmp_path: Path, case: str) -> None:
    edits, name, fragment = RUNS[case]
    path, text = _card(tmp_path, edits)
    with pytest.raises(CardError) as caught:
        build_cards(tmp_path, timeout=3)
    messages = sorted({str(problem) for problem in caught.value.problems})
    line, column = _bind_position(text, name)
    index = {"k": 0, "strict": 1, "mode": 2}[name]
    expected = f"{path}:{line}:{column}: demo.example.controls[{index}].bind: {fragment}"
    assert expected in messages, messages
    # One problem per control: the Spanish example, which runs the same code, adds none.
    assert len(messages) == 1 or all(f"controls[{index}]" in m for m in messages), messages


def test_the_valid_card_runs_every_variant_and_passes(tmp_path: Path) -> None:
    _card(tmp_path, [])
    [rendered] = build_cards(tmp_path, timeout=10)
    demo = rendered.demos["en"]
    assert demo.compute is None
    assert demo.state == {"k": 3, "strict": False, "mode": "mean"}
    source = rendered.examples["en"].source
    for name, span in demo.bindings.items():
        assert (
            source[span["from"] : span["to"]]
            == {"k": "3", "strict": "False", "mode": '"mean"'}[name]
        )
    options = demo.controls[2]["options"]
    assert [option["literal"] for option in options] == ['"mean"', '"max"']


def _fill(text: str) -> str:
    """Write every TODO of a scaffold as a contributor would: distinct words per text (so no
    Spanish text equals its English one), real addresses, a formula without the placeholder."""
    counter = iter(range(1, 1000))
    text = text.replace("https://example.org/TODO", "https://example.org/ref")
    text = text.replace("\\mathrm{TODO}", "\\mathrm{k}")
    return re.sub(r"TODO[^\"\n]*", lambda _: f"Text number {next(counter)}.", text)


@pytest.mark.parametrize("category", ["statistics", "rank-aware"])
def test_new_scaffolds_an_example_bound_demo_that_passes_once_written(
    tmp_path: Path, category: str
) -> None:
    import argparse

    from rankcards.commands import new

    parser = argparse.ArgumentParser()
    new.add_arguments(parser)
    argv = ["my-concept", "--category", category, "--demo", "example", "--dir", str(tmp_path)]
    assert new.run(parser.parse_args(argv)) == 0
    path = tmp_path / "my-concept.yml"
    _, problems = load_cards(tmp_path)
    assert {p.message for p in problems} == {
        "unfilled placeholder: replace the TODO text with the real content"
    }
    path.write_text(_fill(path.read_text(encoding="utf-8")), encoding="utf-8")
    [rendered] = build_cards(tmp_path, timeout=30)
    assert rendered.demos["en"].state == {"k": 3}
    assert rendered.examples["en"].output.endswith("P@3 = 0.6667\n")  # 2 relevant of the top 3


def test_new_refuses_a_lab_and_an_example_demo_together(tmp_path: Path, capsys) -> None:
    import argparse

    from rankcards.commands import new

    parser = argparse.ArgumentParser()
    new.add_arguments(parser)
    argv = ["x", "--category", "rank-aware", "--measure", "AP@k", "--demo", "example"]
    assert new.run(parser.parse_args([*argv, "--dir", str(tmp_path)])) == 2
    assert "--measure and --demo are two different demos" in capsys.readouterr().err
