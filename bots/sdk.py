"""The small helper a bot author uses to put a bot on the network.

Write a function that takes the protocol's move request and returns one of its legal moves, then
serve it::

    from bots.sdk import run_bot

    def choose(request):
        return request["legal_moves"][0]

    run_bot(choose, secret="the secret from registration", port=8000)

The helper answers ``start`` and ``end`` notices, checks ``X-Arena-Signature`` on every request
when given the secret (401 otherwise), and turns the function's return value into
``{"move": ...}``. For a bot that keeps state per match, pass ``factory`` instead: it is called
once per match and seat with the start (or first move) request and returns an object with a
``choose`` method (see :class:`bots.base.Bot`).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, request
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from bots.base import Bot, Request
from referee.protocol import SIGNATURE_HEADER, signature_matches

BotSource = Callable[[Request], Bot]
"""Builds the bot that plays one seat of one match, from that match's first request."""

MAX_LIVE_MATCHES = 10_000


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
    """The whole protocol, for one request: signature, notices, moves."""
    if secret is not None and not signature_matches(secret, body, signature):
        return _json({"error": "bad or missing signature"}, 401)
    try:
        message = json.loads(body)
        kind = message["type"]
    except (ValueError, KeyError, TypeError):
        return _json({"error": "not a protocol request"}, 400)
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


class _QuietHandler(WSGIRequestHandler):
    """No access log: a bot served beside a referee or a test would otherwise print every move."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        return


def serve_app_in_thread(app: Flask, host: str = "127.0.0.1", port: int = 0) -> tuple[BaseWSGIServer, str]:
    """Serve a WSGI app from a daemon thread; returns the server (``shutdown()`` it) and base URL."""
    server = make_server(host, port, app, threaded=True, request_handler=_QuietHandler)
    threading.Thread(target=server.serve_forever, name=f"bot-server:{server.port}", daemon=True).start()
    return server, f"http://{host}:{server.port}"


def run_bot(
    choose: Callable[[Request], dict[str, Any]] | None = None,
    *,
    factory: BotSource | None = None,
    secret: str | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
) -> None:
    """Serve a bot until interrupted (a threaded development server: fine for one bot's matches)."""
    app = create_bot_app(choose, factory=factory, secret=secret)
    make_server(host, port, app, threaded=True).serve_forever()
