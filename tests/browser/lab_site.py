"""A site with the runtime whose cards are the measure-lab fixture cards (tests/viz/fixtures/lab),
built for ``tests/browser/test_lab.py`` and ``bench/browser_controls.py --lab`` until the real
metric cards exist.

Free of pytest. The project is the repository's (templates, ``node_modules`` and the runtime
build cache symlinked, so the Pyodide files are not compiled again), with the fixture cards only.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAB_CARDS = ROOT / "tests" / "viz" / "fixtures" / "lab"


def build_lab_site(directory: Path) -> tuple[Path | None, str]:
    """Build the lab project in ``directory``: ``(site dir, "")`` or ``(None, mkdocs' error)``."""
    for name in ("templates", "node_modules", "CONTRIBUTING.md", "mkdocs.yml", ".cache"):
        if (ROOT / name).exists():
            (directory / name).symlink_to(ROOT / name)
    shutil.copytree(ROOT / "docs", directory / "docs", ignore=shutil.ignore_patterns("cards"))
    (directory / "docs" / "cards").mkdir()
    for lang in ("en", "es"):  # the real home pages tell a story through the bundled cards
        (directory / "docs" / lang / "index.md").write_text(
            f"# Home ({lang})\n\n<!-- rankcards:cards -->\n", encoding="utf-8"
        )
    for card in LAB_CARDS.glob("*.yml"):
        shutil.copy(card, directory / "docs" / "cards" / card.name)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    site = directory / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--quiet", "--site-dir", str(site)],
        cwd=directory,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    return (site, "") if done.returncode == 0 else (None, done.stderr[-3000:])
