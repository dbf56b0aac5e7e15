"""Render LaTeX with KaTeX at build time: one batched ``node`` process per build, cached.

Pages then need no math JavaScript (only KaTeX's CSS and fonts), and an invalid formula is a
precise build error (``throwOnError``) instead of red text on the page. Results are cached by
content hash for the life of the process, so `mkdocs serve` rebuilds only pay for new formulas,
and, given a ``cache_dir``, on disk per KaTeX version (`rankcards check` then starts no Node.js
when no formula changed).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

# Reads [{tex, display}] on stdin, writes [{html} | {error, position}] on stdout: KaTeX's own
# message without the excerpt it appends, and the 0-based index in tex of what it stopped at.
_SCRIPT = r"""
const katex = require(process.argv[1]);
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const out = JSON.parse(input).map(({ tex, display }) => {
    try {
      return { html: katex.renderToString(tex, {
        displayMode: display, throwOnError: true, output: "htmlAndMathml", strict: "ignore",
        trust: false,
      }) };
    } catch (error) {
      const position = Number.isInteger(error.position) ? error.position : null;
      return { error: String(error.rawMessage || error.message || error), position };
    }
  });
  process.stdout.write(JSON.stringify(out));
});
"""

_cache: dict[str, tuple[str | None, str | None, int | None]] = {}


class KatexUnavailable(RuntimeError):
    """Node.js or the KaTeX npm package is missing; the message says how to install them."""


@dataclass(frozen=True)
class MathResult:
    """KaTeX output for one formula: ``html``, or the parse ``error`` and the ``position``
    (0-based, in the formula's TeX) where KaTeX stopped, when it knows it."""

    html: str | None
    error: str | None
    position: int | None = None


def find_katex(start: Path) -> Path:
    """Locate ``node_modules/katex`` as Node would: above ``start``, else above the working
    directory, else above this package's source (an editable install in the project)."""
    for base in (start, Path.cwd(), Path(__file__)):
        for directory in (base.resolve(), *base.resolve().parents):
            candidate = directory / "node_modules" / "katex"
            if (candidate / "package.json").is_file():
                return candidate
    raise KatexUnavailable(
        f"KaTeX not found in node_modules above {start}: run `npm ci` in the project root"
    )


def _key(tex: str, display: bool) -> str:
    return hashlib.sha256(f"{int(display)}\0{tex}".encode()).hexdigest()


def _disk_file(katex_dir: Path, cache_dir: Path) -> Path:
    version = json.loads((katex_dir / "package.json").read_text(encoding="utf-8"))["version"]
    return cache_dir / f"katex-{version}.json"


def _load_disk(path: Path) -> None:
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    for key, (html, error, position) in stored.items():
        _cache.setdefault(key, (html, error, position))


def _store_disk(path: Path, keys: list[str]) -> None:
    """Keep the formulas of this build (those of removed cards go)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".tmp")
        partial.write_text(json.dumps({key: _cache[key] for key in keys}), encoding="utf-8")
        partial.replace(path)
    except OSError:
        pass  # a read-only tree still renders, without the cache


def render_math(
    items: list[tuple[str, bool]], katex_dir: Path, cache_dir: Path | None = None
) -> list[MathResult]:
    """Render ``(tex, display)`` pairs; formulas not seen before go to one ``node`` call."""
    disk = _disk_file(katex_dir, cache_dir) if cache_dir is not None else None
    if disk is not None:
        _load_disk(disk)
    todo = list(
        {
            _key(tex, display): (tex, display)
            for tex, display in items
            if _key(tex, display) not in _cache
        }.items()
    )
    if todo:
        node = shutil.which("node")
        if node is None:
            raise KatexUnavailable("`node` not found on PATH: install Node.js >= 18 (formulas)")
        payload = json.dumps([{"tex": tex, "display": display} for _, (tex, display) in todo])
        completed = subprocess.run(
            [node, "-e", _SCRIPT, str(katex_dir / "dist" / "katex.js")],
            input=payload,
            capture_output=True,
            text=True,
            encoding="utf-8",
            check=False,
        )
        if completed.returncode != 0:
            raise KatexUnavailable(f"KaTeX failed: {completed.stderr.strip()[-500:]}")
        for (key, _), result in zip(todo, json.loads(completed.stdout), strict=True):
            _cache[key] = (result.get("html"), result.get("error"), result.get("position"))
        if disk is not None:
            _store_disk(disk, list(dict.fromkeys(_key(tex, display) for tex, display in items)))
    return [MathResult(*_cache[_key(tex, display)]) for tex, display in items]
