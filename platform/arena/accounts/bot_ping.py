"""Pinging a bot before the platform relies on it, and saying in the bot author's words what failed.

A registration, a new secret, a new endpoint and a new protocol version are each accepted only once
a signed ``ping`` (:mod:`referee.transport.ping`) passed with the secret, the endpoint and the protocol
version they would leave in force. A failure becomes field errors of the usual 422: ``secret`` when
the bot refused the signature (401 or 403, so the bot runs with another secret), ``protocol`` when
it answered a ping of version 2 with 400 (it does not speak that version), ``endpoint`` for
everything else (not allowed, unreachable, too slow, another status, an answer that is not a pong).

Anyone may register a bot and so have the platform connect to an address of their choosing: what a
failed ping says back is therefore no more than a bot author needs (:func:`outcome`), never the
system's error ("Connection refused", "Connection reset by peer", a TLS alert), which would tell a
port scan more than it needs to know about the host it points at.
"""

from __future__ import annotations

from arena.accounts.ping_gate import PingGate
from arena.errors import FieldErrors, InvalidRequest, field_error
from referee.protocol import PROTOCOL_VERSION, Fault
from referee.transport.ping import PING_MAX_BYTES, PingResult

REFUSED_MESSAGE = "The bot did not pass the ping."
INVALID_MESSAGE = "The request has invalid fields."
NOT_REACHABLE = "not reachable"
NOT_HTTP = "not an HTTP answer"
TOO_SLOW = "too slow"
TOO_LARGE = "answer too large"


def outcome(result: PingResult) -> str:
    """How a ping went, in the few words shown for it: ``pong``, ``not reachable`` (no connection
    was made), ``not an HTTP answer`` (something took the connection but gave no HTTP answer, or
    broke it off), ``answered <status>`` (an HTTP answer, but not the pong), ``answer too large``
    (200, with more than a pong could be: :data:`referee.transport.ping.PING_MAX_BYTES`), ``too slow``
    (nothing complete within the ping's time), or the endpoint policy's own reason for not calling
    the address at all (no request was sent).

    >>> outcome(PingResult(Fault.CONNECTION, "connect: [Errno 111] Connection refused", 0.2))
    'not reachable'
    >>> outcome(PingResult(Fault.INVALID_RESPONSE, 'the answer has no "pong"', 1.0, 200, connected=True))
    'answered 200'
    """
    fault = result.fault
    if fault is None:
        return "pong"
    if fault is Fault.ENDPOINT_REFUSED:
        return result.detail  # the platform's own policy: the address was never called
    if fault is Fault.TIMEOUT:
        return TOO_SLOW
    if result.too_large:
        return TOO_LARGE
    if result.status is not None:
        return f"answered {result.status}"
    if fault is Fault.CONNECTION and not result.connected:
        return NOT_REACHABLE
    return NOT_HTTP


def reasons(result: PingResult, timeout_s: float, protocol: int = PROTOCOL_VERSION) -> FieldErrors:
    """The field errors that explain a failed ping (empty when it passed), each its
    :func:`outcome` with what to check. A ping of another version than 1 answered with 400 names
    ``protocol``: the bot does not speak that version (the bot SDK refuses a version it was not
    started for so).

    >>> reasons(PingResult(Fault.HTTP_STATUS, "HTTP status 404", 3.0, 404), 3.0)
    {'endpoint': ["the bot answered 404 to the ping: check the endpoint's path"]}
    """
    if result.ok:
        return {}
    fault, status, said = result.fault, result.status, outcome(result)
    if fault is Fault.HTTP_STATUS and status in (401, 403):
        return field_error(
            "secret",
            f"the bot answered {status} to the ping: check the secret it was started with "
            "(it must be the one sent here)",
        )
    if fault is Fault.HTTP_STATUS and status == 400 and protocol != PROTOCOL_VERSION:
        return field_error(
            "protocol",
            f"the bot answered 400 to a protocol {protocol} ping: was it started to speak protocol "
            f"{protocol} (docs/protocol.md, Version 2)? Otherwise register it with protocol "
            f"{PROTOCOL_VERSION}",
        )
    if fault is Fault.HTTP_STATUS:
        return field_error("endpoint", _status_message(status))
    if fault is Fault.ENDPOINT_REFUSED:
        return field_error("endpoint", said)
    if fault is Fault.TIMEOUT:
        return field_error(
            "endpoint",
            f"too slow: the bot did not answer the ping within {timeout_s:g} s; is it running, and "
            "reachable from the platform at this address?",
        )
    if said == NOT_REACHABLE:
        return field_error(
            "endpoint",
            "not reachable: is the bot running, and reachable from the platform at this address?",
        )
    if said == TOO_LARGE:
        return field_error(
            "endpoint",
            f"answer too large: the bot answered the ping with more than {PING_MAX_BYTES} bytes; "
            'a pong is {"pong": <the ping\'s nonce>} (see the ping in docs/protocol.md)',
        )
    if said == NOT_HTTP:
        return field_error(
            "endpoint",
            "not an HTTP answer: is this the bot's port, and its scheme (http or https, with a "
            "certificate the platform trusts)?",
        )
    return field_error(
        "endpoint",
        f'the bot {said} to the ping, not with {{"pong": <the ping\'s nonce>}} '
        "(see the ping in docs/protocol.md)",
    )


def _status_message(status: int | None) -> str:
    prefix = f"the bot answered {status} to the ping"
    if status in (404, 405):
        return f"{prefix}: check the endpoint's path"
    if status is not None and 300 <= status < 400:
        return f"{prefix}: redirects are not followed, register the URL it points to"
    if status is not None and status >= 500:
        return f"{prefix}: the bot failed on it"
    return f"{prefix}, not 200 with a pong: does the bot know the ping request (docs/protocol.md)?"


def check(
    pings: PingGate,
    endpoint: str,
    secret: str,
    protocol: int = PROTOCOL_VERSION,
    *,
    owner: str | None = None,
    counted: bool = True,
    vouch_for: str | None = None,
) -> None:
    """Ping ``endpoint`` signed with ``secret`` in protocol version ``protocol`` through ``pings``
    (on the bot ``owner``'s owner's behalf when given, else a probe whose pass makes the address the
    bot ``vouch_for``'s own: :class:`arena.accounts.ping_gate.PingGate`; ``counted``: false for the
    organizer's requests, which no per-bot limit holds); raise a 422 naming the field
    to blame if it fails (a 429 or 503 from the gate itself)."""
    if owner is not None:
        result = pings.ping_for_owner(owner, endpoint, secret, protocol, counted=counted)
    else:
        result = pings.ping(endpoint, secret, protocol, vouch_for=vouch_for)
    if result.ok:
        return
    # an endpoint the policy refuses was never called: that is a plain invalid field
    message = INVALID_MESSAGE if result.fault is Fault.ENDPOINT_REFUSED else REFUSED_MESSAGE
    raise InvalidRequest(message, reasons(result, pings.timeout_s, protocol))
