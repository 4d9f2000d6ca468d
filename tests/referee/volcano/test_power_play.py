"""The Power Play: before the eruption, give back one captured piece to any square without a cap."""

from __future__ import annotations

import pytest

from referee.game import IllegalMove
from tests.referee.volcano.positions import captured, game, power_play, stack_at, step

RED_NEST = "red1 red2 red3"


def test_a_power_play_makes_a_capture_possible() -> None:
    # Without it, the red medium lands on a yellow small and stays; with a blue medium put there first,
    # the red medium lands on its own size and is captured.
    position = {(0, 0): RED_NEST, (0, 3): "yellow1"}
    plain = game(position, {(0, 0): "black"}, captures=["blue2 green1", ""])
    plain.apply(step(0, 0, "E"))
    assert captured(plain, 0) == "green1 blue2"
    assert stack_at(plain, 0, 3) == "yellow1 red2"

    state = game(position, {(0, 0): "black"}, captures=["blue2 green1", ""])
    state.apply(power_play("blue2", 0, 3))
    assert stack_at(state, 0, 3) == "yellow1 blue2"
    assert captured(state, 0) == "green1"
    assert state.current_seat == 0  # a Power Play is not an eruption: the seat goes on
    assert state.observation(0)["power_play_used"] is True
    assert state.observation(0)["steps_this_turn"] == 0

    state.apply(step(0, 0, "E"))
    assert stack_at(state, 0, 3) == "yellow1 blue2"
    assert captured(state, 0) == "red2 green1"
    assert state.current_seat == 1


def test_one_power_play_a_turn_then_a_new_one_next_turn() -> None:
    state = game({(0, 0): "red3"}, {(0, 0): "black", (4, 4): "white"}, captures=["blue2 green1", "cyan3"])
    plays = [m["piece"] for m in state.legal_moves() if m["type"] == "power_play"]
    kinds = {(piece["colour"], piece["size"]) for piece in plays}
    assert kinds == {("blue", 2), ("green", 1)}

    state.apply(power_play("green1", 2, 2))
    assert [m for m in state.legal_moves() if m["type"] == "power_play"] == []
    with pytest.raises(IllegalMove):
        state.apply(power_play("blue2", 2, 3))

    state.apply(step(0, 0, "S"))  # the red large erupts south: seat 0's turn ends
    assert state.current_seat == 1
    assert state.observation(1)["power_play_used"] is False
    assert any(m["type"] == "power_play" for m in state.legal_moves())


def test_a_power_play_goes_on_any_square_without_a_cap_the_caldera_included() -> None:
    caps = {(0, 0): "black", (1, 1): "white", (4, 4): "black"}
    state = game({}, caps, captures=["purple3", ""])

    targets = {tuple(m["to"]) for m in state.legal_moves() if m["type"] == "power_play"}

    assert targets == {(row, column) for row in range(5) for column in range(5)} - set(caps)
    assert (2, 2) in targets
    with pytest.raises(IllegalMove):
        state.apply(power_play("purple3", 1, 1))
    with pytest.raises(IllegalMove):  # a piece the seat does not hold
        state.apply(power_play("purple2", 2, 2))


def test_a_power_play_needs_a_captured_piece_and_the_option() -> None:
    assert not any(m["type"] == "power_play" for m in game({}, {(0, 0): "black"}).legal_moves())

    state = game({}, {(0, 0): "black"}, captures=["purple3", ""], power_play=False)
    assert not any(m["type"] == "power_play" for m in state.legal_moves())
    with pytest.raises(IllegalMove):
        state.apply(power_play("purple3", 2, 2))


def test_a_power_play_piece_lands_on_top_and_captures_nothing_itself() -> None:
    state = game({(3, 3): "orange2"}, {(0, 0): "black"}, captures=["blue2", ""])

    state.apply(power_play("blue2", 3, 3))

    assert stack_at(state, 3, 3) == "orange2 blue2"
    assert captured(state, 0) == ""
    assert state.current_seat == 0
