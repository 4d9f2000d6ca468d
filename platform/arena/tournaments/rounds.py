"""The next round of a Swiss or knockout tournament, from the rounds made and their matches: pure.

Swiss pairs bots by their points so far (:func:`arena.tournaments.swiss.points_so_far`, a bye scoring
as a win), never twice the same pod when it can help it (:func:`arena.tournaments.swiss.swiss_pairing`);
a knockout plays the survivors of the bracket as its standings read it
(:meth:`arena.tournaments.knockout.BracketRound.survivors`) in the pods of
:func:`arena.tournaments.knockout.knockout_round`, once every pod of the round is decided: a knockout
replaying tied pods first plays the replays its bracket owes (:func:`replays_due`). Storing and
queueing a round or a replay, exactly once, is :mod:`arena.tournaments.progress`.
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
    """The pods and byes of the round after ``made``, or ``None`` when the tournament is over (or,
    in a knockout, while a pod of the last round waits for a replay)."""
    seats = tournament.seats_per_match
    if tournament.format == "swiss":
        if len(made) >= tournament.rounds:
            return None
        points = swiss.points_so_far(tournament.bots, made, matches, is_team(tournament))
        history = [matches[match_id].bots for round_ in made for match_id in round_["matches"]]
        made_round = swiss.swiss_pairing(tournament.bots, seats, points, history, swiss.byes_given(made))
        return made_round.pods, made_round.byes
    result = knockout_bracket(tournament, made, matches)
    last = result.rounds[-1]
    if last.is_final or not all(pod.ended for pod in last.pods):
        return None
    seeds = tournament.seeds or tournament.bots
    survivors = last.survivors({bot: index for index, bot in enumerate(seeds)})
    knock = knockout.knockout_round(survivors, seats, tournament.advance)
    return knock.pods, knock.byes


def knockout_bracket(
    tournament: TournamentRecord, made: Sequence[RoundRecord], matches: Mapping[str, MatchRecord]
) -> knockout.Bracket:
    """A knockout's bracket as its standings read it and its next round is made from."""
    seeds = tournament.seeds or tournament.bots
    return knockout.bracket(
        seeds, tournament.seats_per_match, tournament.advance, made, matches, tournament.pod_ties
    )


def replays_due(
    tournament: TournamentRecord, made: Sequence[RoundRecord], matches: Mapping[str, MatchRecord]
) -> list[knockout.PodReplay]:
    """The replays a knockout replaying tied pods owes now (none for any other tournament): played
    before the next round is made, which needs every pod decided."""
    if tournament.format != "knockout" or tournament.pod_ties != "replay" or not made:
        return []
    return knockout.replays_due(knockout_bracket(tournament, made, matches))


def more_to_play(
    tournament: TournamentRecord, made: Sequence[RoundRecord], matches: Mapping[str, MatchRecord]
) -> bool:
    """Whether a tournament whose matches made so far have all ended still owes a round or a
    replay: between a round's last match and the next round being stored, it is not finished
    (a page that read "finished" then would stop following it)."""
    if tournament.format not in ROUND_FORMATS:
        return False
    return bool(replays_due(tournament, made, matches)) or next_round(tournament, made, matches) is not None
