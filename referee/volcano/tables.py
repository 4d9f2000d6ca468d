"""Every JSON value the engine hands out again and again, built once: squares, pieces, moves.

There are only 25 squares, 24 kinds of piece, 200 cap steps (25 squares x 8 directions) and 600
Power Plays (24 kinds x 25 squares), so each is one shared read-only object (:mod:`.frozen`): a move
list is a list of references into these tables, and a move the state keeps in ``turn_moves`` is the
same object. :data:`STEPS_FROM` lists, per square, the steps a cap there could take (those that stay
on the board) with the square each one needs free, in the order moves are listed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from referee.volcano.board import DIRECTIONS, RAYS, SQUARES, square_json
from referee.volcano.frozen import FrozenDict, FrozenList
from referee.volcano.pieces import SIZES, Colour, Piece

SQUARE_JSON: tuple[FrozenList, ...] = tuple(FrozenList(square_json(index)) for index in SQUARES)

PIECES: tuple[Piece, ...] = tuple(Piece(colour, size) for colour in Colour for size in SIZES)
"""The 24 kinds of piece in the engine's order: by colour, then size."""

PIECE_JSON: dict[Piece, FrozenDict] = {piece: FrozenDict(piece.to_json()) for piece in PIECES}

STEP_MOVES: tuple[dict[str, FrozenDict], ...] = tuple(
    {
        direction: FrozenDict({"type": "step", "from": SQUARE_JSON[origin], "dir": direction})
        for direction in DIRECTIONS
    }
    for origin in SQUARES
)
"""``STEP_MOVES[origin][direction]``: the move stepping the cap on ``origin`` that way."""

STEPS_FROM: tuple[tuple[tuple[int, FrozenDict], ...], ...] = tuple(
    tuple(
        (RAYS[origin][direction][0], STEP_MOVES[origin][direction])
        for direction in DIRECTIONS
        if RAYS[origin][direction]
    )
    for origin in SQUARES
)
"""``STEPS_FROM[origin]``: (the square the cap would step onto, the move) for each on-board step."""

POWER_PLAY_MOVES: dict[Piece, tuple[FrozenDict, ...]] = {
    piece: tuple(
        FrozenDict({"type": "power_play", "piece": PIECE_JSON[piece], "to": SQUARE_JSON[square]})
        for square in SQUARES
    )
    for piece in PIECES
}
"""``POWER_PLAY_MOVES[piece][square]``: the move putting that piece on that square."""


MOVE_BY_ID: dict[int, tuple[str, Any, int]] = {
    **{
        id(move): ("step", direction, origin)
        for origin in SQUARES
        for direction, move in STEP_MOVES[origin].items()
    },
    **{
        id(move): ("power_play", piece, square)
        for piece in PIECES
        for square, move in enumerate(POWER_PLAY_MOVES[piece])
    },
}
"""Every table move by identity: ``apply`` given one of the very objects ``legal_moves`` listed (what
the match runner does) knows what it is without reading it. The tables live as long as the process,
so no other object can ever share one of these ids."""


def squares_picker(squares: tuple[int, ...]) -> Callable[[Sequence[Any]], tuple[Any, ...]]:
    """A function taking, from a row of 25 per-square values, those of ``squares`` in that order."""
    if len(squares) == 1:
        only = squares[0]
        return lambda row: (row[only],)
    return itemgetter(*squares)
