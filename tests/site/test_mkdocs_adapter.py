"""MkDocs is imported by its adapter (``rankcards.site.plugin``) and nowhere else, so that the
generator, the cards, the runtime and ``rankcards site-sources`` serve an engine without it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import rankcards

PACKAGE = Path(rankcards.__file__).parent
ADAPTER = PACKAGE / "site" / "plugin.py"
MKDOCS_PACKAGES = {"mkdocs", "material"}


def _imported_packages(path: Path) -> set[str]:
    packages = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            packages |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            packages.add(node.module.split(".")[0])
    return packages


def test_only_the_adapter_imports_mkdocs() -> None:
    importing = sorted(
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if _imported_packages(path) & MKDOCS_PACKAGES
    )
    assert importing == ["site/plugin.py"]


def test_the_scan_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    module = tmp_path / "late.py"
    module.write_text("def f():\n    from mkdocs.config import base\n", encoding="utf-8")
    assert "mkdocs" in _imported_packages(module)


def test_the_site_modules_and_site_sources_run_without_mkdocs() -> None:
    """With MkDocs and Material made unimportable, every rankcards module but the adapter
    imports, and ``rankcards site-sources --help`` runs."""
    script = (
        "import importlib, pkgutil, sys\n"
        "sys.modules.update(mkdocs=None, material=None)\n"
        "import rankcards\n"
        "for info in pkgutil.walk_packages(rankcards.__path__, 'rankcards.'):\n"
        "    if info.name not in ('rankcards.site.plugin', 'rankcards.__main__'):\n"
        "        importlib.import_module(info.name)\n"
        "from rankcards.cli import main\n"
        "try:\n"
        "    main(['site-sources', '--help'])\n"
        "except SystemExit as done:\n"
        "    sys.exit(done.code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "OUTDIR" in done.stdout
