"""Every straight run of a layout, listed once, with the JSON of each flight along it built once.

Listing the legal flights is the engine's hottest loop: a turn early in a game has several hundred of
them. Two facts make it cheap:

- A layout's runs never change. A run is a legal flight path exactly when all its cells hold forest
  tiles (no gap, not the volcano) and one of them has a free space. With the cells as bits of an
  integer, that is two ``&`` per run: ``not mask & blocked and mask & room``.
- Within a game a run only ever goes from legal to illegal: tiles fill up and leave, but never come
  back or empty. So a state keeps two counters over all runs at once and changes them only when a
  tile fills up or leaves, each change one big-integer operation (see :class:`PathTable` and
  :class:`LiveRuns`).

The JSON of a flight (its colour and path) depends only on the cells' coordinates, so each is built
once per process and shared by every state on a layout with those cells. The shared objects are
:class:`FlightMove`, a read-only ``dict``: equal to, and serialised as, the plain JSON object a bot
sends back.

>>> from referee.vulkan.hexes import Layout
>>> table = path_table(Layout.of([(0, 0), (1, 0), (2, 0)]))
>>> [[table.layout.coords[c] for c in path] for path in table.paths[:4]]
[[(0, 0)], [(0, 0), (1, 0)], [(0, 0), (1, 0), (2, 0)], [(1, 0)]]
>>> table.moves(0)[1]
{'type': 'flight', 'path': [[0, 0], [1, 0]], 'colour': 'red'}
"""

from __future__ import annotations

from functools import lru_cache, reduce
from itertools import compress, repeat
from operator import and_, or_
from typing import Any, NoReturn

from referee.memo import Memo
from referee.vulkan.edition import EDITION
from referee.vulkan.hexes import Coord, Layout

COLOURS = EDITION.colours

CoordPath = tuple[Coord, ...]


class FlightMove(dict[str, Any]):
    """The JSON of one flight, shared by every state that lists it: it refuses to be changed.

    ``colour`` (an index) and ``coords`` (the path's cells as tuples) say which flight it is without
    reading the JSON again, so :meth:`VulkanState.apply` can skip parsing a move it listed itself.
    A copy (``dict(move)``, ``copy.deepcopy``, a JSON round trip) is a plain ``dict``.
    """

    __slots__ = ("colour", "coords")

    colour: int
    coords: CoordPath

    def _read_only(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("a listed move is shared and read-only: change a copy, dict(move)")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _read_only

    def __reduce__(self) -> tuple[type, tuple[dict[str, Any]]]:
        return (dict, (dict(self),))


_FLIGHTS = Memo[tuple[int, CoordPath], FlightMove]("vulkan.flights", limit=200_000)
"""Every flight's JSON built so far, by colour and path. Bounded in practice: paths are straight runs
of at most 36 cells in a small area, since setups and random layouts keep coordinates small."""


def flight_move(colour: int, coords: CoordPath) -> FlightMove:
    """The shared JSON of a flight of ``colour`` along the cells ``coords``."""
    move = _FLIGHTS.table.get((colour, coords))
    if move is None:
        move = FlightMove(type="flight", path=[[q, r] for q, r in coords], colour=COLOURS[colour])
        move.colour = colour
        move.coords = coords
        _FLIGHTS.keep((colour, coords), move)
    return move


class PathTable:
    """A layout's straight runs in the order of the legal flight list, with their cell masks.

    Order: start cell (cell order), the one-tile run, then direction (east first, round the
    hexagon), then length. ``paths[i]`` are cell indices, ``masks[i]`` the same cells as bits,
    ``index`` finds a run by its cells and ``by_coords`` by its coordinates.

    Byte lanes: run ``i`` owns byte ``i`` of a big integer. ``through[c]`` holds 1 in the lane of
    every run over cell ``c``, so the sum of ``through[c]`` over the cells with room counts, lane by
    lane, the cells with room on each run (a run has at most 36 cells, so no lane overflows), and a
    cell filling up subtracts its ``through``. ``through_ff[c]`` has 0xFF in the same lanes: OR-ed
    together over the cells without a forest tile, it masks out every run over a gap or the
    volcano. What is left non-zero, read with ``to_bytes``, selects the legal runs in table order
    (``itertools.compress``), all in C.
    """

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        paths: list[tuple[int, ...]] = []
        for start in range(len(layout)):
            paths.append((start,))
            for ray in layout.rays[start]:
                for length in range(1, len(ray) + 1):
                    paths.append((start, *ray[:length]))
        self.paths = paths
        self.masks = [sum(1 << cell for cell in path) for path in paths]
        self.index = {path: i for i, path in enumerate(paths)}
        coords = layout.coords
        self.coords: list[CoordPath] = [tuple(coords[cell] for cell in path) for path in paths]
        self.by_coords = {path: i for i, path in enumerate(self.coords)}
        through = [0] * len(layout)
        for i, path in enumerate(paths):
            for cell in path:
                through[cell] |= 1 << (8 * i)
        self.through = through
        self.through_ff = [lanes * 0xFF for lanes in through]
        self.all_through = sum(through)
        """The sum of every ``through``: the room counters when every cell has room, so a state
        with most cells roomy subtracts the few without instead of adding all the others."""
        self.size = len(paths)
        self._moves: dict[int, list[FlightMove]] = {}
        self.listed: dict[int, int] = {}
        """``id()`` of each move in :meth:`moves` to its run index: a move this table listed is found
        without hashing its path (the table keeps the moves alive, so the ids stay theirs)."""

    def moves(self, colour: int) -> list[FlightMove]:
        """The JSON of every run flown in ``colour``, by run index (built on first use)."""
        moves = self._moves.get(colour)
        if moves is None:
            moves = self._moves[colour] = [flight_move(colour, path) for path in self.coords]
            self.listed.update((id(move), index) for index, move in enumerate(moves))
        return moves


@lru_cache(maxsize=64)
def _table(coords: tuple[Coord, ...]) -> PathTable:
    return PathTable(Layout.of(coords))


def path_table(layout: Layout) -> PathTable:
    """The (cached) path table of ``layout``: the classic layout's is built once per process."""
    return _table(layout.coords)


class LiveRuns:
    """Which runs of a path table are flight paths now: :func:`referee.vulkan.rules.is_flight_path`
    for every run at once, kept by a state move by move (its ``_runs``, built when flights are
    first listed) through the two mutators :meth:`lose_room` and :meth:`block`.

    ``room_lanes``: run ``i``'s byte lane counts its cells with room; ``dead_lanes``: run ``i``'s
    lane is 0xFF when one of its cells is blocked (a gap, a tile gone, the volcano). A run is a
    flight path when its room lane is non-zero and its dead lane zero, which :meth:`runs` reads off
    for all runs in C. ``flights``: per colour, the legal flights of a seat of several colours, kept
    while the runs hold (None: not kept; see :meth:`VulkanState.legal_moves`).
    """

    __slots__ = ("table", "room_lanes", "dead_lanes", "live", "flights")

    def __init__(self, table: PathTable, blocked: int, room: int) -> None:
        """The counters of a position whose blocked cells and cells with room are these masks."""
        self.table = table
        bits = table.layout.bits
        if 2 * room.bit_count() > len(bits):  # a new game: only the volcano lacks room
            without = ((1 << len(bits)) - 1) & ~room
            lanes = table.all_through - sum(compress(table.through, map(and_, bits, repeat(without))))
        else:  # the cells of each mask picked out in C, bit by bit
            lanes = sum(compress(table.through, map(and_, bits, repeat(room))))
        self.room_lanes = lanes
        self.dead_lanes = reduce(or_, compress(table.through_ff, map(and_, bits, repeat(blocked))), 0)
        self.live: bytes | None = None
        self.flights: list[list[Any] | None] = [None] * len(COLOURS)

    def runs(self) -> bytes:
        """One byte per run of the table, non-zero for the flight paths (for ``itertools.compress``);
        worked out once per position."""
        live = self.live
        if live is None:
            live = self.live = (self.room_lanes & ~self.dead_lanes).to_bytes(self.table.size, "little")
        return live

    def lose_room(self, cell: int) -> None:
        """``cell``, which had a free space, has none now."""
        self.room_lanes -= self.table.through[cell]
        self._changed()

    def block(self, cell: int) -> None:
        """No forest tile lies on ``cell`` any more."""
        self.dead_lanes |= self.table.through_ff[cell]
        self._changed()

    def _changed(self) -> None:
        """Some runs may have stopped being flight paths: the runs and the flights listed from them
        are worked out again when next asked for."""
        if self.live is not None:
            self.live = None
            self.flights = [None] * len(COLOURS)

    def copy(self) -> LiveRuns:
        """An independent copy (the kept flight lists are shared, never changed in place)."""
        other = object.__new__(LiveRuns)
        other.table, other.room_lanes, other.dead_lanes = self.table, self.room_lanes, self.dead_lanes
        other.live, other.flights = self.live, self.flights[:]
        return other
