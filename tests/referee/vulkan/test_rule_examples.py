"""Every example the rule text describes, as an explicit position played move by move.

The printed pictures are missing from the rule text, so each position is built to match what the
caption says; the comments quote the caption. Cells are axial ``(q, r)``; the six neighbours of
``(q, r)`` are ``(q+1, r)``, ``(q+1, r-1)``, ``(q, r-1)``, ``(q-1, r)``, ``(q-1, r+1)`` and
``(q, r+1)``, in order round the hexagon (east, north-east, north-west, west, south-west, south-east).
"""

from __future__ import annotations

import pytest

from referee.game import IllegalMove, canonical_json
from tests.referee.vulkan.helpers import (
    SEAT,
    award,
    drop,
    extinguished,
    flight,
    fly,
    isolated,
    on_table,
    passed,
    position,
    removed,
    tile,
)

VOLCANO = (0, 0)
RING = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]


def test_green_takes_the_2_over_two_tiles_and_blue_flies_over_three_without_extinguishing() -> None:
    # "Green flies over two forest tiles and extinguishes the "2" (having two free adjacent edges)
    # - Green gets the "2", because he has the majority on it."
    state = position(
        4,
        [
            tile(0, 0, 1),
            tile(1, 0, 5),
            tile(2, 0, 2),  # the "2": only (1, 0) beside it, so five free edges in a row
            tile(1, -1, 3),
            tile(0, -1, 1),
            tile(-1, 0, 6),
            tile(-2, 0, 5),
            tile(-3, 0, 4),
            tile(-1, 1, 4),
            tile(0, 1, 6),
        ],
        VOLCANO,
        to_move=SEAT["green"],
    )
    events = fly(state, "green", (1, 0), (2, 0))
    assert events == [
        drop(1, 0, "green"),
        drop(2, 0, "green"),
        extinguished(2, 0),
        award(2, 0, 2, SEAT["green"], "majority", "green"),
    ]
    assert on_table(state, 2, 0) is None
    assert on_table(state, 1, 0) == ["green"]
    assert state.score(SEAT["green"]) == 2
    assert state.supply[SEAT["green"]][2] == 10
    # the "2" left a gap: nobody flies over it any more
    assert flight("blue", (1, 0), (2, 0)) not in state.legal_moves()

    # "Blue flies over three tiles but doesn't extinguish any of them."
    assert state.current_seat == SEAT["blue"]
    events = fly(state, "blue", (-1, 0), (-2, 0), (-3, 0))
    assert events == [drop(-1, 0, "blue"), drop(-2, 0, "blue"), drop(-3, 0, "blue")]
    assert [on_table(state, q, 0) for q in (-1, -2, -3)] == [["blue"]] * 3
    assert state.current_seat == SEAT["red"]


def test_yellow_fills_the_4_with_only_one_free_edge_and_nothing_happens() -> None:
    # "Yellows fills the last space on the "4" but doesn't extinguish it because it has only one
    # free edge." The "4" at (1, 0) has tiles on five edges; only (2, -1) is empty.
    state = position(
        4,
        [
            tile(0, 0, 2),
            tile(1, 0, 4, "red"),
            tile(2, 0, 6),
            tile(1, -1, 5),
            tile(0, 1, 5),
            tile(1, 1, 6),
        ],
        VOLCANO,
        to_move=SEAT["yellow"],
    )
    assert fly(state, "yellow", (1, 0)) == [drop(1, 0, "yellow")]
    assert on_table(state, 1, 0) == ["red", "yellow"]
    assert state.score(SEAT["yellow"]) == state.score(SEAT["red"]) == 0
    assert state.current_seat == SEAT["green"]


def test_red_takes_the_3_on_a_tie_as_the_flyer() -> None:
    # "Red extinguishes the "3" and gets the tile because, as the current flyer, he wins all ties."
    state = position(
        4,
        [tile(0, 0, 2), tile(1, 0, 5), tile(2, 0, 3, "yellow")],
        VOLCANO,
        to_move=SEAT["red"],
    )
    assert fly(state, "red", (2, 0)) == [
        drop(2, 0, "red"),
        extinguished(2, 0),
        award(2, 0, 3, SEAT["red"], "tie", "yellow", "red"),
    ]
    assert state.score(SEAT["red"]) == 3
    assert state.score(SEAT["yellow"]) == 0


def test_greens_flight_ends_after_crossing_the_6() -> None:
    # "Green's flight ends immediately after crossing the "6"!" Beyond the "6" lies the volcano.
    state = position(
        4,
        [tile(0, 0, 1), tile(1, 0, 6), tile(2, 0, 3), tile(3, 0, 5), tile(-1, 0, 4)],
        VOLCANO,
        to_move=SEAT["green"],
    )
    westward = [(3, 0), (2, 0), (1, 0)]
    legal = state.legal_moves()
    assert flight("green", *westward) in legal
    assert all([0, 0] not in move["path"] for move in legal)
    before = canonical_json(state.to_json())
    for path in (
        [*westward, (0, 0)],  # onto the volcano
        [*westward, (0, 0), (-1, 0)],  # over the volcano to the tile beyond
        [(1, 0), (-1, 0)],  # jumping the volcano
        [(1, 0), (2, 0), (3, 0), (4, 0)],  # past the edge of the table
    ):
        with pytest.raises(IllegalMove):
            state.apply(flight("green", *path))
        assert canonical_json(state.to_json()) == before
    assert fly(state, "green", *westward) == [drop(3, 0, "green"), drop(2, 0, "green"), drop(1, 0, "green")]


# The next captions describe one table. F, the "4" at (0, 0), has tiles at W, SW, SE (the three
# tiles "below") and at NE (the "5", G); its E and NW edges are free: two free edges, not adjacent.
# G hangs off T, which touches the volcano; only F joins the three tiles below to the rest.
F, G, T, V = (0, 0), (1, -1), (1, -2), (1, -3)
BELOW_4, BELOW_3, BELOW_6 = (-1, 0), (-1, 1), (0, 1)


def cascade_table():
    return position(
        4,
        [
            tile(*V, 1),
            tile(*T, 6),
            tile(0, -2, 6),
            tile(2, -3, 4),
            tile(*G, 5, "blue", "red"),
            tile(*F, 4, "red"),
            tile(*BELOW_4, 4),
            tile(*BELOW_3, 3, "yellow"),
            tile(*BELOW_6, 6, "yellow", "red"),
        ],
        V,
        to_move=SEAT["yellow"],
    )


def test_the_4_with_two_free_edges_that_are_not_adjacent_stays() -> None:
    # "The "4" is not yet extinguished because the two free edges are not adjacent."
    state = cascade_table()
    assert fly(state, "yellow", F) == [drop(*F, "yellow")]
    assert on_table(state, *F) == ["red", "yellow"]


def test_blue_takes_the_5_then_the_4_on_a_tie_then_three_tiles_are_isolated() -> None:
    state = cascade_table()
    fly(state, "yellow", F)  # fills the "4", as in the previous caption
    assert fly(state, "green", (0, -2)) == [drop(0, -2, "green")]
    # "Blue extinguishes and gets the "5". Now the "4" has three free edges adjacent to each other
    # and is also extinguished. Because it is tied, it goes to Blue as the current flyer. [...] he
    # has also isolated the three forest tiles below - which are now immediately extinguished.
    # The "4" is removed from the game. The "3" is awarded to Yellow and the "6" goes to Blue
    # because he wins the tie."
    events = fly(state, "blue", T, G)
    assert events == [
        drop(*T, "blue"),
        drop(*G, "blue"),
        extinguished(*G, round_number=1),
        award(*G, 5, SEAT["blue"], "majority", "blue", "red", "blue"),
        extinguished(*F, round_number=2),
        award(*F, 4, SEAT["blue"], "tie", "red", "yellow"),
        isolated(*BELOW_4),
        removed(*BELOW_4),
        isolated(*BELOW_3),
        award(*BELOW_3, 3, SEAT["yellow"], "majority", "yellow"),
        isolated(*BELOW_6),
        award(*BELOW_6, 6, SEAT["blue"], "tie", "yellow", "red"),
    ]
    assert state.score(SEAT["blue"]) == 5 + 4 + 6
    assert state.score(SEAT["yellow"]) == 3
    assert state.observation(0)["removed"] == [list(BELOW_4)]
    assert {tuple(entry["at"]) for entry in state.observation(0)["tiles"]} == {V, T, (0, -2), (2, -3)}
    # loads on awarded tiles leave the game
    assert state.loads_out == [3, 3, 0, 2]
    assert state.current_seat == SEAT["red"]


def test_two_seats_red_and_yellow_are_tied_so_the_opponent_gets_the_5() -> None:
    # "A player using Red and Yellow does not have the majority on a forest tile "5" if a red and a
    # yellow water load was dropped there - on this tile there is a tie! If this tile is isolated
    # on another player's turn, the tile is awarded to the opponent because the colors are tied."
    # Seat 0 flies red and yellow, seat 1 green and blue. The "5" at (2, 0) and the "6" behind it
    # hang on the "2" at (1, 0).
    state = position(
        2,
        [
            tile(0, 0, 1),
            tile(-1, 0, 4),
            tile(1, 0, 2),
            tile(2, 0, 5, "red", "yellow"),
            tile(2, 1, 6, "red", "red"),
        ],
        VOLCANO,
        to_move=1,
    )
    assert {move["colour"] for move in state.legal_moves()} == {"green", "blue"}
    assert fly(state, "green", (1, 0)) == [
        drop(1, 0, "green"),
        extinguished(1, 0),
        award(1, 0, 2, 1, "majority", "green"),
        isolated(2, 0),
        award(2, 0, 5, 1, "tie", "red", "yellow"),
        isolated(2, 1),
        # by single colour, red alone has the majority: seat 0 gets it even on seat 1's turn
        award(2, 1, 6, 0, "majority", "red", "red"),
    ]
    assert (state.score(0), state.score(1)) == (6, 7)


def test_three_seats_a_fourth_colour_majority_goes_to_the_flyer() -> None:
    # "each player gets four water loads of the remaining color. On his turn, a player may either
    # place water loads of his own color only or water loads of the fourth color only. Whenever
    # the fourth color has the majority on a extinguished or isolated forest tile, the forest tile
    # is awarded to the player who executed the current flight."
    state = position(
        3,
        [
            tile(0, 0, 1),
            tile(1, 0, 5, "blue", "blue"),
            tile(-1, 0, 3, "red"),
            tile(0, -1, 5, "yellow", "yellow"),
            tile(-1, 1, 6),
        ],
        VOLCANO,
        to_move=2,
        supply=[{"red": 11, "blue": 4}, {"yellow": 10, "blue": 3}, {"green": 12, "blue": 3}],
    )
    assert {move["colour"] for move in state.legal_moves()} == {"green", "blue"}
    # green fills a tile where blue has the majority: it goes to the flyer
    assert fly(state, "green", (1, 0)) == [
        drop(1, 0, "green"),
        extinguished(1, 0),
        award(1, 0, 5, 2, "shared_colour", "blue", "blue", "green"),
    ]
    # red drops blue on its own red: a tie, the flyer again
    assert fly(state, "blue", (-1, 0)) == [
        drop(-1, 0, "blue"),
        extinguished(-1, 0),
        award(-1, 0, 3, 0, "tie", "red", "blue"),
    ]
    assert state.supply[0] == [11, 0, 0, 3]
    # yellow drops blue where yellow leads: the owner of the majority colour gets it
    assert fly(state, "blue", (0, -1)) == [
        drop(0, -1, "blue"),
        extinguished(0, -1),
        award(0, -1, 5, 1, "majority", "yellow", "yellow", "blue"),
    ]
    assert [state.score(seat) for seat in range(3)] == [3, 5, 5]


def test_a_seat_without_loads_misses_its_turn() -> None:
    # "A player without any water loads left misses his turn."
    state = position(
        3,
        [tile(0, 0, 1), tile(1, 0, 6), tile(-1, 0, 6)],
        VOLCANO,
        to_move=0,
        supply=[{"red": 5}, {"yellow": 0, "blue": 0}, {"green": 5}],
    )
    assert fly(state, "red", (1, 0)) == [drop(1, 0, "red"), passed(1)]
    assert state.current_seat == 2
    assert fly(state, "green", (-1, 0)) == [drop(-1, 0, "green")]
    assert state.current_seat == 0


@pytest.mark.parametrize("ring_cell", RING)
def test_the_volcano_never_lies_on_a_flight(ring_cell: tuple[int, int]) -> None:
    # "Players are not allowed to fly over the volcano."
    state = position(4, [tile(0, 0, 1)] + [tile(*cell, 6) for cell in RING], VOLCANO, to_move=0)
    legal = [move for move in state.legal_moves() if move["path"][0] == list(ring_cell)]
    assert legal and all([0, 0] not in move["path"] for move in legal)
