"""The bot SDK's keep-alive server on the wire: framing, keep-alive, refusals, a failing app."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import pytest

from bots.sdk import create_bot_app, serve_app_in_thread
from referee.protocol import SIGNATURE_HEADER, encode, sign

SECRET = "s3cret"


def _message(kind: str, match_id: str = "m1", seat: int = 0) -> dict:
    message = {"protocol": 1, "type": kind, "match_id": match_id, "seat": seat, "observation": {}}
    if kind == "move":
        message["legal_moves"] = [{"take": 1}, {"take": 2}]
    return message


@pytest.fixture
def served() -> Iterator[int]:
    """The SDK's server with a bot that plays the last legal move, signed requests; its port."""
    server, _ = serve_app_in_thread(create_bot_app(lambda request: request["legal_moves"][-1], secret=SECRET))
    try:
        yield server.port
    finally:
        server.shutdown()
        server.server_close()


def _raw_request(body: bytes, *extra: str, version: str = "HTTP/1.1", sign_it: bool = True) -> bytes:
    lines = [f"POST / {version}", "Host: bot", f"Content-Length: {len(body)}", *extra]
    if sign_it:
        lines.append(f"{SIGNATURE_HEADER}: {sign(SECRET, body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def _read_answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One answer, read to its last byte and not beyond (a later answer stays on the socket)."""
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        byte = sock.recv(1)
        assert byte, f"closed before an answer: {head!r}"
        head += byte
    lines = head.decode("latin-1").rstrip("\r\n").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    content = b""
    while len(content) < int(headers["content-length"]):
        content += sock.recv(int(headers["content-length"]) - len(content))
    return int(lines[0].split()[1]), headers, content


def _closed(sock: socket.socket) -> bool:
    sock.settimeout(5)
    return sock.recv(1) == b""


@pytest.mark.integration
def test_one_connection_carries_many_requests_even_sent_back_to_back(served: int) -> None:
    body = encode(_message("move"))
    with socket.create_connection(("127.0.0.1", served), timeout=5) as sock:
        sock.sendall(_raw_request(body) + _raw_request(body))  # the second before the first answer
        answers = [_read_answer(sock), _read_answer(sock)]
        sock.sendall(_raw_request(body))
        answers.append(_read_answer(sock))
    assert [(status, json.loads(content)) for status, _, content in answers] == [
        (200, {"move": {"take": 2}})
    ] * 3
    assert all("connection" not in headers for _, headers, _ in answers)


@pytest.mark.integration
def test_a_client_that_expects_100_continue_is_told_to_go_on(served: int) -> None:
    body = encode(_message("move"))
    with socket.create_connection(("127.0.0.1", served), timeout=5) as sock:
        request = _raw_request(body, "Expect: 100-continue")
        sock.sendall(request[: -len(body)])
        assert sock.recv(100) == b"HTTP/1.1 100 Continue\r\n\r\n"
        sock.sendall(body)
        status, _, content = _read_answer(sock)
    assert status == 200 and json.loads(content) == {"move": {"take": 2}}


@pytest.mark.integration
@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 411),
        (f"POST / HTTP/1.1\r\nContent-Length: {9 * 1024 * 1024}\r\n\r\n".encode(), 413),
        (b"POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n", 413),
        (b"nonsense\r\n\r\n", 400),
        (b"POST / HTTP/1.1\r\n bad header\r\n\r\n", 400),
    ],
)
def test_requests_it_cannot_frame_are_answered_and_the_connection_closed(
    served: int, request_bytes: bytes, status: int
) -> None:
    with socket.create_connection(("127.0.0.1", served), timeout=5) as sock:
        sock.sendall(request_bytes)
        answered, headers, _ = _read_answer(sock)
        assert answered == status and headers["connection"] == "close"
        assert _closed(sock)


@pytest.mark.integration
@pytest.mark.parametrize(
    ("version", "extra"), [("HTTP/1.1", ("Connection: close",)), ("HTTP/1.0", ()), ("HTTP/1.1", ())]
)
def test_the_connection_is_kept_only_when_the_client_keeps_it(
    served: int, version: str, extra: tuple[str, ...]
) -> None:
    keeps = version == "HTTP/1.1" and not extra
    with socket.create_connection(("127.0.0.1", served), timeout=5) as sock:
        sock.sendall(_raw_request(encode(_message("move")), *extra, version=version))
        status, headers, _ = _read_answer(sock)
        assert status == 200
        assert ("connection" in headers) is not keeps
        if not keeps:
            assert headers["connection"] == "close" and _closed(sock)
        else:  # an unsigned request is the app's 401, on the same connection
            sock.sendall(_raw_request(encode(_message("move")), sign_it=False))
            assert _read_answer(sock)[0] == 401


@pytest.mark.integration
def test_a_failing_app_is_a_500_and_the_server_serves_on(served: int) -> None:
    app = create_bot_app(lambda request: 1 / 0, secret=None)
    app.testing = False
    server, _ = serve_app_in_thread(app)
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
            sock.sendall(_raw_request(encode(_message("move")), sign_it=False))
            assert _read_answer(sock)[0] == 500
    finally:
        server.shutdown()
        server.server_close()
