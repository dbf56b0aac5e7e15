"""Browser test fixtures: the real built site, served on 127.0.0.1, driven by real Chromium.

Shared by every browser test (runtime, examples, demos, drawing). Fixtures:

* ``chromium_path`` (session): ``$RANKCARDS_CHROMIUM``, else ``chromium`` / ``chromium-browser`` /
  ``google-chrome`` on PATH; the test is skipped when none is found, unless ``CI=true``, where
  it fails (CI must not silently skip the browser).
* ``built_site`` (session): the site built once with ``mkdocs build`` into a temporary directory;
  ``RANKCARDS_SITE_DIR=site`` reuses an existing build instead (handy while editing tests).
* ``site_server`` (session): base URL (ending in ``/``) of a threaded static server of
  ``built_site`` that serves ``.wasm`` as ``application/wasm`` like static hosts do.
* ``isolated_server`` (session): the same site with COOP/COEP headers (``crossOriginIsolated``).
* ``browser`` (session) and ``page`` (per test, a fresh context so caches start cold);
  ``page.console_errors`` lists console errors and uncaught page errors seen so far.
* ``examples`` (session): every code example of the built site as :class:`Example` (the page's
  site-relative URL, its language, the source and the build-time output read from the HTML).

Mark browser tests ``@pytest.mark.browser`` and ``@pytest.mark.xdist_group("browser")`` so that
under ``pytest -n 2 --dist loadgroup`` one worker builds the site once and runs them all.
"""

from __future__ import annotations

import functools
import html.parser
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
_LOCAL = "http://127.0.0.1:"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def find_chromium() -> str | None:
    """The Chromium binary to drive: ``$RANKCARDS_CHROMIUM`` first, then the usual names."""
    configured = os.environ.get("RANKCARDS_CHROMIUM")
    if configured:
        return configured
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def chromium_path() -> str:
    found = find_chromium()
    if found is None:
        message = "no Chromium: set RANKCARDS_CHROMIUM or install chromium"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return found


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    prebuilt = os.environ.get("RANKCARDS_SITE_DIR")
    if prebuilt:
        return Path(prebuilt).resolve()
    site = tmp_path_factory.mktemp("site")
    mkdocs = [sys.executable, "-m", "mkdocs", "build", "--quiet", "--site-dir", str(site)]
    done = subprocess.run(mkdocs, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.fail(f"mkdocs build failed:\n{done.stderr[-3000:]}")
    return site


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {  # noqa: RUF012 - the base class declares it as a plain class attribute
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".json": "application/json",
    }
    isolated = False

    def do_GET(self) -> None:
        if self.path.split("?")[0] == "/sitemap.xml":
            self._send_sitemap()
        else:
            super().do_GET()

    def _send_sitemap(self) -> None:
        """Serve the sitemap as the deployed site would see it: ``site_url`` -> this server.

        Material's instant navigation only intercepts links listed in the sitemap, matched by
        host and path; with the built ``site_url`` it would fall back to full page loads here.
        """
        path = Path(self.directory) / "sitemap.xml"
        text = path.read_text(encoding="utf-8")
        match = re.search(r"<loc>([^<]+)</loc>", text)
        if match:  # the first entry is the site root
            text = text.replace(match.group(1), f"http://{self.headers['Host']}/")
        body = text.encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def end_headers(self) -> None:
        if self.isolated:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the tests assert on what the page sees, not on the access log."""


def _serve(directory: Path, isolated: bool) -> Iterator[str]:
    handler = type("Handler", (_Handler,), {"isolated": isolated})
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(directory))
    )
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def site_server(built_site: Path) -> Iterator[str]:
    yield from _serve(built_site, isolated=False)


@pytest.fixture(scope="session")
def isolated_server(built_site: Path) -> Iterator[str]:
    yield from _serve(built_site, isolated=True)


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=chromium_path, args=LAUNCH_ARGS)
        yield instance
        instance.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context()
    new_page = context.new_page()
    errors: list[str] = []

    def on_console(message: Any) -> None:
        # The test machine is offline: failures to reach other origins (web fonts, the GitHub
        # API for the repository badge) are the environment's, not the page's.
        if message.type == "error" and message.location.get("url", "").startswith(_LOCAL):
            errors.append(f"{message.text} ({message.location.get('url')})")
        elif message.type == "error" and not message.location.get("url"):
            errors.append(message.text)

    new_page.on("console", on_console)
    new_page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    new_page.console_errors = errors
    new_page.set_default_timeout(30_000)
    yield new_page
    context.close()


@dataclass(frozen=True)
class Example:
    """One code example as the built page holds it (no JavaScript involved)."""

    url: str  # site-relative, e.g. "en/mrr/"
    lang: str
    source: str
    output: str


class _ExampleParser(html.parser.HTMLParser):
    """Collect the text of ``[data-rc-source]`` and ``[data-rc-output]`` in each example."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[dict[str, str]] = []
        self._field: str | None = None
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if "data-rc-example" in names:
            self.found.append({"lang": names.get("data-lang") or "", "source": "", "output": ""})
        if self._field is not None:
            self._depth += 1
        elif "data-rc-source" in names or "data-rc-output" in names:
            self._field = "source" if "data-rc-source" in names else "output"
            self._depth = 1

    def handle_endtag(self, tag: str) -> None:
        if self._field is not None:
            self._depth -= 1
            if self._depth == 0:
                self._field = None

    def handle_data(self, data: str) -> None:
        if self._field is not None and self.found:
            self.found[-1][self._field] += data


def site_examples(site: Path) -> list[Example]:
    """Every example of the site, read from the built HTML, in a stable order."""
    found: list[Example] = []
    for path in sorted(site.rglob("index.html")):
        text = path.read_text(encoding="utf-8")
        if "data-rc-example" not in text:
            continue
        parser = _ExampleParser()
        parser.feed(text)
        url = path.parent.relative_to(site).as_posix() + "/"
        for item in parser.found:
            found.append(Example(url, item["lang"], item["source"], item["output"]))
    return found


@pytest.fixture(scope="session")
def examples(built_site: Path) -> list[Example]:
    found = site_examples(built_site)
    assert found, f"no [data-rc-example] in any page of {built_site}"
    return found
