"""Where a game starts: the seeded nest layout and explicit positions, with errors naming the field."""

from __future__ import annotations

import copy

import pytest

from referee.game import SetupError, canonical_json
from referee.volcano import GAME
from tests.referee.volcano.positions import setup

SEEDS = range(12)
SIDES = ((0, 1), (1, 0), (0, -1), (-1, 0))
CORNERS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _nest_colours(board) -> dict[tuple[int, int], str]:
    return {
        (row, column): cell["stack"][0]["colour"]
        for row, cells in enumerate(board)
        for column, cell in enumerate(cells)
        if cell["stack"]
    }


def _same_colour_pairs(colours, offsets) -> int:
    return sum(
        1
        for (row, column), colour in colours.items()
        for dr, dc in offsets
        if colours.get((row + dr, column + dc)) == colour
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_the_seeded_layout_follows_the_setup_rules(seed: int) -> None:
    state = GAME.start("fiesta-caldera", seats=2, seed=seed)
    board = state.observation(0)["board"]

    assert board[2][2] == {"stack": [], "cap": None}  # the Caldera starts empty
    colours = _nest_colours(board)
    assert len(colours) == 24
    assert sorted(colours.values()) == sorted(
        [c for c in ("red", "orange", "yellow", "green", "cyan", "blue", "purple", "clear") for _ in range(3)]
    )
    for (row, column), colour in colours.items():
        cell = board[row][column]
        assert cell["stack"] == [{"colour": colour, "size": size} for size in (1, 2, 3)]  # large on top
        assert cell["cap"] == {"red": "black", "orange": "white"}.get(colour)
    assert _same_colour_pairs(colours, SIDES) == 0  # never side by side
    assert state.observation(0)["captures"] == [[], []]
    assert state.current_seat == 0


def test_corner_to_corner_nests_of_one_colour_are_allowed() -> None:
    boards = [GAME.start("fiesta-caldera", seats=2, seed=seed).observation(0)["board"] for seed in SEEDS]
    assert any(_same_colour_pairs(_nest_colours(board), CORNERS) for board in boards)


def test_the_seed_decides_the_layout() -> None:
    def layout(seed: int) -> str:
        return canonical_json(GAME.start("fiesta-caldera", seats=3, seed=seed).to_json())

    assert layout(5) == layout(5)
    assert len({layout(seed) for seed in SEEDS}) == len(SEEDS)


def test_an_explicit_setup_gives_exactly_that_position() -> None:
    data = setup({(1, 1): "red3 blue1", (2, 2): "green2"}, {(1, 1): "white"}, ["cyan1", "", "clear3"], 2)

    state = GAME.start("fiesta-caldera", seats=3, seed=99, setup=data)

    observed = state.observation(0)
    assert observed["board"] == data["board"]
    assert observed["captures"] == data["captures"]
    assert state.current_seat == 2


def _broken(path: list, value) -> dict:
    data = setup({(0, 0): "red1 red2 red3"}, {(0, 0): "black"}, ["", ""])
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ("not an object", "setup"),
        ({"captures": [[], []]}, "setup.board"),
        ({"board": [], "stones": 3}, "setup"),
        (_broken(["board"], [[]] * 5), "setup.board[0]"),
        (_broken(["board", 1, 2], {"stack": [], "lava": 1}), "setup.board[1][2]"),
        (_broken(["board", 0, 0, "stack", 1], {"colour": "black", "size": 2}), "setup.board[0][0].stack[1]"),
        (_broken(["board", 0, 0, "stack", 1], {"colour": "red", "size": 4}), "setup.board[0][0].stack[1]"),
        (_broken(["board", 0, 0, "stack", 1], {"colour": "red", "size": 2.0}), "setup.board[0][0].stack[1]"),
        (_broken(["captures", 0], [{"colour": "red", "size": 3.0}]), "setup.captures[0][0]"),
        (_broken(["board", 0, 0, "cap"], "grey"), "setup.board[0][0].cap"),
        (_broken(["board", 0, 0, "cap"], None), "setup.board"),  # no cap left to move
        (_broken(["board", 0, 1, "stack"], [{"colour": "red", "size": 3}] * 3), "setup.board"),  # 4 larges
        (_broken(["captures"], [[]]), "setup.captures"),
        (_broken(["captures", 1], [{"colour": "red"}]), "setup.captures[1][0]"),
        (_broken(["to_move"], 2), "setup.to_move"),
        (_broken(["to_move"], True), "setup.to_move"),
    ],
)
def test_a_bad_setup_names_its_field(data, field: str) -> None:
    with pytest.raises(SetupError) as refused:
        GAME.start("fiesta-caldera", seats=2, seed=0, setup=data)
    assert refused.value.field_name == field


def test_a_square_may_leave_out_its_cap() -> None:
    state = GAME.start("fiesta-caldera", seats=2, seed=0, setup=_broken(["board", 1, 2], {"stack": []}))
    assert state.observation(0)["board"][1][2] == {"stack": [], "cap": None}


def test_four_caps_of_one_colour_are_more_than_the_box_holds() -> None:
    caps = {(0, column): "black" for column in range(4)}
    with pytest.raises(SetupError, match="black caps"):
        GAME.start("fiesta-caldera", seats=2, seed=0, setup=setup({}, caps))


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"power_play": "yes"}, "options.power_play"),
        ({"step_limit": 0}, "options.step_limit"),
        ({"turn_limit": 2.5}, "options.turn_limit"),
        ({"lava": 1}, "options"),
    ],
)
def test_bad_options_name_their_field(options, field: str) -> None:
    with pytest.raises(SetupError) as refused:
        GAME.start("fiesta-caldera", seats=2, seed=0, options=options)
    assert refused.value.field_name == field


@pytest.mark.parametrize("seats", [1, 4])
def test_two_or_three_seats(seats: int) -> None:
    with pytest.raises(SetupError) as refused:
        GAME.start("fiesta-caldera", seats=seats, seed=0)
    assert refused.value.field_name == "bots"


def test_the_setup_is_not_changed_by_play() -> None:
    data = setup({(0, 0): "red1 red2 red3"}, {(0, 0): "black"})
    kept = copy.deepcopy(data)
    state = GAME.start("fiesta-caldera", seats=2, seed=0, setup=data)
    state.apply({"type": "step", "from": [0, 0], "dir": "E"})
    assert data == kept
