"""The bot protocol, versions 1 and 2: what the referee sends a bot and what it accepts back.

The wire model is kept apart from engine types: engines know nothing of requests, and bots see
nothing of engine objects, only the JSON documented in ``docs/protocol.md`` and checked against
``referee/schemas/protocol-v1.json`` and ``protocol-v2.json``. Version 2 differs in one thing: its
``move`` requests carry no ``legal_moves`` (a bot that knows the rules rebuilds them from the
observation), which spares the referee encoding and signing, and the bot decoding, most of a
request's bytes. Each bot says which version it speaks; version 1 is the default.
"""

from __future__ import annotations

import hmac
import json
import secrets
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any

import orjson
from jsonschema import Draft202012Validator

PROTOCOL_VERSION = 1
"""The version a bot is spoken to unless it asked for another (and the one every bot spoke before
version 2 existed)."""
PROTOCOL_V2 = 2
PROTOCOL_VERSIONS = (PROTOCOL_VERSION, PROTOCOL_V2)
"""Every version the referee speaks."""
SIGNATURE_HEADER = "X-Arena-Signature"
LOG_LIMIT_BYTES = 1024
SENT_LIMIT = 1000
"""The most characters of what a bot sent that a fault keeps (:func:`sent_json`): enough to see a
wrong move whole, never a bot's whole answer of up to the size cap in every faulty move's record."""
SENT_CUT_MARK = "..."
"""Ends a :func:`sent_json` text that was cut at :data:`SENT_LIMIT`."""
MIN_SECRET_LENGTH = 32
"""The platform refuses shorter signing secrets: the secret is the only thing that tells the
referee's requests from anyone else's."""


class Fault(StrEnum):
    """Every way a bot can fail a move request. Recorded in the replay; never free text alone."""

    TIMEOUT = "timeout"
    """No complete answer before the deadline (connect, send, wait and read all count)."""
    CONNECTION = "connection_error"
    """Could not connect, or the connection broke."""
    ENDPOINT_REFUSED = "endpoint_refused"
    """The endpoint's address is not allowed (not public and not on the allow-list)."""
    HTTP_STATUS = "http_status"
    """An HTTP status other than 200 (redirects are not followed)."""
    INVALID_RESPONSE = "invalid_response"
    """Not JSON, not of the schema, or larger than the size cap."""
    ILLEGAL_MOVE = "illegal_move"
    """Well formed, but not one of the legal moves."""
    BOT_ERROR = "bot_error"
    """An in-process bot raised an exception."""
    FORFEITED = "forfeited"
    """The seat had already forfeited; the referee moved for it without asking."""


def new_secret() -> str:
    """A fresh signing secret (``arena bots new-secret``): 256 random bits as 64 hex digits, which
    survive a shell, a command line (never a leading ``-``) and a double-click to copy."""
    return secrets.token_hex(32)


def sign(secret: str, body: bytes) -> str:
    """The ``X-Arena-Signature`` header value: ``sha256=<hex HMAC-SHA256 of the raw body>``."""
    return "sha256=" + hmac.digest(secret.encode(), body, "sha256").hex()


def signature_matches(secret: str, body: bytes, header: str | None) -> bool:
    """Constant-time check of a received signature header against the body."""
    if not header:
        return False
    return hmac.compare_digest(sign(secret, body), header)


def encode(message: dict[str, Any]) -> bytes:
    """The exact bytes sent (and signed): compact UTF-8 JSON, keys in the message's order.

    Encoded with orjson (a request carries every legal move, tens of kilobytes for some games, and
    the standard library's encoder costs several times more); a value orjson refuses (a key that is
    not a string, an integer beyond 64 bits, a lone surrogate) falls back to the standard encoder, so
    nothing that encoded before fails now. Both give the same JSON document; only number spellings
    may differ (``1e16`` for ``1e+16``).
    """
    try:
        return orjson.dumps(message)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        text = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    try:
        return text.encode()
    except UnicodeEncodeError:
        # a lone surrogate (a name stored before names were checked): UTF-8 cannot carry it, JSON's
        # escape can, so the document still encodes, and decodes to the same message
        return json.dumps(message, separators=(",", ":")).encode()


def decode(body: bytes) -> Any:
    """A decoded JSON answer; ``ValueError`` (or ``RecursionError``) when it is not JSON.

    orjson first for speed; what it refuses is handed to the standard decoder, so that exactly the
    documents that decoded before still do.
    """
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        return json.loads(body)


def check_version(protocol: int) -> int:
    """``protocol`` if the referee speaks it, else ``ValueError`` naming the versions it speaks."""
    if type(protocol) is not int or protocol not in PROTOCOL_VERSIONS:
        versions = " or ".join(str(version) for version in PROTOCOL_VERSIONS)
        raise ValueError(f"protocol must be {versions}, not {protocol!r}")
    return protocol


@cache
def _schema(protocol: int = PROTOCOL_VERSION) -> dict[str, Any]:
    name = f"schemas/protocol-v{check_version(protocol)}.json"
    schema: dict[str, Any] = json.loads(resources.files("referee").joinpath(name).read_text())
    return schema


@cache
def _response_validator() -> Draft202012Validator:
    return Draft202012Validator(_schema()["move_response"])  # the same answer in every version


@cache
def request_validator(protocol: int = PROTOCOL_VERSION) -> Draft202012Validator:
    """A validator for requests of a protocol version, as bot authors and the tests use it."""
    schema = _schema(protocol)
    return Draft202012Validator({"$defs": schema["$defs"], **schema["request"]})


def request_base(
    *,
    kind: str,
    match_id: str,
    game: str,
    variant: str,
    seat: int,
    seats: int,
    turn: int,
    time: dict[str, int],
    observation: dict[str, Any],
    protocol: int = PROTOCOL_VERSION,
) -> dict[str, Any]:
    """The fields every match request has, in the order they are sent; a ``move`` request of
    version 1 adds ``legal_moves`` after them, an ``end`` notice ``result``."""
    return {
        "protocol": protocol,
        "type": kind,
        "match_id": match_id,
        "game": game,
        "variant": variant,
        "seat": seat,
        "seats": seats,
        "turn": turn,
        "time": time,
        "observation": observation,
    }


def with_legal_moves(move_request: dict[str, Any], legal: list[Any]) -> dict[str, Any]:
    """``move_request`` as its version sends it: version 1 carries ``legal`` (this very list, after
    the common fields), version 2 leaves it out for the bot to rebuild from the observation.

    >>> with_legal_moves({"protocol": 1}, [{"take": 1}]), with_legal_moves({"protocol": 2}, [{"take": 1}])
    ({'protocol': 1, 'legal_moves': [{'take': 1}]}, {'protocol': 2})
    """
    if move_request["protocol"] == PROTOCOL_VERSION:
        move_request["legal_moves"] = legal
    return move_request


def sent_json(document: Any) -> str:
    """What a bot sent, as a fault keeps it: compact JSON in printable ASCII (``json``'s escapes, so
    nothing a bot sends can reach a terminal or a page as control characters), at most
    :data:`SENT_LIMIT` characters, ending with :data:`SENT_CUT_MARK` when cut. A text is JSON
    again when it was not cut.

    >>> sent_json({"move": {"type": "teleport"}, "log": "caf\\u00e9"})
    '{"move":{"type":"teleport"},"log":"caf\\\\u00e9"}'
    >>> text = sent_json(list(range(1000)))
    >>> len(text), text[-5:]
    (1000, '27...')
    """
    return _cut(json.dumps(document, separators=(",", ":"), ensure_ascii=True))


def sent_body(body: bytes) -> str:
    """An answer that is not JSON, as a fault keeps it: its text (UTF-8, undecodable bytes replaced)
    as a JSON string, so that it reads as :func:`sent_json` does; cut alike.

    >>> sent_body(b"move: left\\n\\xff")
    '"move: left\\\\n\\\\ufffd"'
    """
    # each byte gives at least one character of the text, so the first SENT_LIMIT bytes are enough
    text = body[:SENT_LIMIT].decode("utf-8", errors="replace")
    return _cut(json.dumps(text, ensure_ascii=True))


def _cut(text: str) -> str:
    if len(text) > SENT_LIMIT:
        return text[: SENT_LIMIT - len(SENT_CUT_MARK)] + SENT_CUT_MARK
    return text


@cache
def ping_validator(protocol: int = PROTOCOL_VERSION) -> Draft202012Validator:
    """A validator for ``ping`` requests of a protocol version (the SDK and the tests use it)."""
    return Draft202012Validator(_schema(protocol)["ping"])


class BadResponse(ValueError):
    """A move answer that is not of the schema; the message says what is wrong."""


def _plainly_valid(document: Any) -> bool:
    """A quick check that implies the ``move_response`` schema (an object with an object ``move``
    and, if present, a string ``log``); what it does not pass goes to the full validator."""
    if type(document) is not dict or type(document.get("move")) is not dict:
        return False
    return type(document.get("log", "")) is str


def parse_move_response(document: Any) -> tuple[dict[str, Any], str | None]:
    """Check a decoded answer against the schema; return the move and the log (cut to 1 KB)."""
    if not _plainly_valid(document):
        errors = sorted(_response_validator().iter_errors(document), key=lambda e: list(e.path))
        if errors:
            first = errors[0]
            where = "/".join(str(p) for p in first.path) or "answer"
            raise BadResponse(f"{where}: {first.message}"[:300])
    log = document.get("log")
    if log is not None:
        log = log.encode(errors="replace")[:LOG_LIMIT_BYTES].decode(errors="ignore")
    return document["move"], log
