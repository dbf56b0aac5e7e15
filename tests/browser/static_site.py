"""The built site served and driven the same way by the browser tests and the bench scripts.

Free of pytest: ``tests/browser/conftest.py`` imports it, and ``bench/browser_*.py`` and
``bench/draw_layer.py`` put this folder on ``sys.path`` to import it, so a measured page is
served exactly as a tested one.

* :func:`find_chromium`: ``$RANKCARDS_CHROMIUM``, else ``chromium`` / ``chromium-browser`` /
  ``google-chrome`` on PATH;
* :func:`build_site`: ``mkdocs build`` of the repository into a folder;
* :func:`build_zensical_site`: the same site built by Zensical (``make build-zensical``);
* :func:`start_server`: a threaded static server on 127.0.0.1 that serves ``.wasm`` as
  ``application/wasm`` like static hosts do, rewrites the sitemap to its own address (Material's
  instant navigation only intercepts links the sitemap lists), and optionally sends COOP/COEP
  (``crossOriginIsolated``) or long-lived caching for versioned assets.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pages_with(site: Path, marker: str) -> list[str]:
    """Site-relative paths (``en/mrr/``), sorted, of the built pages whose HTML holds ``marker``."""
    return sorted(
        path.parent.relative_to(site).as_posix() + "/"
        for path in site.rglob("index.html")
        if marker in path.read_text(encoding="utf-8")
    )


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


def build_site(target: Path) -> str | None:
    """Build the repository's site into ``target``; None, or the end of mkdocs' error output."""
    command = [sys.executable, "-m", "mkdocs", "build", "--quiet", "--site-dir", str(target)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    return None if done.returncode == 0 else done.stderr[-3000:]


def build_zensical_site(folder: Path) -> tuple[Path, str | None]:
    """Build the repository's site with Zensical as ``make build-zensical`` does: the sources
    (``rankcards site-sources``) in ``folder/sources``, the site in ``folder/sources/site``.
    Returns the site folder and None, or the end of the failing step's error output."""
    sources = folder / "sources"
    steps = [
        ([sys.executable, "-m", "rankcards.cli", "site-sources", str(sources)], ROOT),
        ([sys.executable, "-m", "zensical", "build", "--clean", "--strict"], sources),
    ]
    for command, cwd in steps:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            return sources / "site", (done.stdout + done.stderr)[-3000:]
    return sources / "site", None


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {  # noqa: RUF012 - the base class declares it as a plain class attribute
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".json": "application/json",
    }
    isolated = False
    immutable = False

    def do_GET(self) -> None:
        if self.path.split("?")[0] == "/sitemap.xml":
            self._send_sitemap()
        else:
            super().do_GET()

    def _send_sitemap(self) -> None:
        """Serve the sitemap as the deployed site would see it: ``site_url`` -> this server."""
        text = (Path(self.directory) / "sitemap.xml").read_text(encoding="utf-8")
        locations = re.findall(r"<loc>([^<]+)</loc>", text)
        if locations:  # the site's URL: what every entry starts with, to its last "/"
            shared = os.path.commonprefix(locations)  # noqa: RUF071 - URLs: commonpath drops a "/" of "//"
            site_url = shared.rpartition("/")[0] + "/"
            text = text.replace(site_url, f"http://{self.headers['Host']}/")
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
        # Versioned URLs never change: a static host lets the browser keep them (rankcards.web).
        if self.immutable and self.path.startswith(
            ("/assets/pyodide/", "/assets/rankcards/rankcards-", "/assets/rankcards/snapshot-")
        ):
            self.send_header("Cache-Control", "public, max-age=31536000, immutable")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: callers measure or assert on what the page sees, not on the access log."""


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    # The listen backlog (socketserver's default is 5). Each request is a connection of its own
    # (HTTP/1.0), a booting page opens many at once, and the accepting thread shares the GIL
    # with a pytest worker: under the browser tests' load the kernel counted full backlogs
    # (ListenOverflows in /proc/net/netstat), each a connection whose SYN is retried after 1 s,
    # then 3 s, 7 s... The likely cause of the rare stalls (a page whose Python never booted).
    request_queue_size = 128

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser closing a connection mid-response (a page left or closed while it loads) is
        routine here: only other errors print their traceback."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def start_server(
    directory: Path, *, isolated: bool = False, immutable: bool = False
) -> http.server.ThreadingHTTPServer:
    """Serve ``directory`` on a free port in a daemon thread; see :func:`base_url`."""
    handler = type("Handler", (_Handler,), {"isolated": isolated, "immutable": immutable})
    server = _Server(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def base_url(server: http.server.ThreadingHTTPServer) -> str:
    """The server's address, ending in ``/``."""
    return f"http://127.0.0.1:{server.server_port}/"
