"""The small helper a bot author uses to put a bot on the network.

Write a function that takes the protocol's move request and returns one of its legal moves, then
serve it::

    from bots.sdk import run_bot

    def choose(request):
        return request["legal_moves"][0]

    if __name__ == "__main__":
        run_bot(choose, secret="local")  # `arena play`'s default secret; the registration's when deployed

It listens on 127.0.0.1 port :data:`DEFAULT_PORT` (8700; the ``PORT`` environment variable or the
``port`` argument say otherwise), away from ``arena serve`` (8000) and ``arena bots serve`` (8100),
and says where it listens when it starts.

The helper answers ``start`` and ``end`` notices and the platform's ``ping`` (sent at
registration, signed with the secret the author chose: :func:`new_secret` makes one), checks
``X-Arena-Signature`` on every request when given the secret (401 otherwise), and turns the
function's return value into ``{"move": ...}``. For a bot that keeps state per match, pass
``factory`` instead: it is called once per match and seat with the start (or first move) request
and returns an object with a ``choose`` method (see :class:`bots.base.Bot`).

The server keeps HTTP/1.1 connections open between requests (the referee sends a seat's every
request of a match over one connection); werkzeug's development server closes each one, so the
requests are handled here (:class:`KeepAliveHandler`) and handed to the app through WSGI.
"""

from __future__ import annotations

import io
import json
import os
import socket
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import unquote_to_bytes

from flask import Flask, Response, request
from werkzeug.serving import BaseWSGIServer, make_server

from bots.base import Bot, Request
from referee.protocol import SIGNATURE_HEADER, signature_matches
from referee.protocol import new_secret as new_secret  # for bot authors: a secret to register with

BotSource = Callable[[Request], Bot]
"""Builds the bot that plays one seat of one match, from that match's first request."""

MAX_LIVE_MATCHES = 10_000

DEFAULT_PORT = 8700
"""Where :func:`run_bot` listens unless told: not the platform's own ports (8000, 8100)."""


class _FunctionBot:
    def __init__(self, choose: Callable[[Request], dict[str, Any]]) -> None:
        self.choose = choose


class MatchBots:
    """One bot per (match, seat), kept from ``start`` to ``end`` and bounded in number, so a bot
    server never grows without limit when matches end without their ``end`` notice."""

    def __init__(self, source: BotSource) -> None:
        self.source = source
        self._live: OrderedDict[tuple[str, int], Bot] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, message: Request) -> Bot:
        key = (str(message.get("match_id")), int(message.get("seat", 0)))
        with self._lock:
            bot = self._live.get(key)
            if bot is None:
                bot = self._live[key] = self.source(message)
                while len(self._live) > MAX_LIVE_MATCHES:
                    self._live.popitem(last=False)
            return bot

    def end(self, message: Request) -> None:
        with self._lock:
            self._live.pop((str(message.get("match_id")), int(message.get("seat", 0))), None)


def _json(body: dict[str, Any], status: int = 200) -> Response:
    return Response(json.dumps(body), status=status, mimetype="application/json")


def answer(bots: MatchBots, secret: str | None, body: bytes, signature: str | None) -> Response:
    """The whole protocol, for one request: signature, ping, notices, moves."""
    if secret is not None and not signature_matches(secret, body, signature):
        return _json({"error": "bad or missing signature"}, 401)
    try:
        message = json.loads(body)
        kind = message["type"]
    except (ValueError, KeyError, TypeError):
        return _json({"error": "not a protocol request"}, 400)
    if kind == "ping":
        return _json({"pong": message.get("nonce")})
    if kind == "start":
        bots.get(message)
        return _json({"ok": True})
    if kind == "end":
        bots.end(message)
        return _json({"ok": True})
    if kind == "move":
        return _json({"move": bots.get(message).choose(message)})
    return _json({"error": f"unknown request type {kind!r}"}, 400)


def create_bot_app(
    choose: Callable[[Request], dict[str, Any]] | None = None,
    *,
    factory: BotSource | None = None,
    secret: str | None = None,
    path: str = "/",
) -> Flask:
    """A Flask app serving one bot at ``path``. Give ``choose`` or ``factory``, not both."""
    if (choose is None) == (factory is None):
        raise ValueError("give either choose or factory")
    if factory is not None:
        source: BotSource = factory
    else:
        function = choose
        assert function is not None  # one of the two was given, checked above
        source = lambda _message: _FunctionBot(function)  # noqa: E731
    bots = MatchBots(source)
    app = Flask("arena-bot")

    @app.post(path)
    def play() -> Response:
        return answer(bots, secret, request.get_data(), request.headers.get(SIGNATURE_HEADER))

    return app


MAX_REQUEST_BYTES = 8 * 1024 * 1024
IDLE_TIMEOUT_S = 60.0
_HOP_BY_HOP = frozenset({"connection", "keep-alive", "transfer-encoding", "content-length"})


class KeepAliveHandler(BaseHTTPRequestHandler):
    """HTTP/1.1 with persistent connections in front of a WSGI app (``self.server.app``).

    Each request body is read in full (``Content-Length``; chunked requests are refused with 411),
    the app's answer is collected and sent in one write with its ``Content-Length``, and the
    connection waits for the next request, up to :data:`IDLE_TIMEOUT_S` idle. No access log: a bot
    served beside a referee or a test would otherwise print every move.
    """

    protocol_version = "HTTP/1.1"
    timeout = IDLE_TIMEOUT_S
    disable_nagle_algorithm = True
    server: BaseWSGIServer

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (http.server's name)
        return

    def handle(self) -> None:
        try:
            super().handle()
        except (ConnectionError, TimeoutError):
            # the referee gave up on an answer (its deadline passed) and closed the connection
            self.close_connection = True

    def _serve(self) -> None:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            self.close_connection = True
            self._reply("411 Length Required", [("Content-Type", "text/plain")], [b"send a Content-Length"])
            return
        length_text = self.headers.get("Content-Length", "0") or "0"
        if not length_text.isdecimal() or int(length_text) > MAX_REQUEST_BYTES:
            self.close_connection = True
            self._reply("413 Content Too Large", [("Content-Type", "text/plain")], [b"request too large"])
            return
        body = self.rfile.read(int(length_text))
        status_and_headers: list[Any] = []

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            status_and_headers[:] = [status, headers]
            return lambda data: None  # the old-style write(); Flask does not use it

        try:
            chunks = self.server.app(self._environ(body), start_response)
            try:
                content = [bytes(chunk) for chunk in chunks]
            finally:
                close = getattr(chunks, "close", None)
                if close is not None:
                    close()
        except Exception:  # the app's own error handling failed: answer, and keep serving
            self.close_connection = True
            self._reply("500 Internal Server Error", [("Content-Type", "text/plain")], [b"server error"])
            return
        status, headers = status_and_headers
        self._reply(status, headers, content)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = _serve

    def _environ(self, body: bytes) -> dict[str, Any]:
        path, _, query = self.path.partition("?")
        host, port = self.server.server_address[:2]
        environ: dict[str, Any] = {
            "REQUEST_METHOD": self.command,
            "SCRIPT_NAME": "",
            "PATH_INFO": unquote_to_bytes(path).decode("latin-1"),
            "QUERY_STRING": query,
            "SERVER_NAME": str(host),
            "SERVER_PORT": str(port),
            "SERVER_PROTOCOL": self.request_version,
            "REMOTE_ADDR": self.client_address[0],
            "CONTENT_LENGTH": str(len(body)),
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(body),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": True,
            "wsgi.multiprocess": False,
            "wsgi.run_once": False,
        }
        for name, value in self.headers.items():
            key = name.upper().replace("-", "_")
            if key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
                if key == "CONTENT_TYPE":
                    environ[key] = value
                continue
            key = f"HTTP_{key}"
            environ[key] = f"{environ[key]},{value}" if key in environ else value
        return environ

    def _reply(self, status: str, headers: list[tuple[str, str]], content: list[bytes]) -> None:
        body = b"".join(content)
        lines = [f"HTTP/1.1 {status}"]
        lines += [f"{name}: {value}" for name, value in headers if name.lower() not in _HOP_BY_HOP]
        lines.append(f"Content-Length: {len(body)}")
        if self.close_connection:
            lines.append("Connection: close")
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        self.wfile.write(head + body)


def serve_app_in_thread(app: Flask, host: str = "127.0.0.1", port: int = 0) -> tuple[BaseWSGIServer, str]:
    """Serve a WSGI app from a daemon thread; returns the server (``shutdown()`` it) and base URL."""
    # werkzeug types the handler as its WSGIRequestHandler; any BaseHTTPRequestHandler serves
    server = make_server(host, port, app, threaded=True, request_handler=KeepAliveHandler)  # type: ignore[arg-type]
    threading.Thread(target=server.serve_forever, name=f"bot-server:{server.port}", daemon=True).start()
    return server, f"http://{host}:{server.port}"


def _port_from_environment() -> int:
    text = os.environ.get("PORT", "")
    if not text:
        return DEFAULT_PORT
    if not text.isdecimal() or not 0 < int(text) < 65536:
        raise SystemExit(f"PORT must be a port number (1-65535), not {text!r}")
    return int(text)


def run_bot(
    choose: Callable[[Request], dict[str, Any]] | None = None,
    *,
    factory: BotSource | None = None,
    secret: str | None = None,
    host: str = "127.0.0.1",
    port: int | None = None,
    path: str = "/",
) -> None:
    """Serve a bot until interrupted (a threaded development server: fine for one bot's matches).

    ``port``: the argument, else the ``PORT`` environment variable, else :data:`DEFAULT_PORT`. The
    address it listens on is printed once it does, so ``arena play`` can be pointed at it."""
    app = create_bot_app(choose, factory=factory, secret=secret, path=path)
    chosen = port if port is not None else _port_from_environment()
    try:  # werkzeug would print its own advice and exit; say it here, PORT included
        socket.create_server((host, chosen)).close()
    except OSError as error:
        raise SystemExit(
            f"cannot listen on {host} port {chosen}: {error.strerror or error} "
            "(another bot or server there? pass port= or set PORT)"
        ) from None
    # werkzeug types the handler as its WSGIRequestHandler; any BaseHTTPRequestHandler serves
    server = make_server(host, chosen, app, threaded=True, request_handler=KeepAliveHandler)  # type: ignore[arg-type]
    signed = "requests must be signed with the given secret" if secret is not None else "no signature check"
    print(f"bot listening on http://{host}:{server.port}{path} ({signed}); Ctrl-C stops it", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
