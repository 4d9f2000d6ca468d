"""Well-behaved HTTP bots on loopback for the platform's tests, checking signatures when told the secret.

``/first`` plays the first legal move, ``/last`` the last one, ``/sleepy`` the first after 0.3 s
(notices are answered at once); anything after the first path segment only names the bot
(``/first/alice``). ``secrets`` maps a full path to the secret the platform gave the bot
registered there; requests to such a path must carry a valid signature (401 if not).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import MutableMapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from referee.protocol import SIGNATURE_HEADER, signature_matches

CHOICES = {
    "/first": (0.0, 0),
    "/last": (0.0, -1),
    "/sleepy": (0.3, 0),
}


def start(secrets: MutableMapping[str, str]) -> tuple[ThreadingHTTPServer, str]:
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
            if path not in CHOICES:
                self._send(404, {"error": "no such bot"})
                return
            message = json.loads(body)
            if message["type"] != "move":
                self._send(200, {"ok": True})
                return
            delay, index = CHOICES[path]
            time.sleep(delay)
            self._send(200, {"move": message["legal_moves"][index]})

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"
