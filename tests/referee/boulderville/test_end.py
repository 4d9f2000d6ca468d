"""The end of the game and "Winning the game": the rescue track, then pre-eminence by cashed renown."""

from __future__ import annotations

import pytest

from referee.boulderville import GAME
from tests.referee.boulderville.helpers import FAR, SCEPTIC, person, play_turn, position, scientist, setup


def test_the_game_ends_at_the_end_of_the_turn_the_last_townsperson_leaves() -> None:
    state = position(stage="place", people=[person("t07", "bridge", "mover")])
    play_turn(state, FAR)
    assert state.table.result == "evacuated" and state.table.turn == 1
    assert state.current_seat is None and state.legal_moves() == []
    outcome = state.outcome()
    assert outcome is not None and outcome.team_won and outcome.details["rescue"] == 3


def test_when_the_lava_takes_the_last_townsperson_the_scientists_still_finish_that_turn() -> None:
    scientists = [scientist(0, tokens=3), scientist(1), scientist(2), scientist(3)]
    state = position(
        turn=2,
        lead=3,
        stage="ongoing",
        terrain={"crater_floor": "lava"},
        scientists=scientists,
        people=[person("t07", "crater_rim")],
    )
    assert state.table.people[0].status == "dead" and state.outcome() is None
    assert state.table.stage == "place"
    play_turn(state, FAR | {0: "station_lab"})
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == (3.0, 0.0, 0.0, 0.0)


@pytest.mark.parametrize(
    ("renown", "places"),
    [
        ((5, 9, 5, 0), (2, 1, 2, 4)),
        ((3, 3, 3, 3), (1, 1, 1, 1)),
        ((0, 0, 7, 1), (3, 3, 1, 2)),
    ],
)
def test_a_won_game_ranks_the_scientists_by_cashed_renown_ties_sharing(renown, places) -> None:
    scientists = [scientist(seat, renown=r) for seat, r in enumerate(renown)]
    state = position(stage="place", scientists=scientists, people=[person("t07", "bridge", "mover")])
    play_turn(state, FAR)
    outcome = state.outcome()
    assert outcome.team_won is True
    assert outcome.places == places and outcome.scores == tuple(float(r) for r in renown)


def test_unclaimed_renown_tokens_do_not_count() -> None:
    scientists = [scientist(0, tokens=10, renown=1), scientist(1, renown=2), scientist(2), scientist(3)]
    state = position(stage="place", scientists=scientists, people=[person("t07", "bridge", "mover")])
    play_turn(state, FAR)
    assert state.outcome().places == (2, 1, 3, 3)


@pytest.mark.parametrize(("rescue_before", "won"), [(-2, True), (-3, False), (-5, False)])
def test_the_game_is_won_only_if_the_rescue_track_ends_positive(rescue_before: int, won: bool) -> None:
    # the Okafors (value 3) are saved on the last turn
    scientists = [scientist(seat, renown=seat) for seat in range(4)]
    state = position(
        stage="place", rescue=rescue_before, scientists=scientists, people=[person("t07", "bridge", "mover")]
    )
    play_turn(state, FAR)
    outcome = state.outcome()
    assert outcome.team_won is won
    assert outcome.places == ((4, 3, 2, 1) if won else (1, 1, 1, 1))
    assert outcome.scores == (0.0, 1.0, 2.0, 3.0)


def test_a_game_that_runs_to_the_turn_limit_ends_and_loses_those_still_in_town() -> None:
    state = GAME.start("standard", seats=4, seed=0, options={"max_turns": 3}, setup=setup(stage="place"))
    for _ in range(3):
        play_turn(state, FAR)
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "turn_limit" and state.table.turn == 3
    assert outcome.details["dead"] == [SCEPTIC["id"]] and outcome.team_won is False
