"""What `rankcards check` holds the Spanish page to on its own: a formula without English words
however they are written, and an example that runs, each reported at the Spanish source."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rankcards.cards import CardError, build_cards, load_cards
from rankcards.cards._formula import english_words

OK = Path(__file__).parent / "fixtures" / "ok"


def _fixture_cards(tmp_path: Path) -> Path:
    for path in OK.glob("*.yml"):
        shutil.copy(path, tmp_path / path.name)
    return tmp_path


def _edit(path: Path, old: str, new: str) -> int:
    """Replace ``old`` (once) in the card at ``path``; the 1-based line it was on."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1


def test_english_words_are_found_whatever_their_case() -> None:
    tex = r"\begin{cases} 1 & \text{If } x \\ 0 & \text{OTHERWISE} \\ 2 & \text{si } y"
    assert [word for _, word in english_words(tex)] == ["If", "OTHERWISE"]


def test_a_capitalised_english_word_in_the_spanish_formula_is_reported_at_it(
    tmp_path: Path,
) -> None:
    card = _fixture_cards(tmp_path) / "alpha.yml"
    spanish = r"\text{ si hay un relevante}"
    line = _edit(card, spanish, r"\text{ If there is a relevant one}")
    column = card.read_text(encoding="utf-8").splitlines()[line - 1].index("If") + 1
    _, problems = load_cards(tmp_path)
    assert [(p.path.name, p.line, p.column, p.field) for p in problems] == [
        ("alpha.yml", line, column, "formula.latex.es")
    ]
    assert problems[0].message.startswith("English words 'If', 'is' in the Spanish formula")


def test_a_spanish_example_that_alone_raises_is_reported_at_the_spanish_source(
    tmp_path: Path,
) -> None:
    card = _fixture_cards(tmp_path) / "beta.yml"
    line = _edit(
        card,
        '      print("last", TOY[-1].id)\n    en:',
        '      print("last", TOY[-1].id)\n      print(1 / 0)\n    en:',
    )
    with pytest.raises(CardError) as caught:
        build_cards(tmp_path, timeout=30)
    [problem] = caught.value.problems
    assert (problem.path.name, problem.field) == ("beta.yml", "code.source.es")
    assert problem.message == "code example raised ZeroDivisionError: division by zero"
    assert problem.line == line + 1  # the raising line of the Spanish source
