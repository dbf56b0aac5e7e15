"""The README is a newcomer's page: short, the two commands first, the categories and the
glossary named (never the cards one by one: the glossary is generated), links alive.

The full benchmark account lives in bench/README.md; the README keeps the headline figures.
"""

from __future__ import annotations

import re

from repo_paths import CARDS, ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
LIMIT = 15_000


def test_readme_is_at_most_15000_characters() -> None:
    assert len(README) <= LIMIT, f"README.md has {len(README)} characters (limit {LIMIT})"


def test_readme_starts_with_a_quick_start_of_exactly_the_two_commands() -> None:
    headings = re.findall(r"^## (.+)$", README, re.M)
    assert headings[0] == "Quick start", headings
    quick_start = README.split("## Quick start", 1)[1]
    block = re.match(r"\s*```sh\n(.*?)```", quick_start, re.S)
    assert block, "the quick start opens with a sh code block"
    assert block.group(1).splitlines() == ["make serve", "make test"]


def test_the_cards_section_names_the_categories_and_links_the_glossary() -> None:
    from rankcards.site._i18n import CATEGORY_ORDER, CATEGORY_TITLES

    cards_section = README.split("### Cards", 1)[1].split("\n#", 1)[0]
    words = " ".join(cards_section.split()).lower()  # Markdown wraps a name across lines
    for category in CATEGORY_ORDER:
        assert CATEGORY_TITLES["en"][category].lower() in words, category
    for lang in ("en", "es"):
        assert f"](https://rankcards.github.io/rankcards/{lang}/glossary/)" in cards_section
    # No card is listed: a new card touches nothing but its own file.
    assert not re.search(r"docs/cards/[a-z0-9-]+\.yml", README)
    assert not re.search(r"TODO|TBD|\.\.\.|…", cards_section), "placeholder in the cards section"


def test_every_local_link_exists() -> None:
    links = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", README)
    assert links
    for target in links:
        assert (ROOT / target).exists(), target


def test_the_benchmark_account_is_linked_and_keeps_its_figures() -> None:
    bench = (ROOT / "bench" / "README.md").read_text(encoding="utf-8")
    assert "](bench/README.md)" in README
    # A few figures of the account, one per benchmark, so that a trim cannot lose them unseen.
    for figure in ("0.72", "1.79 s", "1224-1262 ms", "17.0-19.3 ms", "96 ms", "0.9375"):
        assert figure in bench, figure


_NUMBER_WORDS = "zero one two three four five six seven eight nine ten eleven twelve".split()  # noqa: SIM905


def _count(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBER_WORDS.index(word.lower())


def test_the_counts_the_readme_states_are_the_glossarys() -> None:
    """A card with an exercise (or a new category) changes what the README counts: the words must
    follow, or a newcomer reads a wrong number."""
    from rankcards.cards import load_cards
    from rankcards.site._i18n import CATEGORY_ORDER

    cards, problems = load_cards(CARDS)
    assert not problems, problems
    with_exercise = sum(1 for card in cards if "exercise" in card.data)
    exercises = re.search(r"on (\w+) measure cards?, a \*\*Practice\*\* exercise", README)
    assert exercises, "the README says how many cards have a Practice exercise"
    assert _count(exercises.group(1)) == with_exercise, (exercises.group(0), with_exercise)
    categories = re.search(r"^(\w+) categories, in reading order", README, re.M)
    assert categories, "the README says how many categories there are"
    assert _count(categories.group(1)) == len(CATEGORY_ORDER), categories.group(0)
