"""What a seat sees of a Vulkan! game, and the JSON parts the state's own JSON shares with it.

Everything is open in Vulkan!, so every seat sees the same observation but for its ``seat``. It is
built from parts kept on the state between moves (the tiles' entries, the seats' entries, the
removed tiles, the loads out): the state's mutators mark what a move changed (an entry set to
None, a cell in ``_stale_tiles``) and only that is built again here. Where each part is kept and
which mutator marks it: ``docs/games/vulkan.md``, section *Caches*.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.game import JSON
from referee.vulkan.edition import EDITION
from referee.vulkan.setup import Award

if TYPE_CHECKING:
    from referee.vulkan.position import Position

COLOURS = EDITION.colours


def shared_observation(state: Position) -> dict[str, JSON]:
    """The observation of the position, with ``seat`` None: built once per position (kept in
    ``state._observation`` until the next move) and shared by every seat's view."""
    shared = state._observation
    if shared is None:
        shared = state._observation = _build(state)
    return shared


def _build(state: Position) -> dict[str, JSON]:
    """The observation, building again only what the last move changed. A tile gone has no entry
    (None), so the tiles in cell order are the entries left, picked out in C by ``filter``."""
    board, at, cache = state.board, state._at, state._tile_json
    stale = state._stale_tiles
    if stale:
        present, values, spaces, loads = board.present, board.values, board.spaces, board.loads
        for cell in stale:
            if present[cell]:
                cache[cell] = {
                    "at": at[cell],
                    "value": values[cell],
                    "spaces": spaces[cell],
                    "loads": [COLOURS[c] for c in loads[cell]],
                }
        state._stale_tiles = []
    removed = state._removed_json
    if removed is None:
        removed = state._removed_json = [list(cell) for cell in state.removed]
    loads_out = state._loads_out_json
    if loads_out is None:
        loads_out = state._loads_out_json = loads_out_json(state)
    seat_json = state._seat_json
    for _ in range(seat_json.count(None)):  # the entries a move made stale, found by C scans
        _build_seat_entry(state, seat_json.index(None))
    volcano = board.volcano
    return {
        "variant": state.variant,
        "seat": None,
        "phase": state.phase,
        "turn": state.turn,
        "to_move": state.to_move,
        "tiles": list(filter(None, cache)),
        "volcano": None if volcano is None else at[volcano],
        "seats": list(seat_json),
        "removed": removed,
        "loads_out": loads_out,
        "last": state.last,
    }


def _build_seat_entry(state: Position, seat: int) -> None:
    """A seat's observation entry, kept in ``state._seat_json`` until a move changes its supply,
    tiles or loads on the table."""
    awarded = state._awarded_json[seat]
    if awarded is None:
        awarded = state._awarded_json[seat] = [award_json(award) for award in state.awarded[seat]]
    state._seat_json[seat] = {
        "colours": state.colour_names[seat],
        "supply": supply_json(state, seat),
        "awarded": awarded,
        "score": state.score(seat),
        "loads_on_table": state.own_loads_on_table(seat),
    }


def supply_json(state: Position, seat: int) -> dict[str, int]:
    """A seat's loads by colour name, its own colours only."""
    held = state.supply[seat]
    return {COLOURS[c]: held[c] for c in state.seat_colours[seat]}


def loads_out_json(state: Position) -> dict[str, int]:
    """The loads that left the game with their tiles, by colour name."""
    return {name: state.loads_out[c] for c, name in enumerate(COLOURS)}


def award_json(award: Award) -> dict[str, JSON]:
    cell, value = award
    return {"at": None if cell is None else list(cell), "value": value}
