"""A match: the request that asks for it and the match as it stands, and the query of a list of them."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, pre_dump, validate

from arena.api.schemas.common import (
    SEED,
    Flag,
    PagedQuerySchema,
    TimeSchema,
    id_field,
    max_faults_field,
)
from arena.matches.match_requests import MatchView
from arena.records import MatchOrigin, MatchStatus


class MatchQuerySchema(PagedQuerySchema):
    bot = id_field(metadata={"description": "only matches this bot plays in"})
    game = id_field(metadata={"description": "only matches of this game"})
    variant = id_field(
        metadata={
            "description": "only matches of this variant: of the game given, or of any game without one"
        }
    )
    status = fields.String(
        validate=validate.OneOf([status.value for status in MatchStatus]),
        metadata={"description": "queued, running, finished, aborted or cancelled"},
    )


class SeatSchema(Schema):
    seat = fields.Integer()
    bot_id = fields.String()
    name = fields.String()
    faults = fields.Integer(
        metadata={"description": "faults of this seat (moves played for it after a forfeit excluded)"}
    )
    fault_kinds = fields.Dict(
        keys=fields.String(), values=fields.Integer(), metadata={"description": "faults by kind"}
    )
    forfeited = fields.Boolean()
    protocol = fields.Integer(
        metadata={
            "description": "protocol version the seat's bot was spoken to (docs/protocol.md); absent "
            "before the match is played and in matches played before it was recorded"
        }
    )


class ResultSchema(Schema):
    places = fields.List(fields.Integer())
    scores = fields.List(fields.Float())
    reason = fields.String()
    team_won = fields.Boolean(allow_none=True)
    forfeited = fields.List(fields.Integer())
    details = fields.Dict()


class MatchSchema(Schema):
    """A match: the request that asks for it (``POST``) and the match as it stands (``GET``).

    The request's fields are shown back as the match plays them; the rest (``dump_only``) are the
    match's own record, never taken from a request (sent, they are refused as unknown fields).
    """

    id = fields.String(dump_only=True)
    game = id_field(required=True)
    variant = id_field(metadata={"description": "the game's default variant when left out"})
    status = fields.String(
        dump_only=True,
        validate=validate.OneOf([status.value for status in MatchStatus]),
        metadata={"description": "queued, running, finished, aborted or cancelled"},
    )
    bots = fields.List(
        id_field(),
        required=True,
        validate=validate.Length(1, 16),
        metadata={"description": "bot ids, in seat order"},
    )
    seats = fields.List(fields.Nested(SeatSchema), dump_only=True)
    seed = SEED
    options = fields.Dict(load_default=dict)
    setup = fields.Dict(allow_none=True, load_default=None, metadata={"description": "explicit position"})
    time = fields.Nested(TimeSchema, load_default=lambda: {"move_ms": 2000, "bank_ms": 0})
    rated = Flag(
        load_default=None,
        metadata={
            "description": "false: the ladder never sees it. Default true for the organizer; a bot "
            "owner's challenge is always unrated"
        },
    )
    max_faults = max_faults_field()
    tournament = fields.String(dump_only=True, allow_none=True)
    origin = fields.String(
        dump_only=True,
        validate=validate.OneOf([origin.value for origin in MatchOrigin]),
        metadata={
            "description": "who asked for it: organizer, challenge (a bot owner's), tournament or "
            "matchmaking (a continuous ladder's)"
        },
    )
    challenger = fields.String(
        dump_only=True,
        allow_none=True,
        metadata={
            "description": "a challenge's: the bot whose token asked for it, the one bot that may cancel "
            "it (with the organizer); null for any other match"
        },
    )
    attempts = fields.Integer(dump_only=True)
    moves = fields.Integer(dump_only=True)
    created_at = fields.String(dump_only=True)
    started_at = fields.String(dump_only=True, allow_none=True)
    finished_at = fields.String(dump_only=True, allow_none=True)
    result = fields.Nested(ResultSchema, dump_only=True, allow_none=True)
    error = fields.String(dump_only=True, allow_none=True)
    replay_url = fields.String(dump_only=True, allow_none=True)

    @pre_dump
    def _from_view(self, match: MatchView, **kwargs: object) -> dict[str, Any]:
        return match.to_json()


class MovesQuerySchema(Schema):
    start = fields.Integer(  # a query's number is text: not a WholeNumber, which wants a JSON integer
        load_default=0,
        validate=validate.Range(0, 10**9),
        metadata={
            "description": "the index of the first move to show (a spectator polls from the moves it has)"
        },
    )


class MoveFaultSchema(Schema):
    kind = fields.String(metadata={"description": "a fault kind of docs/protocol.md"})
    detail = fields.String()
    sent = fields.String(
        metadata={
            "description": "what the bot sent, when its answer came but was not a legal move: escaped "
            "JSON cut at 1,000 characters (docs/replay.md)"
        }
    )
    sent_words = fields.String(metadata={"description": "``sent`` in the game's words"})


class MoveSchema(Schema):
    turn = fields.Integer()
    seat = fields.Integer()
    move = fields.Dict(metadata={"description": "the move played, as the game's legal moves spell it"})
    words = fields.String(
        metadata={"description": "the move in the game's words (its notation, docs/games/), beside the JSON"}
    )
    source = fields.String(metadata={"description": "bot, or fallback (a move the referee played)"})
    fault = fields.Nested(MoveFaultSchema, allow_none=True)
    think_ms = fields.Float()
    log = fields.String(metadata={"description": "the bot's log, when it sent one"})


class MovesSchema(Schema):
    match_id = fields.String()
    status = fields.String(metadata={"description": "queued, running, finished or aborted"})
    start = fields.Integer()
    moves = fields.List(
        fields.Nested(MoveSchema),
        allow_none=True,
        metadata={"description": "from ``start`` on; null while there are none to show (queued, aborted)"},
    )
