"""Connect Four as a picture: the blue frame, each disc in its seat's colour, the last disc ringed
and the winning line marked; and as text for a terminal. Nothing is hidden, so ``reveal`` changes
nothing."""

from __future__ import annotations

from typing import Any

from connect_four import grid
from connect_four.notation import FILES
from referee.drawing.svg import Svg, swatch_row
from referee.game import State

COLOURS = ("#d62728", "#f2c100")
"""Red for seat 0, yellow for seat 1, as the boxed game's discs."""
NAMES = ("red", "yellow")
CELL = 60.0
MARGIN = 24.0
SYMBOLS = ("X", "O")


def seat_colours(seats: int) -> list[str]:
    """>>> seat_colours(2)
    ['#d62728', '#f2c100']
    """
    return [COLOURS[seat % len(COLOURS)] for seat in range(seats)]


def _view(state: State) -> dict[str, Any]:
    return state.observation(0)


def svg(state: State, reveal: bool = True) -> str:
    view = _view(state)
    columns: list[list[int]] = view["columns"]
    outcome = state.outcome()
    line = {tuple(cell) for cell in (outcome.details.get("line", []) if outcome else [])}
    width = MARGIN * 2 + CELL * grid.WIDTH
    board_top = MARGIN + 20
    height = board_top + CELL * grid.HEIGHT + 110
    picture = Svg(width, height)
    picture.rect(MARGIN, board_top, CELL * grid.WIDTH, CELL * grid.HEIGHT, fill="#1f4e9c", rx=10, cls="frame")
    for column in range(grid.WIDTH):
        x = MARGIN + CELL * (column + 0.5)
        picture.text(x - 4, MARGIN + 10, FILES[column], size=13, fill="#333")
        for row in range(grid.HEIGHT):
            y = board_top + CELL * (grid.HEIGHT - row - 0.5)
            seat = columns[column][row] if row < len(columns[column]) else None
            fill = COLOURS[seat] if seat is not None else "#fbf8f3"
            last = view["last_move"] == column and row == len(columns[column]) - 1
            picture.circle(
                x,
                y,
                CELL * 0.4,
                fill=fill,
                stroke="#111" if (column, row) in line or last else "#163a75",
                stroke_width=4 if (column, row) in line else 2 if last else 1,
                cls="disc" if seat is not None else "hole",
            )
    y = board_top + CELL * grid.HEIGHT + 30
    picture.text(MARGIN, y, "Key", size=14, font_weight="bold")
    picture.open_group(cls="seat-swatch")
    swatch_row(picture, MARGIN + 40, y, [(COLOURS[seat], f"seat {seat} ({NAMES[seat]})") for seat in (0, 1)])
    picture.close_group()
    picture.text(MARGIN, y + 28, _status(state, view), size=13)
    return picture.document(f"Connect Four: {_status(state, view)}")


def _status(state: State, view: dict[str, Any]) -> str:
    outcome = state.outcome()
    if outcome is None:
        return f"seat {view['to_move']} ({NAMES[view['to_move']]}) to drop, move {view['moves_played'] + 1}"
    if outcome.reason == "board_full":
        return "the board is full: a draw"
    return f"seat {outcome.places.index(1)} wins with four in a row"


def text(state: State, reveal: bool = True) -> str:
    view = _view(state)
    columns: list[list[int]] = view["columns"]
    rows = []
    for row in reversed(range(grid.HEIGHT)):
        cells = [SYMBOLS[c[row]] if row < len(c) else "." for c in columns]
        rows.append("|" + " ".join(cells) + "|")
    rows.append(" " + " ".join(FILES[: grid.WIDTH]))
    rows.append(f"X: seat 0, O: seat 1. {_status(state, view)}")
    return "\n".join(rows) + "\n"
