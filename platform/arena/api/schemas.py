"""The API's request and response schemas (marshmallow); flask-smorest turns them into OpenAPI.

Request schemas refuse unknown fields, so a typo in a field name is a 422 naming it rather than a
silently ignored setting. Their numbers and flags take JSON integers and booleans only: marshmallow
would otherwise read ``1.5`` as 1, ``"7"`` as 7 and ``"yes"`` or ``1`` as true, and a seed or a seat
count silently rounded is worse than a refusal.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, pre_dump, validate, validates_schema

from arena.matches.match_requests import MatchView
from arena.records import MatchOrigin, MatchStatus
from arena.tournaments.formats import FORMATS
from arena.tournaments.tournament_requests import TournamentView
from referee.protocol import MIN_SECRET_LENGTH, PROTOCOL_VERSION, PROTOCOL_VERSIONS

MAX_SECRET_LENGTH = 256

MAX_MOVE_MS = 60_000
MAX_BANK_MS = 600_000
MAX_ID_LENGTH = 100


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


def _id(**kwargs: Any) -> fields.String:
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
    move_ms = WholeNumber(load_default=2000, validate=validate.Range(1, MAX_MOVE_MS))
    bank_ms = WholeNumber(load_default=0, validate=validate.Range(0, MAX_BANK_MS))


# -- games --------------------------------------------------------------------------------------


class OptionSchema(Schema):
    name = fields.String()
    type = fields.String(metadata={"description": "bool, int, str or choice"})
    default = fields.Raw(allow_none=True)
    description = fields.String()
    choices = fields.List(fields.Raw())
    minimum = fields.Integer()
    maximum = fields.Integer()


class VariantSchema(Schema):
    name = fields.String()
    description = fields.String()
    seats = fields.List(
        fields.Integer(), metadata={"description": "the seat counts the variant is played by"}
    )
    rated = fields.Boolean(metadata={"description": "results move Elo ratings"})
    team = fields.Boolean(metadata={"description": "results carry team_won; ladders show the team win rate"})
    options = fields.List(fields.Nested(OptionSchema))


class GameSchema(Schema):
    id = fields.String()
    title = fields.String()
    version = fields.String()
    default_variant = fields.String()
    doc = fields.String()
    variants = fields.List(fields.Nested(VariantSchema))


# -- bots ---------------------------------------------------------------------------------------


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
    name = fields.String(validate=validate.Length(1, 64))
    endpoint = fields.String(
        validate=validate.Length(1, 2048),
        metadata={"description": "pinged with the bot's secret before it replaces the old one"},
    )
    games = fields.List(_id(), validate=validate.Length(1, 32))
    protocol = _protocol()

    @validates_schema
    def _something(self, data: dict, **kwargs: object) -> None:
        if not data:
            raise ValidationError("give at least one of name, endpoint, games, protocol", "_schema")


class PagedQuerySchema(Schema):
    """The query of a paged list beyond flask-smorest's ``page`` and ``page_size`` (its ``paginate``
    decorator reads those; :class:`arena.api.parsing.StrictJsonParser` leaves them to it): nothing
    else, so any other parameter is refused as unknown."""


class MatchQuerySchema(PagedQuerySchema):
    bot = _id(metadata={"description": "only matches this bot plays in"})
    game = _id(metadata={"description": "only matches of this game"})
    variant = _id(metadata={"description": "only matches of this variant (with game)"})
    status = fields.String(
        validate=validate.OneOf(["queued", "running", "finished", "aborted"]),
        metadata={"description": "queued, running, finished or aborted"},
    )

    @validates_schema
    def _variant_needs_game(self, data: dict[str, Any], **kwargs: object) -> None:
        if "variant" in data and "game" not in data:
            raise ValidationError("variant filters only with game", "variant")


class BotSecretSchema(Schema):
    secret = _secret(
        "the bot's new HMAC key of X-Arena-Signature, pinged with before it replaces the old one; "
        "never shown back"
    )


class BotQuerySchema(PagedQuerySchema):
    game = _id(metadata={"description": "only bots that play this game"})


class FaultsSchema(Schema):
    total = fields.Integer()
    by_kind = fields.Dict(keys=fields.String(), values=fields.Integer())


class RefitIntervalSchema(Schema):
    rating = fields.Float(metadata={"description": "maximum-likelihood rating, Elo scale (1500 = reference)"})
    low = fields.Float(metadata={"description": "2.5th percentile over bootstrap resamples of the matches"})
    high = fields.Float(metadata={"description": "97.5th percentile"})


class LadderEntrySchema(Schema):
    rank = fields.Integer()
    bot_id = fields.String()
    name = fields.String()
    rating = fields.Float(allow_none=True, metadata={"description": "Elo rating; null for unrated variants"})
    rated_games = fields.Integer()
    mu = fields.Float(allow_none=True, metadata={"description": "skill (Plackett-Luce); null if unrated"})
    sigma = fields.Float(allow_none=True, metadata={"description": "uncertainty of mu (one sd)"})
    conservative = fields.Float(
        allow_none=True, metadata={"description": "mu - 3 sigma: what rated ladders rank by"}
    )
    refit = fields.Nested(
        RefitIntervalSchema,
        allow_none=True,
        metadata={"description": "the last `arena ratings refit` of this ladder; null before one"},
    )
    games = fields.Integer()
    wins = fields.Integer()
    draws = fields.Integer()
    losses = fields.Integer()
    win_rate = fields.Float(allow_none=True)
    team_win_rate = fields.Float(allow_none=True, metadata={"description": "team variants only"})
    mean_score = fields.Float(allow_none=True)


class BotRatingSchema(LadderEntrySchema):
    game = fields.String()
    variant = fields.String()
    rank = fields.Integer(allow_none=True)


class BotSchema(Schema):
    """A bot as anyone may see it. The ``dump_only`` fields are the platform's and refused in a
    request; the endpoint (:class:`BotOwnerSchema`) is shown to its owner only, the secret
    (:class:`BotCreateSchema`) never, and the token only in the answer that creates it."""

    id = fields.String(dump_only=True)
    name = fields.String(required=True, validate=validate.Length(1, 64))
    games = fields.List(_id(), required=True, validate=validate.Length(1, 32))
    protocol = _protocol(load_default=PROTOCOL_VERSION)
    created_at = fields.String(dump_only=True)
    updated_at = fields.String(dump_only=True)
    faults = fields.Nested(FaultsSchema, dump_only=True)
    ratings = fields.List(fields.Nested(BotRatingSchema), dump_only=True)


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


# -- matches ------------------------------------------------------------------------------------


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
    game = _id(required=True)
    variant = _id(metadata={"description": "the game's default variant when left out"})
    status = fields.String(
        dump_only=True,
        validate=validate.OneOf([status.value for status in MatchStatus]),
        metadata={"description": "queued, running, finished or aborted"},
    )
    bots = fields.List(
        _id(),
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
    max_faults = WholeNumber(load_default=3, validate=validate.Range(1, 1000))
    tournament = fields.String(dump_only=True, allow_none=True)
    origin = fields.String(
        dump_only=True,
        validate=validate.OneOf([origin.value for origin in MatchOrigin]),
        metadata={
            "description": "who asked for it: organizer, challenge (a bot owner's), tournament or "
            "matchmaking (a continuous ladder's)"
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


# -- tournaments --------------------------------------------------------------------------------


class TournamentCreateSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(1, 100))
    game = _id(required=True)
    variant = _id()
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    bots = fields.List(_id(), required=True, validate=validate.Length(1, 200))
    seats_per_match = WholeNumber(required=True, validate=validate.Range(1, 16))
    games_per_pairing = WholeNumber(
        load_default=2,
        validate=validate.Range(1, 1000),
        metadata={"description": "rounded up to a multiple of seats_per_match so seats rotate evenly"},
    )
    seed = SEED
    options = fields.Dict(load_default=dict)
    time = fields.Nested(TimeSchema, load_default=lambda: {"move_ms": 2000, "bank_ms": 0})
    rated = Flag(load_default=True)
    max_faults = WholeNumber(load_default=3, validate=validate.Range(1, 1000))
    rounds = WholeNumber(
        validate=validate.Range(1, 64),
        metadata={"description": "swiss only: rounds to play (default ceil(log2(bots)))"},
    )
    advance = WholeNumber(
        validate=validate.Range(1, 3),
        metadata={"description": "knockout only: bots of each pod that go on (default 1; 2 of a pod of 4)"},
    )


class RoundSchema(Schema):
    round = fields.Integer()
    matches = fields.List(fields.String())
    byes = fields.List(fields.String(), metadata={"description": "bots sitting out (a bye scores as a win)"})


class ProgressSchema(Schema):
    done = fields.Integer()
    total = fields.Integer()
    finished = fields.Integer()
    aborted = fields.Integer()
    running = fields.Integer()
    queued = fields.Integer()


class StandingSchema(Schema):
    rank = fields.Integer()
    bot_id = fields.String()
    name = fields.String()
    played = fields.Integer()
    points = fields.Float()
    wins = fields.Integer()
    draws = fields.Integer()
    losses = fields.Integer()
    score_sum = fields.Float()
    byes = fields.Integer(metadata={"description": "swiss rounds sat out; each scores a point"})
    buchholz = fields.Float(
        metadata={"description": "sum of the opponents' points over its matches; swiss ranks ties by it"}
    )


class TournamentMatchSchema(Schema):
    id = fields.String()
    status = fields.String(validate=validate.OneOf([status.value for status in MatchStatus]))
    bots = fields.List(fields.String())
    seed = fields.Integer(allow_none=True, metadata={"description": "null if the match's spec is lost"})
    result = fields.Nested(ResultSchema, allow_none=True)


class TournamentSchema(Schema):
    """A tournament as it stands (dumped from :class:`arena.tournaments.tournament_requests.TournamentView`).

    Not also the request: ``rounds`` and ``advance`` shown are 0 where they do not apply, which a
    request may not send, and ``games_per_pairing`` is shown as played, not as asked.
    """

    id = fields.String()
    name = fields.String()
    game = fields.String()
    variant = fields.String()
    format = fields.String(validate=validate.OneOf(FORMATS))
    bots = fields.List(fields.String())
    seats_per_match = fields.Integer()
    games_per_pairing = fields.Integer(metadata={"description": "as played: a multiple of seats_per_match"})
    games_per_pairing_requested = fields.Integer()
    seed = fields.Integer()
    options = fields.Dict()
    time = fields.Nested(TimeSchema)
    rated = fields.Boolean()
    max_faults = fields.Integer()
    match_count = fields.Integer()
    created_at = fields.String()
    cancelled_at = fields.String(allow_none=True, metadata={"description": "when DELETE cancelled it"})
    status = fields.String(
        validate=validate.OneOf(["queued", "running", "finished", "cancelled"]),
        metadata={"description": "queued, running, finished or cancelled"},
    )
    progress = fields.Nested(ProgressSchema)
    points = fields.String(metadata={"description": "how standings points are awarded"})
    standings = fields.List(fields.Nested(StandingSchema))
    matches = fields.List(fields.Nested(TournamentMatchSchema))
    rounds = fields.Integer(metadata={"description": "swiss and knockout: rounds planned; 0 otherwise"})
    advance = fields.Integer(metadata={"description": "knockout: bots of each pod that go on"})
    seeds = fields.List(
        fields.String(),
        metadata={"description": "knockout: the bots in seed order, by ladder rating (unrated last)"},
    )
    rounds_made = fields.List(fields.Nested(RoundSchema), metadata={"description": "the rounds made so far"})

    @pre_dump
    def _from_view(self, tournament: TournamentView, **kwargs: object) -> dict[str, Any]:
        return tournament.to_json()


class TournamentSummarySchema(Schema):
    """A tournament in a list: dumped from its :class:`arena.records.TournamentRecord`."""

    id = fields.String()
    name = fields.String()
    game = fields.String()
    variant = fields.String()
    format = fields.String(validate=validate.OneOf(FORMATS))
    match_count = fields.Integer()
    created_at = fields.String()


# -- ladders ------------------------------------------------------------------------------------


class LadderQuerySchema(Schema):
    variant = _id(metadata={"description": "the game's default variant when left out"})


class RefitAboutSchema(Schema):
    matches = fields.Integer(metadata={"description": "counted results fitted"})
    samples = fields.Integer(metadata={"description": "bootstrap resamples"})
    seed = fields.Integer()
    at = fields.String(metadata={"description": "when the refit ran (UTC, ISO 8601)"})


class LadderSchema(Schema):
    game = fields.String()
    variant = fields.String()
    rated = fields.Boolean()
    team = fields.Boolean()
    ranked_by = fields.String()
    total = fields.Integer(metadata={"description": "rows in the whole ladder"})
    refit = fields.Nested(RefitAboutSchema, allow_none=True, metadata={"description": "null before a refit"})
    entries = fields.List(fields.Nested(LadderEntrySchema), metadata={"description": "this page's rows"})


class MatchmakingSetSchema(Schema):
    matches_per_minute = WholeNumber(
        required=True,
        validate=validate.Range(1, 600),
        metadata={"description": "at most this many matches are made in any 60 s"},
    )
    max_in_flight = WholeNumber(
        load_default=None,
        validate=validate.Range(1, 1000),
        metadata={"description": "cap of the ladder's matches queued or running (default: the rate)"},
    )
    seats = WholeNumber(
        load_default=None,
        validate=validate.Range(1, 16),
        metadata={"description": "seats of each match (default: the variant's fewest, at least 2)"},
    )
    options = fields.Dict(load_default=dict)
    time = fields.Nested(TimeSchema, load_default=lambda: {"move_ms": 2000, "bank_ms": 0})
    max_faults = WholeNumber(load_default=3, validate=validate.Range(1, 1000))


class MatchmakingSchema(Schema):
    game = fields.String()
    variant = fields.String()
    enabled = fields.Boolean(metadata={"description": "the scheduler makes this ladder's matches"})
    matches_per_minute = fields.Integer(allow_none=True)
    max_in_flight = fields.Integer(allow_none=True)
    seats = fields.Integer(allow_none=True)
    options = fields.Dict(allow_none=True)
    time = fields.Nested(TimeSchema, allow_none=True)
    max_faults = fields.Integer(allow_none=True)
    started_at = fields.String(allow_none=True, metadata={"description": "when matchmaking was turned on"})
    tick_seconds = fields.Integer(metadata={"description": "how often the scheduler makes matches"})
    last_tick_at = fields.String(
        allow_none=True, metadata={"description": "when the scheduler last ran: null or stale if none runs"}
    )
    bots = fields.Integer(
        metadata={"description": "bots registered for the game (all are paired but those resting)"}
    )
    in_flight = fields.Integer(metadata={"description": "the ladder's matches queued or running"})
    running = fields.Integer(metadata={"description": "of those, the ones being played"})
    made_last_minute = fields.Integer()
    resting = fields.List(
        fields.String(),
        metadata={"description": "bots left out after 3 forfeits in a row, until their owner changes them"},
    )
    cancelled = fields.List(
        fields.String(), metadata={"description": "DELETE only: the queued matches it cancelled"}
    )


class HealthSchema(Schema):
    status = fields.String()
    mode = fields.String(metadata={"description": "embedded or redis"})
    games = fields.List(fields.String())
