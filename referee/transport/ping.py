"""The ``ping`` request: one signed exchange that tells whether a bot endpoint is ready to play.

The platform pings a bot before it accepts a registration, a new secret or a new endpoint, so that
a wrong secret or an unreachable bot is refused there and then, with the reason, instead of
showing up later as a forfeited match. The ping goes through the same connection code as a move
(:mod:`referee.transport.connection`): the endpoint policy is checked, the address pinned, and the
exchange, name resolution included, runs under a move's deadlines, with a short time.

The bot must answer ``200`` with ``{"pong": <the request's nonce>}``: echoing a fresh nonce shows
that the answer comes from a bot that read this very request, not from any web server that says
200 to everything.
"""

from __future__ import annotations

import secrets
import ssl
import time
from dataclasses import dataclass
from typing import Any

from referee.protocol import PROTOCOL_VERSION, Fault, decode, encode, sign
from referee.transport.connection import AnswerTooLarge, BotConnection, Cut, elapsed_ms
from referee.transport.endpoints import EndpointPolicy

PING_TIMEOUT_S = 3.0
"""How long the bot has to answer a ping: to be connected to (name resolution included), and then
from the request's send to the answer's last byte."""
PING_MAX_BYTES = 4096
"""A pong is a few dozen bytes; anything much larger is not one."""


@dataclass(frozen=True)
class PingResult:
    """How a ping went: ``fault`` is None when the bot answered as the protocol says."""

    fault: Fault | None
    detail: str
    round_trip_ms: float
    status: int | None = None
    connected: bool = False
    """Whether a TCP connection was made (a failure after it: something listened, but not as a bot)."""
    too_large: bool = False
    """The bot answered 200 with more than :data:`PING_MAX_BYTES`: an HTTP answer, but no pong."""

    @property
    def ok(self) -> bool:
        return self.fault is None


def ping_request(nonce: str, protocol: int = PROTOCOL_VERSION) -> dict[str, Any]:
    """The ``ping`` message: no match, only a nonce to echo, in the protocol version the bot is to
    be spoken to (a bot may refuse a version it does not speak)."""
    return {"protocol": protocol, "type": "ping", "nonce": nonce}


def judge_pong(document: Any, nonce: str) -> str | None:
    """What is wrong with a decoded answer to a ping, or None if it is the expected pong."""
    if not isinstance(document, dict) or "pong" not in document:
        return 'the answer has no "pong"'
    if document["pong"] != nonce:
        return "the answer's pong is not the ping's nonce"
    return None


def ping(
    url: str,
    secret: str,
    policy: EndpointPolicy,
    timeout_s: float = PING_TIMEOUT_S,
    tls: ssl.SSLContext | None = None,
    protocol: int = PROTOCOL_VERSION,
) -> PingResult:
    """Send one signed ping of version ``protocol`` to ``url`` on a fresh connection and judge the
    answer; never raises."""
    nonce = secrets.token_hex(16)
    body = encode(ping_request(nonce, protocol))
    started = time.perf_counter()
    connection = BotConnection(url, policy, PING_MAX_BYTES, tls)
    try:
        sent = connection.post(body, sign(secret, body), started, timeout_s)
    except AnswerTooLarge as too_large:  # another status than 200 tells more than the size
        if too_large.status != 200:
            status = too_large.status
            return PingResult(Fault.HTTP_STATUS, f"HTTP status {status}", elapsed_ms(started), status, True)
        return PingResult(too_large.fault, too_large.detail, elapsed_ms(started), 200, True, too_large=True)
    except Cut as cut:
        return PingResult(cut.fault, cut.detail[:300], elapsed_ms(started), connected=connection.connected)
    finally:
        connection.close()
    status, answer = sent.status, sent.body
    elapsed = sent.think_ms  # timed as a move's think time
    if status != 200:
        return PingResult(Fault.HTTP_STATUS, f"HTTP status {status}", elapsed, status, connected=True)
    try:
        document = decode(answer)
    except (ValueError, RecursionError):
        return PingResult(Fault.INVALID_RESPONSE, "the answer is not JSON", elapsed, status, connected=True)
    problem = judge_pong(document, nonce)
    if problem is not None:
        return PingResult(Fault.INVALID_RESPONSE, problem, elapsed, status, connected=True)
    return PingResult(None, "pong", elapsed, status, connected=True)
