"""The platform's limits: a turn of too many steps without an eruption is a pass; the game ends after
the turn limit or when every seat passed in a row, seats then ranked by trios, then pieces captured."""

from __future__ import annotations

import pytest

from referee.game import IllegalMove
from tests.referee.volcano.positions import cap_at, game, power_play, step


def _shuffle_cap(state, count: int) -> None:
    """Step the cap between (0, 0) and (0, 1), both empty: nothing ever erupts."""
    for _ in range(count):
        state.apply(step(0, 0, "E") if cap_at(state, 0, 0) else step(0, 1, "W"))


def test_thirty_steps_without_an_eruption_end_the_turn_as_a_pass() -> None:
    state = game({}, {(0, 0): "black"}, seats=3)

    _shuffle_cap(state, 29)
    assert state.current_seat == 0 and state.observation(0)["steps_this_turn"] == 29

    _shuffle_cap(state, 1)
    observed = state.observation(1)
    assert state.current_seat == 1
    assert observed["turn"] == 1 and observed["passes_in_row"] == 1
    assert observed["steps_this_turn"] == 0 and observed["turn_moves"] == []


def test_every_seat_passing_in_a_row_ends_the_game_ranked_by_trios_then_pieces() -> None:
    state = game({}, {(0, 0): "black"}, captures=["", "blue1"])

    _shuffle_cap(state, 30)  # seat 0 passes
    assert state.outcome() is None and state.current_seat == 1
    _shuffle_cap(state, 29)
    assert state.outcome() is None
    _shuffle_cap(state, 1)  # seat 1's thirtieth step: every seat has now passed in a row

    outcome = state.outcome()
    assert outcome is not None
    assert outcome.reason == "all_passed"
    assert outcome.places == (2, 1)  # no trios either side: seat 1 captured more pieces
    assert outcome.details["pieces_captured"] == [0, 1]
    assert outcome.details["winner"] is None


def test_an_eruption_between_passes_restarts_the_count() -> None:
    state = game({(3, 0): "red1 red2 red3"}, {(0, 0): "black", (3, 0): "white"}, step_limit=2)

    _shuffle_cap(state, 2)  # seat 0 passes
    state.apply(step(3, 0, "E"))  # seat 1 erupts
    assert state.observation(0)["passes_in_row"] == 0
    _shuffle_cap(state, 2)  # seat 0 passes again
    assert state.outcome() is None and state.current_seat == 1


def test_the_step_limit_is_an_option_and_a_power_play_is_not_a_step() -> None:
    state = game({}, {(0, 0): "black"}, captures=["purple2", ""], step_limit=3)

    _shuffle_cap(state, 2)
    state.apply(power_play("purple2", 4, 4))
    assert state.current_seat == 0 and state.observation(0)["steps_this_turn"] == 2
    _shuffle_cap(state, 1)  # the third step

    assert state.current_seat == 1
    assert state.to_json()["turns_played"] == 1


def test_the_turn_limit_ends_the_game_and_ties_share_a_place() -> None:
    stacks = {(0, 0): "red1", (0, 2): "blue1", (4, 0): "green1", (4, 2): "cyan1"}
    state = game(stacks, {(0, 0): "black", (4, 0): "white"}, seats=3, turn_limit=2)

    state.apply(step(0, 0, "E"))  # turn 1: seat 0 captures the red small
    assert state.outcome() is None
    state.apply(step(4, 0, "E"))  # turn 2: seat 1 captures the green small; the limit is reached

    outcome = state.outcome()
    assert outcome is not None
    assert outcome.reason == "turn_limit"
    assert outcome.places == (1, 1, 3)
    assert outcome.details["turns"] == 2
    assert state.legal_moves() == []
    with pytest.raises(IllegalMove):
        state.apply(step(0, 1, "E"))


def test_trios_rank_before_pieces_when_the_game_is_cut_off() -> None:
    state = game(
        {},
        {(0, 0): "black"},
        captures=["red1 red2 red3", "blue1 blue2 green1 green2 cyan1"],
        turn_limit=1,
        step_limit=1,
    )

    state.apply(step(0, 0, "E"))  # one step, no eruption: a pass, and the one turn is played

    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "turn_limit"
    assert outcome.places == (1, 2)
    assert outcome.scores == (1.0, 0.0)
