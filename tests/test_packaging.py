"""`pip install rankcards` installs no dependencies; the site tooling is the `site` extra.

The wheel is built from this tree (offline, ``--no-isolation``) and installed with ``--no-deps``
into a fresh virtual environment that has none of the extra's packages: there `rankcards eval`
works, and a card command prints one line naming the extra and exits 2.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from ci_gate import require_module
from repo_paths import ROOT

SITE_PACKAGES = {"pyyaml", "jinja2", "markdown", "mkdocs", "mkdocs-material", "jsonschema"}
QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\n"
RUN = "q1 Q0 d2 1 2.0 t\nq1 Q0 d1 2 1.0 t\nq2 Q0 d3 1 5.0 t\n"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_module("build", "pip install build, in .[dev]")
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(
        ROOT / "src",
        source / "src",
        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"),
    )
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out)],
        cwd=source,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    [built] = out.glob("rankcards-*.whl")
    return built


@pytest.fixture(scope="module")
def bare_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with only the wheel installed (``--no-deps``, no index)."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python)]
    subprocess.run([*pip, "install", "-q", "--no-index", "--no-deps", str(wheel)], check=True)
    return venv


def _metadata(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        [name] = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        message = Parser().parsestr(archive.read(name).decode("utf-8"))
    return message.get_all("Requires-Dist") or []


def _dist_name(requirement: str) -> str:
    name = requirement.split(";")[0]
    for stop in "<>=![ (":
        name = name.split(stop)[0]
    return name.strip().lower()


def test_the_wheel_requires_nothing_unconditionally(wheel: Path) -> None:
    requires = _metadata(wheel)
    assert [r for r in requires if "extra ==" not in r] == []
    site = {_dist_name(r) for r in requires if 'extra == "site"' in r}
    assert site == SITE_PACKAGES
    assert any(r.startswith("rankcards[site]") and 'extra == "dev"' in r for r in requires)


def test_eval_runs_with_no_dependencies_installed(bare_venv: Path, tmp_path: Path) -> None:
    python = bare_venv / "bin" / "python"
    for module in ("yaml", "jinja2", "markdown", "jsonschema", "mkdocs"):
        probe = subprocess.run([python, "-c", f"import {module}"], capture_output=True)
        assert probe.returncode != 0, f"{module} importable: the venv does not prove anything"
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    done = subprocess.run(
        [bare_venv / "bin" / "rankcards", "eval", "qrels", "run", "-m", "RR", "-q"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert [line.split() for line in done.stdout.splitlines()] == [
        ["RR", "q1", "0.5000"],
        ["RR", "q2", "1.0000"],
        ["RR", "all", "0.7500"],
    ]
    library = subprocess.run(
        [
            python,
            "-c",
            "from rankcards.metrics import reciprocal_rank as rr; print(rr(['b','a'], {'a'}))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert library.stdout == "0.5\n"


@pytest.mark.parametrize(
    "argv", [["check", "docs/cards"], ["new", "x", "--category", "rank-aware"], ["schema"]]
)
def test_card_commands_name_the_site_extra_in_one_line(bare_venv: Path, argv: list[str]) -> None:
    done = subprocess.run(
        [bare_venv / "bin" / "rankcards", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        f"rankcards {argv[0]}: needs the site extra: pip install 'rankcards[site]'\n"
    )
