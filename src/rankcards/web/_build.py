"""The build steps behind :func:`rankcards.web.write_assets`, each producing one runtime file.

Why at site build and not committed: the Pyodide files come from the pinned npm package, the
standard-library bytecode must be compiled by that exact Pyodide, CodeMirror is bundled from the
pinned ``node_modules``, and the rankcards archive must hold the very tree the site was built
from. Everything is written under versioned or content-hashed names so that browsers can cache
it for good (see ``write_assets``).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

WEB_DIR = Path(__file__).parent
PACKAGE_DIR = WEB_DIR.parent

# The files of the npm package that a boot needs (the stock stdlib is replaced by our .pyc zip).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json")
STDLIB_NAME = "python_stdlib_pyc.zip"
_PACKAGE_SUFFIXES = {".py", ".json", ".typed", ".txt", ".tsv", ".yml"}
# What runs in the page: the CLI, the MkDocs plugin, the card loader and this build code need
# MkDocs, Jinja or a terminal, so the browser would only download and unpack them.
_BROWSER_PARTS = {
    "__init__.py",
    "py.typed",
    "runner.py",
    "exercises.py",
    "plot.py",
    "metrics",
    "viz",
    "demos",
}
_ZIP_DATE = (2020, 1, 1, 0, 0, 0)  # fixed, so the archive (and its hash) depends on content only


class WebAssetsError(Exception):
    """A runtime asset could not be produced; the message says what to install or fix."""


def pyodide_version(node_modules: Path) -> str:
    """The version of the npm ``pyodide`` package, failing with the fix when it is absent."""
    manifest = node_modules / "pyodide" / "package.json"
    if not manifest.is_file():
        raise WebAssetsError(f"rankcards: {manifest} not found; run `npm ci` in the project root")
    return str(json.loads(manifest.read_text(encoding="utf-8"))["version"])


def copy_pyodide(node_modules: Path, target: Path) -> None:
    """Copy the interpreter files, skipping those already identical (``mkdocs serve`` rebuilds)."""
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        source, dest = node_modules / "pyodide" / name, target / name
        if not dest.exists() or dest.stat().st_size != source.stat().st_size:
            shutil.copyfile(source, dest)


def _execute(command: list[str], what: str, env: dict[str, str] | None = None) -> None:
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise WebAssetsError(f"rankcards: failed to {what}: {detail[-1] if detail else '?'}")


def stdlib_pyc(node_modules: Path, cache_dir: Path) -> Path:
    """The standard-library .pyc zip, compiled by the npm Pyodide once per Pyodide version (and
    version of ``build_stdlib.mjs``); older ones are deleted."""
    version = pyodide_version(node_modules)
    key = hashlib.sha256((WEB_DIR / "build_stdlib.mjs").read_bytes()).hexdigest()[:10]
    return _made_by_node(
        cache_dir / f"stdlib-pyc-{version}-{key}.zip",
        "build_stdlib.mjs",
        [str(node_modules / "pyodide")],
        "compile the standard library with Pyodide",
        stale=f"stdlib-pyc-{version}*.zip",
    )


def bundle_codemirror(node_modules: Path, output: Path) -> None:
    """Bundle the CodeMirror pieces named in ``cm_entry.js`` into one minified ES module."""
    esbuild = node_modules / "esbuild" / "bin" / "esbuild"
    if not esbuild.is_file():
        raise WebAssetsError(f"rankcards: {esbuild} not found; run `npm ci` in the project root")
    args = [str(WEB_DIR / "cm_entry.js"), "--bundle", "--format=esm", "--minify"]
    # Chromium's explicit compile hint: compile every function while the file streams in, off
    # the main thread, instead of lazily inside the editor's first mount (a 50-70 ms task).
    args += ["--banner:js=//# allFunctionsCalledOnLoad"]
    args += ["--log-level=error", f"--outfile={output}"]
    # NODE_PATH lets esbuild resolve the packages even when rankcards is not installed editable.
    env = {"NODE_PATH": str(node_modules)}
    _execute([str(esbuild), *args], "bundle CodeMirror with esbuild", env)


def minify(node_modules: Path, sources: list[Path], outdir: Path) -> None:
    """Write each of ``sources`` (ES modules, classic scripts, style sheets) into ``outdir`` under
    its own name, minified by esbuild one file at a time: no bundling, so every module keeps its
    URL, its imports (static and dynamic) and its exports.

    Why: a card page's own modules, with their comments, were a third of what it downloads
    before its runtime (issue 24); minified they are under half of that. The sources stay the
    readable copy.
    """
    esbuild = node_modules / "esbuild" / "bin" / "esbuild"
    if not esbuild.is_file():
        raise WebAssetsError(f"rankcards: {esbuild} not found; run `npm ci` in the project root")
    args = [*(str(path) for path in sources), "--minify", "--log-level=error", f"--outdir={outdir}"]
    _execute([str(esbuild), *args], "minify the page's modules with esbuild")


DOMPURIFY_NAME = "purify.js"
# DOMPurify is dual-licensed (Apache-2.0 or MPL-2.0): both texts ship beside it.
DOMPURIFY_LICENSES = {
    "LICENSE": "purify.LICENSE-APACHE.txt",
    "LICENSE-MPL": "purify.LICENSE-MPL.txt",
}


def bundle_dompurify(node_modules: Path, target: Path) -> None:
    """DOMPurify's ES module build, minified with esbuild into ``target/purify.js`` (its licence
    header kept), and its licences beside it: ``svg_sanitize.js`` imports it on the first figure."""
    esbuild = node_modules / "esbuild" / "bin" / "esbuild"
    source = node_modules / "dompurify" / "dist" / "purify.es.mjs"
    for needed in (esbuild, source):
        if not needed.is_file():
            raise WebAssetsError(f"rankcards: {needed} not found; run `npm ci` in the project root")
    args = [str(source), "--format=esm", "--minify", "--legal-comments=inline"]
    args += ["--log-level=error", f"--outfile={target / DOMPURIFY_NAME}"]
    _execute([str(esbuild), *args], "minify DOMPurify with esbuild")
    for name, shipped in DOMPURIFY_LICENSES.items():
        shutil.copyfile(node_modules / "dompurify" / name, target / shipped)


def _source_archive() -> bytes:
    """Zip the files of the package that the page runs, byte-identical for identical sources."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(PACKAGE_DIR.rglob("*")):
            relative = path.relative_to(PACKAGE_DIR)
            if path.suffix not in _PACKAGE_SUFFIXES or "__pycache__" in relative.parts:
                continue
            if relative.parts[0] not in _BROWSER_PARTS:
                continue
            name = f"rankcards/{relative.as_posix()}"
            archive.writestr(zipfile.ZipInfo(name, _ZIP_DATE), path.read_bytes())
    return buffer.getvalue()


def package_archive(node_modules: Path, cache_dir: Path) -> tuple[str, bytes]:
    """The rankcards package zip (sources plus bytecode compiled by the npm Pyodide, see
    ``compile_package.mjs``), named by version and content hash; compiled once per source tree
    and Pyodide version into ``cache_dir``, older compilations are deleted."""
    from rankcards import __version__

    sources = _source_archive()
    version = pyodide_version(node_modules)
    key = hashlib.sha256(sources).hexdigest()[:16]
    cached = _made_by_node(
        cache_dir / f"package-pyc-{version}-{key}.zip",
        "compile_package.mjs",
        [str(node_modules / "pyodide")],
        "compile the rankcards package with Pyodide",
        stale=f"package-pyc-{version}-*.zip",
        staged=sources,
    )
    data = cached.read_bytes()
    digest = hashlib.sha256(data).hexdigest()[:10]
    return f"rankcards-{__version__}-{digest}.zip", data


def memory_snapshot(
    node_modules: Path, cache_dir: Path, stdlib: Path, archive: bytes
) -> tuple[str, bytes]:
    """The memory snapshot the site ships (``build_snapshot.mjs``), named by what it was made
    from: this Pyodide, stdlib zip and package archive, and the worker's bridge and snapshot
    layout. Made once per such set into ``cache_dir``; older ones are deleted."""
    version = pyodide_version(node_modules)
    inputs = hashlib.sha256(version.encode())
    inputs.update(hashlib.sha256(stdlib.read_bytes()).digest())
    inputs.update(hashlib.sha256(archive).digest())
    for script in ("bridge.js", "snapshot.js", "build_snapshot.mjs"):
        inputs.update((WEB_DIR / script).read_bytes())
    key = inputs.hexdigest()[:10]
    cached = _made_by_node(
        cache_dir / f"snapshot-{version}-{key}.bin",
        "build_snapshot.mjs",
        [str(node_modules / "pyodide"), str(stdlib)],
        "make the Pyodide memory snapshot",
        stale=f"snapshot-{version}-*.bin",
        staged=archive,
        # Only TZ: nothing of the build's environment, and the same time zone constants
        # (time.timezone, time.tzname: UTC) in the heap whoever builds the site.
        env={"TZ": "UTC"},
    )
    return f"snapshot-{version}-{key}.bin", cached.read_bytes()


def _made_by_node(
    cached: Path,
    script: str,
    args: list[str],
    what: str,
    *,
    stale: str,
    staged: bytes | None = None,
    env: dict[str, str] | None = None,
) -> Path:
    """``cached``, made unless it exists by ``node <script> <args> [<staged>] <output>``.

    ``staged`` bytes are passed as a file. The output is written under a per-process name first
    (parallel builds, pytest-xdist, must not write into one file), then renamed; the other files
    beside it that match ``stale`` (older versions) are deleted.
    """
    if cached.is_file():
        return cached
    node = shutil.which("node")
    if node is None:
        raise WebAssetsError(f"rankcards: `node` not found on PATH; it is needed to {what}")
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(f".{os.getpid()}.partial")
    command = [node, str(WEB_DIR / script), *args]
    staged_file = cached.with_suffix(f".{os.getpid()}.input")
    if staged is not None:
        staged_file.write_bytes(staged)
        command.append(str(staged_file))
    try:
        _execute([*command, str(partial)], what, env)
    finally:
        staged_file.unlink(missing_ok=True)
    partial.replace(cached)
    for older in cached.parent.glob(stale):
        if older != cached:
            older.unlink(missing_ok=True)
    return cached
