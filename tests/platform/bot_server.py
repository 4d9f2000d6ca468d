"""Well-behaved HTTP bots on loopback for the platform's tests, checking signatures when told the secret.

``/first`` plays the first legal move, ``/last`` the last one, ``/sleepy`` the first after 0.3 s,
``/oddlog`` the first with a log UTF-8 cannot encode (notices and pings are answered at once);
anything after the first path segment only names the bot (``/first/alice``). ``/noping`` plays
like ``/first`` but answers a ping as a notice (``{"ok": true}``, no pong), as a bot written before
the ping would; ``/hang`` answers nothing, and closes once :data:`HANG` is set (at most 10 s). The
paths of :data:`RAW` answer every request but the ping with bytes no HTTP client library would
produce, to check that the referee turns each into a fault. ``secrets`` maps a full path to the
secret the bot registered there was started with; requests to such a path must carry a valid
signature (401 if not).
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import MutableMapping
from http.server import BaseHTTPRequestHandler
from typing import Any

from referee.protocol import SIGNATURE_HEADER, signature_matches
from tests.misbehaving_bots import QuietHTTPServer

PINGS: list[tuple[str, dict]] = []
"""Every ping any path answered, with its path, in order (signed right, where a secret is set)."""
HANG = threading.Event()
"""``/hang`` holds every request until this is set (never, in the tests: a ping's deadline passes)."""
GATE = threading.Event()
"""``/gated`` answers its second and later moves only once this is set: a test holds a match
``running`` for exactly as long as it needs, without guessing timings."""

CHOICES = {
    "/first": (0.0, 0),
    "/gated": (0.0, 0),
    "/last": (0.0, -1),
    "/sleepy": (0.3, 0),
    "/oddlog": (0.0, 0),
    "/noping": (0.0, 0),
    "/hang": (0.0, 0),
}
LOGS = {"/oddlog": "\ud800 a lone surrogate: JSON can carry it, UTF-8 cannot"}
_DEEP = b"[" * 30_000 + b"]" * 30_000
RAW = {
    # JSON nested past the interpreter's recursion limit, within the 64 KB cap
    "/deep": b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(_DEEP), _DEEP),
    # "\xb2" is a superscript two in latin-1: str.isdigit() says yes, int() says no
    "/superscript-status": b"HTTP/1.1 \xb2 OK\r\nContent-Length: 2\r\n\r\n{}",
    "/superscript-length": b"HTTP/1.1 200 OK\r\nContent-Length: \xb2\r\n\r\n{}",
}


class _Server(QuietHTTPServer):
    """The bots' server, which can go away as a killed process does (:meth:`go_away`)."""

    daemon_threads = True
    allow_reuse_address = True  # a restart binds the same port at once

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler]) -> None:
        super().__init__(address, handler)
        self.open_sockets: set[socket.socket] = set()
        self.sockets_lock = threading.Lock()

    def process_request(self, request: Any, client_address: Any) -> None:
        with self.sockets_lock:
            self.open_sockets.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self.sockets_lock:
            self.open_sockets.discard(request)
        super().shutdown_request(request)

    def go_away(self) -> None:
        """Stop listening and drop every open connection, answered or not, as a bot killed does."""
        self.shutdown()
        self.server_close()
        with self.sockets_lock:
            for sock in self.open_sockets:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)


def start(secrets: MutableMapping[str, str], port: int = 0) -> tuple[_Server, str]:
    """Serve the bots on ``port`` of loopback (0: a free one); a restart passes the port it had."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            return

        def _send(self, status: int, body: dict) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            path = "/" + self.path.strip("/").split("/")[0]
            secret = secrets.get(self.path)
            if secret is not None and not signature_matches(secret, body, self.headers.get(SIGNATURE_HEADER)):
                self._send(401, {"error": "bad signature"})
                return
            if path not in CHOICES and path not in RAW:
                self._send(404, {"error": "no such bot"})
                return
            message = json.loads(body)
            if path == "/hang":
                HANG.wait(10)
                self.close_connection = True  # the caller gave up long ago: nothing to answer
                return
            if message["type"] == "ping" and path != "/noping":
                PINGS.append((self.path, message))
                self._send(200, {"pong": message["nonce"]})
                return
            if path in RAW:
                self.close_connection = True
                self.wfile.write(RAW[path])
                return
            if message["type"] != "move":
                self._send(200, {"ok": True})
                return
            delay, index = CHOICES[path]
            if path == "/gated" and message["turn"] >= 1:
                GATE.wait(60)
            time.sleep(delay)
            log = {"log": LOGS[path]} if path in LOGS else {}
            self._send(200, {"move": message["legal_moves"][index], **log})

    server = _Server(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"
