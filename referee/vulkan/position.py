"""A game of Vulkan! as it stands: the position, the values the hot paths keep derived from it, and
the mutators that change both in step; the bottom layer of the engine.

:class:`Position` holds facts only: the rules modules (:mod:`referee.vulkan.moves`,
:mod:`referee.vulkan.play`, :mod:`referee.vulkan.observation`, :mod:`referee.vulkan.outcome`) read it
and change it through its mutators, and :class:`referee.vulkan.state.VulkanState`, on top, ties them
to the common State interface. Nothing here imports a rules module that reads a position, so the
engine's imports run one way: position, rules, state.
"""

from __future__ import annotations

from functools import cached_property
from itertools import chain, compress
from typing import Any

from referee.game import JSON
from referee.vulkan.edition import EDITION
from referee.vulkan.hexes import Coord, Layout
from referee.vulkan.paths import LiveRuns, PathTable, path_table
from referee.vulkan.rules import Board, blocked_cells, can_fly, cells_with_room, drop_loads
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


class Position:
    """The position of one game and what is kept derived from it (see :meth:`_reset_caches`)."""

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

    @property
    def phase(self) -> str:
        if self.to_move is None:
            return "over"
        return "volcano" if self.board.volcano is None else "flight"

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
