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
function's return value into ``{"move": ...}``. ``secret`` may also be a list of secrets, any of which
signs a request: while a bot changes secrets (``POST /api/v1/bots/<id>/secret``), start it with
``secret=[new, old]`` so the ping of the new one and the matches still signed with the old one pass
alike, then restart it with the new one alone. For a bot that keeps state per match, pass
``factory`` instead: it is called once per match and seat with the start (or first move) request
and returns an object with a ``choose`` method (see :class:`bots.base.Bot`).

Protocol version 2 (``docs/protocol.md``): its move requests carry no ``legal_moves``, which spares
the platform and the bot most of each request's bytes. Start the bot with ``protocol=2`` (and
register it with ``"protocol": 2``): for every version 2 move request the helper rebuilds
``request["legal_moves"]`` from the observation with the game's engine
(:func:`legal_moves_from_request`), the same moves in the same order as version 1 would have sent,
so ``choose`` is the same function in either version. A bot started for version 2 still takes
version 1 requests; one started for version 1 (the default) answers a version 2 request, the
registration's ping included, with 400.

``validate=True`` (opt-in, for a bot being written) checks every move request's observation and
legal moves, and the move ``choose`` returns, against the game's JSON Schemas
(``GET /api/v1/games/<id>/schema``, :mod:`bots.schema_check`): a request that does not fit is
answered 400 and a move that does not 500, each naming the field, so the fault the referee records
says it.

The server keeps HTTP/1.1 connections open between requests (the referee sends a seat's every
request of a match over one connection); werkzeug's development server closes each one, so the
requests are read here, on the socket (:class:`KeepAliveHandler`, one thread a connection), and
handed to the app through WSGI. :func:`make_bot_server` gives that server for any bot app
(``arena bots serve`` uses it). Requests are decoded and answers encoded with orjson (a Vulkan!
request carries hundreds of legal moves; the standard decoder costs several times more).
"""

from __future__ import annotations

import contextlib
import io
import os
import socket
import socketserver
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import unquote_to_bytes

from flask import Flask, Response, request
from werkzeug.serving import BaseWSGIServer, make_server

from bots import schema_check
from bots.base import Bot, Request
from referee import protocol
from referee.observed import legal_moves_from_observation
from referee.protocol import PROTOCOL_VERSION, SIGNATURE_HEADER, signature_matches
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
    return Response(protocol.encode(body), status=status, mimetype="application/json")


Secrets = str | Sequence[str] | None
"""One secret, several (any of them signs a request: a bot changing secrets), or None (no check)."""


def _secret_list(secret: Secrets) -> tuple[str, ...] | None:
    """The secrets as a tuple, None for no check; refuses an empty list (it would refuse everything)."""
    if secret is None:
        return None
    found = (secret,) if isinstance(secret, str) else tuple(secret)
    if not found or not all(isinstance(one, str) and one for one in found):
        raise ValueError("secret: give a non-empty secret, a non-empty list of them, or None for no check")
    return found


class CannotRebuild(ValueError):
    """A version 2 move request whose legal moves the game's engine cannot rebuild here (a game this
    installation does not know, or an observation that is not of the game)."""


def legal_moves_from_request(request: Request) -> list[dict[str, Any]]:
    """The legal moves of a move request: its ``legal_moves`` (version 1), else rebuilt from its
    observation with the game's engine (version 2), the same moves in the same order.

    The engine rebuilds a position agreeing with everything the seat sees
    (:mod:`referee.observed`) and lists its legal moves; what the seat cannot see does not change
    them. Raises :class:`CannotRebuild` when it cannot.
    """
    given = request.get("legal_moves")
    if given is not None:
        return list(given)
    try:
        return legal_moves_from_observation(request["game"], request["observation"], request["seat"])
    except NotImplementedError as error:
        raise CannotRebuild(str(error)) from None
    except (ValueError, KeyError, TypeError, IndexError) as error:  # SetupError is a ValueError
        raise CannotRebuild(f"cannot rebuild the legal moves: {type(error).__name__}: {error}") from None


def _version_problem(message: Request, speaks: int) -> str | None:
    """Why a request of another protocol version than the bot was started for is refused, or None.
    A bot of version 2 takes version 1 requests as well (they carry the list), so that it can be
    started in version 2 before its registration is changed to it."""
    version = message.get("protocol", protocol.PROTOCOL_VERSION)
    if version in protocol.PROTOCOL_VERSIONS and version > speaks:
        return (
            f"this bot was started for protocol {speaks}, the request is protocol {version} "
            f"(start it with protocol={version}, or register it with protocol {speaks})"
        )
    return None


def answer(
    bots: MatchBots,
    secret: Secrets,
    body: bytes,
    signature: str | None,
    speaks: int = PROTOCOL_VERSION,
    validate: bool = False,
) -> Response:
    """The whole protocol, for one request: signature (by the secret or any of the secrets), version,
    ping, notices, moves. ``speaks``: the protocol version the bot was started for; a request of a
    later version is refused with 400 (a ping too, so that a registration in a version the bot was
    not started for is refused naming ``protocol``). A version 2 move request gets its
    ``legal_moves`` rebuilt from the observation before the bot sees it. ``validate``: check the
    request and the move against the game's JSON Schemas (see the module)."""
    secrets = (secret,) if isinstance(secret, str) else secret
    if secrets is not None and not any(signature_matches(one, body, signature) for one in secrets):
        return _json({"error": "bad or missing signature"}, 401)
    try:
        message = protocol.decode(body)
        kind = message["type"]
    except (ValueError, KeyError, TypeError):
        return _json({"error": "not a protocol request"}, 400)
    problem = _version_problem(message, speaks)
    if problem is not None:
        return _json({"error": problem}, 400)
    if kind == "ping":
        return _json({"pong": message.get("nonce")})
    if kind == "start":
        bots.get(message)
        return _json({"ok": True})
    if kind == "end":
        bots.end(message)
        return _json({"ok": True})
    if kind == "move":
        if "legal_moves" not in message:
            try:
                message["legal_moves"] = legal_moves_from_request(message)
            except CannotRebuild as error:
                return _json({"error": str(error)}, 400)
        if validate and (problem := schema_check.request_problem(message)) is not None:
            return _json({"error": problem}, 400)
        move = bots.get(message).choose(message)
        if validate and (problem := schema_check.move_problem(message, move)) is not None:
            return _json({"error": problem}, 500)
        return _json({"move": move})
    return _json({"error": f"unknown request type {kind!r}"}, 400)


def create_bot_app(
    choose: Callable[[Request], dict[str, Any]] | None = None,
    *,
    factory: BotSource | None = None,
    secret: Secrets = None,
    path: str = "/",
    protocol: int = PROTOCOL_VERSION,
    validate: bool = False,
) -> Flask:
    """A Flask app serving one bot at ``path``. Give ``choose`` or ``factory``, not both; ``secret``
    one secret or a list of them (see the module); ``protocol`` the version the bot is registered
    with (1 or 2: see the module); ``validate`` checks requests and moves against the game's JSON
    Schemas (see the module)."""
    if (choose is None) == (factory is None):
        raise ValueError("give either choose or factory")
    secrets = _secret_list(secret)  # checked here, at start, not on the first request
    speaks = _checked_protocol(protocol)
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
        signature = request.headers.get(SIGNATURE_HEADER)
        return answer(bots, secrets, request.get_data(), signature, speaks, validate)

    return app


def _checked_protocol(version: int) -> int:
    try:
        return protocol.check_version(version)
    except ValueError as error:
        raise ValueError(f"protocol: {error}") from None


MAX_REQUEST_BYTES = 8 * 1024 * 1024
MAX_HEAD_BYTES = 64 * 1024
IDLE_TIMEOUT_S = 60.0
LISTEN_BACKLOG = 1024
_RECV_BYTES = 256 * 1024
_HOP_BY_HOP = frozenset({"connection", "keep-alive", "transfer-encoding", "content-length"})


class _Refused(Exception):
    """A request the server answers itself, with this status and text, and then closes."""

    def __init__(self, status: str, text: str) -> None:
        super().__init__(text)
        self.status = status
        self.text = text


class KeepAliveHandler(socketserver.BaseRequestHandler):
    """HTTP/1.1 with persistent connections in front of a WSGI app (``self.server.app``).

    One handler (one thread of the threading server) serves one connection, request after request,
    up to :data:`IDLE_TIMEOUT_S` idle. Each request body is read in full (``Content-Length``;
    chunked requests are refused with 411), the app's answer is collected and sent in one write
    with its ``Content-Length``, so that no answer waits on Nagle's algorithm for a second segment.

    Written on the socket rather than on :class:`http.server.BaseHTTPRequestHandler`: the referee
    sends a seat's every request over one connection and a request can carry tens of kilobytes of
    legal moves, and the standard handler's buffered files and ``email``-module header parsing cost
    more per request than the rest of the exchange. No access log: a bot served beside a referee or
    a test would otherwise print every move.
    """

    server: BaseWSGIServer

    def handle(self) -> None:
        sock: socket.socket = self.request
        buffer = bytearray()
        try:
            sock.settimeout(IDLE_TIMEOUT_S)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            while self._serve_one(sock, buffer):
                pass
        except _Refused as refused:
            body = refused.text.encode()
            head = (
                f"HTTP/1.1 {refused.status}\r\nContent-Type: text/plain\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
            )
            with contextlib.suppress(OSError):
                sock.sendall(head.encode() + body)
        except OSError:  # the referee gave up on an answer (its deadline passed) and closed, or idle
            return

    def _serve_one(self, sock: socket.socket, buffer: bytearray) -> bool:
        """Read one request, answer it; whether the connection stays open for the next one."""
        while True:
            while buffer[:2] == b"\r\n":  # tolerated between requests (RFC 9112, 2.2)
                del buffer[:2]
            end = buffer.find(b"\r\n\r\n")
            if end >= 0:
                break
            if len(buffer) > MAX_HEAD_BYTES:
                raise _Refused("431 Request Header Fields Too Large", "request head too large")
            chunk = sock.recv(_RECV_BYTES)
            if not chunk:
                return False  # closed between requests: the normal end of a kept connection
            buffer += chunk
        lines = buffer[:end].decode("latin-1").split("\r\n")
        del buffer[: end + 4]
        parts = lines[0].split(" ")
        if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
            raise _Refused("400 Bad Request", "not an HTTP/1.x request")
        method, target, version = parts
        headers: list[tuple[str, str]] = []
        fields: dict[str, str] = {}
        for line in lines[1:]:
            name, sep, value = line.partition(":")
            if not sep or not name or name != name.strip():
                raise _Refused("400 Bad Request", "malformed header line")
            value = value.strip()
            headers.append((name, value))
            key = name.lower()
            fields[key] = f"{fields[key]}, {value}" if key in fields else value
        if "chunked" in fields.get("transfer-encoding", "").lower():
            raise _Refused("411 Length Required", "send a Content-Length")
        length_text = fields.get("content-length", "0") or "0"
        if not length_text.isdecimal() or int(length_text) > MAX_REQUEST_BYTES:
            raise _Refused("413 Content Too Large", "request too large")
        length = int(length_text)
        connection = fields.get("connection", "").lower()
        keep = "close" not in connection if version == "HTTP/1.1" else "keep-alive" in connection
        if len(buffer) < length and fields.get("expect", "").lower() == "100-continue":
            sock.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
        while len(buffer) < length:
            chunk = sock.recv(max(_RECV_BYTES, length - len(buffer)))
            if not chunk:
                return False  # closed in the middle of the body: nobody to answer
            buffer += chunk
        body = bytes(buffer[:length])
        del buffer[:length]
        status, response_headers, content, failed = self._call_app(method, target, version, headers, body)
        keep = keep and not failed
        out = [f"HTTP/1.1 {status}"]
        out += [f"{name}: {value}" for name, value in response_headers if name.lower() not in _HOP_BY_HOP]
        out.append(f"Content-Length: {len(content)}")
        if not keep:
            out.append("Connection: close")
        sock.sendall(("\r\n".join(out) + "\r\n\r\n").encode("latin-1") + content)
        return keep

    def _call_app(
        self, method: str, target: str, version: str, headers: list[tuple[str, str]], body: bytes
    ) -> tuple[str, list[tuple[str, str]], bytes, bool]:
        """The app's status, headers and whole body, and whether it failed (the answer is then a 500)."""
        status_and_headers: list[Any] = []

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            status_and_headers[:] = [status, headers]
            return lambda data: None  # the old-style write(); Flask does not use it

        try:
            chunks = self.server.app(self._environ(method, target, version, headers, body), start_response)
            try:
                content = b"".join(bytes(chunk) for chunk in chunks)
            finally:
                close = getattr(chunks, "close", None)
                if close is not None:
                    close()
        except Exception:  # the app's own error handling failed: answer, and keep serving others
            return "500 Internal Server Error", [("Content-Type", "text/plain")], b"server error", True
        status, response_headers = status_and_headers
        return status, response_headers, content, False

    def _environ(
        self, method: str, target: str, version: str, headers: list[tuple[str, str]], body: bytes
    ) -> dict[str, Any]:
        path, _, query = target.partition("?")
        host, port = self.server.server_address[:2]
        environ: dict[str, Any] = {
            "REQUEST_METHOD": method,
            "SCRIPT_NAME": "",
            "PATH_INFO": unquote_to_bytes(path).decode("latin-1"),
            "QUERY_STRING": query,
            "SERVER_NAME": str(host),
            "SERVER_PORT": str(port),
            "SERVER_PROTOCOL": version,
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
        for name, value in headers:
            key = name.upper().replace("-", "_")
            if key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
                if key == "CONTENT_TYPE":
                    environ[key] = value
                continue
            key = f"HTTP_{key}"
            environ[key] = f"{environ[key]},{value}" if key in environ else value
        return environ


def make_bot_server(app: Flask, host: str = "127.0.0.1", port: int = 0) -> BaseWSGIServer:
    """A threading server for a WSGI app, one thread per kept connection (:class:`KeepAliveHandler`);
    ``serve_forever()`` it. Used by the SDK, ``arena bots serve`` and the benchmarks' bots."""
    server: BaseWSGIServer = make_server(host, port, app, threaded=True, request_handler=KeepAliveHandler)  # type: ignore[arg-type]  # werkzeug names its own handler class; its server takes any socketserver handler
    server.socket.listen(LISTEN_BACKLOG)  # many referees' seats may connect at once
    return server


def serve_app_in_thread(app: Flask, host: str = "127.0.0.1", port: int = 0) -> tuple[BaseWSGIServer, str]:
    """Serve a WSGI app from a daemon thread; returns the server (``shutdown()`` it) and base URL."""
    server = make_bot_server(app, host, port)
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
    secret: Secrets = None,
    host: str = "127.0.0.1",
    port: int | None = None,
    path: str = "/",
    protocol: int = PROTOCOL_VERSION,
    validate: bool = False,
) -> None:
    """Serve a bot until interrupted (a threaded development server: fine for one bot's matches).

    ``port``: the argument, else the ``PORT`` environment variable, else :data:`DEFAULT_PORT`. The
    address it listens on is printed once it does, so ``arena play`` can be pointed at it."""
    app = create_bot_app(
        choose, factory=factory, secret=secret, path=path, protocol=protocol, validate=validate
    )
    chosen = port if port is not None else _port_from_environment()
    try:  # werkzeug would print its own advice and exit; say it here, PORT included
        socket.create_server((host, chosen)).close()
    except OSError as error:
        raise SystemExit(
            f"cannot listen on {host} port {chosen}: {error.strerror or error} "
            "(another bot or server there? pass port= or set PORT)"
        ) from None
    server = make_bot_server(app, host, chosen)
    if secret is None:
        signed = "no signature check"
    elif isinstance(secret, str) or len(secret) == 1:
        signed = "requests must be signed with the given secret"
    else:
        signed = f"requests must be signed with one of the {len(secret)} given secrets"
    if protocol != PROTOCOL_VERSION:
        signed += f"; protocol {protocol}, register it with that version"
    print(f"bot listening on http://{host}:{server.port}{path} ({signed}); Ctrl-C stops it", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
