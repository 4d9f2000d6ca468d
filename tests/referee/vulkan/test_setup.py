"""Explicit setups: what they may say, and a SetupError naming the field for everything else."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from referee.game import SetupError
from referee.vulkan import GAME

RING = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]]
START = {"tiles": [{"at": [0, 0], "value": 1}] + [{"at": cell, "value": 6} for cell in RING]}
"""Before the volcano: seven tiles, the middle one enclosed."""
PLAYING = {
    "tiles": [{"at": [0, 0], "value": 1}, {"at": [1, 0], "value": 5, "loads": ["red"]}],
    "volcano": [0, 0],
}


def changed(base: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    setup = copy.deepcopy(base)
    target = setup
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return setup


BAD = [
    ("not an object", [], "setup", "must be an object"),
    ("unknown key", changed(START, ["board"], 1), "setup", "unknown key(s): board"),
    ("no tiles", {"volcano": [0, 0]}, "setup", "lacks tiles"),
    ("empty tiles", {"tiles": []}, "setup.tiles", "must not be empty"),
    ("tile not an object", changed(START, ["tiles", 2], 5), "setup.tiles[2]", "must be an object"),
    ("tile without value", changed(START, ["tiles", 3], {"at": [0, -1]}), "setup.tiles[3]", "lacks value"),
    ("bad cell", changed(START, ["tiles", 1, "at"], [1]), "setup.tiles[1].at", "must be a cell"),
    ("float coordinate", changed(START, ["tiles", 1, "at"], [1.0, 0]), "setup.tiles[1].at[0]", "integer"),
    ("far cell", changed(START, ["tiles", 1, "at"], [10**9, 0]), "setup.tiles[1].at[0]", "-64 to 64"),
    (
        "twice the same cell",
        changed(START, ["tiles", 2, "at"], [1, 0]),
        "setup.tiles[2].at",
        "also setup.tiles[1]",
    ),
    ("value 7", changed(START, ["tiles", 3, "value"], 7), "setup.tiles[3].value", "must be 1 to 6"),
    ("value true", changed(START, ["tiles", 3, "value"], True), "setup.tiles[3].value", "integer"),
    ("4 spaces", changed(START, ["tiles", 3, "spaces"], 4), "setup.tiles[3].spaces", "must be 1 to 3"),
    ("0 spaces", changed(START, ["tiles", 3, "spaces"], 0), "setup.tiles[3].spaces", "must be 1 to 3"),
    (
        "unknown colour",
        changed(START, ["tiles", 1, "loads"], ["pink"]),
        "setup.tiles[1].loads[0]",
        "one of red",
    ),
    (
        "too many loads",
        changed(START, ["tiles", 1, "loads"], ["red"] * 4),
        "setup.tiles[1].loads",
        "3 space(s)",
    ),
    ("not connected", changed(START, ["tiles", 1, "at"], [5, 5]), "setup.tiles", "one connected group"),
    (
        "a tile touching one other",
        {"tiles": [*START["tiles"], {"at": [2, 0], "value": 3}, {"at": [3, 0], "value": 3}]},
        "setup.tiles[8].at",
        "touch at least two",
    ),
    ("no enclosed tile", {"tiles": START["tiles"][1:]}, "setup.tiles", "enclosed on all six edges"),
    ("volcano not a tile", changed(START, ["volcano"], [4, 4]), "setup.volcano", "is not one of setup.tiles"),
    ("volcano with loads", changed(PLAYING, ["volcano"], [1, 0]), "setup.volcano", "tile with loads"),
    (
        # the volcano is turned over before the first flight, so no load lies anywhere without it
        "loads before the volcano",
        changed(START, ["tiles", 0, "loads"], ["red"]),
        "setup.tiles[0].loads",
        "before the volcano",
    ),
    (
        "more tiles than the game has",
        {"tiles": [{"at": [q, r], "value": 1} for q in range(7) for r in range(6)], "volcano": [1, 1]},
        "setup.tiles",
        "at most 36",
    ),
    (
        "cut off from the volcano",
        changed(PLAYING, ["tiles", 1, "at"], [2, 0]),
        "setup.tiles",
        "connected to the volcano",
    ),
    (
        "a full tile that should have gone out",
        changed(PLAYING, ["tiles", 1], {"at": [1, 0], "value": 2, "loads": ["red"]}),
        "setup.tiles[1]",
        "would already have gone out",
    ),
    ("to_move out of range", changed(PLAYING, ["to_move"], 2), "setup.to_move", "must be 0 to 1"),
    ("seats not a list", changed(PLAYING, ["seats"], {}), "setup.seats", "must be a list"),
    ("wrong number of seats", changed(PLAYING, ["seats"], [{}]), "setup.seats", "must list 2 seat(s)"),
    (
        "unknown seat key",
        changed(PLAYING, ["seats"], [{"score": 3}, {}]),
        "setup.seats[0]",
        "unknown key(s): score",
    ),
    (
        "colour the seat does not fly",
        changed(PLAYING, ["seats"], [{"supply": {"green": 1}}, {}]),
        "setup.seats[0].supply.green",
        "flies red, yellow",
    ),
    (
        "too big a supply",
        changed(PLAYING, ["seats"], [{"supply": {"red": 13}}, {}]),
        "setup.seats[0].supply.red",
        "0 to 12",
    ),
    (
        "more loads than exist",
        changed(PLAYING, ["seats"], [{"supply": {"red": 12}}, {}]),
        "setup.seats",
        "13 red loads in play",
    ),
    (
        "award value",
        changed(PLAYING, ["seats"], [{"awarded": [9]}, {}]),
        "setup.seats[0].awarded[0]",
        "1 to 6",
    ),
    (
        "award of a tile on the table",
        changed(PLAYING, ["seats"], [{"awarded": [{"at": [1, 0], "value": 5}]}, {}]),
        "setup.seats[0].awarded[0].at",
        "still on the table",
    ),
    (
        "tile awarded twice",
        changed(
            PLAYING,
            ["seats"],
            [{"awarded": [{"at": [4, 0], "value": 5}]}, {"awarded": [{"at": [4, 0], "value": 5}]}],
        ),
        "setup.seats[1].awarded[0].at",
        "already awarded in setup.seats[0].awarded[0]",
    ),
]


@pytest.mark.parametrize(
    ("setup", "field", "message"), [case[1:] for case in BAD], ids=[case[0] for case in BAD]
)
def test_bad_setups_name_the_field(setup: Any, field: str, message: str) -> None:
    with pytest.raises(SetupError) as raised:
        GAME.start("competitive", seats=2, seed=0, setup=setup)
    assert raised.value.field_name == field
    assert str(raised.value).startswith(field)
    assert message in str(raised.value)


def test_the_three_seat_shared_colour_needs_explicit_supplies_when_it_is_on_the_table() -> None:
    setup = changed(PLAYING, ["tiles", 1, "loads"], ["blue"])
    with pytest.raises(SetupError, match="13 blue loads in play"):
        GAME.start("competitive", seats=3, seed=0, setup=setup)
    setup["seats"] = [{"supply": {"red": 12, "blue": 3}}, {}, {}]
    state = GAME.start("competitive", seats=3, seed=0, setup=setup)
    assert [row[3] for row in state.supply] == [3, 4, 4]


def test_a_good_setup_is_taken_as_given() -> None:
    setup = {
        "tiles": [
            {"at": [0, 0], "value": 1},
            {"at": [1, 0], "value": 2, "spaces": 3, "loads": ["red", "green"]},
            {"at": [-1, 0], "value": 3},
        ],
        "volcano": [0, 0],
        "seats": [{"awarded": [4, {"at": [7, 7], "value": 6}]}, {"supply": {"green": 3}}],
        "to_move": 0,
    }
    state = GAME.start("competitive", seats=2, seed=0, setup=setup)
    observation = state.observation(1)
    assert observation["tiles"] == [
        {"at": [-1, 0], "value": 3, "spaces": 2, "loads": []},
        {"at": [0, 0], "value": 1, "spaces": 1, "loads": []},
        {"at": [1, 0], "value": 2, "spaces": 3, "loads": ["red", "green"]},
    ]
    assert observation["volcano"] == [0, 0] and observation["to_move"] == 0
    seat0, seat1 = observation["seats"]
    assert seat0["supply"] == {"red": 11, "yellow": 12}  # the red load on the table came from it
    assert seat1["supply"] == {"green": 3, "blue": 0}
    assert seat0["awarded"] == [{"at": None, "value": 4}, {"at": [7, 7], "value": 6}]
    assert seat0["score"] == 10 and seat0["loads_on_table"] == 1 and seat1["loads_on_table"] == 1


def test_a_setup_where_the_seat_to_move_has_no_loads_passes_it() -> None:
    setup = {**PLAYING, "to_move": 0, "seats": [{"supply": {}}, {"supply": {"blue": 2}}]}
    state = GAME.start("competitive", seats=2, seed=0, setup=setup)
    assert state.current_seat == 1
    assert state.last == {
        "seat": None,
        "move": None,
        "events": [{"kind": "pass", "seat": 0, "why": "no_loads"}],
    }


def test_a_setup_where_nobody_can_fly_is_already_over() -> None:
    setup = {**PLAYING, "seats": [{"supply": {}}, {"supply": {}}], "to_move": 0}
    state = GAME.start("competitive", seats=2, seed=0, setup=setup)
    assert state.current_seat is None and state.outcome() is not None


def test_options_are_checked() -> None:
    with pytest.raises(SetupError) as raised:
        GAME.start("competitive", seats=2, seed=0, options={"layout": "square"})
    assert raised.value.field_name == "options.layout"
    with pytest.raises(SetupError) as raised:
        GAME.start("solitaire", seats=2, seed=0)
    assert raised.value.field_name == "bots"
    with pytest.raises(SetupError) as raised:
        GAME.start("competitive", seats=1, seed=0)
    assert raised.value.field_name == "bots"
