"""Vulkan!'s move notation: golden words for every move type, JSON for what is not a move."""

from __future__ import annotations

import pytest

from referee.notation import move_json
from referee.vulkan import GAME
from referee.vulkan.notation import WORDINGS

WORDS = [
    ({"type": "volcano", "tile": [-2, 0]}, "volcano at -2,0"),
    ({"type": "volcano", "tile": [0, 0]}, "volcano at 0,0"),
    (
        {"type": "flight", "path": [[3, 0], [2, 1], [1, 2], [0, 3]], "colour": "green"},
        "green flight 3,0 -> 0,3",
    ),
    ({"type": "flight", "path": [[-3, 0], [-2, 0], [-1, 0]], "colour": "red"}, "red flight -3,0 -> -1,0"),
    ({"type": "flight", "path": [[-1, 0], [-2, 0], [-3, 0]], "colour": "red"}, "red flight -1,0 -> -3,0"),
    ({"type": "flight", "path": [[0, 1], [0, 2]], "colour": "blue"}, "blue flight 0,1 -> 0,2"),
    ({"type": "flight", "path": [[-3, 0]], "colour": "yellow"}, "yellow flight -3,0"),
]

NOT_MOVES = [
    {"type": "volcano", "tile": [0, True]},
    {"type": "volcano", "tile": [0, 0], "colour": "red"},
    {"type": "volcano", "tile": [10**6, 0]},
    {"type": "flight", "path": [], "colour": "red"},
    {"type": "flight", "path": [[0, 0]], "colour": "purple"},
    {"type": "flight", "path": [[0, 0], [2, 0]], "colour": "red"},
    {"type": "flight", "path": [[0, 0], [1, 0], [1, 1]], "colour": "red"},
    {"type": "flight", "path": [[0, 0], [0, 0]], "colour": "red"},
    {"type": "flight", "path": [[0, 0]]},
    {"type": "step", "from": [0, 0], "dir": "E"},
]


@pytest.mark.parametrize(("move", "words"), WORDS)
def test_a_move_reads_as_its_words(move: dict[str, object], words: str) -> None:
    assert GAME.describe_move(move) == words


def test_every_move_type_has_an_example() -> None:
    assert {move["type"] for move, _ in WORDS} == set(WORDINGS)


@pytest.mark.parametrize("move", NOT_MOVES)
def test_what_is_not_a_move_of_the_game_reads_as_its_json(move: dict[str, object]) -> None:
    assert GAME.describe_move(move) == move_json(move)
