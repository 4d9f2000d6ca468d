"""A benchmark's bot in its own process: the first legal move after a fixed delay, signed requests.

``python -m bench.instant_bot PORT DELAY_MS SECRET [sdk|raw] [PROTOCOL]``; served by the bot SDK's
keep-alive server (:func:`bots.sdk.make_bot_server`) on gevent, so that hundreds of kept connections wait at
once without an OS thread each (gevent's own WSGI server writes an answer's head and body apart, and
the second write waits on the first one's acknowledgement: tens of milliseconds an answer on
loopback). Not a benchmark itself.

- ``sdk`` (the default): the SDK's bot app (Flask), which decodes every request in full, as any bot
  written with the SDK does;
- ``raw``: a bare WSGI app that checks the signature and reads the first legal move off the
  request's bytes without decoding the rest. A Vulkan! request carries hundreds of legal moves, and
  decoding them costs the bot more than the platform spends on the move; with the bot on the same
  cores as the worker, this one leaves the cores to the platform, as bots on other machines would.

Protocol version 2, whose move requests carry no ``legal_moves``: ``sdk`` started with ``PROTOCOL``
2 (default 1) is the SDK's app started with ``protocol=2``, which rebuilds the legal moves from the
observation with the game's engine (it answers version 1 requests as before). ``raw`` answers
either version: a version 2 move request has no list to read the first move off, so it decodes the
request and rebuilds the legal moves the same way (:func:`bots.sdk.legal_moves_from_request`), the
one honest way to know a legal move of every game without the list; it then costs about what
``sdk`` does.

Either waits ``DELAY_MS`` before answering a move (not a notice) with ``time.sleep``, which gevent
has patched: the wait parks the request's greenlet, so hundreds of requests wait at once for no CPU.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from typing import Any

_LEGAL = b'"legal_moves":['
_PING = b'"type":"ping"'
_MOVE = b'"type":"move"'
_DECODER = json.JSONDecoder()


def first_legal_answer(body: bytes) -> bytes:
    """The answer to a request: ``{"move": <its first legal move>}`` for a move request (the
    referee writes ``legal_moves`` last), ``{"pong": <nonce>}`` for the platform's ping (sent when the
    bot is registered, a few dozen bytes, decoded whole), ``{"ok":true}`` for a notice."""
    if _PING in body[:64]:
        return json.dumps({"pong": json.loads(body)["nonce"]}).encode()
    at = body.rfind(_LEGAL)
    if at < 0:
        if _MOVE not in body[:64]:
            return b'{"ok":true}'
        return _rebuilt_first_move(body)  # protocol 2: no list to read
    move, _ = _DECODER.raw_decode(body[at + len(_LEGAL) :].decode())
    return b'{"move":' + json.dumps(move, separators=(",", ":")).encode() + b"}"


def _rebuilt_first_move(body: bytes) -> bytes:
    """The first legal move of a version 2 request, rebuilt from its observation by the engine."""
    from bots.sdk import legal_moves_from_request
    from referee.protocol import decode, encode

    return b'{"move":' + encode(legal_moves_from_request(decode(body))[0]) + b"}"


def raw_app(
    secret: str, delay_ms: float = 0.0
) -> Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]:
    """The ``raw`` bot's WSGI app; a move's answer waits ``delay_ms`` (gevent must have patched
    ``time.sleep`` for the waits to overlap)."""
    import time

    from referee.protocol import SIGNATURE_HEADER, signature_matches

    header = "HTTP_" + SIGNATURE_HEADER.upper().replace("-", "_")

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        body = environ["wsgi.input"].read()
        if not signature_matches(secret, body, environ.get(header)):
            start_response("401 Unauthorized", [("Content-Type", "application/json")])
            return [b'{"error":"bad or missing signature"}']
        answer = first_legal_answer(body)
        if delay_ms and answer.startswith(b'{"move":'):
            time.sleep(delay_ms / 1000.0)
        start_response("200 OK", [("Content-Type", "application/json")])
        return [answer]

    return app


def main(port: int, delay_ms: float, secret: str, kind: str = "sdk", protocol: int = 1) -> None:
    from gevent import monkey

    monkey.patch_all()  # only when run: importing this module patches nothing
    import time

    from bots.sdk import create_bot_app, make_bot_server

    def choose(request: dict) -> dict:
        if delay_ms:
            time.sleep(delay_ms / 1000.0)
        return request["legal_moves"][0]

    if kind == "raw":
        app: Any = raw_app(secret, delay_ms)
    else:
        app = create_bot_app(choose, secret=secret, protocol=protocol)
    make_bot_server(app, "127.0.0.1", port).serve_forever()


if __name__ == "__main__":
    main(int(sys.argv[1]), float(sys.argv[2]), sys.argv[3], *sys.argv[4:5], *map(int, sys.argv[5:6]))
