"""Cap steps and eruptions, from the rule text's own words, as explicit positions move by move."""

from __future__ import annotations

import pytest

from referee.game import IllegalMove
from tests.referee.volcano.positions import cap_at, captured, game, stack_at, step

RED_NEST = "red1 red2 red3"


def test_a_flow_of_three_pieces_captures_large_on_large_and_medium_on_medium() -> None:
    # "if you move a cap such that the erupting large lands upon a large, and the medium further
    # lands upon a medium, you would remove those two pieces from the board"
    state = game({(0, 0): RED_NEST, (0, 2): "blue3", (0, 3): "green2", (0, 4): "yellow2"}, {(0, 0): "black"})

    state.apply(step(0, 0, "E"))

    assert cap_at(state, 0, 0) is None and cap_at(state, 0, 1) == "black"
    assert stack_at(state, 0, 0) == ""  # all three pieces flowed out
    assert stack_at(state, 0, 1) == ""  # the cap was jumped, nothing lands under it
    assert stack_at(state, 0, 2) == "blue3"  # the red large was captured, the blue one stays
    assert stack_at(state, 0, 3) == "green2"
    assert stack_at(state, 0, 4) == "yellow2 red1"  # the small landed on a medium: it stays, on top
    assert captured(state, 0) == "red2 red3"
    eruption = state.last_eruption
    assert eruption is not None
    assert [(landing["to"], landing["captured"]) for landing in eruption["flow"]] == [
        ([0, 2], True),
        ([0, 3], True),
        ([0, 4], False),
    ]
    assert eruption["stopped"] == "spent" and eruption["left_behind"] == 0
    assert state.current_seat == 1  # the eruption ended seat 0's turn


def test_the_top_piece_flows_first_and_each_lands_one_square_farther() -> None:
    state = game({(4, 0): "blue1 green2 yellow3"}, {(4, 0): "white"})

    state.apply(step(4, 0, "NE"))

    assert cap_at(state, 3, 1) == "white"
    assert stack_at(state, 2, 2) == "yellow3"
    assert stack_at(state, 1, 3) == "green2"
    assert stack_at(state, 0, 4) == "blue1"


def test_only_the_top_piece_is_matched_and_any_size_stacks_on_any_size() -> None:
    # a large lands on a stack whose top is a small (a large lies beneath): no capture, it stays on top
    state = game({(0, 0): "red3", (0, 2): "blue3 green1"}, {(0, 0): "black"})

    state.apply(step(0, 0, "E"))

    assert stack_at(state, 0, 2) == "blue3 green1 red3"
    assert captured(state, 0) == ""
    assert state.current_seat == 1  # an eruption without a capture still ends the turn


def test_a_flow_is_cut_short_by_a_cap() -> None:
    state = game({(0, 0): RED_NEST}, {(0, 0): "black", (0, 3): "white"})

    state.apply(step(0, 0, "E"))

    assert stack_at(state, 0, 2) == "red3"
    assert stack_at(state, 0, 3) == ""  # nothing can ever land on a cap
    assert stack_at(state, 0, 0) == "red1 red2"  # what could not flow stays where it was
    assert state.last_eruption is not None
    assert state.last_eruption["stopped"] == "cap" and state.last_eruption["left_behind"] == 2
    assert state.current_seat == 1


def test_a_flow_is_cut_short_by_the_edge() -> None:
    state = game({(0, 2): RED_NEST}, {(0, 2): "black"})

    state.apply(step(0, 2, "E"))

    assert cap_at(state, 0, 3) == "black"
    assert stack_at(state, 0, 4) == "red3"
    assert stack_at(state, 0, 2) == "red1 red2"
    assert state.last_eruption is not None and state.last_eruption["stopped"] == "edge"
    assert state.current_seat == 1


@pytest.mark.parametrize(
    ("stacks", "caps", "move", "why"),
    [
        ({(0, 0): RED_NEST}, {(0, 0): "black", (0, 2): "white"}, step(0, 0, "E"), "first landing: a cap"),
        ({(0, 3): RED_NEST}, {(0, 3): "black"}, step(0, 3, "E"), "first landing is off the board"),
        ({(0, 0): RED_NEST}, {(2, 2): "black"}, step(2, 2, "N"), "the cap left an empty square"),
    ],
)
def test_a_step_that_erupts_nothing_lets_the_same_seat_move_again(stacks, caps, move, why) -> None:
    state = game(stacks, caps)
    before = [stack_at(state, row, column) for row in range(5) for column in range(5)]

    state.apply(move)

    assert state.current_seat == 0, why
    assert state.observation(0)["steps_this_turn"] == 1
    assert [stack_at(state, row, column) for row in range(5) for column in range(5)] == before
    assert state.last_eruption is None
    assert state.observation(0)["turn_moves"] == [move]


def test_many_steps_without_an_eruption_then_the_first_eruption_ends_the_turn() -> None:
    # "You can move any number of Caps any number of times, as long as nothing erupts."
    state = game({(0, 3): RED_NEST, (3, 3): "blue1"}, {(0, 3): "black", (2, 2): "white"})

    state.apply(step(0, 3, "E"))  # the red large would land off the board: nothing erupts
    state.apply(step(2, 2, "W"))  # off an empty square
    state.apply(step(2, 1, "E"))  # the same cap again, off an empty square
    assert state.current_seat == 0 and state.observation(0)["steps_this_turn"] == 3

    state.apply(step(2, 2, "SE"))  # onto the blue small: still nothing under the cap at (2, 2)
    assert state.current_seat == 0
    state.apply(step(3, 3, "NW"))  # back the way it came: the blue small flows NW past the cap
    assert stack_at(state, 1, 1) == "blue1"
    assert state.current_seat == 1
    assert state.observation(1)["steps_this_turn"] == 0


def test_moving_a_cap_back_the_way_it_came_sets_off_the_stack_it_stood_on() -> None:
    # "It's OK to move a Cap back in the same direction it came from in order to cause an eruption."
    state = game({(0, 0): RED_NEST}, {(0, 1): "black"})

    state.apply(step(0, 1, "W"))  # off an empty square, onto the nest
    assert state.current_seat == 0 and cap_at(state, 0, 0) == "black"
    state.apply(step(0, 0, "E"))  # back: the nest erupts east

    assert [stack_at(state, 0, column) for column in range(5)] == ["", "", "red3", "red2", "red1"]
    assert state.current_seat == 1


def test_caps_step_one_square_in_eight_directions_never_onto_a_cap_or_off_the_board() -> None:
    state = game({}, {(0, 0): "black", (0, 1): "white", (2, 2): "black"})

    steps = {(tuple(m["from"]), m["dir"]) for m in state.legal_moves() if m["type"] == "step"}

    assert {d for (origin, d) in steps if origin == (2, 2)} == {"N", "NE", "E", "SE", "S", "SW", "W", "NW"}
    assert {d for (origin, d) in steps if origin == (0, 0)} == {"S", "SE"}  # E holds a cap; N, W off
    assert {d for (origin, d) in steps if origin == (0, 1)} == {"E", "SE", "S", "SW"}
    for illegal in (step(0, 0, "E"), step(0, 0, "N"), step(1, 1, "S")):
        with pytest.raises(IllegalMove):
            state.apply(illegal)


def test_the_caldera_starts_empty_takes_a_cap_then_fills_and_captures_like_any_square() -> None:
    state = game(
        {(2, 0): RED_NEST, (0, 2): "green1 green2 green3"},
        {(2, 0): "black", (0, 2): "white", (1, 1): "black"},
    )
    assert stack_at(state, 2, 2) == ""

    state.apply(step(1, 1, "SE"))  # a cap may step into the empty Caldera; nothing erupts
    assert cap_at(state, 2, 2) == "black" and state.current_seat == 0
    state.apply(step(2, 2, "NW"))  # and out again
    assert cap_at(state, 1, 1) == "black"

    state.apply(step(2, 0, "E"))  # the red large erupts into the Caldera
    assert stack_at(state, 2, 2) == "red3"
    assert captured(state, 0) == ""  # landing on an empty square captures nothing
    assert state.current_seat == 1

    state.apply(step(0, 2, "S"))  # the green large lands on the red large now filling the Caldera
    assert stack_at(state, 2, 2) == "red3"
    assert captured(state, 1) == "green3"
    assert stack_at(state, 3, 2) == "green2" and stack_at(state, 4, 2) == "green1"
