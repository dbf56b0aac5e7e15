"""A throw-away copy of this repository's MkDocs project, shared by the site tests and
``bench/site_build.py`` (which adds this folder to ``sys.path``)."""

from __future__ import annotations

import json
import shutil
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def project_skeleton(directory: Path) -> Path:
    """Lay out the repository's project in ``directory`` with an empty ``docs/cards``.

    Templates and ``node_modules`` are the real ones (symlinked), the docs a copy. The build
    skips the browser runtime (``web_assets: false``): tests/browser covers it, and it costs the
    same whatever the cards.
    """
    for name in ("templates", "node_modules", "CONTRIBUTING.md"):
        (directory / name).symlink_to(ROOT / name)
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = config.replace(
        "      templates_dir: templates\n",
        "      templates_dir: templates\n      web_assets: false\n",
    )
    (directory / "mkdocs.yml").write_text(config, encoding="utf-8")
    shutil.copytree(ROOT / "docs", directory / "docs", ignore=shutil.ignore_patterns("cards"))
    (directory / "docs" / "cards").mkdir()
    return directory


def fetch_text(url: str, timeout: float) -> str:
    """The page at ``url`` as text, or ``""`` while the server cannot answer it."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return str(response.read().decode("utf-8"))
    except OSError:
        return ""


def search_index(site: Path) -> dict[str, Any]:
    """Material's search index of a built site, with the documents the build keeps in the file
    the search gate fetches (``config.rankcards_docs``, ``rankcards.web.defer_search_docs``)."""
    index: dict[str, Any] = json.loads((site / "search" / "search_index.json").read_text("utf-8"))
    name = index["config"].get("rankcards_docs")
    if name is not None:
        assert index["docs"] == [], "the index Material's page fetches holds no documents"
        index["docs"] = json.loads((site / "search" / name).read_text(encoding="utf-8"))
    return index
