"""Vulkan!'s moves in words: the volcano's tile, and a flight as its colour and its two ends.

Cells are ``q,r`` as in the move's ``[q, r]``. A flight is a straight run, so its first and last
tiles say which tiles it crosses and in which order; a one-tile flight names its tile.

>>> describe_move({"type": "volcano", "tile": [-2, 0]})
'volcano at -2,0'
>>> describe_move({"type": "flight", "path": [[3, 0], [2, 1], [1, 2], [0, 3]], "colour": "green"})
'green flight 3,0 -> 0,3'
>>> describe_move({"type": "flight", "path": [[-3, 0]], "colour": "red"})
'red flight -3,0'

A path that is not a straight run (never a legal flight) would read like a straight one, so it
reads as JSON, as does anything else not shaped like a move of the game:

>>> describe_move({"type": "flight", "path": [[0, 0], [2, 0]], "colour": "red"})
'{"type":"flight","path":[[0,0],[2,0]],"colour":"red"}'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.notation import Wording, cell_words, describe
from referee.vulkan.edition import EDITION
from referee.vulkan.hexes import DIRECTIONS
from referee.vulkan.setup import COORD_LIMIT


def _volcano(move: Mapping[str, Any]) -> str | None:
    tile = cell_words(move["tile"], -COORD_LIMIT, COORD_LIMIT)
    return None if tile is None else f"volcano at {tile}"


def _flight(move: Mapping[str, Any]) -> str | None:
    colour, path = move["colour"], move["path"]
    if colour not in EDITION.colours or not isinstance(path, list | tuple) or not path:
        return None
    cells = [cell_words(cell, -COORD_LIMIT, COORD_LIMIT) for cell in path]
    if None in cells:
        return None
    steps = {(b[0] - a[0], b[1] - a[1]) for a, b in zip(path, path[1:], strict=False)}
    if len(steps) > 1 or not steps <= set(DIRECTIONS):
        return None
    ends = cells[0] if len(cells) == 1 else f"{cells[0]} -> {cells[-1]}"
    return f"{colour} flight {ends}"


WORDINGS = {
    "volcano": Wording(("tile",), _volcano),
    "flight": Wording(("path", "colour"), _flight),
}
"""Every move type of Vulkan! (``docs/games/vulkan.md``, Moves) and how it reads."""


def describe_move(move: object) -> str:
    """A move of Vulkan! in words, or its compact JSON if it is not one (see the module)."""
    return describe(move, WORDINGS)
