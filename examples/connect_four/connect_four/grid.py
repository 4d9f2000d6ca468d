"""The board as data: seven columns of at most six discs, each disc the seat that dropped it.

Columns are filled from the bottom, so a column is simply the list of its discs, bottom first; a
cell is ``(column, row)`` with row 0 at the bottom. Nothing here knows whose turn it is.
"""

from __future__ import annotations

WIDTH = 7
HEIGHT = 6
CONNECT = 4
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
"""Across, up, and the two diagonals: every line of four runs along one of them."""

Columns = list[list[int]]


def empty() -> Columns:
    return [[] for _ in range(WIDTH)]


def open_columns(columns: Columns) -> list[int]:
    """The columns with room for one more disc, left to right."""
    return [index for index, column in enumerate(columns) if len(column) < HEIGHT]


def disc_at(columns: Columns, column: int, row: int) -> int | None:
    if 0 <= column < WIDTH and 0 <= row < len(columns[column]):
        return columns[column][row]
    return None


def line_through(columns: Columns, column: int, row: int) -> list[tuple[int, int]] | None:
    """The longest line of at least four discs of one seat through ``(column, row)``, or None."""
    seat = disc_at(columns, column, row)
    if seat is None:
        return None
    for dx, dy in DIRECTIONS:
        cells = [(column, row)]
        for sign in (1, -1):
            x, y = column + sign * dx, row + sign * dy
            while disc_at(columns, x, y) == seat:
                cells.append((x, y))
                x, y = x + sign * dx, y + sign * dy
        if len(cells) >= CONNECT:
            return sorted(cells)
    return None


def is_full(columns: Columns) -> bool:
    return all(len(column) == HEIGHT for column in columns)
