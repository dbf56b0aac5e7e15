"""No card's example prints a failed check, now or in a card added later.

The browser tests compare an example's output in the page with its build-time output, both made
by the same runner, so a wrong example (a broken ``calculate_mrr`` printing ``equal: False``)
would pass them. test_numbers.py recomputes every number the first cards state; this test holds
every card of docs/cards, with no list to keep, to printing no ``False`` and no traceback.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from rankcards.runner import run_example

CARDS = Path(__file__).resolve().parents[2] / "docs" / "cards"


@pytest.mark.parametrize("slug", sorted(path.stem for path in CARDS.glob("*.yml")))
def test_no_example_prints_a_failed_check(slug: str) -> None:
    source = yaml.safe_load((CARDS / f"{slug}.yml").read_text(encoding="utf-8"))["code"]["source"]
    for lang, text in ({"es": source, "en": source} if isinstance(source, str) else source).items():
        output = run_example(text).output
        assert output.strip(), (slug, lang)
        assert "Traceback" not in output, (slug, lang)
        assert not re.search(r"\bFalse\b", output), f"{slug} ({lang}) prints a failed check"
