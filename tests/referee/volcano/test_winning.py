"""The win: three single-colour trios or five trios of any colours, checked after the mover's eruption."""

from __future__ import annotations

import pytest

from referee.volcano.pieces import Colour, Piece
from referee.volcano.trios import Trios, count_trios
from tests.referee.volcano.positions import game, step


def _held(codes: str) -> list[Piece]:
    return [Piece(Colour(code[:-1]), int(code[-1])) for code in codes.split()]


@pytest.mark.parametrize(
    ("codes", "expected"),
    [
        ("", Trios(0, 0)),
        ("red1 red2 red3", Trios(1, 1)),
        ("red1 blue2 green3", Trios(0, 1)),
        # two small reds but one red medium: one red trio; the spare red small joins a mixed trio
        ("red1 red1 red2 red3 blue2 green3", Trios(1, 2)),
        # the capture order never matters: regrouped freely, three colours give three trios
        ("red3 blue1 green2 red1 blue2 green3 red2 blue3 green1", Trios(3, 3)),
        # a large short: only mixed trios can use the other two colours' pieces
        ("red1 red2 red3 blue1 blue2 green1 green2 green3 yellow3", Trios(2, 3)),
        ("red1 red1 red1 blue2 blue2 blue2", Trios(0, 0)),
    ],
)
def test_the_best_grouping_of_captured_pieces(codes: str, expected: Trios) -> None:
    assert count_trios(_held(codes)) == expected


def test_three_single_colour_trios_win_for_the_mover() -> None:
    # seat 0 holds a red and an orange trio and a blue small and large; a blue medium lands on a medium
    state = game(
        {(0, 0): "blue2", (0, 2): "green2"},
        {(0, 0): "black"},
        seats=3,
        captures=["red1 red2 red3 orange1 orange2 orange3 blue1 blue3", "yellow1 cyan2 clear3 purple1", ""],
    )

    state.apply(step(0, 0, "E"))

    outcome = state.outcome()
    assert outcome is not None
    assert outcome.reason == "three_single_colour_trios"
    assert outcome.places == (1, 2, 3)  # then by trios: seat 1 has one, seat 2 none
    assert outcome.details["winner"] == 0
    assert outcome.details["trios"][0] == {"single_colour": 3, "any_colour": 3}
    assert state.current_seat is None and state.legal_moves() == []


def test_five_trios_of_any_colours_win_single_colour_trios_counting_toward_them() -> None:
    held = (
        "red1 red2 red3 orange1 orange2 orange3 "  # two single-colour trios
        "yellow1 green2 cyan3 blue1 purple2 clear3 "  # two mixed trios
        "green1 clear1 yellow3"  # a small and a large short of a medium
    )
    state = game({(4, 4): "cyan2", (4, 2): "blue2"}, {(4, 4): "white"}, captures=[held, ""])
    assert state.trios(0) == Trios(2, 4)

    state.apply(step(4, 4, "W"))

    outcome = state.outcome()
    assert outcome is not None
    assert outcome.reason == "five_trios"
    assert outcome.places == (1, 2)
    assert state.trios(0) == Trios(2, 5)
    assert outcome.scores == (5.0, 0.0)


def test_a_capture_that_does_not_complete_a_win_lets_play_go_on() -> None:
    state = game(
        {(0, 0): "blue2", (0, 2): "green2"},
        {(0, 0): "black"},
        captures=["red1 red2 red3 orange1 orange2 orange3 blue1", ""],
    )

    state.apply(step(0, 0, "E"))

    assert state.outcome() is None
    assert state.trios(0) == Trios(2, 2)
    assert state.current_seat == 1


def test_an_explicit_setup_whose_captures_already_win_is_refused() -> None:
    from referee.game import SetupError

    with pytest.raises(SetupError) as refused:
        game({}, {(0, 0): "black"}, captures=["red1 red2 red3 blue1 blue2 blue3 green1 green2 green3", ""])
    assert refused.value.field_name == "setup.captures[0]"
