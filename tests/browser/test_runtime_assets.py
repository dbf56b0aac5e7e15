"""What ``rankcards.web.write_assets`` puts in a site, checked without a browser.

Needs ``node_modules`` (``npm ci``) and ``node``; the standard-library zip is compiled once per
Pyodide version into ``.cache/rankcards-web`` and reused.
"""

from __future__ import annotations

import gzip
import json
import re
import zipfile
from pathlib import Path

import pytest

import rankcards
from rankcards import web
from rankcards.web import WebAssetsError, page_assets, write_assets
from repo_paths import ROOT

PYODIDE_VERSION = json.loads((ROOT / "node_modules/pyodide/package.json").read_text())["version"]

pytestmark = pytest.mark.xdist_group("browser")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("assets")
    write_assets(site, {"config_file_path": str(ROOT / "mkdocs.yml"), "extra": {}})
    return site


def _config(site: Path) -> dict[str, object]:
    text = (site / "assets/rankcards/config.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"export default (\{.*\});", text, re.S).group(1))


def test_config_names_versioned_files_that_exist(site):
    config = _config(site)
    assert config["version"] == rankcards.__version__
    assert config["pyodideVersion"] == PYODIDE_VERSION
    base = site / "assets/rankcards"
    for key in ("pyodide", "stdlib", "package", "snapshot"):
        assert (base / str(config[key])).exists(), key
    assert PYODIDE_VERSION in str(config["pyodide"]) and PYODIDE_VERSION in str(config["stdlib"])
    expected_name = rf"rankcards-{re.escape(rankcards.__version__)}-[0-9a-f]{{10}}\.zip"
    assert re.fullmatch(expected_name, str(config["package"]))
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json"):
        assert (base / str(config["pyodide"]) / name).is_file(), name
    sizes = sum(p.stat().st_size for p in (base / str(config["pyodide"])).iterdir())
    shipped = [base / str(config["package"]), base / str(config["snapshot"])]
    assert config["bytes"] == sizes + sum(path.stat().st_size for path in shipped)


def test_the_shipped_snapshot_is_a_booted_heap_in_the_stored_layout(site):
    snapshot = site / "assets/rankcards" / str(_config(site)["snapshot"])
    shipped = snapshot.read_bytes()
    data = gzip.decompress(shipped)  # gzipped at build: hosts rarely compress octet-streams
    assert len(shipped) < 0.5 * len(data)
    assert data[:4] == b"RCS1"  # snapshot.js's layout: magic, heap length, bitmap, pages
    heap = int.from_bytes(data[4:8], "little")
    pages = -(-heap // 4096)
    bitmap = data[8 : 8 + -(-pages // 8)]
    kept = sum(bin(byte).count("1") for byte in bitmap)
    assert len(data) == 8 + len(bitmap) + kept * 4096
    assert heap > 16_000_000  # the heap of a booted interpreter (and a few bytes of state)
    assert kept * 4096 < 0.6 * heap  # zero pages (and the zeroed free memory) are left out
    assert str(ROOT).encode() not in data  # nothing of the build machine's paths is shipped
    name = rf"snapshot-{re.escape(PYODIDE_VERSION)}-[0-9a-f]{{10}}\.bin"
    assert re.fullmatch(name, snapshot.name)
    # Named by what it is made from: the same inputs give the cached file, not another build.
    cache = ROOT / ".cache" / "rankcards-web"
    stdlib = web._build.stdlib_pyc(ROOT / "node_modules", cache)
    archive = (site / "assets/rankcards" / str(_config(site)["package"])).read_bytes()
    same, again = web._build.memory_snapshot(ROOT / "node_modules", cache, stdlib, archive)
    assert same == snapshot.name and again == shipped


def test_package_archive_is_this_source_tree(site):
    archive = site / "assets/rankcards" / str(_config(site)["package"])
    with zipfile.ZipFile(archive) as zipped:
        names = set(zipped.namelist())
        assert zipped.read("rankcards/runner.py") == (ROOT / "src/rankcards/runner.py").read_bytes()
        assert "rankcards/metrics/__init__.py" in names
        assert not any(name.endswith(".js") for name in names)
        init = zipped.read("rankcards/__init__.py").decode()
        # Every source has bytecode compiled by the site's Pyodide (CPython 3.14), loaded
        # without compiling or even reading the source: unchecked hash-based (PEP 552).
        sources = [name for name in names if name.endswith(".py")]
        for source in sources:
            folder, _, module = source.rpartition("/")
            pyc = zipped.read(f"{folder}/__pycache__/{module[:-3]}.cpython-314.pyc")
            assert int.from_bytes(pyc[4:8], "little") == 0b01, source
        assert len([name for name in names if name.endswith(".pyc")]) == len(sources)
    # Only what the page runs: the CLI, the MkDocs plugin, the card loader and the build code
    # need MkDocs, Jinja or a terminal, and would only be downloaded and unpacked.
    package = ROOT / "src/rankcards"
    runtime_sources = {
        f"rankcards/{path.relative_to(package).as_posix()}"
        for part in ("metrics", "viz", "demos")
        for path in (package / part).rglob("*.py")
    }
    page_modules = {
        "rankcards/__init__.py",
        "rankcards/runner.py",
        "rankcards/exercises.py",
        "rankcards/plot.py",
    }
    assert set(sources) == runtime_sources | page_modules
    assert "rankcards/demos/data/gold_docs.tsv" in names
    assert f'__version__ = "{rankcards.__version__}"' in init
    # Same content, same name: the archive is reproducible, so browsers may cache it for good.
    cache = ROOT / ".cache" / "rankcards-web"
    assert web._build.package_archive(ROOT / "node_modules", cache)[0] == archive.name


def test_stdlib_zip_is_the_same_bytes_on_every_build(site, tmp_path):
    # The shipped snapshot's zip importer knows this zip's table of contents, and browsers keep
    # it under a URL named by Pyodide's version only: a rebuild must not change a byte.
    stdlib = site / "assets/rankcards" / str(_config(site)["stdlib"])
    rebuilt = web._build.stdlib_pyc(ROOT / "node_modules", tmp_path / "cache")
    assert rebuilt.read_bytes() == stdlib.read_bytes()


def test_stdlib_zip_holds_bytecode_instead_of_sources(site):
    stdlib = site / "assets/rankcards" / str(_config(site)["stdlib"])
    with zipfile.ZipFile(stdlib) as zipped:
        names = zipped.namelist()
        pyc = zipped.read("json/__init__.pyc")
    assert not [name for name in names if name.endswith(".py")]
    assert "ast.pyc" in names and "encodings/utf_8.pyc" in names
    assert int.from_bytes(pyc[4:8], "little") == 0b01  # hash-based, unchecked (PEP 552)


def test_codemirror_is_bundled_and_modules_are_copied(site):
    bundle = (site / "assets/rankcards/codemirror.js").read_text(encoding="utf-8")
    assert "EditorView" in bundle or "cm-editor" in bundle
    assert not re.search(r"""from\s*["'](@codemirror|@lezer)""", bundle)  # no bare imports left
    # Chromium compiles it while it streams in, not inside the first mount
    assert bundle.startswith("//# allFunctionsCalledOnLoad\n")
    scripts, styles = page_assets()
    assert "assets/rankcards/editor.js" in scripts
    assert "assets/rankcards/runtime.css" in styles
    for url in scripts + styles:
        assert (site / url).is_file(), url
    for module in ("runtime.js", "worker.js", "status.js"):
        assert (site / "assets/rankcards" / module).is_file()
    assert not (site / "assets/rankcards/cm_entry.js").exists()
    assert not (site / "assets/rankcards/theme_palette.js").exists()  # inlined by defer_theme


def test_dompurify_is_minified_from_the_pinned_package_with_its_licence(site):
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]["dompurify"]
    bundle = (site / "assets/rankcards/purify.js").read_text(encoding="utf-8")
    assert bundle.startswith(f"/*! @license DOMPurify {pinned} |")  # the licence header kept
    assert "export{" in bundle.replace(" ", "")  # an ES module, for svg_sanitize.js's import()
    source = ROOT / "node_modules/dompurify/dist/purify.es.mjs"
    assert len(bundle) < source.stat().st_size / 2  # minified
    apache = (site / "assets/rankcards/purify.LICENSE-APACHE.txt").read_text(encoding="utf-8")
    mpl = (site / "assets/rankcards/purify.LICENSE-MPL.txt").read_text(encoding="utf-8")
    assert "Apache License" in apache and "Mozilla Public License" in mpl
    # Only imported by svg_sanitize.js: never a script of the page
    assert not [url for url in page_assets()[0] if "purify" in url]


def test_cdn_option_skips_copying_the_interpreter(tmp_path):
    url = f"https://cdn.example/pyodide/v{PYODIDE_VERSION}/full/"
    config = {"config_file_path": str(ROOT / "mkdocs.yml"), "extra": {"rankcards_pyodide_url": url}}
    write_assets(tmp_path, config)
    assert _config(tmp_path)["pyodide"] == url
    assert not (tmp_path / f"assets/pyodide/{PYODIDE_VERSION}/pyodide.asm.wasm").exists()
    assert (tmp_path / f"assets/pyodide/{PYODIDE_VERSION}/python_stdlib_pyc.zip").is_file()
    # A snapshot made with the npm Pyodide is not shipped for another copy: the worker makes one.
    assert _config(tmp_path)["snapshot"] is None
    assert not list((tmp_path / "assets/rankcards").glob("snapshot-*"))


def test_missing_node_modules_is_a_one_line_error_with_the_fix(tmp_path):
    config = {"config_file_path": str(tmp_path / "mkdocs.yml")}
    with pytest.raises(WebAssetsError) as raised:
        write_assets(tmp_path / "site", config)
    message = str(raised.value)
    assert "\n" not in message
    assert message == (
        f"rankcards: {tmp_path}/node_modules/pyodide/package.json not found;"
        " run `npm ci` in the project root"
    )
