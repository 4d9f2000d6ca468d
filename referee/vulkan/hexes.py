"""Hex geometry: axial coordinates, the six directions, and layouts with their lines precomputed.

A cell is an axial coordinate ``(q, r)``. The six directions are listed going round the hexagon, so
two directions next to each other in :data:`DIRECTIONS` (counting the last and the first as next to
each other) are two edges of a tile that meet at a corner: that is what "two free edges adjacent to
each other" means.

>>> neighbours_of((0, 0))
((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
>>> layout = Layout.of([(0, 0), (1, 0), (2, 0), (0, 1)])
>>> [layout.coords[i] for i in layout.rays[0][0]]  # from (0, 0) going east
[(1, 0), (2, 0)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from referee.memo import Memo
from referee.rng import Rng

Coord = tuple[int, int]

DIRECTIONS: tuple[Coord, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""East, north-east, north-west, west, south-west, south-east: in order round the hexagon."""

NO_CELL = -1


def step(cell: Coord, direction: int) -> Coord:
    dq, dr = DIRECTIONS[direction]
    return cell[0] + dq, cell[1] + dr


def neighbours_of(cell: Coord) -> tuple[Coord, ...]:
    return tuple(step(cell, d) for d in range(6))


def distance(a: Coord, b: Coord) -> int:
    """Hex distance in steps."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@dataclass(frozen=True)
class Layout:
    """A set of cells, sorted, with each cell's neighbours and straight lines precomputed.

    ``neighbours[i][d]`` is the index of the cell next to cell ``i`` in direction ``d``, or
    :data:`NO_CELL`. ``rays[i][d]`` lists the cells met going from ``i`` in direction ``d`` (``i``
    itself left out) up to the first gap in the layout. Whether a cell still holds a tile is the
    state's business; the layout is the fixed geometry, shared between states (hence cached).
    """

    coords: tuple[Coord, ...]
    index: dict[Coord, int]
    neighbours: tuple[tuple[int, ...], ...]
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    qs: tuple[int, ...]
    """``coords[i][0]`` for every cell, kept apart because building move JSON from it is faster."""
    rs: tuple[int, ...]
    corners: tuple[tuple[tuple[int, int], ...], ...]
    """``corners[i]``: for each corner of cell ``i``, the two neighbours whose edges meet there
    (directions ``d`` and ``d + 1``), :data:`NO_CELL` where the layout has none."""
    near: tuple[int, ...]
    """``near[i]``: the neighbours of cell ``i`` as a bit mask (bit ``j`` for cell ``j``)."""

    cells: list[Coord]
    """``coords`` as a list: a list of cells equal to it is already in layout order."""
    bits: tuple[int, ...]
    """``bits[i]`` is ``1 << i``: cell masks are summed from it (``compress``) rather than shifted
    cell by cell."""

    @staticmethod
    def of(cells: Iterable[Coord]) -> Layout:
        given = tuple(cells)
        layout = _BY_CELLS.table.get(given)
        if layout is None:
            layout = _BY_CELLS.keep(given, _layout(tuple(sorted(set(given)))))
        return layout

    def __len__(self) -> int:
        return len(self.coords)


_BY_CELLS = Memo[tuple[Coord, ...], Layout]("vulkan.layouts", limit=256)
"""Layouts by the cells as given (in any order, repeats allowed): every classic deal gives the same
cells in the same order, so its layout is found without sorting them again."""


@lru_cache(maxsize=128)  # the classic layout stays; random ones come and go
def _layout(coords: tuple[Coord, ...]) -> Layout:
    index = {cell: i for i, cell in enumerate(coords)}
    neighbours = tuple(tuple(index.get(step(cell, d), NO_CELL) for d in range(6)) for cell in coords)
    rays = []
    for cell in coords:
        per_direction = []
        for d in range(6):
            line = []
            here = step(cell, d)
            while here in index:
                line.append(index[here])
                here = step(here, d)
            per_direction.append(tuple(line))
        rays.append(tuple(per_direction))
    qs = tuple(q for q, _ in coords)
    rs = tuple(r for _, r in coords)
    corners = tuple(tuple((around[d], around[(d + 1) % 6]) for d in range(6)) for around in neighbours)
    near = tuple(sum(1 << other for other in around if other != NO_CELL) for around in neighbours)
    bits = tuple(1 << cell for cell in range(len(coords)))
    return Layout(coords, index, neighbours, tuple(rays), qs, rs, corners, near, list(coords), bits)


def is_connected(cells: Iterable[Coord]) -> bool:
    """Whether the cells form one group through shared edges (an empty set counts as connected)."""
    remaining = set(cells)
    if not remaining:
        return True
    todo = [remaining.pop()]
    while todo:
        cell = todo.pop()
        for other in neighbours_of(cell):
            if other in remaining:
                remaining.remove(other)
                todo.append(other)
    return not remaining


def touching(cell: Coord, cells: set[Coord]) -> int:
    """How many of ``cell``'s six neighbours are in ``cells``."""
    return sum(1 for other in neighbours_of(cell) if other in cells)


def enclosed(cells: Iterable[Coord]) -> list[Coord]:
    """The cells with a neighbour on all six edges, sorted: where the volcano may go."""
    group = set(cells)
    return sorted(cell for cell in group if touching(cell, group) == 6)


def classic_cells(radius: int, missing_corner: Coord) -> list[Coord]:
    """A hexagon of ``radius`` rings round ``(0, 0)`` less one corner cell.

    >>> len(classic_cells(3, (3, -3)))
    36
    """
    cells = [
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if distance((q, r), (0, 0)) <= radius
    ]
    if missing_corner not in cells or distance(missing_corner, (0, 0)) != radius:
        raise ValueError(f"{missing_corner} is not on the outer ring of radius {radius}")
    cells.remove(missing_corner)
    return sorted(cells)


def random_cells(rng: Rng, count: int, min_neighbours: int, attempts: int) -> list[Coord]:
    """A seeded compact cluster of ``count`` cells.

    Grown from ``(0, 0)``: after the second cell, each new cell is drawn among the free cells that
    touch at least ``min_neighbours`` cells already placed, weighted by the cube of how many they
    touch (so the cluster stays compact). Every cell therefore touches at least ``min_neighbours``
    others. A cluster without a cell enclosed on all six edges (nowhere to put the volcano) is
    drawn again, from the same stream, up to ``attempts`` times.
    """
    for _ in range(attempts):
        group: set[Coord] = set()
        frontier: dict[Coord, int] = {}  # free cell -> how many placed cells it touches
        for cell in ((0, 0), step((0, 0), rng.below(6))):
            _place(cell, group, frontier)
        while len(group) < count:
            weighted = [(cell, n**3) for cell, n in sorted(frontier.items()) if n >= min_neighbours]
            chosen = _weighted_pick(weighted, rng.below(sum(weight for _, weight in weighted)))
            _place(chosen, group, frontier)
        if enclosed(group):
            return sorted(group)
    raise RuntimeError(f"no layout with an enclosed cell in {attempts} attempts")


def _place(cell: Coord, group: set[Coord], frontier: dict[Coord, int]) -> None:
    group.add(cell)
    frontier.pop(cell, None)
    for other in neighbours_of(cell):
        if other not in group:
            frontier[other] = frontier.get(other, 0) + 1


def _weighted_pick(weighted: list[tuple[Coord, int]], pick: int) -> Coord:
    """The cell whose share of ``[0, total weight)`` holds ``pick``."""
    for cell, weight in weighted:
        if pick < weight:
            return cell
        pick -= weight
    raise ValueError("pick beyond the total weight")
