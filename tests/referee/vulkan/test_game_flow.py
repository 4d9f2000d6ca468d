"""Turns, the volcano choice, the end of the game, scoring, and the solitaire and cooperative goals."""

from __future__ import annotations

from typing import Any

import pytest

from referee.game import IllegalMove
from referee.vulkan import GAME, VulkanState
from referee.vulkan.edition import EDITION
from referee.vulkan.hexes import classic_cells
from tests.referee.vulkan.helpers import (
    award,
    drop,
    extinguished,
    fly,
    isolated,
    on_table,
    passed,
    position,
    removed,
    tile,
)

VOLCANO = (0, 0)
SEATS_1_2_PASS = [passed(1), passed(2)]
"""Seats 1 and 2 hold no loads in the flight tests below, so each flight is followed by their passes."""


def setup_state(seats: int, setup: dict[str, Any], variant: str = "competitive") -> VulkanState:
    return GAME.start(variant, seats=seats, seed=0, setup=setup)


# ---------------------------------------------------------------------- the volcano and who starts


@pytest.mark.parametrize(
    ("variant", "seats", "first_flyer"),
    [
        ("competitive", 2, 1),
        ("competitive", 3, 1),
        ("competitive", 4, 1),
        ("solitaire", 1, 0),
        ("cooperative", 3, 1),
    ],
)
def test_seat_0_chooses_the_volcano_among_enclosed_tiles_then_its_left_neighbour_flies(
    variant: str, seats: int, first_flyer: int
) -> None:
    state = GAME.start(variant, seats=seats, seed=11)
    assert state.phase == "volcano" and state.current_seat == 0
    choices = [tuple(move["tile"]) for move in state.legal_moves()]
    cells = {tuple(entry["at"]) for entry in state.observation(0)["tiles"]}
    enclosed = sorted(
        (q, r)
        for q, r in cells
        if all(
            cell in cells
            for cell in [(q + 1, r), (q + 1, r - 1), (q, r - 1), (q - 1, r), (q - 1, r + 1), (q, r + 1)]
        )
    )
    assert choices == enclosed and len(choices) == 18  # the classic layout's inner cells less one
    with pytest.raises(IllegalMove, match="tiles on all six edges"):
        state.apply({"type": "volcano", "tile": [3, 0]})  # on the rim
    with pytest.raises(IllegalMove, match="volcano phase"):
        state.apply({"type": "flight", "path": [[0, 0]], "colour": "red"})  # no flights before it
    state.apply({"type": "volcano", "tile": [0, 0]})
    assert state.last == {
        "seat": 0,
        "move": {"type": "volcano", "tile": [0, 0]},
        "events": [{"kind": "volcano", "tile": [0, 0]}],
    }
    assert state.phase == "flight"
    assert state.current_seat == first_flyer
    assert state.observation(first_flyer)["volcano"] == [0, 0]
    with pytest.raises(IllegalMove):
        state.apply({"type": "volcano", "tile": [1, 0]})  # only once


# ---------------------------------------------------------------------- flights


def test_loads_drop_in_flight_order_while_they_last_and_the_flight_goes_on() -> None:
    # "He drops one water load on each forest tile in his flight path still having a free space, as
    # long as he still has water loads left. A player is allowed to continue flying [...] even if
    # he runs out of water loads."
    tiles = [tile(0, 0, 1), tile(1, 0, 6), tile(2, 0, 6), tile(3, 0, 6), tile(4, 0, 6)]
    state = position(4, tiles, VOLCANO, to_move=0, supply=[{"red": 2}, {}, {}, {"blue": 9}])
    assert fly(state, "red", (1, 0), (2, 0), (3, 0), (4, 0)) == [
        drop(1, 0, "red"),
        drop(2, 0, "red"),
        *SEATS_1_2_PASS,
    ]
    assert state.supply[0][0] == 0
    # the same tiles flown the other way are another move, with other drops
    state = position(4, tiles, VOLCANO, to_move=0, supply=[{"red": 2}, {}, {}, {"blue": 9}])
    assert fly(state, "red", (4, 0), (3, 0), (2, 0), (1, 0)) == [
        drop(4, 0, "red"),
        drop(3, 0, "red"),
        *SEATS_1_2_PASS,
    ]


def test_a_flight_must_drop_at_least_one_load() -> None:
    # "Players must choose a flight path that will allow them to drop at least one water load."
    # (1, 0) and (2, 0) are full; their free edges are not next to each other, so they stay.
    tiles = [
        tile(0, 0, 1),
        tile(1, 0, 6, "blue", "blue", "blue"),
        tile(2, 0, 5, "blue", "blue", "blue"),
        tile(3, 0, 6),
        tile(1, -1, 6),
        tile(1, 1, 6),
        tile(2, -1, 6),
    ]
    state = position(4, tiles, VOLCANO, to_move=0, supply=[{"red": 3}, {}, {}, {"blue": 6}])
    paths = [move["path"] for move in state.legal_moves()]
    assert [[1, 0]] not in paths and [[1, 0], [2, 0]] not in paths and [[2, 0], [1, 0]] not in paths
    assert [[1, 0], [2, 0], [3, 0]] in paths  # over two full tiles to one with room
    with pytest.raises(IllegalMove, match="must drop at least one load"):
        state.apply({"type": "flight", "path": [[1, 0], [2, 0]], "colour": "red"})
    assert fly(state, "red", (1, 0), (2, 0), (3, 0)) == [drop(3, 0, "red"), *SEATS_1_2_PASS]


def test_each_path_is_listed_once_per_colour_and_one_tile_paths_once() -> None:
    state = GAME.start("solitaire", seats=1, seed=4)
    state.apply({"type": "volcano", "tile": [0, 0]})
    moves = state.legal_moves()
    keys = [(move["colour"], tuple(map(tuple, move["path"]))) for move in moves]
    assert len(keys) == len(set(keys))
    for colour in ("red", "yellow", "green", "blue"):
        singles = [path for c, path in keys if c == colour and len(path) == 1]
        assert len(singles) == 35  # every forest tile, once
    assert {colour for colour, _ in keys} == {"red", "yellow", "green", "blue"}


def test_a_colour_without_loads_cannot_be_flown() -> None:
    tiles = [tile(0, 0, 1), tile(1, 0, 6), tile(-1, 0, 6)]
    state = position(2, tiles, VOLCANO, to_move=0, supply=[{"red": 0, "yellow": 3}, {"green": 1}])
    assert {move["colour"] for move in state.legal_moves()} == {"yellow"}
    with pytest.raises(IllegalMove, match="seat 0 has no red loads left"):
        state.apply({"type": "flight", "path": [[1, 0]], "colour": "red"})
    with pytest.raises(IllegalMove, match="seat 0 does not fly green"):
        state.apply({"type": "flight", "path": [[1, 0]], "colour": "green"})
    with pytest.raises(IllegalMove, match="straight run"):
        state.apply({"type": "flight", "path": [[1, 0], [-1, 0]], "colour": "yellow"})
    with pytest.raises(IllegalMove, match="chosen once"):
        state.apply({"type": "volcano", "tile": [0, 0]})


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "flight", "path": [[1, 0]], "colour": "yellow", "extra": 1},
        {"type": "flight", "path": [[True, 0]], "colour": "yellow"},
        {"type": "flight", "path": [[1, 0, 0]], "colour": "yellow"},
        {"type": "flight", "path": [], "colour": "yellow"},
        {"type": "flight", "path": "1,0", "colour": "yellow"},
        {"type": "flight", "path": [[1, 0]], "colour": "purple"},
        {"type": "flight", "path": [[1, 0]]},
        {"type": "flight", "path": [[9, 9]], "colour": "yellow"},
        {"type": "flight", "path": [[1, 0], [1, 0]], "colour": "yellow"},
        {"type": "flight", "path": [[-1, 0], [1, 0]], "colour": "yellow"},
        {"type": ["flight"]},
        None,
        [],
    ],
)
def test_malformed_or_illegal_moves_are_refused(bad: Any) -> None:
    tiles = [tile(0, 0, 1), tile(1, 0, 6), tile(-1, 0, 6)]
    state = position(2, tiles, VOLCANO, to_move=0)
    before = state.to_json()
    with pytest.raises(IllegalMove):
        state.apply(bad)
    assert state.to_json() == before


# ---------------------------------------------------------------------- the end and the score


def final_table(red_loads: int, yellow_loads: int) -> dict[str, Any]:
    """Red holds the last load; after it nobody can fly. Red and yellow have 8 points each."""
    return {
        "tiles": [
            tile(0, 0, 1),
            tile(1, 0, 6, *["red"] * (red_loads - 1)),
            tile(-1, 0, 6, *["yellow"] * yellow_loads),
            tile(0, 1, 6),
        ],
        "volcano": [0, 0],
        "to_move": 0,
        "seats": [
            {"supply": {"red": 1}, "awarded": [5, 3]},
            {"supply": {"yellow": 0}, "awarded": [{"at": [5, 5], "value": 6}, 2]},
            {"supply": {"green": 0}, "awarded": [4]},
            {"supply": {"blue": 0}},
        ],
    }


def test_the_game_ends_when_nobody_can_fly_and_a_tie_goes_to_fewer_loads_on_the_table() -> None:
    # "In case of a tie, the tied player who has the fewest water loads sitting on the remaining
    # forest tiles wins."
    state = setup_state(4, final_table(red_loads=2, yellow_loads=1))
    assert state.outcome() is None
    assert fly(state, "red", (0, 1)) == [drop(0, 1, "red")]
    assert state.current_seat is None and state.legal_moves() == [] and state.phase == "over"
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.scores == (8.0, 8.0, 4.0, 0.0)
    assert outcome.places == (2, 1, 3, 4)
    assert outcome.reason == "no_flights_left"
    assert outcome.details == {"loads_on_table": [2, 1, 0, 0], "tie_break_used": True}


def test_a_tie_on_score_and_loads_shares_the_place() -> None:
    state = setup_state(4, final_table(red_loads=2, yellow_loads=2))
    fly(state, "red", (0, 1))
    assert state.outcome().places == (1, 1, 3, 4)


def test_the_game_ends_when_no_tile_has_room_even_with_loads_left() -> None:
    # "The game ends when none of the players are able to execute a valid flight."
    setup = {"tiles": [tile(0, 0, 1), tile(1, 0, 2), tile(2, 0, 4, "red")], "volcano": [0, 0], "to_move": 1}
    state = setup_state(2, setup)
    assert fly(state, "green", (1, 0)) == [
        drop(1, 0, "green"),
        extinguished(1, 0),
        award(1, 0, 2, 1, "majority", "green"),
        isolated(2, 0),
        award(2, 0, 4, 0, "majority", "red"),
    ]
    assert state.current_seat is None
    assert state.observation(0)["tiles"] == [{"at": [0, 0], "value": 1, "spaces": 1, "loads": []}]
    assert sum(state.supply[0]) == 23 and sum(state.supply[1]) == 23  # loads left, nowhere to drop them
    outcome = state.outcome()
    assert outcome.reason == "no_flights_left" and outcome.places == (1, 2) and outcome.scores == (4.0, 2.0)


def test_an_isolated_tile_without_loads_leaves_the_game_and_play_goes_on() -> None:
    # "Any isolated forest tiles without water loads are removed from the game."
    setup = {"tiles": [tile(0, 0, 1), tile(1, 0, 2), tile(2, 0, 4), tile(-1, 0, 6)], "volcano": [0, 0]}
    state = setup_state(2, setup)
    assert fly(state, "blue", (1, 0)) == [
        drop(1, 0, "blue"),
        extinguished(1, 0),
        award(1, 0, 2, 1, "majority", "blue"),
        isolated(2, 0),
        removed(2, 0),
    ]
    assert state.removed == [(2, 0)] and state.awarded == [[], [((1, 0), 2)]]
    assert state.current_seat == 0 and state.outcome() is None


# ---------------------------------------------------------------------- solitaire and cooperative


def test_solitaire_is_won_by_gathering_every_tile_but_the_volcano() -> None:
    # "The player wins the solitaire game if all forest tiles are extinguished or isolated and if
    # he is able to gather all the tiles (except the volcano)."
    setup = {
        "tiles": [tile(0, 0, 1), tile(1, 0, 2), tile(2, 0, 1), tile(-1, 0, 3, "blue")],
        "volcano": [0, 0],
    }
    state = setup_state(1, setup, "solitaire")
    assert state.current_seat == 0
    assert fly(state, "red", (1, 0), (2, 0)) == [
        drop(1, 0, "red"),
        drop(2, 0, "red"),
        extinguished(1, 0),
        award(1, 0, 2, 0, "majority", "red"),
        extinguished(2, 0),
        award(2, 0, 1, 0, "majority", "red"),
    ]
    assert state.current_seat == 0 and state.outcome() is None
    fly(state, "yellow", (-1, 0))
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.team_won is True and outcome.reason == "all_tiles_gathered"
    assert outcome.places == (1,) and outcome.scores == (6.0,)
    assert outcome.details == {"seat_values": [6], "tiles_left": 0}


# A whole classic table (the standard 36 tiles) where the volcano goes next to the rim at (2, 0).
# Its six neighbours and four tiles that open their edges make the cut: put out from the rim inwards,
# in this order, each has two adjacent free edges when it is full.
WIN_VOLCANO = (2, 0)
WIN_CUT = [(3, 0), (3, -1), (2, 1), (1, 2), (3, -2), (2, -2), (2, -1), (1, 1), (1, -1), (1, 0)]
WIN_CUT_VALUES = [1, 2, 3, 4, 5, 6, 1, 2, 3, 4]  # 18 spaces, about what a deal gives ten tiles


def full_classic_table() -> dict[str, Any]:
    """The edition's 36 tiles on the classic cells, the cut tiles holding :data:`WIN_CUT_VALUES`."""
    cells = classic_cells(3, (3, -3))
    deck = EDITION.tile_deck()
    for value in WIN_CUT_VALUES:
        deck.remove(value)
    values = dict(zip(WIN_CUT, WIN_CUT_VALUES, strict=True))
    values.update(zip([cell for cell in cells if cell not in values], deck, strict=True))
    return {"tiles": [tile(*cell, values[cell]) for cell in cells]}


def test_solitaire_on_a_full_table_is_won_by_cutting_off_tiles_that_each_carry_a_load() -> None:
    # 48 loads cannot fill 72 spaces, so the goal needs isolations: one load on every tile beyond
    # the cut, then the cut put out, which isolates everything else at once ("Any isolated forest
    # tile goes to the player having the most water loads on it").
    state = setup_state(1, full_classic_table(), "solitaire")
    state.apply({"type": "volcano", "tile": list(WIN_VOLCANO)})

    def drop_on(cell: tuple[int, int]) -> list[dict[str, Any]]:
        colour = next(name for name, left in state.observation(0)["seats"][0]["supply"].items() if left)
        return fly(state, colour, cell)

    beyond = [cell for cell in state.board.layout.coords if cell not in (WIN_VOLCANO, *WIN_CUT)]
    for cell in beyond:
        drop_on(cell)  # one-space tiles on the rim go out at once: they count as gathered too
    assert state.outcome() is None and not state.removed
    still_there = [cell for cell in beyond if on_table(state, *cell) is not None]
    assert all(on_table(state, *cell) for cell in still_there)  # each carries its load

    for cell in WIN_CUT:
        while on_table(state, *cell) is not None:
            assert state.outcome() is None
            events = drop_on(cell)
    assert [event["tile"] for event in events if event["kind"] == "isolated"] == [
        list(cell) for cell in sorted(still_there)
    ]
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.team_won is True and outcome.reason == "all_tiles_gathered"
    assert len(state.awarded[0]) == 35 and not state.removed
    assert outcome.scores == (float(sum(EDITION.tile_deck()) - state.board.values[state.board.volcano]),)
    assert sum(state.loads_out) <= EDITION.loads_per_colour * len(EDITION.colours)


def test_solitaire_is_lost_as_soon_as_a_tile_is_isolated_without_loads() -> None:
    # "If a forest tile is isolated during the game without having any water loads on it, the
    # player loses."
    setup = {"tiles": [tile(0, 0, 1), tile(1, 0, 2), tile(2, 0, 6), tile(-1, 0, 6)], "volcano": [0, 0]}
    state = setup_state(1, setup, "solitaire")
    events = fly(state, "green", (1, 0))
    assert events[-2:] == [isolated(2, 0), removed(2, 0)]
    assert state.current_seat is None and state.legal_moves() == []
    outcome = state.outcome()
    assert outcome.team_won is False and outcome.reason == "empty_tile_isolated"
    assert outcome.details == {"seat_values": [2], "tiles_left": 1}


def test_solitaire_is_lost_when_the_loads_run_out_with_tiles_left() -> None:
    setup = {
        "tiles": [tile(0, 0, 1), tile(1, 0, 6), tile(-1, 0, 6)],
        "volcano": [0, 0],
        "seats": [{"supply": {"blue": 1}}],
    }
    state = setup_state(1, setup, "solitaire")
    fly(state, "blue", (1, 0))
    outcome = state.outcome()
    assert outcome.team_won is False and outcome.reason == "no_flights_left"
    assert outcome.details["tiles_left"] == 2


def test_cooperative_tiles_won_by_any_seat_count_for_the_team() -> None:
    # "Here the rules are the same as for two to four players, but the goal of the game is switched
    # to that of the solitaire game." The team gathered a tile when any of its seats was awarded it.
    setup = {"tiles": [tile(0, 0, 1), tile(1, 0, 2), tile(-1, 0, 3, "red")], "volcano": [0, 0]}
    state = setup_state(2, setup, "cooperative")
    assert fly(state, "green", (1, 0))[-1] == award(1, 0, 2, 1, "majority", "green")
    assert state.current_seat == 0 and state.outcome() is None
    assert fly(state, "yellow", (-1, 0))[-1] == award(-1, 0, 3, 0, "tie", "red", "yellow")
    outcome = state.outcome()
    assert outcome.team_won is True and outcome.reason == "all_tiles_gathered"
    assert outcome.places == (1, 1) and outcome.scores == (5.0, 5.0)
    assert outcome.details == {"seat_values": [3, 2], "tiles_left": 0}


def test_cooperative_is_lost_by_everyone_when_an_empty_tile_is_isolated() -> None:
    setup = {"tiles": [tile(0, 0, 1), tile(1, 0, 2), tile(2, 0, 5), tile(-1, 0, 6)], "volcano": [0, 0]}
    state = setup_state(3, setup, "cooperative")
    fly(state, "yellow", (1, 0))
    outcome = state.outcome()
    assert outcome.team_won is False and outcome.reason == "empty_tile_isolated"
    assert outcome.places == (1, 1, 1)


def test_competitive_play_is_not_lost_by_an_empty_isolated_tile() -> None:
    setup = {"tiles": [tile(0, 0, 1), tile(1, 0, 2), tile(2, 0, 5), tile(-1, 0, 6)], "volcano": [0, 0]}
    state = setup_state(3, setup)
    fly(state, "yellow", (1, 0))
    assert state.current_seat == 2 and state.outcome() is None
