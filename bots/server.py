"""Every reference bot of every game over HTTP, at ``/<game>/<bot>``; ``GET /`` lists them.

Used by ``arena bots serve``, by the demo and by the integration tests. Each (match, seat) gets a
fresh bot seeded from the match id and seat, so a reference bot's play over HTTP is reproducible.
``secrets`` maps ``"<game>/<bot>"`` to the secret that bot is registered with (given here first:
registration pings the bot); a path with a secret refuses unsigned or wrongly signed requests, a
path without one accepts all. The dict is read at each request, so a caller may fill it after the
server started. ``protocol`` 2 serves the bots in protocol version 2 (they take version 1 requests
too; the SDK rebuilds the legal moves of a version 2 request from its observation).
"""

from __future__ import annotations

import json
from collections.abc import MutableMapping

from flask import Flask, Response, request
from werkzeug.serving import BaseWSGIServer

from bots.base import Bot, Request
from bots.registry import bots_for
from bots.sdk import BotSource, MatchBots, answer, serve_app_in_thread
from referee.protocol import PROTOCOL_VERSION, SIGNATURE_HEADER, check_version
from referee.registry import game_ids
from referee.rng import derive_seed


def reference_paths() -> list[str]:
    """``"<game>/<bot>"`` for every reference bot of every registered game."""
    return [f"{game_id}/{name}" for game_id in game_ids() for name in sorted(bots_for(game_id))]


def _source(game_id: str, name: str) -> BotSource:
    factory = bots_for(game_id)[name]

    def build(message: Request) -> Bot:
        return factory(derive_seed(0, message.get("match_id"), message.get("seat"), name))

    return build


def create_app(secrets: MutableMapping[str, str] | None = None, protocol: int = PROTOCOL_VERSION) -> Flask:
    secrets = secrets if secrets is not None else {}
    speaks = check_version(protocol)
    pools = {path: MatchBots(_source(*path.split("/", 1))) for path in reference_paths()}
    app = Flask("arena-reference-bots")

    @app.get("/")
    def listing() -> Response:
        body = {"bots": [{"game": p.split("/")[0], "bot": p.split("/")[1], "path": f"/{p}"} for p in pools]}
        return Response(json.dumps(body), mimetype="application/json")

    @app.post("/<game_id>/<name>")
    def play(game_id: str, name: str) -> Response:
        path = f"{game_id}/{name}"
        if path not in pools:
            body = {"error": f"no reference bot at /{path}"}
            return Response(json.dumps(body), status=404, mimetype="application/json")
        return answer(
            pools[path], secrets.get(path), request.get_data(), request.headers.get(SIGNATURE_HEADER), speaks
        )

    return app


def serve_in_thread(
    host: str = "127.0.0.1",
    port: int = 0,
    secrets: MutableMapping[str, str] | None = None,
    protocol: int = PROTOCOL_VERSION,
) -> tuple[BaseWSGIServer, str]:
    """Serve every reference bot from a daemon thread; returns the server and its base URL."""
    return serve_app_in_thread(create_app(secrets, protocol), host, port)
