"""One of the page's sanitizers served alone and run in Chromium (no site build needed): the
module web/<kind>_sanitize.js, its allow-list <kind>_allow.js as write_assets writes it and an
empty page, DOMPurify too (as the build minifies it) for the one that needs it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from static_site import base_url, start_server

from rankcards.web._build import bundle_dompurify
from repo_paths import WEB


@contextmanager
def sanitizer_site(
    folder: Path, kind: str, allow_module: str, node_modules: Path | None = None
) -> Iterator[str]:
    """Serve the ``kind`` sanitizer from ``folder``, with its allow-list module's text
    ``allow_module`` (and DOMPurify bundled from ``node_modules`` when given); yield the base
    URL, and stop the server after."""
    shutil.copyfile(WEB / f"{kind}_sanitize.js", folder / f"{kind}_sanitize.js")
    (folder / f"{kind}_allow.js").write_text(allow_module, encoding="utf-8")
    if node_modules is not None:
        bundle_dompurify(node_modules, folder)
    (folder / "index.html").write_text(
        f'<!doctype html><link rel=icon href="data:,"><title>{kind}</title>', encoding="utf-8"
    )
    server = start_server(folder)
    try:
        yield base_url(server)
    finally:
        server.shutdown()
        server.server_close()


def sanitize_in_page(page: Any, base: str, kind: str, script: str, inputs: list[str]) -> Any:
    """Open the served empty page and evaluate ``script`` (``async ([inputs, module]) => ...``,
    which imports the sanitizer module) on ``inputs``; return what it returns."""
    page.goto(base + "index.html")
    return page.evaluate(script, [inputs, base + f"{kind}_sanitize.js"])
