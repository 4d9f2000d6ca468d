"""Small builders that keep the rule tests close to the rule text: positions, flights and events."""

from __future__ import annotations

from typing import Any

from referee.vulkan import GAME, VulkanState

SEAT = {"red": 0, "yellow": 1, "green": 2, "blue": 3}
"""Who flies which colour in the 4-seat game."""


def tile(q: int, r: int, value: int, *loads: str, spaces: int | None = None) -> dict[str, Any]:
    """A setup tile; spaces default to the edition's (1, 1, 2, 2, 3, 3 for values 1 to 6)."""
    entry: dict[str, Any] = {"at": [q, r], "value": value, "loads": list(loads)}
    if spaces is not None:
        entry["spaces"] = spaces
    return entry


def position(
    seats: int,
    tiles: list[dict[str, Any]],
    volcano: tuple[int, int] | None,
    to_move: int | None = None,
    supply: list[dict[str, int]] | None = None,
    variant: str = "competitive",
) -> VulkanState:
    """An explicit position through the public setup JSON, exactly as a match would get it."""
    setup: dict[str, Any] = {"tiles": tiles, "volcano": None if volcano is None else list(volcano)}
    if to_move is not None:
        setup["to_move"] = to_move
    if supply is not None:
        setup["seats"] = [{"supply": row} for row in supply]
    return GAME.start(variant, seats=seats, seed=0, setup=setup)


def flight(colour: str, *path: tuple[int, int]) -> dict[str, Any]:
    return {"type": "flight", "path": [list(cell) for cell in path], "colour": colour}


def fly(state: VulkanState, colour: str, *path: tuple[int, int]) -> list[dict[str, Any]]:
    """Play a flight (checking it is among the legal moves) and return what happened."""
    move = flight(colour, *path)
    assert move in state.legal_moves(), f"{move} is not legal here"
    state.apply(move)
    assert state.last is not None
    return state.last["events"]


def drop(q: int, r: int, colour: str) -> dict[str, Any]:
    return {"kind": "drop", "tile": [q, r], "colour": colour}


def extinguished(q: int, r: int, round_number: int = 1) -> dict[str, Any]:
    return {"kind": "extinguished", "tile": [q, r], "round": round_number}


def isolated(q: int, r: int) -> dict[str, Any]:
    return {"kind": "isolated", "tile": [q, r]}


def award(q: int, r: int, value: int, seat: int, why: str, *loads: str) -> dict[str, Any]:
    return {"kind": "award", "tile": [q, r], "value": value, "seat": seat, "why": why, "loads": list(loads)}


def removed(q: int, r: int) -> dict[str, Any]:
    return {"kind": "removed", "tile": [q, r], "why": "isolated_without_loads"}


def passed(seat: int) -> dict[str, Any]:
    return {"kind": "pass", "seat": seat, "why": "no_loads"}


def on_table(state: VulkanState, q: int, r: int) -> list[str] | None:
    """The loads on the tile at (q, r), or None when no tile lies there any more."""
    for entry in state.observation(0)["tiles"]:
        if entry["at"] == [q, r]:
            return entry["loads"]
    return None
