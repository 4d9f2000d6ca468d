"""Moves in words: columns are lettered ``a`` to ``g`` from the left, as a chess board's files are,
so ``{"column": 3}`` reads ``drop in d``."""

from __future__ import annotations

from connect_four import grid
from referee.notation import move_json

FILES = "abcdefg"


def describe_move(move: object) -> str:
    """>>> describe_move({"column": 3}), describe_move({"column": 9})
    ('drop in d', '{"column":9}')
    """
    if isinstance(move, dict) and set(move) == {"column"}:
        column = move["column"]
        if isinstance(column, int) and not isinstance(column, bool) and 0 <= column < grid.WIDTH:
            return f"drop in {FILES[column]}"
    return move_json(move)
