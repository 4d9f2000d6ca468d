"""A cap step and the eruption it may set off: the one rule that moves pieces.

A cap steps one square; the pieces it leaves uncovered flow the same way, top piece first, the
first landing two squares from where the cap started (jumping the cap), the next three squares away,
and so on. The flow stops when the pieces run out, or when the next landing square is off the board
or holds a cap; what is left stays put. A piece landing on a top piece of its own size is captured;
otherwise it stays there, on top.

Landing squares lie beyond the cap's new square and are all different, so no piece of a flow lands
where an earlier one did: the whole flow can be read off the board before anything moves, which is
what :func:`preview_flow` does for bots and what :func:`step_cap` then carries out.

>>> from referee.volcano.pieces import Colour, nest
>>> board = Board()
>>> board.stacks[index_of(0, 0)] = nest(Colour.RED)
>>> board.caps[index_of(0, 0)] = CapColour.BLACK
>>> board.stacks[index_of(0, 3)] = [Piece(Colour.BLUE, 2)]
>>> eruption = step_cap(board, index_of(0, 0), "E")
>>> [(landing.piece.size, square_json(landing.square), landing.captured) for landing in eruption.flow]
[(3, [0, 2], False), (2, [0, 3], True), (1, [0, 4], False)]
"""

from __future__ import annotations

from typing import Any, NamedTuple

from referee.volcano.board import RAYS, Board, index_of, square_json  # noqa: F401 - doctest
from referee.volcano.frozen import FrozenDict, FrozenList
from referee.volcano.pieces import CapColour, Piece
from referee.volcano.tables import PIECE_JSON, SQUARE_JSON

EMPTY = "empty"
"""Why nothing flowed: the cap left an empty square."""
SPENT = "spent"
"""Why a flow stopped: the uncovered pieces ran out."""
EDGE = "edge"
"""Why a flow stopped: the next landing square is off the board."""
CAP = "cap"
"""Why a flow stopped: the next landing square holds a cap."""


class Landing(NamedTuple):
    """One erupting piece: where it came down and whether the mover captured it there."""

    piece: Piece
    square: int
    captured: bool

    def to_json(self) -> dict[str, Any]:
        """Read-only JSON built from the shared tables (an eruption is shown in every later view)."""
        return FrozenDict(
            {"piece": PIECE_JSON[self.piece], "to": SQUARE_JSON[self.square], "captured": self.captured}
        )


class Eruption(NamedTuple):
    """What one cap step did. ``flow`` is empty when nothing erupted (the mover then moves again)."""

    cap: CapColour
    origin: int
    direction: str
    cap_to: int
    flow: tuple[Landing, ...]
    stopped: str
    left_behind: int

    @property
    def captured(self) -> list[Piece]:
        return [landing.piece for landing in self.flow if landing.captured]

    def to_json(self) -> dict[str, Any]:
        return FrozenDict(
            {
                "cap": FrozenDict(
                    {
                        "colour": self.cap.value,
                        "from": SQUARE_JSON[self.origin],
                        "to": SQUARE_JSON[self.cap_to],
                        "dir": self.direction,
                    }
                ),
                "flow": FrozenList([landing.to_json() for landing in self.flow]),
                "stopped": self.stopped,
                "left_behind": self.left_behind,
            }
        )


def can_step(board: Board, origin: int, direction: str) -> bool:
    """A cap on ``origin`` may step this way: the square exists and holds no cap."""
    ray = RAYS[origin][direction]
    return board.caps[origin] is not None and bool(ray) and board.caps[ray[0]] is None


def preview_flow(board: Board, origin: int, direction: str) -> tuple[list[Landing], str]:
    """The flow a legal step from ``origin`` would set off, and why it would stop; the board is unchanged."""
    stack = board.stacks[origin]
    if not stack:
        return [], EMPTY
    landings = RAYS[origin][direction][1:]
    flow: list[Landing] = []
    for piece, square in zip(reversed(stack), landings, strict=False):
        if board.caps[square] is not None:
            return flow, CAP
        target = board.stacks[square]
        flow.append(Landing(piece, square, bool(target) and target[-1].size == piece.size))
    if len(flow) == len(stack):
        return flow, SPENT
    return flow, EDGE


def step_cap(board: Board, origin: int, direction: str) -> Eruption:
    """Move the cap on ``origin`` one square and carry out the flow, in place. The step must be legal."""
    assert can_step(board, origin, direction), "step_cap needs a legal step"
    flow, stopped = preview_flow(board, origin, direction)
    cap_to = RAYS[origin][direction][0]
    cap = board.caps[origin]
    assert cap is not None
    board.caps[cap_to], board.caps[origin] = cap, None
    stack = board.stacks[origin]
    for landing in flow:
        stack.pop()
        if not landing.captured:
            board.stacks[landing.square].append(landing.piece)
    return Eruption(cap, origin, direction, cap_to, tuple(flow), stopped, len(stack))
