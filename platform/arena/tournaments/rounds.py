"""The next round of a Swiss or knockout tournament, from the rounds made and their matches: pure.

Swiss pairs bots by their points so far (:func:`arena.tournaments.swiss.points_so_far`, a bye scoring
as a win), never twice the same pod when it can help it (:func:`arena.tournaments.swiss.swiss_pairing`);
a knockout plays the survivors of the bracket as its standings read it
(:meth:`arena.tournaments.knockout.BracketRound.survivors`) in the pods of
:func:`arena.tournaments.knockout.knockout_round`. Storing and queueing a round, exactly once, is
:mod:`arena.tournaments.progress`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arena.records import MatchRecord, RoundRecord, TournamentRecord
from arena.tournaments import knockout, swiss
from referee.game import SetupError
from referee.registry import get_game

ROUND_FORMATS = ("swiss", "knockout")


def is_team(tournament: TournamentRecord) -> bool:
    """Whether the tournament's variant is a team variant (a variant gone from the registry: no)."""
    try:
        return get_game(tournament.game).variant(tournament.variant).team
    except SetupError:
        return False


def next_round(
    tournament: TournamentRecord, made: Sequence[RoundRecord], matches: Mapping[str, MatchRecord]
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]] | None:
    """The pods and byes of the round after ``made``, or ``None`` when the tournament is over."""
    seats = tournament.seats_per_match
    if tournament.format == "swiss":
        if len(made) >= tournament.rounds:
            return None
        points = swiss.points_so_far(tournament.bots, made, matches, is_team(tournament))
        history = [matches[match_id].bots for round_ in made for match_id in round_["matches"]]
        made_round = swiss.swiss_pairing(tournament.bots, seats, points, history, swiss.byes_given(made))
        return made_round.pods, made_round.byes
    seeds = tournament.seeds or tournament.bots
    result = knockout.bracket(seeds, seats, tournament.advance, made, matches)
    last = result.rounds[-1]
    if last.is_final:
        return None
    survivors = last.survivors({bot: index for index, bot in enumerate(seeds)})
    knock = knockout.knockout_round(survivors, seats, tournament.advance)
    return knock.pods, knock.byes
