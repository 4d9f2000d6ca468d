"""Points, the longest road and the largest army.

Points are never stored: they are counted from the pieces on the board, the awards held and the
victory point cards in hand, so they cannot drift from what gives them.

The longest road is the longest trail (no edge twice) of one seat's roads that does not pass
through another seat's building. The award goes to the first seat reaching five; another seat takes
it only with a strictly longer road. When a road is broken (or a lava flow rejoins one), the
almanac's rule applies: the holder keeps the award while no road is longer; otherwise a single
longest road of five or more takes it, and a tie for the longest sets it aside.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from referee.catan_volcano import changes
from referee.catan_volcano.edition import EDITION, KNIGHT, VICTORY_POINT
from referee.catan_volcano.events import record
from referee.catan_volcano.geometry import EDGE_NODES, NODE_EDGES

if TYPE_CHECKING:
    from referee.catan_volcano.position import Position

_SETTLEMENTS = EDITION.pieces["settlements"]
_CITIES = EDITION.pieces["cities"]


def visible_points(state: Position, seat: int) -> int:
    """The points the table sees: buildings and awards, not victory point cards in hand."""
    pieces = state.pieces[seat]
    total = (_SETTLEMENTS - pieces[1]) + 2 * (_CITIES - pieces[2])
    if state.longest_road == seat:
        total += EDITION.longest_road_points
    if state.largest_army == seat:
        total += EDITION.largest_army_points
    return total


def points(state: Position, seat: int) -> int:
    """All of a seat's points, its victory point cards included."""
    return visible_points(state, seat) + state.devs[seat][VICTORY_POINT]


_NODE_ROADS: tuple[int, ...] = tuple(sum(1 << edge for edge in edges) for edges in NODE_EDGES)
"""Per node, the edges at it as a bit mask (bit ``edge``)."""
_ACROSS: dict[int, int] = {1 << edge: a ^ b for edge, (a, b) in enumerate(EDGE_NODES)}
"""Per edge's bit, the xor of its two nodes: ``node ^ _ACROSS[bit]`` is the edge's other end."""


def _road_mask(edge_owner: list[int], seat: int) -> int:
    """The seat's roads as a bit mask (bit ``edge``), found by C scans rather than a Python loop
    over the 72 edges."""
    roads = 0
    edge = -1
    for _ in range(edge_owner.count(seat)):
        edge = edge_owner.index(seat, edge + 1)
        roads |= 1 << edge
    return roads


def longest_trail(state: Position, seat: int, through: int = -1, beat: int = 0) -> int:
    """The length of the seat's longest road; with ``through`` (an edge of the seat's), of the
    longest in the group of connected roads holding that edge only (see :func:`add_road`).

    A group of roads is not walked when it has no more roads than ``beat`` or than the longest
    trail found so far: none of its trails can be longer. So with ``beat``, the answer is exact
    when it is above ``beat`` and otherwise only known to be no more than ``beat``. The walk is
    :func:`_walk_trails`, as for :func:`_trail_over`.

    >>> from referee.catan_volcano import GAME
    >>> state = GAME.start("base", 3, seed=1)
    >>> longest_trail(state, 0)
    0
    """
    roads = _road_mask(state.edge_owner, seat)
    best = 0
    for size, starts in _trail_groups(state, seat, roads, through):
        if size <= beat or size <= best:
            continue  # no trail of this group can be longer than its roads
        found, _ = _walk_trails(starts, roads, state.node_owner, seat, size)
        best = max(best, found)
    return best


def _walk_trails(
    starts: Sequence[int], roads: int, node_owner: list[int], seat: int, enough: int, target: int = -1
) -> tuple[int, bool]:
    """The longest trail over ``roads`` (a bit mask) from any node of ``starts``, passing through no
    other seat's building (it may end at one), the walks stopping once one of ``enough`` roads is
    found; and whether a trail reaches the node ``target``.

    The seat's roads are a bit mask (bit ``edge``), so that a step of a walk is a few operations
    on ints rather than a loop over the roads at a node: this runs whenever a road is built."""
    best = 0
    met = False

    def walk(node: int, left: int, length: int) -> None:
        """Every trail on from ``node`` over the roads ``left``: the first free road at each node
        is followed in this loop, the others (where roads branch) by recursion."""
        nonlocal best, met
        while True:
            if node == target:
                met = True
            owner = node_owner[node]
            if length and owner != -1 and owner != seat:
                break  # a road may end at another seat's building but not pass through it
            free = left & _NODE_ROADS[node]
            if not free:
                break
            follow = free & -free
            free ^= follow
            while free:
                branch = free & -free
                free ^= branch
                walk(node ^ _ACROSS[branch], left ^ branch, length + 1)
            node ^= _ACROSS[follow]
            left ^= follow
            length += 1
        if length > best:
            best = length

    for start in starts:
        walk(start, roads, 0)
        if best == enough:
            break  # a trail over all the roads of the group: none is longer
    return best, met


def _trail_groups(state: Position, seat: int, roads: int, through: int) -> list[tuple[int, list[int]]]:
    """Per connected group of the seat's ``roads`` (a bit mask; only the group of the edge
    ``through`` if that is not -1): how many roads it has, and where a longest trail may be looked
    for from: its nodes of odd degree and its blocked nodes (another seat's building), or any one
    node if it has neither.

    Why that is enough: take a longest trail starting at a node neither blocked nor of odd degree.
    Every road at that node is on the trail (else the trail could take that road first, passing
    through the node); leaving it once and passing through it in pairs, the trail must end there:
    it is closed. Then every road at each node it passes through is on it too (else, turned to
    start at that node, it could take that road last), so it is its whole group of roads; and as it
    passes through every node of the group but one, which is not blocked, the group has no blocked
    node and, the trail being closed, no odd one. Walked from any one of its nodes, such a group
    gives a trail over all its roads.
    """
    node_owner = state.node_owner
    groups: list[tuple[int, list[int]]] = []
    left = roads  # the roads in no group yet
    while left:
        if through < 0:
            edge = (left & -left).bit_length() - 1
        elif groups:
            break
        else:
            edge = through
        nodes = [EDGE_NODES[edge][0]]
        size = 0
        index = 0
        while index < len(nodes):
            node = nodes[index]
            index += 1
            new = left & _NODE_ROADS[node]
            left ^= new
            while new:
                road = new & -new
                new ^= road
                size += 1
                other = node ^ _ACROSS[road]
                if other not in nodes:
                    nodes.append(other)
        ends: list[int] = []
        for node in nodes:
            owner = node_owner[node]
            if (owner != -1 and owner != seat) or (roads & _NODE_ROADS[node]).bit_count() & 1:
                ends.append(node)  # another seat's building, or a node of odd degree
        groups.append((size, ends or nodes[:1]))
    return groups


def update_longest_road(state: Position, seats: range | list[int] | tuple[int, ...]) -> None:
    """Recount the roads of ``seats`` and move the award as the rules say."""
    lengths = state.road_length
    for seat in seats:
        lengths[seat] = longest_trail(state, seat)
    _award_longest_road(state)


def add_road(state: Position, seat: int, edge: int) -> None:
    """After the seat's new road on ``edge``: its length and the award, as
    :func:`update_longest_road` would set them, walking only from the new road's two ends (or, if
    the roads from them meet again, the group of roads the new one joined).

    Why that is enough: a road added breaks no trail, so the seat's old trails all remain, none
    longer than its recorded length; a new trail must use the new road, so it lies in that road's
    group. The longest road is then the longer of the recorded length and the longest trail over
    the new road (the recorded lengths are always those of the board: every change of roads or
    buildings recounts them); :func:`_trail_over` finds that one from the road's two ends alone
    when they lead apart, which they nearly always do (the seat's roads form a tree), and
    otherwise its group is walked whole. Building a road is the most common change of the
    board."""
    lengths = state.road_length
    found = _trail_over(state, seat, edge)
    if found < 0:
        found = longest_trail(state, seat, edge, lengths[seat])
    if found > lengths[seat]:
        lengths[seat] = found
    _award_longest_road(state)


def _trail_over(state: Position, seat: int, edge: int) -> int:
    """The longest trail of the seat's roads that takes its road on ``edge``; -1 if the trails
    from the road's two ends, leaving it aside, can meet (one reaches the other end).

    Why the two ends alone suffice when they cannot meet: a trail over the road is a trail ending
    at one end, the road, and a trail starting at the other end, sharing no road. If no trail from
    the first end (passing through no other seat's building) reaches the second, the roads each
    side can take are apart: a road both could take would join the two ends by such a trail. So
    the longest is the longest from each end plus one, the two walked apart, each walk a single
    pass over its side's roads on a tree of roads. An end at another seat's building adds nothing:
    a trail may end there but not pass through it."""
    node_owner = state.node_owner
    roads = _road_mask(state.edge_owner, seat) ^ (1 << edge)  # the two ends' trails leave it aside
    first, second = EDGE_NODES[edge]
    total = 1
    owner = node_owner[first]
    if owner == -1 or owner == seat:
        found, met = _walk_trails((first,), roads, node_owner, seat, -1, second)
        if met:
            return -1
        total += found
    owner = node_owner[second]
    if owner == -1 or owner == seat:
        found, _ = _walk_trails((second,), roads, node_owner, seat, -1)  # (the first end is not reached)
        total += found
    return total


def _award_longest_road(state: Position) -> None:
    """Move the award as the rules say, given every seat's current length."""
    lengths = state.road_length
    best = max(lengths)
    holder = state.longest_road
    if holder >= 0 and lengths[holder] == best and best >= EDITION.longest_road_minimum:
        return
    leaders = [seat for seat, length in enumerate(lengths) if length == best]
    new = leaders[0] if best >= EDITION.longest_road_minimum and len(leaders) == 1 else -1
    if new != holder:
        changes.give_longest_road(state, new)
        record(state, {"type": "longest_road", "seat": None if new < 0 else new, "length": best})


def update_largest_army(state: Position, seat: int) -> None:
    """After a knight: the first to three knights takes the award, then only strictly more."""
    knights = state.played[seat][KNIGHT]
    holder = state.largest_army
    if holder == seat or knights < EDITION.largest_army_minimum:
        return
    if holder < 0 or knights > state.played[holder][KNIGHT]:
        changes.give_largest_army(state, seat)
        record(state, {"type": "largest_army", "seat": seat, "knights": knights})
