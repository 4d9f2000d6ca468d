"""The rules of a turn as small named stages over a :class:`Board`.

A flight runs the stages in order: :func:`drop_loads`, :func:`extinguish_cascade`, :func:`isolate`,
and :func:`award_to` for every tile that left the table. Each stage only reads and changes the board,
so the rest of the position (turns, supplies, awards) stays in :mod:`referee.vulkan.position`, the events in
:mod:`referee.vulkan.play`, and the stages can be tested one by one. Which flights are legal is
:func:`is_flight_path` on the board's masks; who can fly, :func:`can_fly`.

Tiles that leave the table keep their loads in ``board.loads`` until the state has read them for the
award; the state then clears them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import lt

from referee.vulkan.hexes import NO_CELL, Layout
from referee.vulkan.paths import path_table


@dataclass
class Board:
    """The tiles on the table. Cells are indices into ``layout``; colours are colour indices.

    ``present[i]``: a tile (forest or volcano) still lies on cell ``i``. ``loads[i]``: the colours
    dropped on it, in drop order.
    """

    layout: Layout
    values: list[int]
    spaces: list[int]
    present: list[bool]
    loads: list[list[int]]
    volcano: int | None

    def copy(self) -> Board:
        """An independent board for look-ahead. ``present`` and ``loads`` are the only fields changed
        in place during play, so only they are copied; the rest (layout, values, spaces) is shared."""
        other = object.__new__(Board)
        other.__dict__.update(self.__dict__)
        other.present = self.present[:]
        other.loads = [pile[:] for pile in self.loads]
        return other

    def is_forest(self, cell: int) -> bool:
        """A forest tile lies here: present and not the volcano."""
        return self.present[cell] and cell != self.volcano

    def is_full(self, cell: int) -> bool:
        return len(self.loads[cell]) >= self.spaces[cell]

    def forest(self) -> list[int]:
        """Every forest tile on the table, in cell order."""
        return [cell for cell in range(len(self.present)) if self.is_forest(cell)]

    def has_adjacent_free_edges(self, cell: int) -> bool:
        """At least two free edges next to each other: the condition for a full tile to go out.

        >>> from referee.vulkan.hexes import Layout
        >>> ring = Layout.of([(0, 0), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)])
        >>> board = Board(ring, [1] * 7, [1] * 7, [True] * 7, [[] for _ in range(7)], volcano=3)
        >>> board.has_adjacent_free_edges(3)  # the centre (0, 0) is enclosed
        False
        >>> board.has_adjacent_free_edges(0)  # (-1, 0) on the rim has three free edges in a row
        True
        """
        present = self.present
        for a, b in self.layout.corners[cell]:
            if (a == NO_CELL or not present[a]) and (b == NO_CELL or not present[b]):
                return True
        return False


def blocked_cells(board: Board) -> int:
    """The layout's cells without a forest tile (:meth:`Board.is_forest` false), as a mask: gaps,
    tiles gone, the volcano. A flight never crosses one."""
    blocked = ((1 << len(board.present)) - 1) & ~sum(compress(board.layout.bits, board.present))
    return blocked if board.volcano is None else blocked | 1 << board.volcano


def cells_with_room(board: Board) -> int:
    """The forest tiles with a free space (fewer loads than spaces), as a mask: a flight drops its
    loads on these."""
    with_room = sum(compress(board.layout.bits, map(lt, map(len, board.loads), board.spaces)))
    return with_room & ~blocked_cells(board)


def is_flight_path(cells: int, blocked: int, room: int) -> bool:
    """The flight rule: a straight run over the cells of mask ``cells`` is a flight path when none
    of them is ``blocked`` (:func:`blocked_cells`: it crosses forest tiles only, never a gap or the
    volcano) and one of them has ``room`` (:func:`cells_with_room`: it drops at least one load).

    Which runs are straight is the layout's geometry (:class:`referee.vulkan.paths.PathTable` lists
    them all); this is the part that changes as the game goes on. Every list of legal flights is
    this rule applied to the runs: :func:`flight_paths` here, and
    :meth:`referee.vulkan.state.VulkanState.legal_moves` through counters derived from it.

    >>> is_flight_path(0b0110, blocked=0b0001, room=0b0100), is_flight_path(0b0011, 0b0001, 0b0010)
    (True, False)
    """
    return not cells & blocked and cells & room != 0


def flight_paths(board: Board) -> list[tuple[int, ...]]:
    """Every flight path that drops at least one load (given at least one load to drop), in order:
    the layout's straight runs (:func:`referee.vulkan.paths.path_table`) that pass
    :func:`is_flight_path` now.

    A path is an ordered straight run of forest tiles, each next to the one before in one of the six
    directions, never over the volcano or a gap, holding at least one tile with a free space. A
    one-tile path is listed once (it has no direction). Order: start cell, then the one-tile path,
    then direction, then length.
    """
    table = path_table(board.layout)
    blocked, room = blocked_cells(board), cells_with_room(board)
    return [
        path
        for path, cells in zip(table.paths, table.masks, strict=True)
        if is_flight_path(cells, blocked, room)
    ]


def planned_drops(board: Board, path: tuple[int, ...], available: int) -> list[int]:
    """The tiles a flight along ``path`` drops on: each tile with a free space, in flight order,
    while ``available`` loads last (the flight may go on over full tiles and after the loads run
    out; that changes nothing). Two flights with the same drops and colour have the same effect."""
    dropped: list[int] = []
    loads, spaces = board.loads, board.spaces
    for cell in path:
        if len(dropped) == available:
            break
        if len(loads[cell]) < spaces[cell]:
            dropped.append(cell)
    return dropped


def drop_loads(board: Board, path: tuple[int, ...], colour: int, available: int) -> list[int]:
    """Drop one load of ``colour`` on each tile :func:`planned_drops` names; return those tiles."""
    dropped = planned_drops(board, path, available)
    for cell in dropped:
        board.loads[cell].append(colour)
    return dropped


def extinguish_cascade(board: Board, touched: Iterable[int] | None = None) -> list[list[int]]:
    """Take every extinguished tile off the table, in rounds, until none is left; return the rounds.

    A forest tile is extinguished when it is full and has two free edges next to each other. All the
    tiles that qualify in one round go out together; their leaving frees edges of their neighbours,
    which may then qualify in the next round. Leaving only ever frees edges, so the tiles that go out
    do not depend on the order in which they are looked at.

    ``touched`` names the only tiles that can qualify in the first round: between turns no tile on
    the table qualifies, so after a flight only the tiles it dropped on can (None: look at them all).
    Later rounds look at the neighbours of the tiles that just went out.
    """
    neighbours = board.layout.neighbours
    present, loads, spaces, volcano = board.present, board.loads, board.spaces, board.volcano
    candidates = sorted(set(board.forest() if touched is None else touched))
    rounds: list[list[int]] = []
    while True:
        out = [
            cell
            for cell in candidates
            if present[cell]
            and cell != volcano
            and len(loads[cell]) >= spaces[cell]
            and board.has_adjacent_free_edges(cell)
        ]
        if not out:
            return rounds
        for cell in out:
            board.present[cell] = False
        rounds.append(out)
        candidates = sorted({other for cell in out for other in neighbours[cell] if other != NO_CELL})


def group_of(near: Sequence[int], on: int, start: int) -> int:
    """The cells of mask ``on`` joined to cell ``start`` edge to edge, as a mask: grown ring by ring,
    all cells as bits of one integer (``near[cell]``: the mask of the cell's neighbours).

    >>> group_of([0b010, 0b101, 0b010], on=0b111, start=0), group_of([0b010, 0b101, 0b010], on=0b101, start=0)
    (7, 1)
    """
    reached = frontier = 1 << start
    while frontier:
        grown = 0
        while frontier:
            lowest = frontier & -frontier
            grown |= near[lowest.bit_length() - 1]
            frontier ^= lowest
        frontier = grown & on & ~reached
        reached |= frontier
    return reached


def isolate(board: Board, on_table: int | None = None) -> list[int]:
    """Take off the table, and return, every forest tile no longer connected to the volcano.

    Connection runs through tiles on the table, edge to edge. Without a volcano nothing is isolated.
    ``on_table``: the cells holding a tile as a mask, when the caller keeps one (else read from
    ``board.present``).
    """
    if board.volcano is None:
        return []
    present, volcano, near = board.present, board.volcano, board.layout.near
    if on_table is None:
        on_table = 0
        for cell in range(len(present)):
            if present[cell]:
                on_table |= 1 << cell
    reached = group_of(near, on_table, volcano)
    cut_off = []
    left = on_table & ~reached
    while left:
        lowest = left & -left
        cell = lowest.bit_length() - 1
        present[cell] = False
        cut_off.append(cell)
        left ^= lowest
    return cut_off


def resolve(
    board: Board, dropped: Iterable[int], on_table: int | None = None
) -> tuple[list[list[int]], list[int]]:
    """Everything that follows the drops: the extinguishing rounds, then the isolated tiles.

    Before the flight every tile was connected to the volcano, so only a tile going out can cut
    others off: without one, the connection search is skipped. ``on_table``, if the caller keeps
    it: the cells that held a tile before the flight, as a mask (spares reading the board).
    """
    rounds = extinguish_cascade(board, dropped)
    if not rounds:
        return rounds, []
    if on_table is not None:
        neighbours = board.layout.neighbours
        cuts = False
        for cells in rounds:
            for cell in cells:
                on_table &= ~(1 << cell)
                if not cuts:
                    ring = 0
                    for d, other in enumerate(neighbours[cell]):
                        if other != NO_CELL and on_table >> other & 1:
                            ring |= 1 << d
                    cuts = not ONE_ARC[ring]
        if not cuts:
            return rounds, []
    return rounds, isolate(board, on_table)


def _one_arc(ring: int) -> bool:
    """Whether the directions set in ``ring`` (6 bits) form at most one unbroken arc round the hexagon."""
    starts = sum(1 for d in range(6) if ring >> d & 1 and not ring >> (d - 1) % 6 & 1)
    return starts <= 1


ONE_ARC = tuple(_one_arc(ring) for ring in range(64))
"""Per 6-bit set of a cell's neighbours still on the table: whether they form one arc. Two
neighbours next to each other round a hexagon are neighbours of each other, so a tile whose
remaining neighbours form one arc leaves them connected to each other when it goes: tiles that
were all connected to the volcano stay so. Only when a tile going out splits its neighbours into
two or more arcs must :func:`isolate` search (a sufficient test, so the result is the same)."""


def can_fly(held: Sequence[int], room: int) -> bool:
    """Whether a seat holding the loads ``held`` (a count per colour) can fly: it holds a load and
    some forest tile has a free space (``room``: those tiles as a mask, :func:`cells_with_room`)."""
    return room != 0 and any(held)


def next_flyer(
    board: Board, supply: list[list[int]], start: int, room: int | None = None
) -> tuple[int | None, list[int]]:
    """The first seat from ``start`` on, clockwise, that can fly (:func:`can_fly`), and the seats it
    skips (they hold no loads). ``(None, [])`` when no seat can: the game is over, and nobody is
    said to have passed. ``room``: the forest tiles with a free space as a mask, when the caller
    keeps it (else worked out from the board).

    >>> from referee.vulkan.hexes import Layout
    >>> board = Board(Layout.of([(0, 0), (1, 0)]), [1, 6], [1, 3], [True, True], [[], []], volcano=0)
    >>> next_flyer(board, [[0, 0], [0, 0], [3, 0]], start=0)
    (2, [0, 1])
    """
    if room is None:
        room = cells_with_room(board)
    skipped: list[int] = []
    for k in range(len(supply)):
        seat = (start + k) % len(supply)
        if can_fly(supply[seat], room):
            return seat, skipped
        skipped.append(seat)
    return None, []


MAJORITY = "majority"
TIE = "tie"
SHARED_COLOUR = "shared_colour"


def award_to(loads: list[int], flyer: int, owners: tuple[int | None, ...]) -> tuple[int | None, str]:
    """Who gets a tile with these loads, and why. ``(None, "no_loads")`` for a tile without loads.

    The majority is counted by colour, each colour standing for its owner: one colour per seat with
    four seats, and with two seats each colour on its own. A tie goes to the current flyer, whether
    or not the flyer has a load on the tile; so does a majority of a colour no single seat owns (the
    fourth colour with three seats).

    >>> award_to([0, 1, 1], flyer=0, owners=(0, 1, 2, 3))
    (1, 'majority')
    >>> award_to([0, 1], flyer=0, owners=(0, 0, 1, 1))  # two seats: red and yellow are tied
    (0, 'tie')
    >>> award_to([3, 3, 0], flyer=1, owners=(0, 1, 2, None))
    (1, 'shared_colour')
    """
    if not loads:
        return None, "no_loads"
    counts = [0] * len(owners)
    for colour in loads:
        counts[colour] += 1
    top = max(counts)
    leaders = [colour for colour, count in enumerate(counts) if count == top]
    if len(leaders) > 1:
        return flyer, TIE
    owner = owners[leaders[0]]
    if owner is None:
        return flyer, SHARED_COLOUR
    return owner, MAJORITY
