"""Fields and schemas every part of the API uses: strict numbers and flags, ids, seeds, a move's time,
the error body, paged queries, health."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

MAX_SECRET_LENGTH = 256


MAX_ID_LENGTH = 100
LARGEST_BOUND = 2**31 - 1
"""The document's maximum of a number whose real bound is a setting of the platform (a move's time,
faults): the settings' own bound is lower, and a value between them is a 422 naming that bound;
nothing larger is ever read, so no number the document allows is one the platform cannot hold."""


class WholeNumber(fields.Integer):
    """A JSON integer: floats (even ``2.0``), strings and booleans are refused."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)


class Flag(fields.Boolean):
    """``true`` or ``false`` and nothing else (marshmallow also takes ``1``, ``"yes"``, ``"on"``...)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def id_field(**kwargs: Any) -> fields.String:
    """An id in a path, a query or a body: 1 to :data:`MAX_ID_LENGTH` characters."""
    return fields.String(validate=validate.Length(1, MAX_ID_LENGTH), **kwargs)


SEED = WholeNumber(
    validate=validate.Range(0, 2**63 - 1),
    allow_none=True,
    metadata={"description": "match (or tournament) seed; random when left out"},
)


class ErrorSchema(Schema):
    code = fields.Integer(required=True, metadata={"example": 422})
    status = fields.String(required=True, metadata={"example": "Unprocessable Entity"})
    message = fields.String(required=True)
    errors = fields.Dict(
        required=True,
        metadata={
            "description": "messages by field, nested as the request is; empty if no field is to blame"
        },
    )


class TimeSchema(Schema):
    """A match's time control. Its bounds are the platform's settings, not the schema's: a value
    above one is a 422 naming the field and the bound (:mod:`arena.match_bounds`)."""

    move_ms = WholeNumber(
        load_default=2000,
        validate=validate.Range(min=1, max=LARGEST_BOUND),
        metadata={"description": "per move; at most the platform's ARENA_MAX_MOVE_MS (60000 by default)"},
    )
    bank_ms = WholeNumber(
        load_default=0,
        validate=validate.Range(min=0, max=LARGEST_BOUND),
        metadata={
            "description": "per seat for the match; at most the platform's ARENA_MAX_BANK_MS (300000 by "
            "default)"
        },
    )


def max_faults_field() -> WholeNumber:
    """``max_faults`` of a request: its bound is the platform's ``ARENA_MAX_FAULTS`` (see
    :class:`TimeSchema`)."""
    return WholeNumber(
        load_default=3,
        validate=validate.Range(min=1, max=LARGEST_BOUND),
        metadata={
            "description": "faults after which a seat forfeits; at most the platform's ARENA_MAX_FAULTS "
            "(20 by default)"
        },
    )


class PagedQuerySchema(Schema):
    """The query of a paged list beyond flask-smorest's ``page`` and ``page_size`` (its ``paginate``
    decorator reads those; :class:`arena.api.parsing.StrictJsonParser` leaves them to it): nothing
    else, so any other parameter is refused as unknown."""


class HealthSchema(Schema):
    status = fields.String()
    mode = fields.String(metadata={"description": "embedded or redis"})
    games = fields.List(fields.String())
