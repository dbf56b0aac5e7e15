"""The browser side of rankcards: the assets that make every card's Python run in the page.

These functions form the contract with the site generator (the MkDocs plugin calls them):

* :func:`page_assets` -> ``(scripts, styles)``: site-relative URLs to add to every page; the
  scripts are ES modules (``<script type="module">``).
* :func:`gate_search` (``html``): a built page whose Material search worker waits while the
  runtime boots and lists the results in the page's language first (``search_gate.js``).
* :func:`defer_theme` (``html``): a built page whose first screen may run Python with Material's
  bundle preloaded rather than run as the page is parsed (``theme.js`` runs it once the first demo
  value is shown, the reader acts, or after two seconds).
* :func:`defer_search_docs` (``site_dir``): the search index's documents moved out of the
  ``search_index.json`` Material's page fetches as it loads, into a file the gate fetches when it
  starts (a card page downloads no index before its runtime).
* :func:`write_assets` (``site_dir``, ``config``): at the end of a build, write the runtime into
  ``site_dir/assets/``: Pyodide from the pinned npm package, a standard-library zip of bytecode
  compiled by that Pyodide, the rankcards package as a zip of this very source tree (with bytecode
  compiled by that Pyodide next to each source), the memory snapshot of a booted interpreter,
  CodeMirror
  bundled with esbuild, DOMPurify minified (loaded by the first figure) and the ES modules of
  this directory.

Caching, and why no service worker: every large file has a versioned or content-hashed URL
(``assets/pyodide/<pyodide version>/...``, ``assets/rankcards/rankcards-<version>-<hash>.zip``),
so the browser's HTTP cache (and Chromium's cache of compiled WebAssembly, which it keeps for
``application/wasm`` responses it streamed) serves a second visit without any new code path.
A service worker would add offline use, but it must live at the site root, outlives deploys,
and hides requests from the tests' network routing; the HTTP cache gives the warm-visit speed.
On top of it, the site ships a Pyodide memory snapshot made at build (``build_snapshot.mjs``:
Pyodide under Node, the package imported): a first visit restores it instead of starting Python,
and the worker keeps a copy in Cache Storage (``snapshot.js``) for the next visits. The snapshot
API is private to Pyodide, so a stored copy is keyed on this exact build (Pyodide and rankcards
versions, archive and stdlib names, the browser's user agent), every restored heap is checked
(the package version and a known value), and any failure falls back to a normal boot. With a
Pyodide from a CDN no snapshot is shipped; the worker keeps one of its own booted heap.

The ``extra.rankcards_pyodide_url`` setting of ``mkdocs.yml`` may point at a Pyodide of the same
version on a CDN (its index URL, ending in ``/``); the interpreter is then not copied.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rankcards import __version__
from rankcards.web import _build
from rankcards.web._build import WebAssetsError
from rankcards.web.svg import allow_module
from rankcards.web.table import allow_module as table_allow_module

__all__ = [
    "WebAssetsError",
    "defer_search_docs",
    "defer_theme",
    "gate_search",
    "page_assets",
    "write_assets",
]

ASSETS = "assets/rankcards"
# Modules the page loads directly; each imports what it needs (runtime.js, codemirror.js, ...).
# page_modules.js loads the others (evaluate, exercises, example-bound demos) on first use.
_ENTRY_SCRIPTS = (
    "editor.js",
    "demo.js",
    "page_modules.js",
    "draw.js",
    "language.js",
    "theme.js",  # last: Material's script, where it waits for the first demo value
)
# Build inputs, not page code (theme_palette.js is inlined in the page by defer_theme).
_NOT_SHIPPED = {"cm_entry.js", "theme_palette.js"}
# Material's search worker loads its language files relative to its own URL ("../lunr"): the gate
# that starts it (search_gate.js) is written beside it.
_MATERIAL_WORKERS = "assets/javascripts/workers"
_SEARCH_GATE = "search_gate.js"
_MATERIAL_CONFIG = re.compile(r'<script id="__config" type="application/json">(.*?)</script>', re.S)
_PAGE_LANG = re.compile(r'<html\b[^>]*\slang="([a-z]{2})[-"]')
_MATERIAL_BUNDLE = re.compile(
    r'<script src="([^"<>]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js)"></script>'
)
# Material's own script after its palette form (it applies a stored choice only).
_MATERIAL_PALETTE = re.compile(r'<script>var palette=__md_get\("__palette"\);.*?</script>', re.S)
_JS_CLASS = '<script>document.documentElement.classList.replace("no-js", "js")</script>'
# What runs Python in a page (runtime.js's RUNS_PYTHON, as built by the card templates).
_RUNS_PYTHON = re.compile(r"<[a-z]+\s[^>]*\bdata-rc-(?:demo|example|exercise|evaluate)(?=[\s=>])")


def page_assets() -> tuple[list[str], list[str]]:
    """Site-relative URLs of the ES modules and style sheets every page includes."""
    scripts = [f"{ASSETS}/{name}" for name in _ENTRY_SCRIPTS if (_build.WEB_DIR / name).is_file()]
    styles = [f"{ASSETS}/{path.name}" for path in sorted(_build.WEB_DIR.glob("*.css"))]
    return scripts, styles


def gate_search(html: str) -> str:
    """``html`` (a page built by MkDocs Material) with its search worker started through the
    gate ``search_gate.js``, Material's own worker passed as ``?worker=`` and the page's
    language (``<html lang>``) as ``&lang=``; any other page is returned unchanged.

    Why: Material builds its search index in a worker as a page loads; on two cores that slowed
    the Python runtime's boot. And the index holds both languages: the gate lists the results
    in the page's language first (see search_gate.js).
    """
    match = _MATERIAL_CONFIG.search(html)
    if match is None:
        return html
    app = json.loads(match.group(1))
    folder, _, worker = str(app.get("search") or "").rpartition("/")
    if not folder.endswith(_MATERIAL_WORKERS) or not worker.endswith(".js"):
        return html
    app["search"] = f"{folder}/{_SEARCH_GATE}?worker={worker}"
    lang = _PAGE_LANG.search(html)
    if lang is not None:
        app["search"] += f"&lang={lang.group(1)}"
    # As Jinja's tojson writes it (Material's template): no "</script>" can end it early.
    text = json.dumps(app)
    for char, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(char, escaped)
    return html[: match.start(1)] + text + html[match.end(1) :]


def defer_theme(html: str) -> str:
    """``html`` (a page built by MkDocs Material) with Material's bundle preloaded instead of run
    as the page is parsed, when the page has something that runs Python (a demo, an example, an
    exercise, the evaluate form); any other page is returned unchanged.

    Why: on a page that boots the runtime on its first screen, the bundle's start-up (about
    200 ms of main thread) ran before the page's modules could start the worker, on the same
    two cores; ``theme.js`` runs it once the first demo value is shown, the reader acts, or after
    ``THEME_WAIT_MS`` (bench/README.md: the second visit about 200 ms sooner).
    """
    match = _MATERIAL_BUNDLE.search(html)
    head_end = html.find("</head>")
    if match is None or head_end < 0 or _RUNS_PYTHON.search(html) is None:
        return html
    link = f'<link rel="preload" as="script" href="{match.group(1)}" data-rc-theme>'
    html = html[: match.start()] + link + html[match.end() :]
    # The page drawn as the theme's script will draw it, so nothing changes when it runs: its
    # palette (with the toggle) applied after Material's palette form, the search box shown by
    # the "js" class.
    palette = _MATERIAL_PALETTE.search(html)
    if palette is not None:
        script = (_build.WEB_DIR / "theme_palette.js").read_text(encoding="utf-8")
        html = html[: palette.end()] + f"<script>{script}</script>" + html[palette.end() :]
    return html[:head_end] + _JS_CLASS + html[head_end:]


def defer_search_docs(site_dir: Path) -> None:
    """Move the documents of ``site_dir/search/search_index.json`` (Material's index) into
    ``search/search_docs.<hash>.json``, leaving the index's config, which names that file as
    ``rankcards_docs``; search_gate.js puts them back into Material's setup message.

    Why: Material's page fetches the index as it loads (600 KB of prose for 22 cards in two
    languages), before a card's runtime download; the documents now wait for the gate's start
    (the runtime ready or failed, or the reader opening search). Nothing is done to an index
    already deferred or without documents.
    """
    index_path = site_dir / "search" / "search_index.json"
    index = json.loads(index_path.read_text(encoding="utf-8"))
    docs = index.get("docs")
    if not docs:
        return
    text = json.dumps(docs, ensure_ascii=False, separators=(",", ":"))
    name = f"search_docs.{hashlib.sha256(text.encode()).hexdigest()[:10]}.json"
    (index_path.parent / name).write_text(text, encoding="utf-8")
    index["docs"] = []
    index["config"] = {**index.get("config", {}), "rankcards_docs": name}
    index_path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), "utf-8")


def _project_root(config: Mapping[str, Any]) -> Path:
    config_file = config.get("config_file_path")
    return Path(config_file).resolve().parent if config_file else Path.cwd()


def write_assets(site_dir: Path, config: Mapping[str, Any]) -> None:
    """Write the runtime into ``site_dir/assets`` (see the module docstring for what and why).

    ``config`` is the MkDocs config (any mapping with ``config_file_path`` and ``extra``);
    ``node_modules`` is looked up next to the config file. Raises :class:`WebAssetsError` with a
    one-line message naming the missing tool or file.
    """
    root = _project_root(config)
    node_modules = root / "node_modules"
    pyodide_version = _build.pyodide_version(node_modules)
    site_dir = Path(site_dir)
    assets = site_dir / ASSETS
    assets.mkdir(parents=True, exist_ok=True)
    pyodide_dir = site_dir / "assets" / "pyodide" / pyodide_version

    extra = config.get("extra") or {}
    cdn = extra.get("rankcards_pyodide_url") if isinstance(extra, Mapping) else None
    cache = root / ".cache" / "rankcards-web"
    stdlib = _build.stdlib_pyc(node_modules, cache)
    pyodide_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(stdlib, pyodide_dir / _build.STDLIB_NAME)
    if cdn is None:
        _build.copy_pyodide(node_modules, pyodide_dir)

    page_files = [
        path
        for path in sorted(_build.WEB_DIR.iterdir())
        if path.suffix in {".js", ".css"} and path.name not in {*_NOT_SHIPPED, _SEARCH_GATE}
    ]
    _build.minify(node_modules, page_files, assets)
    (site_dir / _MATERIAL_WORKERS).mkdir(parents=True, exist_ok=True)
    _build.minify(node_modules, [_build.WEB_DIR / _SEARCH_GATE], site_dir / _MATERIAL_WORKERS)
    _build.bundle_codemirror(node_modules, assets / "codemirror.js")
    _build.bundle_dompurify(node_modules, assets)
    archive_name, archive = _build.package_archive(node_modules, cache)
    (assets / archive_name).write_bytes(archive)
    # Made with the npm Pyodide: a Pyodide from a CDN boots normally and makes its own.
    snapshot_name, snapshot = None, b""
    if cdn is None:
        snapshot_name, snapshot = _build.memory_snapshot(node_modules, cache, stdlib, archive)
        (assets / snapshot_name).write_bytes(snapshot)

    local = [node_modules / "pyodide" / name for name in _build.PYODIDE_FILES]
    runtime_config = {
        "version": __version__,
        "pyodideVersion": pyodide_version,
        "pyodide": str(cdn) if cdn else f"../pyodide/{pyodide_version}/",
        "stdlib": f"../pyodide/{pyodide_version}/{_build.STDLIB_NAME}",
        "package": archive_name,
        "snapshot": snapshot_name,
        "bytes": sum(p.stat().st_size for p in local)
        + stdlib.stat().st_size
        + len(archive)
        + len(snapshot),
    }
    (assets / "config.js").write_text(
        "// Written by rankcards.web.write_assets at site build: what runtime.js boots.\n"
        f"export default {json.dumps(runtime_config, indent=2)};\n",
        encoding="utf-8",
    )
    # The allow-lists as modules for svg_sanitize.js and table_sanitize.js (the build's svg.py
    # and table.py read the JSON).
    (assets / "svg_allow.js").write_text(allow_module(), encoding="utf-8")
    (assets / "table_allow.js").write_text(table_allow_module(), encoding="utf-8")
