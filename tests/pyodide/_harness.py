"""What the tests of this folder share: the package archive the site ships, a Node script that
boots Pyodide on it and runs a runner module of this folder, and the comparison of the JSON it
prints with what CPython computes.

Without Node (the ``node`` fixture) or the npm ``pyodide`` package a test skips locally and
fails under CI (``ci_gate``). The runners themselves run inside Pyodide and share
``_inside.py``, which stays free of pytest.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import math
import subprocess
from pathlib import Path
from typing import Any

from ci_gate import skip_or_fail

_HERE = Path(__file__).parent


def shipped_archive(repo_root: Path, tmp_path: Path) -> Path:
    """The rankcards package archive the site ships, written into ``tmp_path``; skips (fails
    under CI) without ``node_modules/pyodide``."""
    if not (repo_root / "node_modules/pyodide/pyodide.mjs").is_file():
        skip_or_fail("needs node_modules/pyodide (run `npm ci`)")
    from rankcards.web._build import package_archive

    name, data = package_archive(repo_root / "node_modules", repo_root / ".cache/rankcards-web")
    archive = tmp_path / name
    archive.write_bytes(data)
    return archive


def run_script(node: str, script: str, arguments: list[str], timeout: int) -> dict[str, Any]:
    """Run ``script`` (a Node script of this folder) and return the JSON summary it prints last,
    after checking that it exited 0 and ran the archive's package in Emscripten."""
    command = [node, str(_HERE / script), *arguments]
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    summary: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["platform"] == "emscripten"
    assert summary["module"].startswith("/home/pyodide/rankcards/")  # from the archive
    return summary


def run_runner(repo_root: Path, tmp_path: Path, node: str, runner: str) -> dict[str, Any]:
    """The summary of ``runner``'s ``main`` (a module of this folder) run inside Pyodide on the
    shipped archive by ``run_compare.mjs``."""
    archive = shipped_archive(repo_root, tmp_path)
    arguments = [str(archive), str(repo_root / "tests"), runner]
    return run_script(node, "run_compare.mjs", arguments, timeout=600)


def load_runner(name: str) -> Any:
    """The runner module ``name`` of this folder, imported in CPython (for its ``cases`` and
    ``compute``)."""
    spec = importlib.util.spec_from_file_location(name, _HERE / f"{name}.py")
    if spec is None or spec.loader is None:
        raise ImportError(f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def defined_tests(path: Path) -> list[str]:
    """The names of the top-level ``test_*`` functions of the module at ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    ]


def same(inside: object, outside: object, where: str = "") -> None:
    """Equal JSON, floats to 1e-12 (sums round differently across Python versions: 3.12+
    compensates ``sum`` of floats, and libm differs between glibc and Emscripten)."""
    if isinstance(outside, float) and isinstance(inside, (int, float)):
        assert math.isclose(inside, outside, rel_tol=1e-12, abs_tol=1e-12), where
    elif isinstance(outside, dict):
        assert isinstance(inside, dict) and list(inside) == list(outside), where
        for key in outside:
            same(inside[key], outside[key], f"{where}/{key}")
    elif isinstance(outside, (list, tuple)):
        assert isinstance(inside, list) and len(inside) == len(outside), where
        for index, (a, b) in enumerate(zip(inside, outside, strict=True)):
            same(a, b, f"{where}[{index}]")
    else:
        assert inside == outside, where
