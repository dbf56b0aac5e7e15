"""Where the tests find the project's files (tests/ is on the path: its conftest.py is there)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "docs" / "cards"  # the bundled cards
WEB = ROOT / "src" / "rankcards" / "web"  # the page's JavaScript modules
DATA = ROOT / "tests" / "data"  # test data shared by several test folders
