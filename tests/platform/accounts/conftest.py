"""A bot endpoint whose answer to a ping waits for the test: to hold a request in its ping for exactly
as long as a test needs, without guessing timings."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler

import pytest

from tests.misbehaving_bots import QuietHTTPServer


@dataclass
class GatedPing:
    """A bot endpoint whose answer to a ping waits until the test opens :attr:`release`; it says
    when a ping has come in (:attr:`arrived`). Any signature passes: only the timing matters here."""

    url: str
    arrived: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)


@pytest.fixture
def gated() -> Iterator[GatedPing]:
    holder: list[GatedPing] = []

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            return

        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            message = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            holder[0].arrived.set()
            holder[0].release.wait(30)  # a bound only, so that a broken run cannot hang
            data = json.dumps({"pong": message.get("nonce")}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = QuietHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    holder.append(GatedPing(f"http://127.0.0.1:{server.server_address[1]}/slow"))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield holder[0]
    holder[0].release.set()
    server.shutdown()
    server.server_close()
