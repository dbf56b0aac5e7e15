"""The README is a newcomer's page: short, the two commands first, every card listed, links alive.

The full benchmark account lives in bench/README.md; the README keeps the headline figures.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
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


def test_every_card_is_in_the_cards_table_and_every_link_exists() -> None:
    cards_section = README.split("### Cards", 1)[1].split("\n#", 1)[0]
    linked = re.findall(r"\]\(docs/cards/([a-z0-9-]+)\.yml\)", cards_section)
    on_disk = sorted(path.stem for path in (ROOT / "docs" / "cards").glob("*.yml"))
    assert sorted(linked) == on_disk
    assert not re.search(r"TODO|TBD|\.\.\.|…", cards_section), "placeholder in the cards table"
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", README):
        assert (ROOT / target).exists(), target


def test_the_benchmark_account_is_linked_and_keeps_its_figures() -> None:
    bench = (ROOT / "bench" / "README.md").read_text(encoding="utf-8")
    assert "](bench/README.md)" in README
    # A few figures of the account, one per benchmark, so that a trim cannot lose them unseen.
    for figure in ("0.72", "1.79 s", "1224-1262 ms", "17.0-19.3 ms", "96 ms", "0.9375"):
        assert figure in bench, figure
