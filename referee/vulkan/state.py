"""A game of Vulkan! in progress: turns, supplies, awards and the JSON the outside world sees.

The board and the stages of a flight live in :mod:`referee.vulkan.rules`; this module runs them in
order for the seat to move, keeps score, skips seats that cannot fly and says when the game is over.

Moves (a bot sends one of ``legal_moves()`` back unchanged)::

    {"type": "volcano", "tile": [q, r]}                            # seat 0, once, first
    {"type": "flight", "path": [[q, r], ...], "colour": "red"}     # every later turn

>>> from referee.vulkan import GAME
>>> state = GAME.start("competitive", seats=2, seed=7)
>>> state.legal_moves()[0]
{'type': 'volcano', 'tile': [-2, 0]}
>>> state.apply({"type": "volcano", "tile": [0, 0]})
>>> state.current_seat, state.legal_moves()[0]["colour"]
(1, 'green')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property, reduce
from itertools import chain, compress, repeat
from operator import and_, lt, or_
from typing import Any

from referee.game import JSON, IllegalMove, Move, Outcome, State, places_from_keys
from referee.vulkan.edition import EDITION
from referee.vulkan.hexes import NO_CELL, Coord, Layout
from referee.vulkan.paths import FlightMove, PathTable, path_table
from referee.vulkan.rules import (
    Board,
    award_to,
    drop_loads,
    first_with_loads,
    is_straight_run,
    resolve,
)
from referee.vulkan.setup import Award, StartPosition
from referee.vulkan.variants import VARIANTS, VulkanEnd

Key = tuple[Any, ...]
"""A move in canonical form: ``("volcano", cell)`` or ``("flight", colour, path)`` with cell indices."""

COLOURS = EDITION.colours
SEAT_COLOURS = {seats: EDITION.seat_colours(seats) for seats in EDITION.seat_counts}
OWNERS = {seats: EDITION.owners(seats) for seats in EDITION.seat_counts}
OWN_COLOURS = {
    seats: tuple(tuple(c for c, owner in enumerate(owners) if owner == seat) for seat in range(seats))
    for seats, owners in OWNERS.items()
}
"""Per seat count and seat, the colours that seat alone holds (for the tie-break)."""
COLOUR_NAMES = {
    seats: tuple([COLOURS[c] for c in colours] for colours in seat_colours)
    for seats, seat_colours in SEAT_COLOURS.items()
}
"""Per seat count and seat, the names of its colours: an observation's ``colours``, shared."""

NO_FLIGHTS_LEFT = VulkanEnd.NO_FLIGHTS_LEFT.value
EMPTY_TILE_ISOLATED = VulkanEnd.EMPTY_TILE_ISOLATED.value
ALL_TILES_GATHERED = VulkanEnd.ALL_TILES_GATHERED.value


class VulkanState(State):
    """One game. Build it with :meth:`referee.vulkan.game.VulkanGame.new_state`, not directly."""

    def __init__(
        self,
        variant: str,
        seats: int,
        options: dict[str, JSON],
        rng_state: int,
        start: StartPosition,
    ) -> None:
        self.variant = variant
        self.seats = seats
        self.options = options
        self.rng_state = rng_state
        self.seat_colours = SEAT_COLOURS[seats]
        self.owners = OWNERS[seats]
        self.loses_on_empty_isolation = VARIANTS[variant].team
        layout = Layout.of(start.cells)
        present = [True] * len(layout) if start.present is None else start.present
        if layout.cells == start.cells:  # already in layout order (every dealt game): no reordering
            values, spaces, loads = list(start.values), list(start.spaces), [list(p) for p in start.loads]
            present = list(present)
        else:
            where = {cell: i for i, cell in enumerate(start.cells)}
            order = [where[cell] for cell in layout.coords]
            values = [start.values[i] for i in order]
            spaces = [start.spaces[i] for i in order]
            loads = [list(start.loads[i]) for i in order]
            present = [present[i] for i in order]
        self.board = Board(
            layout=layout,
            values=values,
            spaces=spaces,
            present=present,
            loads=loads,
            volcano=None if start.volcano is None else layout.index[start.volcano],
        )
        self.supply = [list(row) for row in start.supply]
        self.awarded: list[list[Award]] = [list(awards) for awards in start.awarded]
        self._scores = [sum([value for _, value in awards]) for awards in self.awarded]
        """Each seat's :meth:`score`, kept up to date as tiles are awarded (read every move)."""
        self.removed: list[Coord] = []
        self.loads_out = [0] * len(COLOURS)
        self.turn = 0
        self.ended: str | None = None
        self.last: dict[str, JSON] | None = None
        self.to_move: int | None = start.to_move
        self._keys: list[Key] | None = None
        self._key_set: set[Key] | None = None
        self._reset_caches()

    def _reset_caches(self) -> None:
        """Work out, from the board, what the hot paths keep up to date move by move.

        ``_blocked`` and ``_room`` are cell masks: cells without a forest tile (gaps, tiles gone,
        the volcano), and forest tiles with a free space. ``_room_lanes`` and ``_dead_lanes`` are
        the path table's byte-lane counters (:class:`referee.vulkan.paths.PathTable`; None until
        flights are first listed), ``_live`` the legal runs as bytes (None: work them out again),
        ``_live_moves`` the legal flights by colour, kept for seats of several colours while ``_live``
        holds (None: not kept),
        ``_on_table`` the loads on the table by colour, ``_present`` the cells holding a tile (the
        volcano too) as a mask. For the observation (besides ``_at``, built on first use):
        ``_tile_json`` each tile's entry (None for a tile gone), with ``_stale_tiles`` the cells
        whose entry must be built again; ``_removed_json`` and ``_loads_out_cache`` (None: to build
        again) and ``_observation``, the observation shared by every seat until the next move.
        """
        board = self.board
        present, loads, spaces, volcano = board.present, board.loads, board.spaces, board.volcano
        bits = board.layout.bits
        self._table: PathTable | None = None
        on = sum(compress(bits, present))
        blocked = ((1 << len(present)) - 1) & ~on
        if volcano is not None:
            blocked |= 1 << volcano
        room = sum(compress(bits, map(lt, map(len, loads), spaces))) & ~blocked
        on_board = list(chain.from_iterable(loads))  # tiles gone keep their loads until awarded
        on_table = [on_board.count(colour) for colour in range(len(COLOURS))]
        self._blocked, self._room, self._present, self._on_table = blocked, room, on, on_table
        self._room_lanes: int | None = None
        self._dead_lanes = 0
        self._live: bytes | None = None
        self._live_moves: list[list[Move] | None] = [None] * len(COLOURS)
        self._tile_json: list[dict[str, JSON] | None] = [None] * len(present)
        self._stale_tiles = list(compress(range(len(present)), present))
        self._removed_json: list[JSON] | None = None
        self._loads_out_cache: dict[str, int] | None = None
        self._seat_json: list[dict[str, JSON] | None] = [None] * self.seats
        self._awarded_json: list[list[dict[str, JSON]] | None] = [None] * self.seats
        self._observation: dict[str, JSON] | None = None

    @cached_property
    def _at(self) -> list[list[int]]:
        """Each cell's ``[q, r]``, shared by the state's JSON (read-only). Built on first use, once
        per state (copies share it): a position rebuilt only to list its moves never needs it."""
        return list(map(list, self.board.layout.coords))

    def begin(self) -> None:
        """Start play from a fresh position: with the volcano already placed, the turn goes to the
        first seat from ``to_move`` on that can fly (passes recorded), or the game is over at once."""
        if self.board.volcano is not None and self.to_move is not None:
            passes = self._seek_flyer(self.to_move)
            if passes:
                self.last = {"seat": None, "move": None, "events": passes}

    # ------------------------------------------------------------------ the State interface

    @property
    def current_seat(self) -> int | None:
        return self.to_move

    @property
    def phase(self) -> str:
        if self.to_move is None:
            return "over"
        return "volcano" if self.board.volcano is None else "flight"

    def legal_moves(self) -> list[Move]:
        """The legal moves, in the documented order.

        A flight in the list is a shared, read-only :class:`FlightMove` (a ``dict``): the list is
        new on every call, its moves are not (``dict(move)`` gives a copy to change).
        """
        seat = self.to_move
        if seat is None:
            return []
        if self.board.volcano is None:
            return [_volcano_json(self, key) for key in _volcano_keys(self)]
        supply = self.supply[seat]
        colours = self.seat_colours[seat]
        if len(colours) == 1:  # four seats: see _pick_flights
            return self._pick_flights(colours[0]) if supply[colours[0]] else []
        listed = self._live_moves
        moves: list[Move] = []
        for colour in colours:
            if supply[colour]:
                flights = listed[colour]
                if flights is None:
                    flights = listed[colour] = self._pick_flights(colour)
                moves += flights
        return moves

    def _pick_flights(self, colour: int) -> list[Move]:
        """The legal flights in ``colour``, in table order, as a new list.

        A seat flying two colours keeps them in ``_live_moves`` until a run stops being legal: a
        move that fills no tile leaves every run as it was, so a seat's lists may outlive the
        other seats' moves and are then copied rather than picked out of every run again (11%
        of the lists of random 2- and 3-seat games, 17% and 26% with bots that play the first
        legal move). A seat flying one colour (four seats) finds its list again after the three
        others' moves in 2% of random games' turns and none of first-move games', so its list is
        handed out as picked, without the copy that keeping it would cost every turn."""
        return list(compress(self._path_table().moves(colour), self._live_paths()))

    def legal_keys(self) -> list[Key]:
        """The legal moves in canonical form, in the order of :meth:`legal_moves`.

        Cached until the next move: read it, do not change it.
        """
        if self._keys is None:
            self._keys = [] if self.to_move is None else LEGAL_KEYS[self.phase](self)
        return self._keys

    def apply(self, move: Move) -> None:
        if type(move) is FlightMove:
            table = self._path_table()
            index = table.listed.get(id(move))
            if index is not None and self._run_is_legal(move.colour, index, table):
                self._play(("flight", move.colour, table.paths[index]), move)  # listed here: no parsing
                return
            key = self._listed_key(move)
        else:
            key = self.key_of(move)
        if not self._is_legal_key(key):
            raise IllegalMove(f"not a legal move now ({WHY_ILLEGAL[key[0]](self, key)}): {move!r}")
        self.apply_key(key)

    def _run_is_legal(self, colour: int, index: int, table: PathTable) -> bool:
        """Whether flying run ``index`` of the path table in ``colour`` is legal now."""
        seat = self.to_move
        if seat is None or self.board.volcano is None or colour not in self.seat_colours[seat]:
            return False
        if not self.supply[seat][colour]:
            return False
        mask = table.masks[index]
        return not mask & self._blocked and bool(mask & self._room)

    def _listed_key(self, move: FlightMove) -> Key:
        """The canonical form of a flight this engine listed (on this layout or another)."""
        table = self._path_table()
        index = table.by_coords.get(move.coords)
        if index is None:  # listed on another layout: read it as any other move
            return self.key_of(dict(move))
        return ("flight", move.colour, table.paths[index])

    def _is_legal_key(self, key: Key) -> bool:
        """Whether a move in canonical form is legal now, without listing the legal moves."""
        seat = self.to_move
        if seat is None:
            return False
        if key[0] == "volcano":
            return self.board.volcano is None and _can_be_volcano(self, key[1])
        _, colour, path = key
        if self.board.volcano is None or colour not in self.seat_colours[seat]:
            return False
        if not self.supply[seat][colour]:
            return False
        table = self._path_table()
        index = table.index.get(path)
        if index is None:
            return False
        mask = table.masks[index]
        return not mask & self._blocked and bool(mask & self._room)

    def _path_table(self) -> PathTable:
        if self._table is None:
            self._table = path_table(self.board.layout)
        return self._table

    def _live_paths(self) -> bytes:
        """One byte per run of the path table, non-zero for the runs that are legal flight paths
        now (for ``itertools.compress``). Worked out once per position from the byte-lane
        counters, which :meth:`_lose_room` and :meth:`_block` keep up to date."""
        live = self._live
        if live is None:
            table = self._path_table()
            if self._room_lanes is None:  # the cells of each mask picked out in C, bit by bit
                bits = self.board.layout.bits
                room = self._room
                if 2 * room.bit_count() > len(bits):  # a new game: only the volcano lacks room
                    without = ((1 << len(bits)) - 1) & ~room
                    lanes = table.all_through - sum(compress(table.through, map(and_, bits, repeat(without))))
                else:
                    lanes = sum(compress(table.through, map(and_, bits, repeat(room))))
                self._room_lanes = lanes
                blocked = compress(table.through_ff, map(and_, bits, repeat(self._blocked)))
                self._dead_lanes = reduce(or_, blocked, 0)
            live = self._live = (self._room_lanes & ~self._dead_lanes).to_bytes(table.size, "little")
        return live

    def _lose_room(self, cell: int) -> None:
        """``cell`` had a free space and has none now (it filled up, left, or became the volcano)."""
        bit = 1 << cell
        if self._room & bit:
            self._room &= ~bit
            if self._room_lanes is not None:
                self._room_lanes -= self._path_table().through[cell]
                self._forget_live()

    def _block(self, cell: int) -> None:
        """No forest tile lies on ``cell`` any more: it left the table or became the volcano."""
        self._lose_room(cell)
        self._blocked |= 1 << cell
        if self._room_lanes is not None:
            self._dead_lanes |= self._path_table().through_ff[cell]
            self._forget_live()

    def _forget_live(self) -> None:
        """The counters changed, so some runs may have stopped being legal: the legal runs and the
        flights listed from them are worked out again when next asked for."""
        if self._live is not None:
            self._live = None
            self._live_moves = [None] * len(COLOURS)

    def copy(self) -> VulkanState:
        """An independent copy, made field by field: far cheaper than a deep copy.

        What play replaces rather than changes (the layout, values and spaces, the live-run list,
        the tiles' observation entries, ``last``) is shared; everything changed in place is copied.
        """
        other = object.__new__(VulkanState)
        other.__dict__.update(self.__dict__)
        other.options = dict(self.options)
        other.board = self.board.copy()
        other.supply = [row[:] for row in self.supply]
        other.awarded = [awards[:] for awards in self.awarded]
        other._scores = self._scores[:]
        other.removed = self.removed[:]
        other.loads_out = self.loads_out[:]
        other._on_table = self._on_table[:]
        other._live_moves = self._live_moves[:]
        other._tile_json = self._tile_json[:]
        other._stale_tiles = self._stale_tiles[:]
        other._seat_json = self._seat_json[:]
        other._awarded_json = self._awarded_json[:]
        return other

    def apply_key(self, key: Key) -> None:
        """Play a move given in canonical form, without checking it (for simulations of legal keys)."""
        self._play(key, MOVE_JSON[key[0]](self, key))

    def _play(self, key: Key, move: Move) -> None:
        """Play ``key``, whose JSON is ``move`` (the shared listed object for a flight)."""
        flyer = self.to_move
        assert flyer is not None, "the game is over"
        events = MOVE_STAGES[key[0]](self, key)
        self.last = {"seat": flyer, "move": move, "events": events}
        self.turn += 1
        self._keys = None
        self._observation = None
        if self.ended is not None:
            self.to_move = None
        else:
            following = (flyer + 1) % self.seats
            if self._room and any(self.supply[following]):  # the next seat flies: nobody passes
                self.to_move = following
            else:
                events.extend(self._seek_flyer(following))

    def outcome(self) -> Outcome | None:
        if self.to_move is not None:
            return None
        return GOALS[self.variant](self)

    def observation(self, seat: int) -> dict[str, JSON]:
        """Everything is open in Vulkan!: every seat sees the whole table.

        The ``tiles``, ``volcano``, ``seats[*].supply``/``awarded`` and ``to_move`` fields have the
        shape of an explicit setup, so :func:`referee.vulkan.game.state_from_observation` can rebuild
        the position from an observation.

        Built once per position and shared: every call returns a new top-level object (only
        ``seat`` differs), whose nested values are shared with other observations and never
        changed by the engine. Read them; copy before changing them.
        """
        shared = self._observation
        if shared is None:
            shared = self._observation = self._build_observation()
        view = dict(shared)
        view["seat"] = seat
        return view

    def _build_observation(self) -> dict[str, JSON]:
        """The observation of this position, with ``seat`` None. Only what the last move changed
        is built again: a tile gone has no entry (None), so the tiles in cell order are the
        entries left, picked out in C by ``filter``."""
        board, at, cache = self.board, self._at, self._tile_json
        stale = self._stale_tiles
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
            self._stale_tiles = []
        removed = self._removed_json
        if removed is None:
            removed = self._removed_json = [list(cell) for cell in self.removed]
        loads_out = self._loads_out_cache
        if loads_out is None:
            loads_out = self._loads_out_cache = self._loads_out_json()
        seat_json = self._seat_json
        for _ in range(seat_json.count(None)):  # the entries a move made stale, found by C scans
            self._build_seat_json(seat_json.index(None))
        volcano, to_move = board.volcano, self.to_move
        return {
            "variant": self.variant,
            "seat": None,
            "phase": "over" if to_move is None else "volcano" if volcano is None else "flight",
            "turn": self.turn,
            "to_move": to_move,
            "tiles": list(filter(None, cache)),
            "volcano": None if volcano is None else at[volcano],
            "seats": list(seat_json),
            "removed": removed,
            "loads_out": loads_out,
            "last": self.last,
        }

    def _build_seat_json(self, seat: int) -> dict[str, JSON]:
        """A seat's observation entry, kept until a move changes its supply, tiles or loads."""
        awarded = self._awarded_json[seat]
        if awarded is None:
            awarded = self._awarded_json[seat] = [_award_json(award) for award in self.awarded[seat]]
        entry = self._seat_json[seat] = {
            "colours": COLOUR_NAMES[self.seats][seat],
            "supply": self._supply_json(seat),
            "awarded": awarded,
            "score": self.score(seat),
            "loads_on_table": self.own_loads_on_table(seat),
        }
        return entry

    def to_json(self) -> dict[str, JSON]:
        board, coords = self.board, self.board.layout.coords
        return {
            "variant": self.variant,
            "seats": self.seats,
            "options": self.options,
            "rng": self.rng_state,
            "tiles": [
                {
                    "at": list(coords[cell]),
                    "value": board.values[cell],
                    "spaces": board.spaces[cell],
                    "on_table": board.present[cell],
                    "loads": [COLOURS[c] for c in board.loads[cell]],
                }
                for cell in range(len(coords))
            ],
            "volcano": None if board.volcano is None else list(coords[board.volcano]),
            "supply": [self._supply_json(s) for s in range(self.seats)],
            "awarded": [[_award_json(award) for award in awards] for awards in self.awarded],
            "removed": [list(cell) for cell in self.removed],
            "loads_out": self._loads_out_json(),
            "to_move": self.to_move,
            "turn": self.turn,
            "ended": self.ended,
            "last": self.last,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> VulkanState:
        """Rebuild a state from :meth:`to_json` output."""
        tiles = data["tiles"]
        start = StartPosition(
            cells=[tuple(tile["at"]) for tile in tiles],
            values=[tile["value"] for tile in tiles],
            spaces=[tile["spaces"] for tile in tiles],
            loads=[[EDITION.colour_index(c) for c in tile["loads"]] for tile in tiles],
            volcano=None if data["volcano"] is None else tuple(data["volcano"]),
            supply=[[row.get(name, 0) for name in COLOURS] for row in data["supply"]],
            awarded=[
                [(None if a["at"] is None else tuple(a["at"]), a["value"]) for a in awards]
                for awards in data["awarded"]
            ],
            to_move=0,
        )
        state = cls(data["variant"], data["seats"], dict(data["options"]), data["rng"], start)
        for tile in tiles:
            state.board.present[state.board.layout.index[tuple(tile["at"])]] = tile["on_table"]
        state._reset_caches()
        state.removed = [tuple(cell) for cell in data["removed"]]
        state.loads_out = [data["loads_out"].get(name, 0) for name in COLOURS]
        state.to_move = data["to_move"]
        state.turn = data["turn"]
        state.ended = data["ended"]
        state.last = data["last"]
        return state

    # ------------------------------------------------------------------ facts about the game

    def score(self, seat: int) -> int:
        """The sum of the fire values of the tiles ``seat`` has been awarded."""
        return self._scores[seat]

    def own_loads_on_table(self, seat: int) -> int:
        """Loads of the colours ``seat`` alone holds that still lie on the table (the tie-break).

        The shared fourth colour of the 3-seat game belongs to nobody and is not counted.
        """
        on_table = self._on_table
        return sum([on_table[colour] for colour in OWN_COLOURS[self.seats][seat]])

    def can_fly(self, seat: int) -> bool:
        """Whether ``seat`` could make a flight now: it has a load and some forest tile has room."""
        return any(self.supply[seat]) and self._room != 0

    def move_of(self, key: Key) -> Move:
        """The JSON of a move given in canonical form (the inverse of :meth:`key_of`)."""
        return MOVE_JSON[key[0]](self, key)

    def key_of(self, move: Any) -> Key:
        """The canonical form of a move as a bot sends it; :class:`IllegalMove` if it is malformed."""
        if not isinstance(move, Mapping) or not isinstance(move.get("type"), str):
            raise IllegalMove(f"a move is an object with a 'type': {move!r}")
        parse = MOVE_PARSERS.get(move["type"])
        if parse is None:
            raise IllegalMove(f"unknown move type {move['type']!r} (types: {', '.join(MOVE_PARSERS)})")
        return parse(self, move)

    # ------------------------------------------------------------------ turn order

    def _seek_flyer(self, start: int) -> list[dict[str, JSON]]:
        """Give the turn to the first seat from ``start`` on (clockwise) that can fly; return a pass
        event for each seat skipped. Nobody able to fly ends the game (no passes are recorded then)."""
        self.to_move, skipped = first_with_loads(self.supply, start) if self._room else (None, [])
        return [{"kind": "pass", "seat": seat, "why": "no_loads"} for seat in skipped]

    # ------------------------------------------------------------------ helpers for the JSON

    def _supply_json(self, seat: int) -> dict[str, int]:
        return {COLOURS[c]: self.supply[seat][c] for c in self.seat_colours[seat]}

    def _loads_out_json(self) -> dict[str, int]:
        return {name: self.loads_out[c] for c, name in enumerate(COLOURS)}

    def _coord(self, cell: int) -> list[int]:
        return list(self.board.layout.coords[cell])


def _award_json(award: Award) -> dict[str, JSON]:
    cell, value = award
    return {"at": None if cell is None else list(cell), "value": value}


# ---------------------------------------------------------------------- legal moves, per phase


def _volcano_keys(state: VulkanState) -> list[Key]:
    """Seat 0 turns over a tile enclosed on all six edges."""
    return [("volcano", cell) for cell in range(len(state.board.present)) if _can_be_volcano(state, cell)]


def _can_be_volcano(state: VulkanState, cell: int) -> bool:
    """Whether a tile lies on ``cell`` with tiles on all six edges (cell masks: no gap around)."""
    board = state.board
    if not board.present[cell] or NO_CELL in board.layout.neighbours[cell]:
        return False
    return not board.layout.near[cell] & state._blocked


def _flight_keys(state: VulkanState) -> list[Key]:
    """Every path that drops a load, once for each colour the seat still has loads of."""
    seat = state.to_move
    assert seat is not None
    colours = [c for c in state.seat_colours[seat] if state.supply[seat][c]]
    paths = list(compress(state._path_table().paths, state._live_paths()))
    return [("flight", colour, path) for colour in colours for path in paths]


LEGAL_KEYS: dict[str, Callable[[VulkanState], list[Key]]] = {"volcano": _volcano_keys, "flight": _flight_keys}


# ---------------------------------------------------------------------- moves: JSON <-> canonical form


def _cell_of(state: VulkanState, value: Any, what: str) -> int:
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


def _parse_volcano(state: VulkanState, move: Mapping[str, Any]) -> Key:
    _exact_keys(move, {"type", "tile"})
    return ("volcano", _cell_of(state, move["tile"], "tile"))


def _parse_flight(state: VulkanState, move: Mapping[str, Any]) -> Key:
    _exact_keys(move, {"type", "path", "colour"})
    colour = move["colour"]
    if not isinstance(colour, str) or colour not in COLOURS:
        raise IllegalMove(f"colour must be one of {', '.join(COLOURS)}, not {colour!r}")
    path = move["path"]
    if not isinstance(path, list | tuple) or not path:
        raise IllegalMove("path must be a non-empty list of cells")
    cells = tuple(_cell_of(state, cell, f"path[{i}]") for i, cell in enumerate(path))
    return ("flight", COLOURS.index(colour), cells)


MOVE_PARSERS: dict[str, Callable[[VulkanState, Mapping[str, Any]], Key]] = {
    "volcano": _parse_volcano,
    "flight": _parse_flight,
}


def _volcano_json(state: VulkanState, key: Key) -> Move:
    return {"type": "volcano", "tile": state._coord(key[1])}


def _flight_json(state: VulkanState, key: Key) -> Move:
    table = state._path_table()
    return table.moves(key[1])[table.index[key[2]]]


MOVE_JSON: dict[str, Callable[[VulkanState, Key], Move]] = {"volcano": _volcano_json, "flight": _flight_json}


# ---------------------------------------------------------------------- playing a move


def _choose_volcano(state: VulkanState, key: Key) -> list[dict[str, JSON]]:
    state.board.volcano = key[1]
    state._block(key[1])
    return [{"kind": "volcano", "tile": state._at[key[1]]}]


def _fly(state: VulkanState, key: Key) -> list[dict[str, JSON]]:
    """Drops, then the extinguishing cascade, then isolation; every tile that left the table is
    awarded (or, isolated without loads, leaves the game)."""
    _, colour, path = key
    flyer = state.to_move
    assert flyer is not None
    board = state.board
    dropped = drop_loads(board, path, colour, state.supply[flyer][colour])
    state.supply[flyer][colour] -= len(dropped)
    state._on_table[colour] += len(dropped)
    seat_json = state._seat_json
    seat_json[flyer] = None
    owner = state.owners[colour]
    if owner is not None:
        seat_json[owner] = None
    loads, spaces = board.loads, board.spaces
    at, name = state._at, COLOURS[colour]
    state._stale_tiles += dropped
    filled = []
    for cell in dropped:
        if len(loads[cell]) >= spaces[cell]:
            state._lose_room(cell)
            filled.append(cell)
    events: list[dict[str, JSON]] = [{"kind": "drop", "tile": at[cell], "colour": name} for cell in dropped]
    if not filled:  # only a tile that filled up can go out, and only a tile going out cuts others off
        return events
    rounds, cut_off = resolve(board, filled, state._present)
    for round_number, cells in enumerate(rounds, start=1):
        for cell in cells:
            events.append({"kind": "extinguished", "tile": at[cell], "round": round_number})
            events.append(_hand_out(state, cell, flyer))
    for cell in cut_off:
        events.append({"kind": "isolated", "tile": at[cell]})
        if not board.loads[cell] and state.loses_on_empty_isolation:
            state.ended = EMPTY_TILE_ISOLATED
        events.append(_hand_out(state, cell, flyer))
    return events


def _hand_out(state: VulkanState, cell: int, flyer: int) -> dict[str, JSON]:
    """Award a tile that left the table to its majority (or the flyer), or drop it from the game."""
    board = state.board
    loads = board.loads[cell]
    state._block(cell)
    state._present &= ~(1 << cell)
    state._tile_json[cell] = None
    owners, seat_json = state.owners, state._seat_json
    for colour in loads:
        state._on_table[colour] -= 1
        holder = owners[colour]
        if holder is not None:
            seat_json[holder] = None
    seat, why = award_to(loads, flyer, state.owners)
    coord = board.layout.coords[cell]
    if seat is None:
        state.removed.append(coord)
        state._removed_json = None
        return {"kind": "removed", "tile": state._at[cell], "why": "isolated_without_loads"}
    state.awarded[seat].append((coord, board.values[cell]))
    state._scores[seat] += board.values[cell]
    state._seat_json[seat] = None
    state._awarded_json[seat] = None
    for colour in loads:
        state.loads_out[colour] += 1
    state._loads_out_cache = None
    event = {
        "kind": "award",
        "tile": state._at[cell],
        "value": board.values[cell],
        "seat": seat,
        "why": why,
        "loads": [COLOURS[c] for c in loads],
    }
    board.loads[cell] = []
    return event


def _why_not_volcano(state: VulkanState, key: Key) -> str:
    if state.phase != "volcano":
        return "the volcano is chosen once, as the first move"
    return "the volcano goes on a tile with tiles on all six edges"


def _why_not_flight(state: VulkanState, key: Key) -> str:
    _, colour, path = key
    seat = state.to_move
    if state.phase != "flight":
        return f"the game is in its {state.phase} phase"
    assert seat is not None
    if colour not in state.seat_colours[seat]:
        return f"seat {seat} does not fly {COLOURS[colour]}"
    if not state.supply[seat][colour]:
        return f"seat {seat} has no {COLOURS[colour]} loads left"
    if not is_straight_run(state.board, path):
        return "a flight is a straight run of forest tiles, without gaps and never over the volcano"
    return "every tile on the path is full: a flight must drop at least one load"


WHY_ILLEGAL: dict[str, Callable[[VulkanState, Key], str]] = {
    "volcano": _why_not_volcano,
    "flight": _why_not_flight,
}


MOVE_STAGES: dict[str, Callable[[VulkanState, Key], list[dict[str, JSON]]]] = {
    "volcano": _choose_volcano,
    "flight": _fly,
}


# ---------------------------------------------------------------------- how the game ends


def _competitive_outcome(state: VulkanState) -> Outcome:
    """Most fire value wins; a tie goes to the fewest own loads left on the table, then is shared."""
    scores = [state.score(seat) for seat in range(state.seats)]
    left = [state.own_loads_on_table(seat) for seat in range(state.seats)]
    places = places_from_keys([(score, -loads) for score, loads in zip(scores, left, strict=True)])
    return Outcome(
        places=places,
        scores=tuple(float(score) for score in scores),
        reason=NO_FLIGHTS_LEFT,
        details={"loads_on_table": left, "tie_break_used": len(set(scores)) < len(scores)},
    )


def _team_outcome(state: VulkanState) -> Outcome:
    """The solitaire goal: every forest tile but the volcano went to the team (to any of its seats).

    Lost at once when a tile is isolated without loads; also lost when nobody can fly any more
    with forest tiles still on the table. Every seat shares the team's place and score (the sum of
    all the values the team gathered); ``details`` keeps each seat's own sum.
    """
    tiles_left = len(state.board.forest())
    values = [state.score(seat) for seat in range(state.seats)]
    won = state.ended is None and tiles_left == 0 and not state.removed
    reason = state.ended or (ALL_TILES_GATHERED if won else NO_FLIGHTS_LEFT)
    return Outcome(
        places=(1,) * state.seats,
        scores=(float(sum(values)),) * state.seats,
        reason=reason,
        team_won=won,
        details={"seat_values": values, "tiles_left": tiles_left},
    )


GOALS: dict[str, Callable[[VulkanState], Outcome]] = {
    "competitive": _competitive_outcome,
    "solitaire": _team_outcome,
    "cooperative": _team_outcome,
}
