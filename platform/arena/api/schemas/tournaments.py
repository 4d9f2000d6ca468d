"""A tournament: the request that creates it, the tournament as it stands (progress, standings, rounds,
matches), and its summary in a list."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, pre_dump, validate

from arena.api.schemas.common import (
    LARGEST_BOUND,
    SEED,
    Flag,
    TimeSchema,
    WholeNumber,
    id_field,
    max_faults_field,
)
from arena.api.schemas.events import EntrySchema, OrganizerRefSchema
from arena.api.schemas.matches import ResultSchema
from arena.api.schemas.names import Name
from arena.records import MatchStatus
from arena.tournaments.formats import FORMATS
from arena.tournaments.knockout import MAX_POD_REPLAYS, POD_TIES
from arena.tournaments.scheduled import ENTRY_KINDS
from arena.tournaments.tournament_requests import TournamentView


class TournamentCreateSchema(Schema):
    name = Name(required=True)
    game = id_field(required=True)
    variant = id_field()
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    bots = fields.List(
        id_field(),
        load_default=list,
        validate=validate.Length(0, 200),
        metadata={"description": "invited entry: the bots (a scheduled open tournament: its first entrants)"},
    )
    seats_per_match = WholeNumber(required=True, validate=validate.Range(1, 16))
    starts_at = fields.AwareDateTime(
        load_default=None,
        metadata={"description": "ISO 8601 with a zone; default: now (the tournament starts at once)"},
    )
    entry = fields.String(
        load_default="invited",
        validate=validate.OneOf(ENTRY_KINDS),
        metadata={
            "description": "invited (its bots), open (bots enter themselves), ladder (top N of the ladder)"
        },
    )
    top = WholeNumber(validate=validate.Range(2, 200), metadata={"description": "ladder entry: how many"})
    min_entrants = WholeNumber(
        validate=validate.Range(1, 200),
        metadata={
            "description": "fewer at the start (after the check-in) cancels it; "
            "default: the least the format plays"
        },
    )
    max_entrants = WholeNumber(
        validate=validate.Range(1, 200), metadata={"description": "default: the most the format holds"}
    )
    games_per_pairing = WholeNumber(
        load_default=2,
        validate=validate.Range(1, 1000),
        metadata={"description": "rounded up to a multiple of seats_per_match so seats rotate evenly"},
    )
    seed = SEED
    options = fields.Dict(load_default=dict)
    time = fields.Nested(TimeSchema, load_default=lambda: {"move_ms": 2000, "bank_ms": 0})
    rated = Flag(load_default=True)
    max_faults = max_faults_field()
    rounds = WholeNumber(
        validate=validate.Range(1, 64),
        metadata={"description": "swiss only: rounds to play (default ceil(log2(bots)))"},
    )
    advance = WholeNumber(
        validate=validate.Range(1, 3),
        metadata={"description": "knockout only: bots of each pod that go on (default 1; 2 of a pod of 4)"},
    )
    pod_ties = fields.String(
        validate=validate.OneOf(POD_TIES),
        metadata={
            "description": "knockout only: a pod whose places leave a tie for going on goes by 'seed' "
            "(the default: score, then seed) or is 'replay'ed, same bots, new seed, up to "
            f"{MAX_POD_REPLAYS} times, then by score and seed"
        },
    )


class RoundSchema(Schema):
    round = fields.Integer()
    matches = fields.List(fields.String(), metadata={"description": "one a pod (a Swiss's pairing)"})
    byes = fields.List(fields.String(), metadata={"description": "bots sitting out (a bye scores as a win)"})
    replays = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        metadata={"description": "knockout replaying ties: a replayed pod's first match -> its replays"},
    )


class ProgressSchema(Schema):
    done = fields.Integer()
    total = fields.Integer()
    finished = fields.Integer()
    aborted = fields.Integer()
    cancelled = fields.Integer()
    running = fields.Integer()
    queued = fields.Integer()


class StandingSchema(Schema):
    """One bot's line: the columns every format has, and the tie-break columns of its own."""

    rank = fields.Integer(metadata={"description": "shared by bots level on every ranking column"})
    bot_id = fields.String()
    name = fields.String()
    played = fields.Integer()
    points = fields.Float()
    wins = fields.Integer()
    draws = fields.Integer()
    losses = fields.Integer()
    score_sum = fields.Float()
    team_wins = fields.Integer(
        allow_none=True,
        metadata={
            "description": "team variants: games the team won (wins stay first places alone); null otherwise"
        },
    )
    byes = fields.Integer(metadata={"description": "swiss: rounds sat out; each scores a point"})
    buchholz = fields.Float(
        metadata={"description": "swiss, the first tie-break: the final points of every opponent met, summed"}
    )
    sonneborn_berger = fields.Float(
        metadata={
            "description": "swiss, the second tie-break: for every opponent met, what the bot scored "
            "against it (1 ahead, 0.5 level, 0 behind) times its final points, summed"
        }
    )
    head_to_head = fields.Float(
        metadata={
            "description": "round robin and gauntlet, the first tie-break: what the bot scored against "
            "the bots level with it on points"
        }
    )
    seed = fields.Integer(metadata={"description": "knockout: 1 for the best seed"})
    out_in = fields.Integer(
        allow_none=True,
        metadata={
            "description": "knockout: the round the bot went out in; null while in, and for the winner"
        },
    )


class TournamentMatchSchema(Schema):
    id = fields.String()
    round = fields.Integer(
        allow_none=True,
        metadata={"description": "the match's round; a round robin's rounds are its seat rotations"},
    )
    status = fields.String(validate=validate.OneOf([status.value for status in MatchStatus]))
    bots = fields.List(fields.String())
    seed = fields.Integer(allow_none=True, metadata={"description": "null if the match's spec is lost"})
    result = fields.Nested(ResultSchema, allow_none=True)
    replay_of = fields.String(
        allow_none=True,
        metadata={"description": "a knockout's replay of a tied pod: the pod's first match; null otherwise"},
    )


class PodSchema(Schema):
    match = fields.String()
    bots = fields.List(fields.String(), metadata={"description": "in seat order"})
    ranking = fields.List(fields.String(), metadata={"description": "best first, once the match has ended"})
    advanced = fields.List(fields.String(), metadata={"description": "who went on (the final: its winner)"})
    winner_path = fields.Boolean(metadata={"description": "the tournament's winner played this match"})
    replays = fields.List(
        fields.String(),
        metadata={"description": "the pod's match played again after a tie for going on, in order"},
    )
    replay_due = fields.Boolean(
        metadata={"description": "its last match left a tie for going on: a replay is to come"}
    )
    decided_by = fields.String(
        allow_none=True,
        metadata={
            "description": "the match (the first or a replay) whose result decided who went on; null "
            "while undecided, or when no match finished and the seeds decided"
        },
    )


class BracketRoundSchema(Schema):
    round = fields.Integer()
    pods = fields.List(fields.Nested(PodSchema))
    byes = fields.List(fields.String(), metadata={"description": "best seeds going on without playing"})


class BracketSchema(Schema):
    planned_rounds = fields.Integer()
    winner = fields.String(allow_none=True)
    rounds = fields.List(
        fields.Nested(BracketRoundSchema), metadata={"description": "the rounds made so far"}
    )


class CrossCellSchema(Schema):
    points = fields.Float(metadata={"description": "what the row's bot scored against the column's"})
    games = fields.Integer()


class OpponentRecordSchema(Schema):
    bot_id = fields.String()
    name = fields.String()
    games = fields.Integer(metadata={"description": "matches the challenger played with this bot"})
    wins = fields.Integer(metadata={"description": "matches where the challenger placed ahead of it"})
    draws = fields.Integer(metadata={"description": "matches where they shared a place"})
    losses = fields.Integer(metadata={"description": "matches where it placed ahead (or a team game lost)"})
    points = fields.Float(
        metadata={"description": "what the challenger scored against it: 1, 0.5, 0 a match"}
    )
    beaten = fields.Boolean(metadata={"description": "the challenger scored more than half against it"})


class ChallengerSchema(Schema):
    bot_id = fields.String()
    name = fields.String()
    played = fields.Integer()
    wins = fields.Integer(metadata={"description": "first place alone"})
    draws = fields.Integer(metadata={"description": "first place shared"})
    losses = fields.Integer()
    points = fields.Float(metadata={"description": "one a match, shared by the seats in first place"})
    score_sum = fields.Float()
    opponents = fields.List(fields.Nested(OpponentRecordSchema), metadata={"description": "the field"})
    beat_the_field = fields.Boolean(
        metadata={
            "description": "it scored more than half against every bot of the field: the gauntlet's winner"
        }
    )
    rule = fields.String(metadata={"description": "the rule beat_the_field applies, in words"})


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
        validate=validate.OneOf(["scheduled", "queued", "running", "finished", "cancelled"]),
        metadata={"description": "scheduled (waiting for its start), queued, running, finished or cancelled"},
    )
    organizer = fields.Nested(
        OrganizerRefSchema, allow_none=True, metadata={"description": "null: made with the admin token"}
    )
    starts_at = fields.String(allow_none=True, metadata={"description": "when it starts or started (UTC)"})
    entry = fields.String(validate=validate.OneOf(ENTRY_KINDS))
    top = fields.Integer(metadata={"description": "ladder entry: how many of the ladder's best; 0 otherwise"})
    min_entrants = fields.Integer()
    max_entrants = fields.Integer()
    cancel_reason = fields.String(
        allow_none=True, metadata={"description": "why the platform cancelled it at its start"}
    )
    entries = fields.List(fields.Nested(EntrySchema))
    progress = fields.Nested(ProgressSchema)
    points = fields.String(metadata={"description": "how standings points are awarded"})
    winner = fields.String(
        allow_none=True,
        metadata={
            "description": "once finished: the bot ranked first alone; a gauntlet's challenger when it "
            "beat the field (null otherwise)"
        },
    )
    challenger = fields.Nested(
        ChallengerSchema,
        allow_none=True,
        metadata={"description": "gauntlet only: the challenger's record against the field"},
    )
    winners = fields.List(
        fields.String(), metadata={"description": "once finished: the bots ranked first (several if shared)"}
    )
    standings = fields.List(fields.Nested(StandingSchema))
    bracket = fields.Nested(BracketSchema, allow_none=True, metadata={"description": "knockout only"})
    cross_table = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(keys=fields.String(), values=fields.Nested(CrossCellSchema)),
        allow_none=True,
        metadata={"description": "round robin and gauntlet: [bot][opponent], pairs that met"},
    )
    matches = fields.List(fields.Nested(TournamentMatchSchema))
    rounds = fields.Integer(metadata={"description": "swiss and knockout: rounds planned; 0 otherwise"})
    advance = fields.Integer(metadata={"description": "knockout: bots of each pod that go on"})
    pod_ties = fields.String(
        allow_none=True,
        validate=validate.OneOf(POD_TIES),
        metadata={"description": "knockout: a tie for going on goes by seed or is replayed; null otherwise"},
    )
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
    starts_at = fields.String(allow_none=True)
    entry = fields.String(validate=validate.OneOf(ENTRY_KINDS))
    organizer_name = fields.String(allow_none=True, metadata={"description": "null: the admin"})
    scheduled = fields.Boolean(metadata={"description": "waiting for its start"})
    cancelled_at = fields.String(allow_none=True)


class TournamentUpdateSchema(Schema):
    """What may change before the start (each field optional)."""

    name = fields.String(validate=validate.Length(1, 100))
    starts_at = fields.AwareDateTime()
    min_entrants = WholeNumber(validate=validate.Range(1, 200))
    max_entrants = WholeNumber(validate=validate.Range(1, 200))
    top = WholeNumber(validate=validate.Range(2, 200))
    options = fields.Dict()
    time = fields.Nested(TimeSchema)
    games_per_pairing = WholeNumber(validate=validate.Range(1, 1000))
    rated = Flag()
    max_faults = WholeNumber(validate=validate.Range(min=1, max=LARGEST_BOUND))
    rounds = WholeNumber(validate=validate.Range(1, 64))
    advance = WholeNumber(validate=validate.Range(1, 3))
    pod_ties = fields.String(validate=validate.OneOf(POD_TIES))
