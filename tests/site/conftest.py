"""A throw-away rankcards project (real templates and node_modules, fixture cards), built once."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from site_project import ROOT, project_skeleton

FIXTURES = Path(__file__).parent / "fixtures"
CARD_FIXTURES = ROOT / "tests" / "cards" / "fixtures" / "ok"


def mkdocs(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``mkdocs build --strict`` in ``project``; output captured, never raises."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", *args],
        cwd=project,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def make_project(directory: Path) -> Path:
    """Lay out a project like the repository's, with the fixture cards and the XSS card."""
    project_skeleton(directory)
    for lang in ("en", "es"):
        # The real home pages tell a story through the bundled cards; the fixture project has
        # other cards, so its home pages hold just the generated card list.
        (directory / "docs" / lang / "index.md").write_text(
            f"# Home ({lang})\n\n<!-- rankcards:cards -->\n", encoding="utf-8"
        )
    for path in [*CARD_FIXTURES.glob("*.yml"), FIXTURES / "xss.yml"]:
        shutil.copy(path, directory / "docs" / "cards" / path.name)
    return directory


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of the fixture project, built once per session under ``--strict``."""
    project = make_project(tmp_path_factory.mktemp("project"))
    result = mkdocs(project)
    assert result.returncode == 0, result.stderr
    return project / "site"


@pytest.fixture(scope="session")
def project_tools() -> tuple[object, object]:
    """``(make_project, mkdocs)`` for tests that need their own project."""
    return make_project, mkdocs
