"""A legal move played on the state, stage by stage, with the events it records.

The volcano is placed once. A flight runs the stages of :mod:`referee.vulkan.rules` in order:
the drops, then the extinguishing cascade and isolation (:func:`referee.vulkan.rules.resolve`),
and every tile that left the table goes to the seat :func:`referee.vulkan.rules.award_to` names,
or leaves the game. The position changes only through the state's mutators (``_place_volcano``,
``_drop``, ``_take_off``, ``_award``, ``_remove``), which keep its derived values in step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from referee.game import JSON
from referee.vulkan.edition import EDITION
from referee.vulkan.outcome import EMPTY_TILE_ISOLATED
from referee.vulkan.rules import award_to, resolve

if TYPE_CHECKING:
    from referee.vulkan.position import Key, Position

COLOURS = EDITION.colours

Event = dict[str, JSON]


def choose_volcano(state: Position, key: Key) -> list[Event]:
    """Seat 0 turns the tile over: it becomes the volcano."""
    state._place_volcano(key[1])
    return [{"kind": "volcano", "tile": state._at[key[1]]}]


def fly(state: Position, key: Key) -> list[Event]:
    """Drops, then the extinguishing cascade, then isolation; every tile that left the table is
    awarded (or, isolated without loads, leaves the game)."""
    _, colour, path = key
    flyer = state.to_move
    assert flyer is not None
    dropped, filled = state._drop(colour, path)
    at, name = state._at, COLOURS[colour]
    events: list[Event] = [{"kind": "drop", "tile": at[cell], "colour": name} for cell in dropped]
    if not filled:  # only a tile that filled up can go out, and only a tile going out cuts others off
        return events
    board = state.board
    rounds, cut_off = resolve(board, filled, state._present)
    for round_number, cells in enumerate(rounds, start=1):
        for cell in cells:
            events.append({"kind": "extinguished", "tile": at[cell], "round": round_number})
            events.append(hand_out(state, cell, flyer))
    for cell in cut_off:
        events.append({"kind": "isolated", "tile": at[cell]})
        if not board.loads[cell] and state.loses_on_empty_isolation:
            state.ended = EMPTY_TILE_ISOLATED
        events.append(hand_out(state, cell, flyer))
    return events


def hand_out(state: Position, cell: int, flyer: int) -> Event:
    """A tile left the table: award it to its majority (or the flyer), or drop it from the game."""
    loads = state._take_off(cell)
    seat, why = award_to(loads, flyer, state.owners)
    if seat is None:
        state._remove(cell)
        return {"kind": "removed", "tile": state._at[cell], "why": "isolated_without_loads"}
    state._award(seat, cell)
    return {
        "kind": "award",
        "tile": state._at[cell],
        "value": state.board.values[cell],
        "seat": seat,
        "why": why,
        "loads": [COLOURS[c] for c in loads],
    }


MOVE_STAGES: dict[str, Callable[[Position, Key], list[Event]]] = {
    "volcano": choose_volcano,
    "flight": fly,
}
