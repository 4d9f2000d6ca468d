"""The bot protocol, version 1: what the referee sends a bot and what it accepts back.

The wire model is kept apart from engine types: engines know nothing of requests, and bots see
nothing of engine objects, only the JSON documented in ``docs/protocol.md`` and checked against
``referee/schemas/protocol-v1.json``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator

PROTOCOL_VERSION = 1
SIGNATURE_HEADER = "X-Arena-Signature"
LOG_LIMIT_BYTES = 1024


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


def sign(secret: str, body: bytes) -> str:
    """The ``X-Arena-Signature`` header value: ``sha256=<hex HMAC-SHA256 of the raw body>``."""
    digest = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def signature_matches(secret: str, body: bytes, header: str | None) -> bool:
    """Constant-time check of a received signature header against the body."""
    return bool(header) and hmac.compare_digest(sign(secret, body), header)


def encode(message: dict[str, Any]) -> bytes:
    """The exact bytes sent (and signed): compact UTF-8 JSON."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode()


@cache
def _schema() -> dict[str, Any]:
    text = resources.files("referee").joinpath("schemas/protocol-v1.json").read_text()
    return json.loads(text)


@cache
def _response_validator() -> Draft202012Validator:
    return Draft202012Validator(_schema()["move_response"])


@cache
def request_validator() -> Draft202012Validator:
    """A validator for requests, as bot authors and the tests use it."""
    schema = _schema()
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
) -> dict[str, Any]:
    return {
        "protocol": PROTOCOL_VERSION,
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


class BadResponse(ValueError):
    """A move answer that is not of the schema; the message says what is wrong."""


def parse_move_response(document: Any) -> tuple[dict[str, Any], str | None]:
    """Check a decoded answer against the schema; return the move and the log (cut to 1 KB)."""
    errors = sorted(_response_validator().iter_errors(document), key=lambda e: list(e.path))
    if errors:
        first = errors[0]
        where = "/".join(str(p) for p in first.path) or "answer"
        raise BadResponse(f"{where}: {first.message}"[:300])
    log = document.get("log")
    if log is not None:
        log = log.encode(errors="replace")[:LOG_LIMIT_BYTES].decode(errors="ignore")
    return document["move"], log
