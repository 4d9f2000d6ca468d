"""A request's body must arrive within ``ARENA_REQUEST_BODY_SECONDS`` of its head: a body trickled a
byte at a time is answered 408 and its connection closed, under gunicorn with the deployed settings
(gevent workers, Redis) and under werkzeug's threaded server (``arena serve``), while the API keeps
answering everyone else. A chunked body over the size limit is a 413 on the deployed server too.

The setting is made small here (2 s); the only timing bound is a generous multiple of it, which
keeps a broken run from hanging (a trickle that is never cut would go on for good)."""

from __future__ import annotations

import contextlib
import json
import os
import select
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from arena.api import MAX_BODY_BYTES, create_app
from tests.platform.conftest import ListQueue, make_runtime
from tests.platform.own_redis import free_port, own_redis_server
from tests.platform.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
BODY_S = 2
"""``ARENA_REQUEST_BODY_SECONDS`` in these tests."""
GIVE_UP_S = 10 * BODY_S + 10
"""How long a trickle goes on before the test gives up on its being cut: generous, from the setting."""
TRICKLERS = 5
DECLARED = 10_000
"""The ``Content-Length`` a trickler declares: far more bytes than it sends before it is cut."""


@dataclass
class Trickle:
    """One client sending a body a byte every ``every_s`` until the server answers or closes."""

    port: int
    chunked: bool = False
    every_s: float = 0.2
    sent: int = 0
    answer: bytes = b""
    closed: bool = False
    started: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        framing = (
            f"Transfer-Encoding: chunked\r\n\r\n{DECLARED:x}\r\n"  # one chunk, sent a byte at a time
            if self.chunked
            else f"Content-Length: {DECLARED}\r\n\r\n"
        )
        head = (
            "POST /api/v1/bots HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + framing
            + "{"
        )
        with socket.create_connection(("127.0.0.1", self.port), timeout=GIVE_UP_S) as sock:
            sock.sendall(head.encode())
            self.started.set()
            deadline = time.monotonic() + GIVE_UP_S
            while time.monotonic() < deadline:
                # wait for the answer; without one, the next byte after every_s (the trickle's pace)
                readable, _, _ = select.select([sock], [], [], self.every_s)
                if readable:
                    self._read_to_the_end(sock)
                    return
                try:
                    sock.sendall(b" ")
                except OSError:  # the server closed it without an answer
                    self.closed = True
                    return
                self.sent += 1

    def _read_to_the_end(self, sock: socket.socket) -> None:
        try:
            while chunk := sock.recv(65536):
                self.answer += chunk
        except OSError:  # a reset after the answer (bytes of ours the server never read)
            pass
        self.closed = True

    @property
    def status(self) -> int:
        return int(self.answer.split(b" ", 2)[1]) if self.answer.startswith(b"HTTP/1.") else 0

    def body(self) -> dict:
        return json.loads(self.answer.split(b"\r\n\r\n", 1)[1])


def health(port: int) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=5) as answer:
            return int(answer.status)
    except (OSError, urllib.error.HTTPError):
        return 0


def trickled_bodies_are_cut(port: int) -> None:
    """Several trickled bodies at once, sized and chunked: each is answered 408 with the error body
    and its connection closed, well within the generous bound, while /health answers throughout."""
    trickles = [Trickle(port, chunked=n % 2 == 1) for n in range(TRICKLERS)]
    threads = [threading.Thread(target=trickle.run, daemon=True) for trickle in trickles]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for trickle in trickles:
        assert trickle.started.wait(GIVE_UP_S), "a trickler could not connect"
    wait_until(lambda: all(t.sent for t in trickles), GIVE_UP_S, "the tricklers did not send")
    assert health(port) == 200  # the others are answered while the trickles hold their connections
    for thread in threads:
        thread.join(GIVE_UP_S + 5)
    took = time.monotonic() - began
    for trickle in trickles:
        assert trickle.closed and trickle.status == 408, trickle.answer[:300]
        body = trickle.body()
        assert body["code"] == 408 and set(body) == {"code", "status", "message", "errors"}
        assert trickle.sent < DECLARED - 1  # cut long before the body was whole
    assert took < GIVE_UP_S
    assert health(port) == 200


def chunked_post(port: int, body: bytes) -> int:
    """POST ``body`` in 64 KB chunks; the answer's status (0 when the connection was cut instead)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(
            b"POST /api/v1/bots HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        with contextlib.suppress(OSError):  # the server may answer and stop reading before the end
            for start in range(0, len(body), 65536):
                piece = body[start : start + 65536]
                sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
            sock.sendall(b"0\r\n\r\n")
        answer = b""
        with contextlib.suppress(OSError):
            while b"\r\n" not in answer and (chunk := sock.recv(65536)):
                answer += chunk
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.") else 0


@contextlib.contextmanager
def gunicorn_api(redis_url: str, tmp_path: Path) -> Iterator[int]:
    """The API under gunicorn with the deployed settings (one process), the body time small."""
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "platform"),
        "REDIS_URL": redis_url,
        "ARENA_ADMIN_TOKEN": "t" * 32,
        "ARENA_REQUEST_BODY_SECONDS": str(BODY_S),
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": "1",
    }
    log = tmp_path / "gunicorn.log"
    with log.open("w") as sink:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "arena.wsgi:app"],
            cwd=ROOT,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    try:

        def healthy() -> bool:
            assert server.poll() is None, log.read_text()
            return health(port) == 200

        wait_until(healthy, 30, f"gunicorn did not start (see {log})", poll_s=0.2)
        yield port
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@pytest.mark.integration
def test_trickled_bodies_are_cut_under_the_deployed_settings(tmp_path: Path) -> None:
    with own_redis_server("pw123") as redis_url, gunicorn_api(redis_url, tmp_path) as port:
        trickled_bodies_are_cut(port)
        over = MAX_BODY_BYTES + 100_000
        assert chunked_post(port, b'{"name": "' + b"x" * over + b'"}') == 413
        assert chunked_post(port, b'{"name": "n"}') == 422  # read whole: its fields are checked


@pytest.mark.integration
def test_trickled_bodies_are_cut_by_arena_serves_server() -> None:
    app = create_app(make_runtime(ListQueue(), request_body_s=BODY_S))
    server = make_server("127.0.0.1", 0, app, threaded=True)  # as arena serve runs it
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        trickled_bodies_are_cut(server.port)
    finally:
        server.shutdown()
        thread.join(10)
