"""The static server the browser tests and benches share (``static_site.py``), without a browser."""

from __future__ import annotations

import urllib.request

import pytest
from static_site import _Server, base_url, start_server


@pytest.fixture
def server(tmp_path):
    (tmp_path / "module.wasm").write_bytes(b"\0asm\1\0\0\0")
    server = start_server(tmp_path)
    yield server
    server.shutdown()
    server.server_close()


def _report(server: _Server, error: BaseException) -> None:
    """What the server does when a request's handler raised ``error``."""
    try:
        raise error
    except type(error):
        server.handle_error(None, ("127.0.0.1", 0))


def test_a_client_leaving_mid_response_prints_nothing(server, capsys):
    for error in (BrokenPipeError(32, "Broken pipe"), ConnectionResetError(104, "reset")):
        _report(server, error)
    assert capsys.readouterr().err == ""


def test_other_handler_errors_still_print_their_traceback(server, capsys):
    _report(server, ValueError("a bug in the handler"))
    assert "ValueError: a bug in the handler" in capsys.readouterr().err


def test_wasm_is_served_as_application_wasm(server):
    with urllib.request.urlopen(base_url(server) + "module.wasm") as response:
        assert response.headers["Content-Type"] == "application/wasm"
        assert response.read() == b"\0asm\1\0\0\0"
