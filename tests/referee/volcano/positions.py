"""Explicit Volcano positions for the rule tests, written the way the rule text talks about them.

A stack is a string of pieces bottom to top, each a colour and a size: ``"red1 red2 red3"`` is a red
nest (small at the bottom, large on top). Caps are given by square: ``{(0, 0): "black"}``.
"""

from __future__ import annotations

from typing import Any

from referee.volcano import GAME, VolcanoState

Square = tuple[int, int]


def piece(code: str) -> dict[str, Any]:
    """``"red3"`` -> ``{"colour": "red", "size": 3}``."""
    return {"colour": code[:-1], "size": int(code[-1])}


def pieces(codes: str) -> list[dict[str, Any]]:
    return [piece(code) for code in codes.split()]


def setup(
    stacks: dict[Square, str],
    caps: dict[Square, str],
    captures: list[str] | None = None,
    to_move: int | None = None,
) -> dict[str, Any]:
    """The explicit setup JSON for a board holding only these stacks and caps."""
    board = [
        [{"stack": pieces(stacks.get(square, "")), "cap": caps.get(square)} for square in _row(row)]
        for row in range(5)
    ]
    data: dict[str, Any] = {"board": board}
    if captures is not None:
        data["captures"] = [pieces(held) for held in captures]
    if to_move is not None:
        data["to_move"] = to_move
    return data


def _row(row: int) -> list[Square]:
    return [(row, column) for column in range(5)]


def game(
    stacks: dict[Square, str],
    caps: dict[Square, str],
    *,
    seats: int = 2,
    captures: list[str] | None = None,
    to_move: int | None = None,
    **options: Any,
) -> VolcanoState:
    return GAME.start(
        "fiesta-caldera", seats=seats, seed=0, options=options, setup=setup(stacks, caps, captures, to_move)
    )


def step(row: int, column: int, direction: str) -> dict[str, Any]:
    return {"type": "step", "from": [row, column], "dir": direction}


def power_play(code: str, row: int, column: int) -> dict[str, Any]:
    return {"type": "power_play", "piece": piece(code), "to": [row, column]}


def stack_at(state: VolcanoState, row: int, column: int) -> str:
    """The stack on a square in the same notation, bottom to top ("" when empty)."""
    cell = state.observation(0)["board"][row][column]
    return " ".join(f"{p['colour']}{p['size']}" for p in cell["stack"])


def cap_at(state: VolcanoState, row: int, column: int) -> str | None:
    return state.observation(0)["board"][row][column]["cap"]


def captured(state: VolcanoState, seat: int) -> str:
    """A seat's captures in the same notation, in the engine's order (colour, then size)."""
    return " ".join(f"{p['colour']}{p['size']}" for p in state.observation(0)["captures"][seat])
