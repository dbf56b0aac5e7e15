"""Home pages: the hand-written introduction plus the card list generated from the cards."""

import re
from pathlib import Path


def test_home_pages_list_every_card_by_category(built_site: Path) -> None:
    for lang in ("en", "es"):
        home = (built_site / lang / "index.html").read_text(encoding="utf-8")
        listed = set(re.findall(r'<a href="([^"]+)" data-rc-home-card>', home))
        cards = {
            f"{path.parent.name}/"
            for path in (built_site / lang).glob("*/index.html")
            if 'class="rc-card' in path.read_text(encoding="utf-8")
        }
        assert cards and listed == cards
        assert "<!-- rankcards:cards -->" not in home
