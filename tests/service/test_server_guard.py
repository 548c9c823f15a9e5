"""The HTTP server's bounds: a request must arrive whole within the read timeout (slow headers and slow
bodies are closed), and connections past the cap are answered 503 and closed."""
from __future__ import annotations

import json
import socket
import threading
import time

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")
uvicorn = pytest.importorskip("uvicorn")

from judge.service.accounts import add_user  # noqa: E402
from judge.service.api import create_app  # noqa: E402
from judge.service.config import ServiceConfig  # noqa: E402
from judge.service.server import guarded_protocol  # noqa: E402
from judge.service.storage import Store  # noqa: E402
from judge.judging.session import Judge  # noqa: E402

from servers import free_port, wait_for_port  # noqa: E402

READ_TIMEOUT_S = 1.5
CAP = 4


@pytest.fixture
def server(tmp_path, repo):
    config = ServiceConfig(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", problems_dir=str(repo),
                           read_timeout_s=READ_TIMEOUT_S, max_connections=CAP)
    store = Store(config.database_url)
    token = add_user(store, "alice").token
    port = free_port()
    with Judge(repo, record=False) as judge:
        app = create_app(config, store, None, judge)
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                               http=guarded_protocol(config.read_timeout_s, config.max_connections)))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        wait_for_port(port)
        yield port, token
        server.should_exit = True
        thread.join(timeout=10)
    store.close()


def _connect(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    return s


def _closed_within(s: socket.socket, seconds: float) -> tuple[bool, bytes]:
    """Whether the server closes the connection within `seconds`, and what it sent before."""
    s.settimeout(seconds)
    got = b""
    try:
        while chunk := s.recv(4096):
            got += chunk
        return True, got
    except (socket.timeout, TimeoutError):
        return False, got
    except ConnectionResetError:
        return True, got


def _get(port: int, path: str = "/api/v1/health") -> bytes:
    with _connect(port) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        return _closed_within(s, 10)[1]


def test_a_connection_sending_headers_slowly_is_closed(server):
    port, _ = server
    with _connect(port) as s:
        started = time.monotonic()
        s.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        for _ in range(3):             # a header line now and then, never the blank line that ends them
            time.sleep(0.3)
            s.sendall(b"X-Slow: 1\r\n")
        closed, _ = _closed_within(s, READ_TIMEOUT_S + 5)
        assert closed and time.monotonic() - started < READ_TIMEOUT_S + 5
    assert _get(port).startswith(b"HTTP/1.1 200")


def test_a_connection_that_sends_nothing_is_closed(server):
    port, _ = server
    with _connect(port) as s:
        assert _closed_within(s, READ_TIMEOUT_S + 5)[0]


def test_a_body_sent_slowly_is_closed(server):
    port, token = server
    body = json.dumps({"problem": "patchify", "source": "x = 1\n" * 100}).encode()
    with _connect(port) as s:
        s.sendall(f"POST /api/v1/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
                  f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body[:10])
        started = time.monotonic()
        for i in range(10, 16):        # a byte now and then
            time.sleep(0.3)
            try:
                s.sendall(body[i:i + 1])
            except OSError:
                break
        closed, got = _closed_within(s, READ_TIMEOUT_S + 5)
        assert closed and time.monotonic() - started < READ_TIMEOUT_S + 5
        assert b"202" not in got


def test_a_request_sent_at_a_normal_pace_and_keep_alive_are_served(server):
    port, token = server
    with _connect(port) as s:
        s.settimeout(10)
        for _ in range(3):             # three requests on one connection, each well within the timeout
            s.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert _response(s).startswith(b"HTTP/1.1 200")
            time.sleep(0.2)


def _response(s: socket.socket) -> bytes:
    """One whole response: its head, then as many body bytes as its Content-Length says (a server may
    send the two in separate writes, so one recv can end between them)."""
    got = b""
    while b"\r\n\r\n" not in got:
        chunk = s.recv(4096)
        assert chunk, f"the connection closed after {got!r}"
        got += chunk
    head, body = got.split(b"\r\n\r\n", 1)
    length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        chunk = s.recv(4096)
        assert chunk, f"the connection closed after {got + body!r}"
        body += chunk
    assert len(body) == length, "more bytes than one response"
    return head + b"\r\n\r\n" + body


def test_connections_past_the_cap_are_503_and_closed(server):
    port, _ = server
    time.sleep(0.5)                                        # the fixture's probe connection is gone by now
    held = [_connect(port) for _ in range(CAP)]           # idle: each is closed after the read timeout
    try:
        time.sleep(0.3)
        with _connect(port) as extra:
            closed, got = _closed_within(extra, 5)
            assert closed and got.startswith(b"HTTP/1.1 503")
            body = json.loads(got.split(b"\r\n\r\n", 1)[1])
            assert body == {"error": {"status": 503, "message": "too many open connections; retry shortly"}}
    finally:
        for s in held:
            s.close()
    deadline = time.monotonic() + 10
    while not _get(port).startswith(b"HTTP/1.1 200") and time.monotonic() < deadline:
        time.sleep(0.2)                                    # room again once they are gone
    assert _get(port).startswith(b"HTTP/1.1 200")
