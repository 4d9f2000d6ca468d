"""Vulkan!'s moves: which are legal now, and their two forms (the JSON a bot sends, and the
canonical form the engine plays).

Each rule of a move is stated once, as the reason a move is refused (None: it is legal):
:func:`volcano_refusal` and :func:`flight_refusal`, which keeps the board's part of the flight rule
in :func:`referee.vulkan.rules.is_flight_path`. Listing the legal moves (:func:`legal_keys`,
:meth:`referee.vulkan.state.VulkanState.legal_moves`) asks the same rules of every candidate, the
flights through the state's live runs, which are derived from ``is_flight_path``
(``tests/referee/vulkan/test_caches.py`` checks every listing against the refusals).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import compress
from typing import TYPE_CHECKING, Any

from referee.game import IllegalMove, Move
from referee.vulkan.edition import EDITION
from referee.vulkan.hexes import NO_CELL
from referee.vulkan.rules import is_flight_path

if TYPE_CHECKING:
    from referee.vulkan.position import Key, Position

COLOURS = EDITION.colours

NOT_A_RUN = "a flight is a straight run of forest tiles, without gaps and never over the volcano"
ALL_FULL = "every tile on the path is full: a flight must drop at least one load"


# ---------------------------------------------------------------------- the rules of a move


def volcano_refusal(state: Position, cell: int) -> str | None:
    """Why the volcano may not go on ``cell`` now; None when it may: seat 0's first move turns
    over a tile with tiles on all six edges (cell masks: no neighbour is a gap)."""
    if state.to_move is None or state.board.volcano is not None:
        return "the volcano is chosen once, as the first move"
    board = state.board
    if (
        not board.present[cell]
        or NO_CELL in board.layout.neighbours[cell]
        or board.layout.near[cell] & state._blocked
    ):
        return "the volcano goes on a tile with tiles on all six edges"
    return None


def may_fly(state: Position, seat: int, colour: int) -> bool:
    """Whether ``seat`` may fly ``colour``: one of its own (by seat count) that it still holds a
    load of."""
    return colour in state.seat_colours[seat] and state.supply[seat][colour] != 0


def colours_to_fly(state: Position, seat: int) -> list[int]:
    """The colours ``seat`` may fly (:func:`may_fly`), in colour order."""
    return [colour for colour in state.seat_colours[seat] if may_fly(state, seat, colour)]


def flight_refusal(state: Position, colour: int, run: int | None) -> str | None:
    """Why the seat to move may not fly ``colour`` along ``run`` now; None when it may.

    ``run``: the path's cells as a mask, its entry in the layout's path table
    (:meth:`Position._path_table`, which holds every straight run of the layout); None when the
    path is no straight run of the layout. The flight rule: in the flight phase, in a colour the
    seat may fly (:func:`may_fly`), along a run that :func:`referee.vulkan.rules.is_flight_path`
    allows now.
    """
    seat = state.to_move
    if seat is None or state.board.volcano is None:
        return f"the game is in its {state.phase} phase"
    if not may_fly(state, seat, colour):
        if colour not in state.seat_colours[seat]:
            return f"seat {seat} does not fly {COLOURS[colour]}"
        return f"seat {seat} has no {COLOURS[colour]} loads left"
    if run is None:
        return NOT_A_RUN
    blocked = state._blocked
    if not is_flight_path(run, blocked, state._room):
        return NOT_A_RUN if run & blocked else ALL_FULL
    return None


def refusal(state: Position, key: Key) -> str | None:
    """Why the move ``key`` (canonical form) is not legal now; None when it is."""
    if key[0] == "volcano":
        return volcano_refusal(state, key[1])
    table = state._path_table()
    index = table.index.get(key[2])
    return flight_refusal(state, key[1], None if index is None else table.masks[index])


def legal_keys(state: Position) -> list[Key]:
    """The legal moves in canonical form, in the order of ``legal_moves``: the volcano's cells in
    cell order; else every flight path (the live runs, in table order) once for each colour the
    seat may fly, colour by colour."""
    seat = state.to_move
    if seat is None:
        return []
    if state.board.volcano is None:
        cells = range(len(state.board.present))
        return [("volcano", cell) for cell in cells if volcano_refusal(state, cell) is None]
    paths = list(compress(state._path_table().paths, state._live_runs().runs()))
    return [("flight", colour, path) for colour in colours_to_fly(state, seat) for path in paths]


# ---------------------------------------------------------------------- moves: JSON <-> canonical form


def key_of(state: Position, move: Any) -> Key:
    """The canonical form of a move as a bot sends it; :class:`IllegalMove` if it is malformed."""
    if not isinstance(move, Mapping) or not isinstance(move.get("type"), str):
        raise IllegalMove(f"a move is an object with a 'type': {move!r}")
    parse = MOVE_PARSERS.get(move["type"])
    if parse is None:
        raise IllegalMove(f"unknown move type {move['type']!r} (types: {', '.join(MOVE_PARSERS)})")
    return parse(state, move)


def move_of(state: Position, key: Key) -> Move:
    """The JSON of a move given in canonical form (a flight's is the shared listed object)."""
    if key[0] == "volcano":
        return {"type": "volcano", "tile": list(state.board.layout.coords[key[1]])}
    table = state._path_table()
    return table.moves(key[1])[table.index[key[2]]]


def _cell_of(state: Position, value: Any, what: str) -> int:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise IllegalMove(f"{what} must be a cell [q, r], not {value!r}")
    cell = state.board.layout.index.get((value[0], value[1]))
    if cell is None:
        raise IllegalMove(f"{what} {list(value)} is not a cell of this layout")
    return cell


def _exact_keys(move: Mapping[str, Any], keys: set[str]) -> None:
    if set(move) != keys:
        raise IllegalMove(f"a {move['type']} move has exactly the keys {', '.join(sorted(keys))}")


def _parse_volcano(state: Position, move: Mapping[str, Any]) -> Key:
    _exact_keys(move, {"type", "tile"})
    return ("volcano", _cell_of(state, move["tile"], "tile"))


def _parse_flight(state: Position, move: Mapping[str, Any]) -> Key:
    _exact_keys(move, {"type", "path", "colour"})
    colour = move["colour"]
    if not isinstance(colour, str) or colour not in COLOURS:
        raise IllegalMove(f"colour must be one of {', '.join(COLOURS)}, not {colour!r}")
    path = move["path"]
    if not isinstance(path, list | tuple) or not path:
        raise IllegalMove("path must be a non-empty list of cells")
    cells = tuple(_cell_of(state, cell, f"path[{i}]") for i, cell in enumerate(path))
    return ("flight", COLOURS.index(colour), cells)


MOVE_PARSERS: dict[str, Callable[[Position, Mapping[str, Any]], Key]] = {
    "volcano": _parse_volcano,
    "flight": _parse_flight,
}
