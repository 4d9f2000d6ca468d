"""A bot server on loopback whose paths misbehave in every way the protocol names.

Each path answers a move request differently; ``/good`` plays the first legal move and checks the
signature. Used by the agent and ping tests and the platform's integration tests.

Every path misbehaves on every request, pings included. Under ``/registered`` (``/registered/slow``)
the same path answers a ping as it should (``{"pong": nonce}``) and misbehaves on the rest: a bot
that passed the ping at registration and broke later, as the platform's tests need.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from referee.protocol import SIGNATURE_HEADER, request_base, signature_matches

SECRET = "test-secret"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:  # keep test output quiet
        return

    def _send(self, status: int, body: bytes, content_type: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _first_legal(self, body: bytes) -> bytes:
        message = json.loads(body)
        if message["type"] == "ping":
            return json.dumps({"pong": message["nonce"]}).encode()
        if message["type"] != "move":
            return b'{"ok": true}'
        return json.dumps({"move": message["legal_moves"][0], "log": "first legal move"}).encode()

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        path = self.path.rstrip("/")
        if path.startswith("/registered/"):
            path = path.removeprefix("/registered")
            message = json.loads(body)
            if message.get("type") == "ping":
                self._send(200, json.dumps({"pong": message["nonce"]}).encode())
                return
        if path == "/good":
            if not signature_matches(SECRET, body, self.headers.get(SIGNATURE_HEADER)):
                self._send(401, b'{"error": "bad signature"}')
                return
            self._send(200, self._first_legal(body))
        elif path == "/slow":
            time.sleep(1.0)
            self._send(200, self._first_legal(body))
        elif path == "/trickle":
            answer = self._first_legal(body)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            for byte in answer:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(0.05)
        elif path == "/chunked":
            answer = self._first_legal(body)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for start in range(0, len(answer), 7):
                piece = answer[start : start + 7]
                self.wfile.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
            self.wfile.write(b"0\r\n\r\n")
        elif path == "/endless-chunk-size":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self.wfile.write(b"f" * 40_000)  # a chunk-size line that never ends
            self.wfile.flush()
            time.sleep(1.0)
        elif path == "/big":
            self._send(200, b'{"move": {}, "log": "' + b"x" * 100_000 + b'"}')
        elif path == "/notjson":
            self._send(200, b"this is not json", "text/plain")
        elif path == "/badschema":
            self._send(200, b'{"mov": {"take": 1}}')
        elif path == "/status500":
            self._send(500, b'{"error": "boom"}')
        elif path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "/good")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif path == "/illegal":
            self._send(200, b'{"move": {"take": 99}}')
        else:
            self._send(404, b'{"error": "no such path"}')


class QuietHTTPServer(ThreadingHTTPServer):
    """A test bot's server that lets a connection the client dropped go without a traceback: the
    referee closes on purpose a connection whose bot is too slow or broke the protocol, and the
    server's thread then reads a reset. Any other error is printed as usual."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class _IPv6Server(QuietHTTPServer):
    address_family = socket.AF_INET6


def start_server(host: str = "127.0.0.1") -> tuple[ThreadingHTTPServer, str]:
    """Start the server on a free port of ``host`` (a loopback address, IPv4 by default); returns it
    and its base URL."""
    server_class = _IPv6Server if ":" in host else QuietHTTPServer
    server = server_class((host, 0), _Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url_host = f"[{host}]" if ":" in host else host
    return server, f"http://{url_host}:{server.server_address[1]}"


def nim_move_request(move_ms: int) -> dict:
    """A move request of a two-seat Nim match at its first turn (5 stones), as the referee sends it."""
    message = request_base(
        kind="move",
        match_id="m1",
        game="nim",
        variant="standard",
        seat=0,
        seats=2,
        turn=0,
        time={"move_ms": move_ms, "bank_ms": 0},
        observation={"stones": 5},
    )
    message["legal_moves"] = [{"take": 1}, {"take": 2}]
    return message
