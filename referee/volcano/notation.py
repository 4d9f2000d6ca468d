"""Volcano's moves in words: a cap step and a Power Play.

Squares are ``row,column`` as in the move's ``[row, column]`` (row 0 at the top). A cap step names
the cap's square, the square it steps to and the direction; a Power Play names the piece given back
by colour and size (small, medium, large) and the square it goes on.

>>> describe_move({"type": "step", "from": [0, 0], "dir": "E"})
'cap 0,0 -> 0,1 (E)'
>>> describe_move({"type": "power_play", "piece": {"colour": "blue", "size": 1}, "to": [0, 4]})
'power play blue small to 0,4'

Anything not shaped like a move of the game reads as JSON:

>>> describe_move({"type": "step", "from": [0, 0], "dir": "up"})
'{"type":"step","from":[0,0],"dir":"up"}'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.notation import Wording, cell_words, describe
from referee.volcano.board import DIRECTIONS
from referee.volcano.edition import BOARD_SIZE
from referee.volcano.pieces import SIZE_NAMES, Colour

_COLOURS = frozenset(colour.value for colour in Colour)
_LAST = BOARD_SIZE - 1


def _step(move: Mapping[str, Any]) -> str | None:
    start, direction = move["from"], move["dir"]
    square = cell_words(start, 0, _LAST)
    if square is None or not isinstance(direction, str) or direction not in DIRECTIONS:
        return None
    rows, columns = DIRECTIONS[direction]
    return f"cap {square} -> {start[0] + rows},{start[1] + columns} ({direction})"


def _power_play(move: Mapping[str, Any]) -> str | None:
    piece, square = move["piece"], cell_words(move["to"], 0, _LAST)
    if square is None or not isinstance(piece, Mapping) or set(piece) != {"colour", "size"}:
        return None
    colour, size = piece["colour"], piece["size"]
    if (
        not isinstance(colour, str)
        or colour not in _COLOURS
        or type(size) is not int
        or size not in SIZE_NAMES
    ):
        return None
    return f"power play {colour} {SIZE_NAMES[size]} to {square}"


WORDINGS = {
    "step": Wording(("from", "dir"), _step),
    "power_play": Wording(("piece", "to"), _power_play),
}
"""Every move type of Volcano (``docs/games/volcano.md``, Moves) and how it reads."""


def describe_move(move: object) -> str:
    """A move of Volcano in words, or its compact JSON if it is not one (see the module)."""
    return describe(move, WORDINGS)
