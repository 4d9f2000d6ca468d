"""The 5x5 board: a stack of pieces on every square (bottom to top) and at most one cap on top.

Squares are numbered ``row * 5 + column`` inside the engine and written ``[row, column]`` in JSON,
row 0 being the top (north) edge. Every ray the game ever follows (a cap's step and the squares an
eruption flows onto) is precomputed once in :data:`RAYS`, so the rules read as table lookups.

>>> DIRECTIONS["NE"]
(-1, 1)
>>> [square_json(s) for s in RAYS[index_of(2, 0)]["E"]]
[[2, 1], [2, 2], [2, 3], [2, 4]]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.volcano.edition import BOARD_SIZE, CALDERA
from referee.volcano.pieces import CapColour, Piece, PieceError, parse_cap

DIRECTIONS: dict[str, tuple[int, int]] = {
    "N": (-1, 0),
    "NE": (-1, 1),
    "E": (0, 1),
    "SE": (1, 1),
    "S": (1, 0),
    "SW": (1, -1),
    "W": (0, -1),
    "NW": (-1, -1),
}
"""The eight directions a cap may step in, in the order moves are listed. Row 0 is north."""

SQUARES: range = range(BOARD_SIZE * BOARD_SIZE)


def index_of(row: int, column: int) -> int:
    return row * BOARD_SIZE + column


def square_json(index: int) -> list[int]:
    """A square as JSON, ``[row, column]``."""
    return [index // BOARD_SIZE, index % BOARD_SIZE]


def on_board(row: int, column: int) -> bool:
    return 0 <= row < BOARD_SIZE and 0 <= column < BOARD_SIZE


def parse_square(data: Any) -> int | None:
    """``[row, column]`` (a JSON list of two whole numbers on the board) to an index, else None.

    A list as JSON reads it, or a read-only one the engine handed out (a ``list`` subclass); not a
    tuple, and no bool or float in it (``True == 1`` in Python, not in JSON)."""
    if not isinstance(data, list) or len(data) != 2:
        return None
    row, column = data
    if type(row) is not int or type(column) is not int:
        return None
    return index_of(row, column) if on_board(row, column) else None


def _ray(index: int, delta: tuple[int, int]) -> tuple[int, ...]:
    row, column = divmod(index, BOARD_SIZE)
    squares = []
    while on_board(row + delta[0], column + delta[1]):
        row, column = row + delta[0], column + delta[1]
        squares.append(index_of(row, column))
    return tuple(squares)


RAYS: tuple[dict[str, tuple[int, ...]], ...] = tuple(
    {name: _ray(index, delta) for name, delta in DIRECTIONS.items()} for index in SQUARES
)
"""``RAYS[square][direction]``: the squares at distance 1, 2, ... up to the edge."""

CALDERA_INDEX = index_of(*CALDERA)


def side_neighbours(index: int) -> tuple[int, ...]:
    """The squares sharing a side with ``index`` (not the corner-to-corner ones)."""
    return tuple(RAYS[index][name][0] for name in ("N", "E", "S", "W") if RAYS[index][name])


@dataclass
class Board:
    """Every square's stack (index 0 is the bottom piece) and every square's cap (None for none)."""

    stacks: list[list[Piece]] = field(default_factory=lambda: [[] for _ in SQUARES])
    caps: list[CapColour | None] = field(default_factory=lambda: [None for _ in SQUARES])

    def copy(self) -> Board:
        return Board([list(stack) for stack in self.stacks], list(self.caps))

    def pieces(self) -> list[Piece]:
        """Every translucent piece on the board (caps are not pieces)."""
        return [piece for stack in self.stacks for piece in stack]

    def cap_squares(self) -> list[int]:
        return [index for index in SQUARES if self.caps[index] is not None]

    @classmethod
    def from_json(cls, data: Any, where: str) -> Board:
        """Read rows of squares, each ``{"stack": [pieces bottom to top], "cap": null|"black"|"white"}``
        (the board of a state's JSON). Raises :class:`BoardError` naming the field that is wrong."""
        if not isinstance(data, list) or len(data) != BOARD_SIZE:
            raise BoardError(f"{where} must be a list of {BOARD_SIZE} rows", where)
        board = cls()
        for row, cells in enumerate(data):
            if not isinstance(cells, list) or len(cells) != BOARD_SIZE:
                raise BoardError(f"{where}[{row}] must be a list of {BOARD_SIZE} squares", f"{where}[{row}]")
            for column, cell in enumerate(cells):
                here = f"{where}[{row}][{column}]"
                board._read_square(index_of(row, column), cell, here)
        return board

    def _read_square(self, index: int, cell: Any, here: str) -> None:
        if not isinstance(cell, dict) or not set(cell) <= {"stack", "cap"} or "stack" not in cell:
            raise BoardError(f'{here} must be {{"stack": [...], "cap": null|"black"|"white"}}', here)
        if not isinstance(cell["stack"], list):
            raise BoardError(f"{here}.stack must be a list of pieces, bottom to top", f"{here}.stack")
        for position, item in enumerate(cell["stack"]):
            try:
                self.stacks[index].append(Piece.from_json(item))
            except PieceError as error:
                raise BoardError(f"{here}.stack[{position}]: {error}", f"{here}.stack[{position}]") from None
        try:
            self.caps[index] = parse_cap(cell.get("cap"))
        except PieceError as error:
            raise BoardError(f"{here}.cap: {error}", f"{here}.cap") from None


class BoardError(ValueError):
    """A board JSON that cannot be read; ``field_name`` says where."""

    def __init__(self, message: str, field_name: str) -> None:
        super().__init__(message)
        self.field_name = field_name
