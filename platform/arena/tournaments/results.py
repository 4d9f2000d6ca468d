"""A tournament's result by its format, pure: standings, each match's round, the winners, and the
format's own picture (a knockout's bracket, a round robin's cross table).

One function per format holds the rules: :mod:`arena.tournaments.knockout`,
:mod:`arena.tournaments.swiss`, :mod:`arena.tournaments.round_robin` (round robins and gauntlets).
The winners are the bots ranked first once every match has ended; a knockout has one (its final's
best), a Swiss or a round robin may share first place. A gauntlet's is its challenger when it beat
the field (:mod:`arena.tournaments.gauntlet`), else none. A cancelled tournament has none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.records import MatchRecord, RoundRecord, TournamentRecord, round_match_ids
from arena.tournaments import gauntlet, knockout, round_robin, swiss
from arena.tournaments.rounds import knockout_bracket
from arena.tournaments.tally import Row


@dataclass(frozen=True)
class Result:
    standings: list[Row]
    rounds_of: dict[str, int]
    """Each match's round (a round robin's rotation)."""
    winners: list[str]
    """The bots ranked first once the tournament has finished; empty before, or if cancelled."""
    bracket: dict[str, Any] | None = None
    cross_table: dict[str, dict[str, Any]] | None = field(default=None)
    replay_of: dict[str, str] = field(default_factory=dict)
    """A knockout's replays: each replay -> the first match of the pod it replays."""
    challenger: dict[str, Any] | None = None
    """A gauntlet's challenger: its record against the field (:func:`arena.tournaments.gauntlet.record`)."""


def result(
    tournament: TournamentRecord,
    made: Sequence[RoundRecord],
    matches: Sequence[MatchRecord],
    team: bool,
    finished: bool,
) -> Result:
    """The result of ``tournament`` from its rounds made and its matches (in play order);
    ``finished``: every match has ended and the tournament was not cancelled."""
    by_id = {match.id: match for match in matches}
    rounds_of = {
        match_id: number for number, round_ in enumerate(made, 1) for match_id in round_match_ids(round_)
    }
    names = tournament.names
    if tournament.format == "knockout":
        drawn = knockout_bracket(tournament, made, by_id)
        rows = knockout.standings(drawn, names, matches, team)
        winner = drawn.winner
        winners = [winner] if finished and winner is not None else []
        replay_of = {
            replay: first
            for round_ in made
            for first, replays in round_.get("replays", {}).items()
            for replay in replays
        }
        return Result(rows, rounds_of, winners, bracket=knockout.bracket_json(drawn), replay_of=replay_of)
    if tournament.format == "swiss":
        rows = swiss.standings(tournament.bots, names, made, by_id, team)
        return Result(rows, rounds_of, _first(rows) if finished else [])
    rows = round_robin.standings(tournament.bots, names, matches, team)
    crossed = round_robin.cross_table(tournament.bots, matches, team)
    rotations = round_robin.rotation_rounds([match.id for match in matches], tournament.games_per_pairing)
    if tournament.format == "gauntlet":
        challenger = gauntlet.record(tournament.bots, names, matches, team)
        won = finished and challenger["beat_the_field"]
        return Result(
            rows,
            rotations,
            [challenger["bot_id"]] if won else [],
            cross_table=round_robin.cross_table_json(crossed),
            challenger=challenger,
        )
    return Result(
        rows,
        rotations,
        _first(rows) if finished else [],
        cross_table=round_robin.cross_table_json(crossed),
    )


def _first(rows: Sequence[Row]) -> list[str]:
    return [row["bot_id"] for row in rows if row["rank"] == 1]
