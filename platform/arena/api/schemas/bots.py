"""A bot as registered, changed, shown to everyone and to its owner, with its ratings."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from arena.api.schemas.common import MAX_SECRET_LENGTH, PagedQuerySchema, WholeNumber, id_field
from arena.api.schemas.ladders import LadderEntrySchema
from arena.api.schemas.names import Name
from referee.protocol import MIN_SECRET_LENGTH, PROTOCOL_VERSION, PROTOCOL_VERSIONS


def _secret(description: str) -> fields.String:
    """A signing secret chosen by the bot's author: taken, never shown (``load_only``)."""
    return fields.String(
        required=True,
        load_only=True,
        validate=[
            validate.Length(
                MIN_SECRET_LENGTH,
                MAX_SECRET_LENGTH,
                error=f"the secret must be {MIN_SECRET_LENGTH} to {MAX_SECRET_LENGTH} characters long "
                "(`arena bots new-secret` prints a fresh one)",
            ),
            validate.Regexp(
                r"[!-~]*\Z",
                error="the secret must be printable ASCII, no spaces (`arena bots new-secret` prints one)",
            ),
        ],
        metadata={"description": description},
    )


def _protocol(**kwargs: Any) -> WholeNumber:
    """The bot protocol version the referee speaks to the bot: 1 (the default) or 2."""
    versions = " or ".join(str(version) for version in PROTOCOL_VERSIONS)
    return WholeNumber(
        validate=validate.OneOf(PROTOCOL_VERSIONS, error=f"protocol must be {versions}"),
        metadata={
            "description": "bot protocol version the referee speaks to the bot: 1 (move requests carry "
            "legal_moves) or 2 (they do not; the bot rebuilds them from the observation), see "
            "docs/protocol.md",
            "enum": list(PROTOCOL_VERSIONS),
        },
        **kwargs,
    )


class BotUpdateSchema(Schema):
    name = Name()
    endpoint = fields.String(
        validate=validate.Length(1, 2048),
        metadata={"description": "pinged with the bot's secret before it replaces the old one"},
    )
    games = fields.List(id_field(), validate=validate.Length(1, 32))
    protocol = _protocol()

    @validates_schema
    def _something(self, data: dict[str, Any], **kwargs: object) -> None:
        if not data:
            raise ValidationError("give at least one of name, endpoint, games, protocol", "_schema")


class BotSecretSchema(Schema):
    secret = _secret(
        "the bot's new HMAC key of X-Arena-Signature, pinged with before it replaces the old one; "
        "never shown back"
    )


class BotQuerySchema(PagedQuerySchema):
    game = id_field(metadata={"description": "only bots that play this game"})


class FaultsSchema(Schema):
    total = fields.Integer()
    by_kind = fields.Dict(keys=fields.String(), values=fields.Integer())


class BotRatingSchema(LadderEntrySchema):
    game = fields.String()
    variant = fields.String()
    rank = fields.Integer(allow_none=True)


class RestSchema(Schema):
    """A ladder on which the bot rests: the continuous ladder leaves it out of its matches."""

    game = fields.String()
    variant = fields.String()
    since = fields.String(
        allow_none=True,
        metadata={"description": "when it began to rest: the end of its last forfeited match"},
    )
    forfeits_in_a_row = fields.Integer(metadata={"description": "its forfeits in a row on this ladder"})
    last_match = fields.String(metadata={"description": "the id of its last (forfeited) match"})
    reason = fields.String(metadata={"description": "why it rests, in words"})
    how_to_return = fields.String(metadata={"description": "what brings it back, in words"})


class BotSchema(Schema):
    """A bot as anyone may see it. The ``dump_only`` fields are the platform's and refused in a
    request; the endpoint (:class:`BotOwnerSchema`) is shown to its owner only, the secret
    (:class:`BotCreateSchema`) never, and the token only in the answer that creates it."""

    id = fields.String(dump_only=True)
    name = Name(required=True)
    games = fields.List(id_field(), required=True, validate=validate.Length(1, 32))
    protocol = _protocol(load_default=PROTOCOL_VERSION)
    created_at = fields.String(dump_only=True)
    updated_at = fields.String(dump_only=True)
    faults = fields.Nested(FaultsSchema, dump_only=True)
    ratings = fields.List(fields.Nested(BotRatingSchema), dump_only=True)
    resting = fields.List(
        fields.Nested(RestSchema),
        dump_only=True,
        metadata={
            "description": "the ladders on which it rests for forfeiting, with why and how to come back"
        },
    )
    house = fields.Boolean(
        dump_only=True,
        metadata={"description": "a reference bot the platform plays in-process (embedded default only)"},
    )


class BotOwnerSchema(BotSchema):
    endpoint = fields.String(
        required=True,
        validate=validate.Length(1, 2048),
        metadata={
            "description": "http(s) URL the referee POSTs requests to; must resolve to public addresses "
            "and answer the ping signed with the secret"
        },
    )


class BotCreateSchema(BotOwnerSchema):
    """``POST /bots``: the request (name, endpoint, games, secret) and its answer (the bot, with
    its token); one schema for both, so what is taken and what is shown cannot drift apart."""

    secret = _secret(
        "HMAC key of X-Arena-Signature, chosen by the bot's author (the bot must be running with it: "
        "registration pings it); never shown back"
    )
    token = fields.String(
        dump_only=True,
        metadata={"description": "to change or delete the bot; shown this once only"},
    )


class HistoryQuerySchema(Schema):
    game = id_field(metadata={"description": "the ladder's game (default: the bot's first game)"})
    variant = id_field(metadata={"description": "the ladder's variant (default: the game's default)"})


class HistoryPointSchema(Schema):
    match = fields.String(metadata={"description": "the counted match after which the bot had this rating"})
    at = fields.String(allow_none=True, metadata={"description": "when that match ended (ISO 8601, UTC)"})
    rating = fields.Float(allow_none=True, metadata={"description": "Elo rating after the match"})
    mu = fields.Float(metadata={"description": "skill estimate after the match"})
    sigma = fields.Float(metadata={"description": "its uncertainty"})
    conservative = fields.Float(metadata={"description": "mu - 3 sigma: what the ladder ranks by"})


class BotHistorySchema(Schema):
    """A bot's rating over time on one ladder."""

    bot_id = fields.String()
    game = fields.String()
    variant = fields.String()
    rated = fields.Boolean(
        metadata={"description": "whether the variant is rated; an unrated one keeps no history"}
    )
    kept = fields.Integer(
        metadata={"description": "the most points kept per bot and ladder (ARENA_HISTORY_POINTS), the newest"}
    )
    points = fields.List(
        fields.Nested(HistoryPointSchema),
        metadata={"description": "one per counted match of the bot on this ladder, oldest first"},
    )


class PingAnswerSchema(Schema):
    ok = fields.Boolean(metadata={"description": "whether the bot answered the signed ping with its pong"})
    round_trip_ms = fields.Float()
    fault = fields.String(allow_none=True, metadata={"description": "the fault's kind when it failed"})
    status = fields.Integer(
        allow_none=True, metadata={"description": "the bot's HTTP status, if it answered"}
    )
    detail = fields.String(
        metadata={
            "description": "how it went: pong, not reachable, not an HTTP answer, answered <status>, "
            "answer too large, too slow, or why the endpoint may not be called"
        }
    )
    problems = fields.Dict(
        metadata={"description": "what to fix, by field (endpoint, secret, protocol); empty when ok"}
    )
    back_on = fields.List(
        fields.Dict(keys=fields.String(), values=fields.String()),
        metadata={"description": "the ladders (game, variant) on which it rested and now plays again"},
    )
