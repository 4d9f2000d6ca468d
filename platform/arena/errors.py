"""The platform's request errors, raised by its operations and turned into HTTP by the API.

Every error answer has the same body (see ``docs/api.md``)::

    {"code": 422, "status": "Unprocessable Entity", "message": "...", "errors": {"field": ["..."]}}

``errors`` maps field names to lists of messages, nested as the request is (``{"time":
{"move_ms": [...]}}``); it is empty when no single field is to blame.
"""

from __future__ import annotations

from typing import Any

from referee.game import SetupError

FieldErrors = dict[str, Any]


class ArenaError(Exception):
    """A request the platform refuses; ``code`` is the HTTP status it maps to."""

    code = 400

    def __init__(
        self, message: str, errors: FieldErrors | None = None, retry_after_s: int | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.errors = errors or {}
        self.retry_after_s = retry_after_s
        """Seconds to wait before trying again (``Retry-After``), for a 429 or a 503 that knows it."""


class InvalidRequest(ArenaError):
    code = 422


class NotFound(ArenaError):
    code = 404


class Unauthorized(ArenaError):
    code = 401


class Conflict(ArenaError):
    """The request does not fit the resource as it stands (cancelling a match that has ended)."""

    code = 409


class QueueUnavailable(ArenaError):
    code = 503


class TooManyRequests(ArenaError):
    """Over a rate limit the platform counts itself (flask-limiter answers the others)."""

    code = 429


class Overloaded(ArenaError):
    """The platform does as much of this as it may at once: try again after ``retry_after_s``,
    rather than wait holding a request."""

    code = 503


def field_error(path: str, message: str) -> FieldErrors:
    """``{"a": {"b": [message]}}`` for the dotted path ``a.b``.

    >>> field_error("options.stones", "must be an integer")
    {'options': {'stones': ['must be an integer']}}
    """
    head, _, rest = path.partition(".")
    return {head: field_error(rest, message) if rest else [message]}


def from_setup_error(error: SetupError) -> InvalidRequest:
    """A game's :class:`SetupError` as a 422 naming its field."""
    return InvalidRequest(str(error), field_error(error.field_name, str(error)))


def merge_errors(into: FieldErrors, more: FieldErrors) -> FieldErrors:
    """Merge nested field errors, concatenating message lists.

    Where one side has messages about a field as a whole and the other about its parts, the whole
    field's messages go under ``_schema`` (marshmallow's name for them):

    >>> merge_errors({"bots": ["needs 2 seats"]}, {"bots": {"0": ["no such bot"]}})
    {'bots': {'0': ['no such bot'], '_schema': ['needs 2 seats']}}
    """
    for name, value in more.items():
        current = into.get(name)
        if current is None:
            into[name] = value
        elif isinstance(value, dict) and isinstance(current, dict):
            merge_errors(current, value)
        elif isinstance(value, list) and isinstance(current, list):
            into[name] = [*current, *value]
        else:
            parts, whole = (value, current) if isinstance(value, dict) else (current, value)
            into[name] = merge_errors(dict(parts), {"_schema": whole})
    return into
