"""The static server the browser tests and benches share (``static_site.py``), without a browser."""

from __future__ import annotations

import functools
import selectors
import socket
import urllib.request

import pytest
from static_site import _Handler, _Server, base_url, start_server


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


def test_a_burst_of_connections_waits_in_the_backlog_not_in_syn_retries(tmp_path):
    """A page opens many connections at once while the server's thread may wait for the GIL:
    with socketserver's backlog of 5 the kernel drops the sixth and later connections' SYNs,
    and each connect then waits a second or more for its retry. Here nothing accepts (no
    serving thread): every one of a burst of 60 connections must complete at once."""
    server = _Server(("127.0.0.1", 0), functools.partial(_Handler, directory=str(tmp_path)))
    clients = []
    with server, selectors.DefaultSelector() as selector:
        for _ in range(60):
            client = socket.socket()
            client.setblocking(False)
            client.connect_ex(server.server_address)
            selector.register(client, selectors.EVENT_WRITE)
            clients.append(client)
        connected: set[socket.socket] = set()
        for _ in range(50):  # SYN retries come after 1 s: well after these 0.5 s of polling
            connected |= {key.fileobj for key, _ in selector.select(timeout=0.01)}
        for client in clients:
            client.close()
    assert len(connected) == 60
