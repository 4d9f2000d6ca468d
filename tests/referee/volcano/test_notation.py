"""Volcano's move notation: golden words for every move type, JSON for what is not a move."""

from __future__ import annotations

import pytest

from referee.notation import move_json
from referee.volcano import GAME
from referee.volcano.notation import WORDINGS

WORDS = [
    ({"type": "step", "from": [0, 0], "dir": "E"}, "cap 0,0 -> 0,1 (E)"),
    ({"type": "step", "from": [2, 3], "dir": "W"}, "cap 2,3 -> 2,2 (W)"),
    ({"type": "step", "from": [4, 4], "dir": "NW"}, "cap 4,4 -> 3,3 (NW)"),
    ({"type": "step", "from": [1, 0], "dir": "SE"}, "cap 1,0 -> 2,1 (SE)"),
    (
        {"type": "power_play", "piece": {"colour": "blue", "size": 1}, "to": [0, 4]},
        "power play blue small to 0,4",
    ),
    (
        {"type": "power_play", "piece": {"colour": "clear", "size": 3}, "to": [2, 2]},
        "power play clear large to 2,2",
    ),
    (
        {"type": "power_play", "piece": {"colour": "purple", "size": 2}, "to": [4, 0]},
        "power play purple medium to 4,0",
    ),
]

NOT_MOVES = [
    {"type": "step", "from": [0, 0], "dir": "up"},
    {"type": "step", "from": [0, 5], "dir": "E"},
    {"type": "step", "from": [0, 0], "dir": "E", "cap": "black"},
    {"type": "step", "from": [0.0, 0], "dir": "E"},
    {"type": "power_play", "piece": {"colour": "blue", "size": 4}, "to": [0, 4]},
    {"type": "power_play", "piece": {"colour": "black", "size": 1}, "to": [0, 4]},
    {"type": "power_play", "piece": {"colour": "blue", "size": 1, "cap": None}, "to": [0, 4]},
    {"type": "power_play", "piece": ["blue", 1], "to": [0, 4]},
    {"type": "power_play", "piece": {"colour": "blue", "size": True}, "to": [0, 4]},
    {"type": "volcano", "tile": [0, 0]},
]


@pytest.mark.parametrize(("move", "words"), WORDS)
def test_a_move_reads_as_its_words(move: dict[str, object], words: str) -> None:
    assert GAME.describe_move(move) == words


def test_every_move_type_has_an_example() -> None:
    assert {move["type"] for move, _ in WORDS} == set(WORDINGS)


@pytest.mark.parametrize("move", NOT_MOVES)
def test_what_is_not_a_move_of_the_game_reads_as_its_json(move: dict[str, object]) -> None:
    assert GAME.describe_move(move) == move_json(move)
