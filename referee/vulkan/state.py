"""A game of Vulkan! in progress: the position, its turns, and the State interface.

The rules live in named functions elsewhere: the board's stages of a flight and the flight rule in
:mod:`referee.vulkan.rules`, which moves are legal and their JSON in :mod:`referee.vulkan.moves`,
a move's stages and events in :mod:`referee.vulkan.play`, the observation in
:mod:`referee.vulkan.observation` and the result in :mod:`referee.vulkan.outcome`. This module
holds the position, the values derived from it that the hot paths keep move by move (listed in
:meth:`VulkanState._reset_caches`), and the few mutators that change the position and keep those
values in step with it.

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

from functools import cached_property
from itertools import chain, compress
from typing import Any

from referee.game import JSON, IllegalMove, Move, Outcome, State
from referee.vulkan import moves
from referee.vulkan.edition import EDITION
from referee.vulkan.hexes import Coord, Layout
from referee.vulkan.observation import award_json, loads_out_json, shared_observation, supply_json
from referee.vulkan.outcome import GOALS
from referee.vulkan.paths import FlightMove, LiveRuns, PathTable, path_table
from referee.vulkan.play import MOVE_STAGES
from referee.vulkan.rules import Board, blocked_cells, can_fly, cells_with_room, drop_loads, next_flyer
from referee.vulkan.setup import Award, StartPosition
from referee.vulkan.variants import VARIANTS

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
        self.colour_names = COLOUR_NAMES[seats]
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
        self.removed: list[Coord] = []
        self.loads_out = [0] * len(COLOURS)
        self.turn = 0
        self.ended: str | None = None
        self.last: dict[str, JSON] | None = None
        self.to_move: int | None = start.to_move
        self._reset_caches()

    def _reset_caches(self) -> None:
        """Work out from scratch what the hot paths keep up to date move by move; after this only
        the mutators (``_place_volcano``, ``_drop``, ``_take_off``, ``_award``, ``_remove``, and
        ``_play`` for what every move changes) change them. ``tests/referee/vulkan/test_caches.py``
        checks each against the rule it stands for, at every move of random games.

        The rules' values: ``_blocked`` (:func:`referee.vulkan.rules.blocked_cells`) and ``_room``
        (:func:`referee.vulkan.rules.cells_with_room`), cell masks; ``_present``, the cells holding
        a tile (the volcano too); ``_on_table``, the loads on the table by colour; ``_scores``, each
        seat's :meth:`score`. The legal moves: ``_runs``, the runs that are flight paths now with
        the flights kept from them (:class:`referee.vulkan.paths.LiveRuns`; None until flights are
        first listed), ``_keys`` the legal moves in canonical form (None: not listed since the last
        move). For the observation (besides ``_at``, built on first use): ``_tile_json`` each
        tile's entry (None for a tile gone), with ``_stale_tiles`` the cells whose entry must be
        built again; ``_seat_json``, ``_awarded_json``, ``_removed_json`` and ``_loads_out_json``
        (None: to build again) and ``_observation``, the observation shared by every seat until the
        next move.
        """
        board = self.board
        present, loads = board.present, board.loads
        self._table: PathTable | None = None
        self._blocked, self._room = blocked_cells(board), cells_with_room(board)
        self._present = sum(compress(board.layout.bits, present))
        on_board = list(chain.from_iterable(loads))  # tiles gone keep their loads until awarded
        self._on_table = [on_board.count(colour) for colour in range(len(COLOURS))]
        self._scores = [sum([value for _, value in awards]) for awards in self.awarded]
        self._runs: LiveRuns | None = None
        self._keys: list[Key] | None = None
        self._tile_json: list[dict[str, JSON] | None] = [None] * len(present)
        self._stale_tiles = list(compress(range(len(present)), present))
        self._seat_json: list[dict[str, JSON] | None] = [None] * self.seats
        self._awarded_json: list[list[dict[str, JSON]] | None] = [None] * self.seats
        self._removed_json: list[JSON] | None = None
        self._loads_out_json: dict[str, int] | None = None
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
        """The legal moves, in the documented order (:func:`referee.vulkan.moves.legal_keys`).

        A flight in the list is a shared, read-only :class:`FlightMove` (a ``dict``): the list is
        new on every call, its moves are not (``dict(move)`` gives a copy to change).
        """
        seat = self.to_move
        if seat is None:
            return []
        if self.board.volcano is None:
            return [moves.move_of(self, key) for key in moves.legal_keys(self)]
        colours = moves.colours_to_fly(self, seat)
        if len(self.seat_colours[seat]) == 1:  # four seats: see _pick_flights
            return self._pick_flights(colours[0]) if colours else []
        kept = self._live_runs().flights
        flights: list[Move] = []
        for colour in colours:
            picked = kept[colour]
            if picked is None:
                picked = kept[colour] = self._pick_flights(colour)
            flights += picked
        return flights

    def _pick_flights(self, colour: int) -> list[Move]:
        """The legal flights in ``colour``, in table order, as a new list.

        A seat flying two colours keeps them (``LiveRuns.flights``) until a run stops being legal: a
        move that fills no tile leaves every run as it was, so a seat's lists may outlive the
        other seats' moves and are then copied rather than picked out of every run again (11%
        of the lists of random 2- and 3-seat games, 17% and 26% with bots that play the first
        legal move). A seat flying one colour (four seats) finds its list again after the three
        others' moves in 2% of random games' turns and none of first-move games', so its list is
        handed out as picked, without the copy that keeping it would cost every turn."""
        return list(compress(self._path_table().moves(colour), self._live_runs().runs()))

    def legal_keys(self) -> list[Key]:
        """The legal moves in canonical form, in the order of :meth:`legal_moves`.

        Cached until the next move: read it, do not change it.
        """
        if self._keys is None:
            self._keys = moves.legal_keys(self)
        return self._keys

    def apply(self, move: Move) -> None:
        """Play ``move`` if it is legal now (:func:`referee.vulkan.moves.refusal`), else raise
        :class:`IllegalMove` with the reason and leave the state as it was."""
        if type(move) is FlightMove:  # listed by this engine: found by identity, not parsed
            table = self._path_table()
            run = table.listed.get(id(move))
            if run is not None:
                why = moves.flight_refusal(self, move.colour, table.masks[run])
                if why is None:
                    self._play(("flight", move.colour, table.paths[run]), move)
                    return
                raise IllegalMove(f"not a legal move now ({why}): {move!r}")
            move = dict(move)  # listed on another table: read as any other move
        key = moves.key_of(self, move)
        why = moves.refusal(self, key)
        if why is not None:
            raise IllegalMove(f"not a legal move now ({why}): {move!r}")
        self.apply_key(key)

    def apply_key(self, key: Key) -> None:
        """Play a move given in canonical form, without checking it (for simulations of legal keys)."""
        self._play(key, moves.move_of(self, key))

    def outcome(self) -> Outcome | None:
        if self.to_move is not None:
            return None
        return GOALS[self.variant](self)

    def observation(self, seat: int) -> dict[str, JSON]:
        """Everything is open in Vulkan!: every seat sees the whole table.

        The ``tiles``, ``volcano``, ``seats[*].supply``/``awarded`` and ``to_move`` fields have the
        shape of an explicit setup, so :func:`referee.vulkan.game.state_from_observation` can rebuild
        the position from an observation.

        Built once per position and shared (:mod:`referee.vulkan.observation`): every call returns
        a new top-level object (only ``seat`` differs), whose nested values are shared with other
        observations and never changed by the engine. Read them; copy before changing them.
        """
        view = dict(shared_observation(self))
        view["seat"] = seat
        return view

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
        if self._runs is not None:
            other._runs = self._runs.copy()
        other._tile_json = self._tile_json[:]
        other._stale_tiles = self._stale_tiles[:]
        other._seat_json = self._seat_json[:]
        other._awarded_json = self._awarded_json[:]
        return other

    def _play(self, key: Key, move: Move) -> None:
        """Play ``key``, whose JSON is ``move`` (the shared listed object for a flight): its stages
        (:data:`referee.vulkan.play.MOVE_STAGES`), then the turn passes on."""
        flyer = self.to_move
        assert flyer is not None, "the game is over"
        events = MOVE_STAGES[key[0]](self, key)
        self.last = {"seat": flyer, "move": move, "events": events}
        self.turn += 1
        self._keys = None
        self._observation = None
        following = (flyer + 1) % self.seats
        if self.ended is not None:
            self.to_move = None
        elif can_fly(self.supply[following], self._room):  # nobody passes: no search
            self.to_move = following
        else:
            events.extend(self._seek_flyer(following))

    def _seek_flyer(self, start: int) -> list[dict[str, JSON]]:
        """Give the turn to the first seat from ``start`` on (clockwise) that can fly
        (:func:`referee.vulkan.rules.next_flyer`); return a pass event for each seat skipped."""
        self.to_move, skipped = next_flyer(self.board, self.supply, start, self._room)
        return [{"kind": "pass", "seat": seat, "why": "no_loads"} for seat in skipped]

    # ------------------------------------------------------------------ the mutators
    # Once a state is built, the position changes here only, and each mutator keeps the values
    # derived from what it changes in step (see _reset_caches, and docs/games/vulkan.md#caches).

    def _place_volcano(self, cell: int) -> None:
        """The tile on ``cell`` becomes the volcano: no flight crosses it."""
        self.board.volcano = cell
        self._block(cell)

    def _drop(self, colour: int, path: tuple[int, ...]) -> tuple[list[int], list[int]]:
        """The seat to move drops loads of ``colour`` along ``path``
        (:func:`referee.vulkan.rules.drop_loads`); return the tiles dropped on, and those of them
        that filled up."""
        flyer = self.to_move
        assert flyer is not None
        board = self.board
        dropped = drop_loads(board, path, colour, self.supply[flyer][colour])
        self.supply[flyer][colour] -= len(dropped)
        self._on_table[colour] += len(dropped)
        self._stale_tiles += dropped
        self._seat_json[flyer] = None  # its supply and loads on the table (the colour is its own or shared)
        loads, spaces = board.loads, board.spaces
        filled = [cell for cell in dropped if len(loads[cell]) >= spaces[cell]]
        for cell in filled:
            self._lose_room(cell)
        return dropped, filled

    def _take_off(self, cell: int) -> list[int]:
        """The tile on ``cell`` left the table (extinguished or isolated); its loads leave the game
        with it. Return those loads (for the award)."""
        board = self.board
        board.present[cell] = False
        self._block(cell)
        self._present &= ~(1 << cell)
        self._tile_json[cell] = None
        loads = board.loads[cell]
        board.loads[cell] = []
        if loads:
            owners, seat_json = self.owners, self._seat_json
            for colour in loads:
                self._on_table[colour] -= 1
                self.loads_out[colour] += 1
                holder = owners[colour]
                if holder is not None:
                    seat_json[holder] = None  # its loads on the table
            self._loads_out_json = None
        return loads

    def _award(self, seat: int, cell: int) -> None:
        """The tile that left ``cell`` goes to ``seat``."""
        value = self.board.values[cell]
        self.awarded[seat].append((self.board.layout.coords[cell], value))
        self._scores[seat] += value
        self._seat_json[seat] = None
        self._awarded_json[seat] = None

    def _remove(self, cell: int) -> None:
        """The tile that left ``cell`` goes to nobody: it leaves the game."""
        self.removed.append(self.board.layout.coords[cell])
        self._removed_json = None

    # ------------------------------------------------------------------ the legal runs, derived

    def _path_table(self) -> PathTable:
        if self._table is None:
            self._table = path_table(self.board.layout)
        return self._table

    def _live_runs(self) -> LiveRuns:
        """The runs that are flight paths now, kept from the first listing on."""
        runs = self._runs
        if runs is None:
            runs = self._runs = LiveRuns(self._path_table(), self._blocked, self._room)
        return runs

    def _lose_room(self, cell: int) -> None:
        """``cell`` has no free space now, if it had one (it filled up, left, or became the volcano)."""
        bit = 1 << cell
        if self._room & bit:
            self._room &= ~bit
            if self._runs is not None:
                self._runs.lose_room(cell)

    def _block(self, cell: int) -> None:
        """No forest tile lies on ``cell`` any more: it left the table or became the volcano."""
        self._lose_room(cell)
        self._blocked |= 1 << cell
        if self._runs is not None:
            self._runs.block(cell)

    # ------------------------------------------------------------------ JSON

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
            "supply": [supply_json(self, s) for s in range(self.seats)],
            "awarded": [[award_json(award) for award in awards] for awards in self.awarded],
            "removed": [list(cell) for cell in self.removed],
            "loads_out": loads_out_json(self),
            "to_move": self.to_move,
            "turn": self.turn,
            "ended": self.ended,
            "last": self.last,
        }

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
        """Whether ``seat`` could make a flight now (:func:`referee.vulkan.rules.can_fly`)."""
        return can_fly(self.supply[seat], self._room)

    def move_of(self, key: Key) -> Move:
        """The JSON of a move given in canonical form (the inverse of :meth:`key_of`)."""
        return moves.move_of(self, key)

    def key_of(self, move: Any) -> Key:
        """The canonical form of a move as a bot sends it; :class:`IllegalMove` if it is malformed."""
        return moves.key_of(self, move)
