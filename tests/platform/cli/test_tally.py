"""``arena play``'s tally: wins, draws and losses per bot, overall and per seat, seats rotated."""

from __future__ import annotations

import pytest

from arena.cli.tally import Outcome, Record, rotation, seat_outcome, tally, wilson_interval
from referee.match import MatchSpec
from referee.protocol import Fault
from referee.replay import FaultRecord, MatchResult, MoveRecord, Replay, SeatRecord

pytestmark = pytest.mark.usefixtures("nim_registered")

WIN, DRAW, LOSS = Outcome.WIN, Outcome.DRAW, Outcome.LOSS


@pytest.mark.parametrize(
    ("places", "team_won", "expected"),
    [
        ((1, 2), None, [WIN, LOSS]),
        ((2, 1), None, [LOSS, WIN]),
        ((1, 1), None, [DRAW, DRAW]),  # a shared first place (a 0-0 game, a move limit) is a draw
        ((1, 1, 3), None, [DRAW, DRAW, LOSS]),
        ((1, 2, 2), None, [WIN, LOSS, LOSS]),  # a shared second place is still a loss
        # a team game: the team's result is counted apart (team wins); a seat wins by its own
        # first place in a game the team won, as ladders and tournament standings count it
        ((2, 1, 3, 4), True, [LOSS, WIN, LOSS, LOSS]),
        ((1, 1, 1, 1), True, [DRAW] * 4),
        ((1, 1, 1, 1), False, [LOSS] * 4),
    ],
)
def test_each_seat_wins_draws_or_loses(
    places: tuple[int, ...], team_won: bool | None, expected: list
) -> None:
    assert [seat_outcome(places, team_won, seat) for seat in range(len(places))] == expected


@pytest.mark.parametrize(
    ("game", "entries", "rotate", "seats"),
    [
        (0, 2, True, (0, 1)),
        (1, 2, True, (1, 0)),
        (2, 2, True, (0, 1)),
        (2, 4, True, (2, 3, 0, 1)),
        (5, 4, False, (0, 1, 2, 3)),
        (7, 1, True, (0,)),
    ],
)
def test_game_g_seats_the_bots_rotated_by_g(game: int, entries: int, rotate: bool, seats: tuple) -> None:
    assert rotation(game, entries, rotate) == seats


@pytest.mark.parametrize(
    ("wins", "draws", "losses", "rate", "low", "high"),
    [
        (5, 0, 5, 0.5, 0.237, 0.763),  # published 95% Wilson values
        (0, 0, 10, 0.0, 0.0, 0.278),
        (10, 0, 0, 1.0, 0.722, 1.0),
        (0, 10, 0, 0.5, 0.237, 0.763),  # ten draws score as five wins
        (3, 4, 3, 0.5, 0.237, 0.763),
        (1, 1, 0, 0.75, 0.198, 0.973),  # 1.5 of 2
    ],
)
def test_the_win_rate_counts_a_draw_half_with_its_wilson_interval(
    wins: int, draws: int, losses: int, rate: float, low: float, high: float
) -> None:
    record = Record(wins, draws, losses)
    assert record.games == wins + draws + losses and record.win_rate == rate
    assert [round(end, 3) for end in record.interval] == [low, high]


def test_no_games_is_no_knowledge() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0) and Record().win_rate == 0.0


def _replay(names: list[str], places: tuple[int, ...], faulty_seat: int | None = None) -> Replay:
    """A two-move Nim replay with the given places; ``faulty_seat`` answered illegally once."""
    spec = MatchSpec.build(game="nim", bots=names, seed=1)
    fault = FaultRecord(Fault.ILLEGAL_MOVE, "not one of the legal moves", '{"take":9}')
    moves = tuple(
        MoveRecord(turn, turn % 2, {"take": 1}, "bot", fault if turn % 2 == faulty_seat else None, 1.0)
        for turn in range(2)
    )
    seats = tuple(
        SeatRecord(seat, name, name, {"illegal_move": 1} if seat == faulty_seat else {})
        for seat, name in enumerate(names)
    )
    result = MatchResult(places, tuple(float(len(places) - place) for place in places), "end")
    return Replay("m", spec, "1", seats, {}, moves, result, "", "")


def test_rotated_games_are_counted_to_the_bot_that_held_the_seat() -> None:
    # seat 0 wins every game; rotated, each bot held seat 0 once, then the third game is a draw
    replays = [_replay(["a", "b"], (1, 2)), _replay(["b", "a"], (1, 2)), _replay(["a", "b"], (1, 1))]
    first, second = tally(["a", "b"], replays)
    assert (first.overall.wins, first.overall.draws, first.overall.losses) == (1, 1, 1)
    assert (second.overall.wins, second.overall.draws, second.overall.losses) == (1, 1, 1)
    assert first.by_seat[0] == Record(wins=1, draws=1, score_total=2.0)
    assert first.by_seat[1] == Record(losses=1)
    assert second.by_seat[0] == Record(wins=1, score_total=1.0)


def test_without_rotation_each_bot_keeps_its_seat() -> None:
    replays = [_replay(["a", "b"], (1, 2)), _replay(["a", "b"], (1, 2))]
    first, second = tally(["a", "b"], replays, rotate=False)
    assert first.overall.wins == 2 and second.overall.losses == 2
    assert list(first.by_seat) == [0] and list(second.by_seat) == [1]


def test_faults_are_the_bots_whichever_seat_it_held_and_the_first_is_kept() -> None:
    replays = [_replay(["a", "b"], (1, 2)), _replay(["b", "a"], (1, 2), faulty_seat=1)]
    first, second = tally(["a", "b"], replays)
    assert first.fault_kinds == {"illegal_move": 1} and not second.fault_kinds
    assert first.first_fault is not None and second.first_fault is None
    assert (first.first_fault.game, first.first_fault.seat, first.first_fault.turn) == (1, 1, 1)
    assert first.first_fault.fault.sent == '{"take":9}'


def test_the_same_name_twice_is_two_bots() -> None:
    tallies = tally(["random", "random"], [_replay(["random", "random"], (1, 2))])
    assert [t.overall.wins for t in tallies] == [1, 0]


def test_a_team_game_counts_the_teams_win_apart_from_the_seats_own_place() -> None:
    record = Record()
    record.add(LOSS, 3.0, False, team_won=True)  # the team won, another seat was first
    record.add(WIN, 5.0, False, team_won=True)
    record.add(LOSS, 0.0, False, team_won=False)
    assert (record.team_games, record.team_wins) == (3, 2)
    assert (record.wins, record.draws, record.losses) == (1, 0, 2)
