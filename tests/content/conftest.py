"""The bundled cards, rendered once per worker for the content tests.

``build_cards`` runs every card's example and demo: about 15 s of CPU on two cores, which each
module paid again. The answers are read from (and written to) the project's own disk cache, the
one ``rankcards check`` and the site build use (``.cache/rankcards-check``, keyed on each job and
a fingerprint of every file of the rankcards package, so a changed card or module runs again).
"""

from __future__ import annotations

import pytest

from rankcards.cards import RenderedCard, build_cards, cache_dir_for, find_katex
from repo_paths import CARDS


@pytest.fixture(scope="session")
def bundled_cards() -> list[RenderedCard]:
    """Every card of docs/cards as the site build renders it."""
    return build_cards(CARDS, cache_dir=cache_dir_for(find_katex(CARDS)))
