"""The referee's side of a seat: an in-process bot or a bot endpoint over HTTP.

Both answer :meth:`Agent.ask` with a :class:`Reply` that carries either a move or a :class:`Fault`,
never an exception: a misbehaving bot must not be able to crash a referee or a worker. The HTTP
exchange itself (deadline, address pinning, keep-alive) is :mod:`referee.transport.connection`.
"""

from __future__ import annotations

import json
import ssl
import time
from dataclasses import dataclass
from typing import Any, Protocol

from referee.bot import Bot
from referee.protocol import (
    BadResponse,
    Fault,
    decode,
    encode,
    parse_move_response,
    sent_body,
    sent_json,
    sign,
)
from referee.transport.connection import (
    HEADER_LIMIT_BYTES,
    USER_AGENT,
    Answer,
    BotConnection,
    Cut,
    elapsed_ms,
)
from referee.transport.endpoints import EndpointPolicy

DEFAULT_MAX_BYTES = 64 * 1024

__all__ = [
    "DEFAULT_MAX_BYTES",
    "HEADER_LIMIT_BYTES",
    "USER_AGENT",
    "Agent",
    "HttpAgent",
    "LocalAgent",
    "Reply",
]


@dataclass(frozen=True)
class Reply:
    """A bot's answer to one move request: a move, or a fault with a short detail, and with what
    the bot sent when its answer came but was not a move (:func:`referee.protocol.sent_json`)."""

    move: dict[str, Any] | None
    think_ms: float
    fault: Fault | None = None
    detail: str = ""
    log: str | None = None
    sent: str | None = None

    @classmethod
    def from_answer(cls, document: Any, think_ms: float) -> Reply:
        """The reply for a decoded answer: its move and log, or an invalid-response fault."""
        try:
            move, log = parse_move_response(document)
        except BadResponse as error:
            return cls(None, think_ms, Fault.INVALID_RESPONSE, str(error), sent=sent_json(document))
        return cls(move, think_ms, log=log)

    @classmethod
    def failed(cls, fault: Fault, detail: str, started: float) -> Reply:
        return cls(None, elapsed_ms(started), fault, detail[:300])


class Agent(Protocol):
    def ask(self, request: dict[str, Any], timeout_s: float) -> Reply:
        """Send a move request; never raises."""
        ...

    def notify(self, request: dict[str, Any], timeout_s: float) -> None:
        """Send a start or end notice; its answer and failures are ignored. Never raises."""
        ...


class LocalAgent:
    """An in-process bot. The request and the move cross a JSON round trip, as on the wire, so a
    reference bot cannot behave differently in-process than behind HTTP."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def ask(self, request: dict[str, Any], timeout_s: float) -> Reply:
        started = time.perf_counter()
        try:
            move = self.bot.choose(decode(encode(request)))
            document = json.loads(json.dumps({"move": move}))
        except Exception as error:  # a bot's bug is a fault of that seat, never the referee's
            return Reply.failed(Fault.BOT_ERROR, f"{type(error).__name__}: {error}", started)
        think_ms = elapsed_ms(started)
        if think_ms > timeout_s * 1000.0:
            return Reply(None, think_ms, Fault.TIMEOUT, f"answered after {think_ms:.0f} ms")
        return Reply.from_answer(document, think_ms)

    def notify(self, request: dict[str, Any], timeout_s: float) -> None:
        notice = getattr(self.bot, "notice", None)
        if notice is None:
            return
        try:
            notice(decode(encode(request)))
        except Exception:  # notices never change a match
            return


class HttpAgent:
    """A bot endpoint, called with ``POST`` and the JSON request, signed with the bot's secret.

    One agent plays one seat: it keeps one HTTP/1.1 connection to the bot for the match (the
    ``end`` notice closes it, as does :meth:`close`), and opens it again whenever it was lost. A move
    request that finds the bot away (refused, reset or hung up on before any answer: a restart) is
    sent again until the move's deadline, so a bot back in time loses no move; a notice is sent
    once, its failure ignored. A move's think time runs from the send of the request's last byte to
    the arrival of the answer's last byte (:class:`referee.transport.connection.Answer`), so neither the
    time a busy worker takes to send the request nor to come round to reading the answer is the
    bot's. Its requests go one at a time, as
    the runner sends them: an agent is not shared between threads.
    """

    def __init__(
        self,
        url: str,
        secret: str,
        policy: EndpointPolicy | None = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.url = url
        self.secret = secret
        self.policy = policy if policy is not None else EndpointPolicy.from_env()
        self.max_bytes = max_bytes
        # how https endpoints are checked; None: the system's trusted CAs, loaded once per process
        # and only if an https endpoint is called
        self.tls = tls
        self._connection = BotConnection(url, self.policy, max_bytes, tls)

    def ask(self, request: dict[str, Any], timeout_s: float) -> Reply:
        started = time.perf_counter()
        try:
            # a bot restarting is waited for, within the move's time, rather than faulted at once
            answer = self._post(request, started, timeout_s, retry_unreachable=True)
        except Cut as cut:
            return Reply.failed(cut.fault, cut.detail, started)
        # from the request's send to the answer's arrival, not to its reading: a busy worker may
        # come round to read it much later
        status, body = answer.status, answer.body
        think_ms = answer.think_ms
        if status != 200:
            return Reply(None, think_ms, Fault.HTTP_STATUS, f"HTTP status {status}")
        try:
            document = decode(body)
        except (ValueError, RecursionError):
            return Reply(None, think_ms, Fault.INVALID_RESPONSE, "answer is not JSON", sent=sent_body(body))
        return Reply.from_answer(document, think_ms)

    def notify(self, request: dict[str, Any], timeout_s: float) -> None:
        try:
            self._post(request, time.perf_counter(), timeout_s)
        except Cut:
            return
        finally:
            if request.get("type") == "end":
                self.close()  # the match is over: no more requests for this seat

    def close(self) -> None:
        """Close the kept connection, if any; a later request opens a new one."""
        self._connection.close()

    def __enter__(self) -> HttpAgent:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _post(
        self, request: dict[str, Any], started: float, timeout_s: float, retry_unreachable: bool = False
    ) -> Answer:
        body = encode(request)
        return self._connection.post(body, sign(self.secret, body), started, timeout_s, retry_unreachable)
