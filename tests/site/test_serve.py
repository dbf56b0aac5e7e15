"""`mkdocs serve`: a card edit rebuilds; an invalid card is reported and the last good build
keeps being served."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from site_project import fetch_text


def _wait_for(url: str, text: str, seconds: float = 60) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if text in fetch_text(url, timeout=5):
            return True
        time.sleep(0.2)
    return False


def _wait_for_log(path: Path, text: str, seconds: float = 60) -> str:
    """The server's log once it holds ``text`` (or as it is when ``seconds`` have passed)."""
    deadline = time.monotonic() + seconds
    while text not in (output := path.read_text()) and time.monotonic() < deadline:
        time.sleep(0.2)
    return output


def test_serve_rebuilds_and_survives_an_invalid_card(tmp_path: Path, project_tools) -> None:
    make_project, _ = project_tools
    project = make_project(tmp_path)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log = (tmp_path / "serve.log").open("w+")
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{port}"],
        cwd=project,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    url = f"http://127.0.0.1:{port}/rankcards/en/beta/"
    card = project / "docs" / "cards" / "beta.yml"
    original = card.read_text()
    try:
        assert _wait_for(url, "Definition of beta."), "serve did not come up"
        card.write_text(original.replace("Definition of beta.", "Edited beta."))
        assert _wait_for(url, "Edited beta.")
        card.write_text(original.replace("  en: The beta card.\n", ""))
        output = _wait_for_log(tmp_path / "serve.log", "serving the last good version of the cards")
        assert "docs/cards/beta.yml:8:3: summary: missing language 'en'" in output
        assert "serving the last good version of the cards" in output
        assert "Edited beta." in fetch_text(url, timeout=5)  # still served, not stuck
        card.write_text(original)
        assert _wait_for(url, "Definition of beta.")
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()
