"""Each kind of card error is reported once, at its exact file, line, column and field."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import pytest

from rankcards.cards import CardError, build_cards, card_schema, load_cards
from rankcards.commands import check, new, schema
from repo_paths import ROOT

FIXTURES = Path(__file__).parent / "fixtures"


def _dir_with(tmp_path: Path, *bad: str) -> Path:
    for path in (FIXTURES / "ok").glob("*.yml"):
        shutil.copy(path, tmp_path / path.name)
    for name in bad:
        shutil.copy(FIXTURES / "bad" / f"{name}.yml", tmp_path / f"{name}.yml")
    return tmp_path


# fixture -> (line, column, field, message fragment)
CASES = {
    "yaml-syntax": (
        26,
        8,
        "(yaml)",
        "flow sequence (started at line 25): did not find expected ',' or ']'",
    ),
    "unknown-field": (7, 1, "colour", "unknown field 'colour' (expected one of: category,"),
    "missing-field": (2, 1, "(card)", "missing field 'intuition'"),
    "wrong-type": (39, 10, "related", 'expected a list, got string "beta"'),
    "missing-language": (11, 3, "summary", "missing language 'en'"),
    "bad-category": (6, 11, "category", '"rankings" is not one of: ground-truth,'),
    "duplicate-key": (25, 3, "intuition.es", "duplicate key"),
    "slug-mismatch": (2, 7, "slug", "'another-name' must equal the file name 'slug-mismatch'"),
    "unknown-related": (39, 17, "related[1]", "no card with slug 'gamma'"),
    # KaTeX's message, at the column where it stopped (here: the end of the formula).
    "bad-latex": (
        27,
        32,
        "formula.latex",
        "invalid LaTeX: Unexpected end of input in a macro argument, expected '}' (at the end",
    ),
    "bad-inline-latex": (30, 23, "formula.where.en", "invalid LaTeX: Unexpected end of input"),
    # The column of the first English word inside the single-quoted scalar.
    "english-formula": (
        28,
        81,
        "formula.latex.es",
        "English word 'otherwise' in the Spanish formula",
    ),
    "english-shared-formula": (
        27,
        42,
        "formula.latex",
        "English words 'for', 'each' in the Spanish formula: give formula.latex as {es, en}",
    ),
    # The line of the card file that raised, at its first character.
    "code-raises": (
        35,
        5,
        "code.source",
        "code example raised ZeroDivisionError: division by zero",
    ),
    "example-quiet": (34, 11, "code.source", "code example prints 1 line: it shows what it"),
    "example-false": (
        34,
        11,
        "code.source",
        "code example prints a failed check (output line 2: 'sum is 7: False')",
    ),
    # Stated numbers and their claims (rankcards.cards._numbers)
    "claim-wrong": (
        59,
        13,
        "claims[0].value",
        "0.857 is not what its expression gives: 0.75 (0.750 rounded as written)",
    ),
    "claim-stale": (
        60,
        13,
        "claims[1].value",
        "0.1250 is stated nowhere in the card's text: a claim backs a number the card writes",
    ),
    "claim-raises": (59, 28, "claims[0].expr", "raised IndexError: list index out of range"),
    "one-language-number": (
        17,
        53,
        "definition.en",
        "0.5 is stated in English but nowhere in the Spanish text: both languages state the same",
    ),
    "code-timeout": (32, 11, "code.source", "did not finish within 1 s"),
    "bad-demo": (40, 12, "demo.compute", "cannot import 'rankcards.viz.nope'"),
    "todo-left": (25, 7, "intuition.en", "unfilled placeholder"),
    "no-schema-line": (1, 1, "(card)", "the first line must be `# yaml-language-server:"),
    "unsafe-url": (47, 10, "references[0].url", "not valid: an http:// or https:// address"),
    "related-self": (39, 17, "related[1]", "a card cannot be related to itself"),
    # Every control teaches (rankcards.viz._teaches): one that moves nothing in the default state
    "silent-slider": (
        60,
        7,
        "demo.controls[1]",
        'the slider "Seed" changes no number the view shows in the card\'s default state '
        "(tried 1, 2, 3, 4, 5)",
    ),
    "silent-select": (
        59,
        7,
        "demo.controls[0]",
        "option 'dots' of the select \"Style\" shows the same numbers as the default 'bars'",
    ),
    "silent-lab-k": (
        59,
        8,
        "demo.lab.k",
        "the K slider leaves the mean at 0.25 for every value from 1 to 5 in the card's default "
        "state: choose demo.lab.queries where the cutoff changes the mean",
    ),
    "silent-convention": (
        60,
        30,
        "demo.lab.conventions[1]",
        '"cutoff" shows the same mean on both sides (0.425 and 0.425)',
    ),
    "silent-param": (
        61,
        12,
        "demo.lab.params.rel",
        "the rel slider leaves the mean at 0.5 for every value from 1 to 3",
    ),
}

# The completeness rules (rankcards.cards._rules): fixture -> (line, column, field, exact message)
RULE_CASES = {
    "blank-text": (12, 7, "summary.en", "is blank: write it"),
    "same-text": (16, 7, "definition.en", "is the same as the Spanish text: write it in English"),
    "few-key-points": (
        21,
        7,
        "key_points.en",
        "needs at least 3 items in each language (es has 2, en has 2)",
    ),
    "uneven-gotchas": (
        41,
        7,
        "gotchas.es",
        "each language lists the same items (es has 3, en has 4)",
    ),
    "few-references": (46, 3, "references", "needs at least 4 references (has 3)"),
    "http-reference": (
        49,
        10,
        "references[1].url",
        "'http://example.org/alpha/2' must be an https:// address",
    ),
    "no-toy-example": (
        32,
        11,
        "code.source",
        "a rank-aware card starts its example from the shared toy ranking: "
        "`from rankcards.demos.toy import ...` (rankcards.demos.toy)",
    ),
    "toy-demo-state": (
        61,
        14,
        "demo.state.queries",
        "a rank-aware card's demo starts from the shared toy ranking: "
        "rankcards.demos.toy.toy_state() (the reader edits it from there)",
    ),
    "no-demo": (
        2,
        1,
        "(card)",
        "missing field 'demo': every card has one (a measure card names its measure in "
        "`demo: {lab: {measure: ...}}`; CONTRIBUTING.md, step 5)",
    ),
    "no-tags": (
        2,
        1,
        "(card)",
        "missing field 'tags': needs at least one tag in each language: the other names a reader "
        "searches the card by (its abbreviation, the tools' names for it): the site's search "
        "reads them here",
    ),
    "no-draw-pointer": (
        25,
        7,
        "intuition.en",
        "the last paragraph starts with 💡 and sends the reader to the drawing tool by its button, "
        '"Draw / Notes" or **Draw / Notes**: e.g. 💡 Press "Draw / Notes" in the top bar to mark '
        "on the demo …",
    ),
    # At the second sentence's first letter.
    "two-sentences": (
        12,
        23,
        "summary.en",
        "is one sentence (a reader could put it on a slide): move the rest on",
    ),
    "spanish-calque": (
        19,
        33,
        "key_points.es[1]",
        "'vs' is a calque in Spanish: write «frente a» or «contra»",
    ),
    "decimal-comma": (
        43,
        40,
        "gotchas.es[1]",
        "'0,5': write decimals with a point in both languages, as the code prints them "
        "(0.5, not 0,5)",
    ),
    "says-decimal-point": (
        15,
        53,
        "definition.es",
        "every Spanish page already says once that decimals are written with a point: the card "
        "does not repeat it",
    ),
}


def test_the_fixture_set_is_valid(tmp_path: Path) -> None:
    rendered = build_cards(_dir_with(tmp_path), timeout=5)
    alpha = next(card for card in rendered if card.card.slug == "alpha")
    assert alpha.examples["en"].output == "[1, 2, 3]\nsum 6\n2.0\n"
    assert alpha.examples["en"].error is None
    assert 'class="katex-display"' in alpha.views["en"].formula
    # A formula given per language: each page shows its own words.
    assert "si hay un relevante" in alpha.views["es"].formula
    assert "if there is" not in alpha.views["es"].formula
    assert "if there is a relevant one" in alpha.views["en"].formula
    assert "<math" in alpha.views["es"].summary  # inline math rendered as MathML + HTML
    beta = next(card for card in rendered if card.card.slug == "beta")
    assert beta.examples["es"].source.startswith("# hola")
    assert beta.examples["es"].output == "beta 4\nfirst q1\nlast q4\n"


@pytest.mark.parametrize("name", sorted(RULE_CASES))
def test_each_completeness_rule_is_reported_with_its_exact_message(
    tmp_path: Path, name: str
) -> None:
    _, problems = load_cards(_dir_with(tmp_path, name))
    line, column, field, message = RULE_CASES[name]
    assert [str(problem) for problem in problems] == [
        f"{tmp_path / name}.yml:{line}:{column}: {field}: {message}"
    ]


def test_rules_report_each_broken_rule_of_one_card(tmp_path: Path) -> None:
    """One card breaking every rule at once gets one line per rule, not just the first."""
    text = (FIXTURES / "bad" / "no-toy-example.yml").read_text()
    text = text.replace("slug: no-toy-example", "slug: everything")
    text = text.replace("  en: The alpha card, with $x^2$ inline.", "  en: La tarjeta alfa.")
    text = text.replace("  es: La tarjeta alfa, con $x^2$ en línea.", "  es: La tarjeta alfa.")
    text = text.replace("url: https://example.org/alpha/3", "url: http://example.org/alpha/3")
    (_dir_with(tmp_path) / "everything.yml").write_text(text)
    _, problems = load_cards(tmp_path)
    assert [(p.field, p.message.split(" ")[0]) for p in sorted(problems)] == [
        ("summary.en", "is"),
        ("code.source", "a"),
        ("references[2].url", "'http://example.org/alpha/3'"),
    ]


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_error_kind_is_reported_at_its_line(tmp_path: Path, name: str) -> None:
    directory = _dir_with(tmp_path, name)
    # Every fixture's example and demo run: only the looping one is held to a short limit (on a
    # loaded machine a second was too short for the bad demo's card, and that was reported).
    with pytest.raises(CardError) as caught:
        build_cards(directory, timeout=1 if name == "code-timeout" else 30)
    line, column, field, fragment = CASES[name]
    [problem] = caught.value.problems
    assert (problem.path.name, problem.line, problem.column, problem.field) == (
        f"{name}.yml",
        line,
        column,
        field,
    )
    assert fragment in problem.message
    assert str(problem).endswith(f"{name}.yml:{line}:{column}: {field}: {problem.message}")


def test_a_stated_number_nothing_computes_is_reported_in_each_language(tmp_path: Path) -> None:
    """alpha's 0.857 without its claim: the example prints 2.0 and the demo shows the toy's
    reciprocal ranks, neither of which is 0.857."""
    with pytest.raises(CardError) as caught:
        build_cards(_dir_with(tmp_path, "unbacked-number"), timeout=30)
    assert [str(problem) for problem in caught.value.problems] == [
        f"{tmp_path}/unbacked-number.yml:{line}:46: definition.{lang}: 0.857 is not printed by "
        "the example, shown by the demo or backed by a claim"
        for line, lang in ((15, "es"), (17, "en"))
    ]


def test_a_changed_digit_is_reported_where_it_is_written(tmp_path: Path) -> None:
    directory = _dir_with(tmp_path)
    card = (directory / "alpha.yml").read_text(encoding="utf-8")
    (directory / "alpha.yml").write_text(card.replace("sum over 7, 0.857", "sum over 7, 0.875"))
    with pytest.raises(CardError) as caught:
        build_cards(directory, timeout=30)
    # The typo, and the number the other language states that this one lost.
    assert [str(problem) for problem in caught.value.problems] == [
        f"{directory}/alpha.yml:15:46: definition.es: 0.857 is stated in Spanish but nowhere in "
        "the English text: both languages state the same numbers",
        f"{directory}/alpha.yml:17:46: definition.en: 0.875 is not printed by the example, "
        "shown by the demo or backed by a claim",
    ]


def test_printed_and_shown_numbers_back_what_the_card_states(tmp_path: Path) -> None:
    """No claim needed for a number the example prints (with as many decimals or more) or the
    demo shows (its exact data-value); the sign and a unicode minus do not matter."""
    directory = _dir_with(tmp_path)
    card = (directory / "alpha.yml").read_text(encoding="utf-8")
    card = card.replace("print(values)\n", "print(values, f'{-sum(values) / 7:.4f}')\n")
    card = card.replace("su suma entre 7, 0.857.", "su suma entre 7, 0.857; RR medio \u22120.4583.")
    card = card.replace("its sum over 7, 0.857.", "its sum over 7, 0.857; mean RR \u22120.4583.")
    card = card.replace('  - {value: "0.857", expr: "sum(values) / 7"}\n', "")
    (directory / "alpha.yml").write_text(card.replace("claims:\n", ""))
    [alpha] = [c for c in build_cards(directory, timeout=30) if c.card.slug == "alpha"]
    assert alpha.examples["en"].output.startswith("[1, 2, 3] -0.8571\n")
    assert 'data-value="0.4583333333333333"' in alpha.demos["en"].view_html  # (0.5+1+1/3)/4
    printed_shorter = card.replace("{-sum(values) / 7:.4f}", "{-sum(values) / 7:.2f}")
    (directory / "alpha.yml").write_text(printed_shorter.replace("claims:\n", ""))
    with pytest.raises(CardError) as caught:
        build_cards(directory, timeout=30)
    assert [p.message.split(" is ")[0] for p in caught.value.problems] == ["0.857", "0.857"]
    # A changed digit is told what the example gives.
    typo = card.replace("sum over 7, 0.857", "sum over 7, 0.858").replace(
        "entre 7, 0.857", "entre 7, 0.858"
    )
    (directory / "alpha.yml").write_text(typo.replace("claims:\n", ""))
    with pytest.raises(CardError) as caught:
        build_cards(directory, timeout=30)
    assert [p.message for p in caught.value.problems] == [
        "0.858 is not printed by the example, shown by the demo or backed by a claim (the "
        "example or the demo gives 0.857)"
    ] * 2


def test_an_example_error_points_at_its_line_in_a_per_language_source(tmp_path: Path) -> None:
    directory = _dir_with(tmp_path)
    beta = (directory / "beta.yml").read_text(encoding="utf-8")
    broken = beta.replace(
        '      print("first", TOY[0].id)\n', '      print("first", TOY[9].id)\n', 1
    )
    (directory / "beta.yml").write_text(broken)
    with pytest.raises(CardError) as caught:
        build_cards(directory, timeout=30)
    line = broken.splitlines().index('      print("first", TOY[9].id)') + 1
    assert [str(problem) for problem in caught.value.problems] == [
        f"{directory}/beta.yml:{line}:7: code.source.es: code example raised IndexError: tuple "
        "index out of range"
    ]


def test_an_example_with_claims_keeps_its_own_time_limit(tmp_path: Path) -> None:
    """Claims run after the example in the same process, with a longer limit (one may import a
    reference tool): the example alone is still held to ``timeout``."""
    directory = _dir_with(tmp_path)
    alpha = (directory / "alpha.yml").read_text(encoding="utf-8")
    slow = alpha.replace("print(values)\n", "print(values); import time; time.sleep(2)\n")
    (directory / "alpha.yml").write_text(slow)
    with pytest.raises(CardError) as caught:
        build_cards(directory, timeout=1)
    assert [str(problem) for problem in caught.value.problems] == [
        f"{directory}/alpha.yml:34:11: code.source: code example did not finish within 1 s"
    ]


def test_both_languages_of_an_example_print_the_same_results(tmp_path: Path) -> None:
    directory = _dir_with(tmp_path)
    beta = (directory / "beta.yml").read_text(encoding="utf-8")
    spanish = beta.replace('print("beta", len(TOY))', 'print("beta", len(TOY) / 2)', 1)
    (directory / "beta.yml").write_text(spanish)
    with pytest.raises(CardError) as caught:
        build_cards(directory, timeout=30)
    line = spanish.splitlines().index("    es: |") + 1
    assert [str(problem) for problem in caught.value.problems] == [
        f"{directory}/beta.yml:{line}:9: code.source.es: prints other numbers than the English "
        "example (output line 1: 'beta 2.0' against 'beta 4'): both show the same results"
    ]


def test_a_latex_error_is_reported_at_its_column_inside_a_text(tmp_path: Path) -> None:
    directory = _dir_with(tmp_path)
    alpha = (directory / "alpha.yml").read_text(encoding="utf-8")
    alpha = alpha.replace(
        '    en: "$\\\\mathrm{rank}$ is the position."',
        '    en: "$a + \\\\foo{b}$ is the position."',
    )
    (directory / "alpha.yml").write_text(alpha)
    with pytest.raises(CardError) as caught:
        build_cards(directory, timeout=30)
    assert [str(problem) for problem in caught.value.problems] == [
        f"{directory}/alpha.yml:32:15: formula.where.en: invalid LaTeX: Undefined control "
        "sequence: \\foo"
    ]


def test_a_yaml_error_is_reported_once_and_first(tmp_path: Path) -> None:
    """A card that cannot be read explains the rest: it comes first, and the cards that link to
    it are not told that it does not exist."""
    directory = _dir_with(tmp_path, "yaml-syntax", "wrong-type")
    beta = (directory / "beta.yml").read_text(encoding="utf-8")
    (directory / "beta.yml").write_text(beta.replace("related: [alpha]", "related: [yaml-syntax]"))
    with pytest.raises(CardError) as caught:
        build_cards(directory, timeout=30)
    assert [(p.path.name, p.field) for p in caught.value.problems] == [
        ("yaml-syntax.yml", "(yaml)"),
        ("wrong-type.yml", "related"),
    ]


def test_duplicate_slug_names_the_first_file(tmp_path: Path) -> None:
    directory = _dir_with(tmp_path)
    text = (directory / "beta.yml").read_text().replace("related: [alpha]", "related: []")
    (directory / "zeta.yml").write_text(text)
    _, problems = load_cards(directory)
    messages = [str(problem) for problem in problems]
    assert any(
        m.endswith(
            f"zeta.yml:2:7: slug: duplicate slug 'beta', already used by {directory}/beta.yml"
        )
        for m in messages
    ), messages


def test_all_problems_are_reported_together(tmp_path: Path) -> None:
    directory = _dir_with(tmp_path, "wrong-type", "bad-latex", "todo-left")
    with pytest.raises(CardError) as caught:
        build_cards(directory, timeout=5)
    assert [p.path.name for p in caught.value.problems] == [
        "bad-latex.yml",
        "todo-left.yml",
        "wrong-type.yml",
    ]


def _run(module: object, *argv: str) -> int:
    parser = argparse.ArgumentParser()
    module.add_arguments(parser)  # type: ignore[attr-defined]
    return int(module.run(parser.parse_args(argv)))  # type: ignore[attr-defined]


def test_check_command_prints_problems_and_exits_1(tmp_path: Path, capsys) -> None:
    directory = _dir_with(tmp_path, "missing-language")
    assert _run(check, str(directory), "--no-cache") == 1
    out, err = capsys.readouterr()
    assert out.strip().endswith(
        "missing-language.yml:11:3: summary: "
        "missing language 'en' (every text needs both es and en)"
    )
    assert "1 problem in 1 file (of 3)" in err
    assert "Traceback" not in out + err


def test_check_command_ok_and_missing_directory(tmp_path: Path, capsys) -> None:
    assert _run(check, str(_dir_with(tmp_path)), "--no-cache") == 0
    assert "2 cards OK" in capsys.readouterr().err
    assert _run(check, str(tmp_path / "nope")) == 2
    assert "nope: not a directory" in capsys.readouterr().err


def test_new_scaffold_fails_check_until_written(tmp_path: Path, capsys) -> None:
    assert _run(new, "average-precision", "--category", "rank-aware", "--dir", str(tmp_path)) == 0
    path = tmp_path / "average-precision.yml"
    cards, problems = load_cards(tmp_path)
    assert cards, "the scaffold itself is schema-valid: only its placeholders fail"
    assert {p.message for p in problems} == {
        "unfilled placeholder: replace the TODO text with the real content"
    }
    assert {p.field for p in problems} >= {"title.en", "code.source", "references[0].url"}
    # Built, it has no other problem either: the scaffold writes what `check` wants (tags, a
    # demo to fill in, the intuition's pointer to the drawing tool).
    with pytest.raises(CardError) as caught:
        build_cards(tmp_path, timeout=30)
    assert {p.message for p in caught.value.problems} == {
        "unfilled placeholder: replace the TODO text with the real content"
    }
    assert {"tags.es[0]", "demo.compute", "intuition.en"} <= {
        p.field for p in caught.value.problems
    }
    assert _run(new, "average-precision", "--category", "rank-aware", "--dir", str(tmp_path)) == 2
    assert "already exists" in capsys.readouterr().err
    assert _run(new, "Bad_Slug", "--category", "rank-aware", "--dir", str(tmp_path)) == 2
    assert path.read_text().startswith("# yaml-language-server: $schema=")


def test_schema_command_prints_the_published_schema(capsys) -> None:
    assert _run(schema) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == card_schema()
    site_copy = ROOT / "docs" / "schema" / "card.schema.json"
    assert json.loads(site_copy.read_text()) == printed
