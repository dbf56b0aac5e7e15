"""Where the tests find the project's files (tests/ is on the path: its conftest.py is there)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "docs" / "cards"  # the bundled cards
