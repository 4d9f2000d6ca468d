"""A game of Connect Four in progress: whose turn, the board, and how it ended.

Seat 0 drops first; seats alternate. A move is ``{"column": c}``, ``c`` from 0 (left) to 6, legal
while that column has room. The game ends at the first line of four (its dropper wins) or when the
board is full (a draw). Nothing is hidden and nothing is left to chance, so an observation is the
whole state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from connect_four import grid
from referee.game import JSON, IllegalMove, Move, Outcome, SetupError, State

VARIANT = "classic"
FOUR_IN_A_ROW = "four_in_a_row"
BOARD_FULL = "board_full"


class ConnectFourState(State):
    def __init__(
        self,
        columns: grid.Columns,
        to_move: int | None = 0,
        last_move: int | None = None,
        line: list[tuple[int, int]] | None = None,
    ) -> None:
        self.columns = columns
        self.to_move = to_move
        self.last_move = last_move
        self.line = line
        """The winning line's cells, once there is one."""

    @property
    def current_seat(self) -> int | None:
        return self.to_move

    @property
    def moves_played(self) -> int:
        return sum(len(column) for column in self.columns)

    def legal_moves(self) -> list[Move]:
        if self.to_move is None:
            return []
        return [{"column": column} for column in grid.open_columns(self.columns)]

    def apply(self, move: Move) -> None:
        column = move.get("column") if isinstance(move, dict) else None
        if (
            self.to_move is None
            or not isinstance(move, dict)
            or set(move) != {"column"}
            or isinstance(column, bool)
            or not isinstance(column, int)
            or column not in grid.open_columns(self.columns)
        ):
            raise IllegalMove(f"not a legal move: {move!r}")
        seat = self.to_move
        self.columns[column].append(seat)
        self.last_move = column
        self.line = grid.line_through(self.columns, column, len(self.columns[column]) - 1)
        self.to_move = None if self.line is not None or grid.is_full(self.columns) else 1 - seat

    def observation(self, seat: int) -> dict[str, JSON]:
        return {
            "variant": VARIANT,
            "seat": seat,
            "width": grid.WIDTH,
            "height": grid.HEIGHT,
            "columns": [list(column) for column in self.columns],
            "to_move": self.to_move,
            "last_move": self.last_move,
            "moves_played": self.moves_played,
        }

    def outcome(self) -> Outcome | None:
        if self.to_move is not None:
            return None
        if self.line is None:
            return Outcome(places=(1, 1), scores=(0.5, 0.5), reason=BOARD_FULL)
        winner = self.columns[self.line[0][0]][self.line[0][1]]
        return Outcome(
            places=(1, 2) if winner == 0 else (2, 1),
            scores=(1.0, 0.0) if winner == 0 else (0.0, 1.0),
            reason=FOUR_IN_A_ROW,
            details={"line": [list(cell) for cell in self.line]},
        )

    def to_json(self) -> dict[str, JSON]:
        return {
            "variant": VARIANT,
            "columns": [list(column) for column in self.columns],
            "to_move": self.to_move,
            "last_move": self.last_move,
        }

    def copy(self) -> ConnectFourState:
        line = list(self.line) if self.line is not None else None
        return ConnectFourState([list(column) for column in self.columns], self.to_move, self.last_move, line)


def state_from_document(data: Mapping[str, Any]) -> ConnectFourState:
    """A state from :meth:`ConnectFourState.to_json` or an observation (the same facts), checked:
    a :class:`SetupError` names what is wrong. Whose turn it is follows from the discs."""
    columns = data.get("columns") if isinstance(data, Mapping) else None
    if (
        not isinstance(columns, list)
        or len(columns) != grid.WIDTH
        or not all(isinstance(c, list) and len(c) <= grid.HEIGHT for c in columns)
        or not all(disc in (0, 1) and not isinstance(disc, bool) for c in columns for disc in c)
    ):
        raise SetupError(
            f"columns must be {grid.WIDTH} lists of at most {grid.HEIGHT} seats (0 or 1)", "columns"
        )
    counts = [sum(disc == seat for c in columns for disc in c) for seat in (0, 1)]
    if counts[0] - counts[1] not in (0, 1):
        raise SetupError("seat 0 drops first and the seats alternate: the disc counts disagree", "columns")
    last_move = data.get("last_move")
    state = ConnectFourState([list(c) for c in columns], counts[0] - counts[1], None)
    if last_move is not None:
        if last_move not in range(grid.WIDTH) or not columns[last_move]:
            raise SetupError("last_move must be a column holding a disc, or null", "last_move")
        state.last_move = last_move
        state.line = grid.line_through(state.columns, last_move, len(columns[last_move]) - 1)
    if state.line is not None or grid.is_full(state.columns):
        state.to_move = None
    return state
