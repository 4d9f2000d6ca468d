"""Where a game starts: the seeded nest layout, or an explicit position checked field by field.

The seeded layout deals the 24 nests onto the 24 squares around the Caldera, uniformly among the
layouts where no two nests of one colour share a side (corner to corner is allowed): it shuffles and
redraws until the layout fits, about one try in thirty, a millisecond in all. Then a black cap goes
on every red nest and a white cap on every orange nest.

An explicit setup is any position: ``{"board": rows of {"stack": [...], "cap": ...}, "captures":
[[pieces] per seat], "to_move": seat}``, ``captures`` and ``to_move`` optional. It may hold fewer
pieces than the box (rule examples use a few), but never more than the box has of any piece, at
least one cap, and no seat that has already won.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.game import SetupError
from referee.rng import Rng
from referee.volcano.board import CALDERA_INDEX, SQUARES, Board, BoardError, side_neighbours
from referee.volcano.edition import CAP_ON_NEST, CAPS_PER_COLOUR, FIRST_SEAT, NESTS_PER_COLOUR
from referee.volcano.pieces import CapColour, Colour, Piece, PieceError, nest
from referee.volcano.trios import count_trios, winning_reason

NEST_SQUARES: tuple[int, ...] = tuple(index for index in SQUARES if index != CALDERA_INDEX)
SETUP_FIELDS = frozenset({"board", "captures", "to_move"})


@dataclass
class Position:
    """A starting position: the board, every seat's captures and the seat to move."""

    board: Board
    captures: list[list[Piece]]
    to_move: int


def nests_fit(colours: list[Colour | None]) -> bool:
    """No two nests of one colour side by side (``colours`` per square, None for the Caldera)."""
    return all(
        colours[index] is None or all(colours[index] != colours[other] for other in side_neighbours(index))
        for index in SQUARES
    )


def seeded_position(seats: int, rng: Rng) -> Position:
    """The nest layout drawn from ``rng``, caps on red and orange nests, nothing captured, seat 0 to move."""
    deck = [colour for colour in Colour for _ in range(NESTS_PER_COLOUR)]
    while True:
        rng.shuffle(deck)
        colours: list[Colour | None] = [None] * len(SQUARES)
        for index, colour in zip(NEST_SQUARES, deck, strict=True):
            colours[index] = colour
        if nests_fit(colours):
            break
    board = Board()
    for index, placed in enumerate(colours):
        if placed is not None:
            board.stacks[index] = nest(placed)
            board.caps[index] = CAP_ON_NEST.get(placed)
    return Position(board, [[] for _ in range(seats)], FIRST_SEAT)


def explicit_position(seats: int, setup: Mapping[str, Any]) -> Position:
    """Read and check an explicit setup; :class:`SetupError` names the field that is wrong."""
    if not isinstance(setup, Mapping):
        raise SetupError("setup must be an object with board, and optionally captures and to_move", "setup")
    unknown = sorted(set(setup) - SETUP_FIELDS)
    if unknown:
        raise SetupError(f"setup has unknown field(s): {', '.join(unknown)}", "setup")
    if "board" not in setup:
        raise SetupError("setup.board is required: 5 rows of 5 squares", "setup.board")
    try:
        board = Board.from_json(setup["board"], "setup.board")
    except BoardError as error:
        raise SetupError(str(error), error.field_name) from None
    captures = _read_captures(seats, setup.get("captures"))
    to_move = setup.get("to_move", FIRST_SEAT)
    if isinstance(to_move, bool) or not isinstance(to_move, int) or not 0 <= to_move < seats:
        raise SetupError(f"setup.to_move must be a seat from 0 to {seats - 1}", "setup.to_move")
    _check_the_box(board, captures)
    return Position(board, captures, to_move)


def _read_captures(seats: int, data: Any) -> list[list[Piece]]:
    if data is None:
        return [[] for _ in range(seats)]
    if not isinstance(data, list) or len(data) != seats:
        raise SetupError(f"setup.captures must be a list of {seats} lists of pieces", "setup.captures")
    captures: list[list[Piece]] = []
    for seat, held in enumerate(data):
        where = f"setup.captures[{seat}]"
        if not isinstance(held, list):
            raise SetupError(f"{where} must be a list of pieces", where)
        pieces = []
        for position, item in enumerate(held):
            try:
                pieces.append(Piece.from_json(item))
            except PieceError as error:
                raise SetupError(f"{where}[{position}]: {error}", f"{where}[{position}]") from None
        if winning_reason(count_trios(pieces)) is not None:
            raise SetupError(f"{where} already wins: the game would be over", where)
        captures.append(sorted(pieces, key=Piece.sort_key))
    return captures


def _check_the_box(board: Board, captures: list[list[Piece]]) -> None:
    """No more of any piece or cap than the box holds, and at least one cap to move."""
    used = Counter(board.pieces())
    for held in captures:
        used.update(held)
    for piece, count in sorted(used.items(), key=lambda item: item[0].sort_key()):
        if count > NESTS_PER_COLOUR:
            name = f"{piece.colour.value} size {piece.size}"
            message = f"setup has {count} pieces {name}; the box holds {NESTS_PER_COLOUR}"
            raise SetupError(message, "setup.board")
    caps = Counter(cap for cap in board.caps if cap is not None)
    if not caps:
        raise SetupError("setup.board needs at least one cap, or no seat could move", "setup.board")
    for cap in CapColour:
        if caps[cap] > CAPS_PER_COLOUR:
            message = f"setup.board has {caps[cap]} {cap.value} caps; the box holds {CAPS_PER_COLOUR}"
            raise SetupError(message, "setup.board")
