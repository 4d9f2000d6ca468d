"""The next round of a Swiss or knockout tournament, from the rounds made and their matches: pure.

Swiss pairs bots by their points so far (a bye scores as a win), never twice the same pod when it can
help it (:func:`arena.tournaments.formats.swiss_pairing`); a knockout keeps each pod's best
``advance`` bots, in seed order (:func:`arena.tournaments.formats.knockout_round`). Storing and
queueing a round, exactly once, is :mod:`arena.tournaments.progress`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from arena.ladders.scoring import seat_points
from arena.records import MatchRecord, RoundRecord, TournamentRecord
from arena.tournaments import formats
from referee.game import SetupError
from referee.registry import get_game

ROUND_FORMATS = ("swiss", "knockout")


def _team(tournament: TournamentRecord) -> bool:
    try:
        return get_game(tournament.game).variant(tournament.variant).team
    except SetupError:
        return False


def next_round(
    tournament: TournamentRecord, made: Sequence[RoundRecord], matches: dict[str, MatchRecord]
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]] | None:
    """The pods and byes of the round after ``made``, or ``None`` when the tournament is over."""
    seats = tournament.seats_per_match
    if tournament.format == "swiss":
        if len(made) >= tournament.rounds:
            return None
        points: dict[str, float] = dict.fromkeys(tournament.bots, 0.0)
        byes: Counter[str] = Counter()
        history = []
        team = _team(tournament)
        for round_ in made:
            for bot in round_["byes"]:
                byes[bot] += 1
                points[bot] = points.get(bot, 0.0) + 1.0  # a bye scores as a win
            for match_id in round_["matches"]:
                match = matches[match_id]
                history.append(match.bots)
                if match.result is not None:
                    for bot, share in zip(match.bots, seat_points(match.result, team), strict=True):
                        points[bot] = points.get(bot, 0.0) + share
        made_round = formats.swiss_pairing(tournament.bots, seats, points, history, byes)
        return made_round.pods, made_round.byes
    seeds = {bot: index for index, bot in enumerate(tournament.seeds or tournament.bots)}
    last = made[-1]
    survivors = list(last["byes"])
    for match_id in last["matches"]:
        match = matches[match_id]
        survivors += formats.pod_ranking(match.bots, match, seeds)[: tournament.advance]
    if not last["byes"] and len(last["matches"]) == 1:
        return None  # the final was played
    survivors.sort(key=lambda bot: seeds[bot])
    knock = formats.knockout_round(survivors, seats, tournament.advance)
    return knock.pods, knock.byes
