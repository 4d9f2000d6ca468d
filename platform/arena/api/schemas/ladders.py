"""A ladder page, and a continuous ladder's matchmaking as the organizer sets it and as it stands."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from arena.api.schemas.common import TimeSchema, WholeNumber, id_field, max_faults_field


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
    team_wins = fields.Integer(
        allow_none=True,
        metadata={"description": "team variants only: games the team won (wins are first places alone)"},
    )
    team_win_rate = fields.Float(allow_none=True, metadata={"description": "team variants only"})
    mean_score = fields.Float(allow_none=True)


class LadderQuerySchema(Schema):
    variant = id_field(metadata={"description": "the game's default variant when left out"})


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
    max_faults = max_faults_field()


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
