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

from referee.catan_volcano.edition import EDITION, KNIGHT, VICTORY_POINT
from referee.catan_volcano.events import record
from referee.catan_volcano.geometry import EDGE_NODES

if TYPE_CHECKING:
    from referee.catan_volcano.state import CatanState

_SETTLEMENTS = EDITION.pieces["settlements"]
_CITIES = EDITION.pieces["cities"]


def settlements_on_board(state: CatanState, seat: int) -> int:
    return _SETTLEMENTS - state.pieces[seat][1]


def cities_on_board(state: CatanState, seat: int) -> int:
    return _CITIES - state.pieces[seat][2]


def visible_points(state: CatanState, seat: int) -> int:
    """The points the table sees: buildings and awards, not victory point cards in hand."""
    pieces = state.pieces[seat]
    total = (_SETTLEMENTS - pieces[1]) + 2 * (_CITIES - pieces[2])
    if state.longest_road == seat:
        total += EDITION.longest_road_points
    if state.largest_army == seat:
        total += EDITION.largest_army_points
    return total


def points(state: CatanState, seat: int) -> int:
    """All of a seat's points, its victory point cards included."""
    return visible_points(state, seat) + state.devs[seat][VICTORY_POINT]


def longest_trail(state: CatanState, seat: int, through: int = -1) -> int:
    """The length of the seat's longest road; with ``through`` (an edge of the seat's), of the
    longest in the group of connected roads holding that edge only (see :func:`add_road`).

    >>> from referee.catan_volcano import GAME
    >>> state = GAME.start("base", 3, seed=1)
    >>> longest_trail(state, 0)
    0
    """
    edge_owner = state.edge_owner
    adjacency: dict[int, list[tuple[int, int]]] = {}
    bit = 1
    for edge, owner in enumerate(edge_owner):
        if owner == seat:
            a, b = EDGE_NODES[edge]
            adjacency.setdefault(a, []).append((bit, b))
            adjacency.setdefault(b, []).append((bit, a))
            bit <<= 1
    if not adjacency:
        return 0
    node_owner = state.node_owner
    blocked = {node for node in adjacency if node_owner[node] not in (-1, seat)}
    best = 0

    def walk(node: int, used: int, length: int) -> None:
        nonlocal best
        if length > best:
            best = length
        if used and node in blocked:
            return  # a road may end at another seat's building but not pass through it
        for edge_bit, other in adjacency[node]:
            if not used & edge_bit:
                walk(other, used | edge_bit, length + 1)

    origins = list(adjacency) if through < 0 else EDGE_NODES[through][:1]
    for start in _trail_starts(adjacency, blocked, origins):
        walk(start, 0, 0)
    return best


def _trail_starts(
    adjacency: dict[int, list[tuple[int, int]]], blocked: set[int], origins: Sequence[int]
) -> list[int]:
    """Where a longest trail may be looked for from: per connected group of roads holding one of
    ``origins``, its nodes of odd degree and its blocked nodes, or any one node if it has neither.

    Why that is enough: take a longest trail starting at a node neither blocked nor of odd degree.
    Every road at that node is on the trail (else the trail could take that road first, passing
    through the node); leaving it once and passing through it in pairs, the trail must end there:
    it is closed. Then every road at each node it passes through is on it too (else, turned to
    start at that node, it could take that road last), so it is its whole group of roads; and as it
    passes through every node of the group but one, which is not blocked, the group has no blocked
    node and, the trail being closed, no odd one. Walked from any one of its nodes, such a group
    gives a trail over all its roads.
    """
    seen: set[int] = set()
    starts: list[int] = []
    for node in origins:
        if node in seen:
            continue
        group = [node]
        seen.add(node)
        index = 0
        while index < len(group):
            for _, other in adjacency[group[index]]:
                if other not in seen:
                    seen.add(other)
                    group.append(other)
            index += 1
        ends = [member for member in group if len(adjacency[member]) % 2 or member in blocked]
        starts.extend(ends or group[:1])
    return starts


def update_longest_road(state: CatanState, seats: range | list[int] | tuple[int, ...]) -> None:
    """Recount the roads of ``seats`` and move the award as the rules say."""
    lengths = state.road_length
    for seat in seats:
        lengths[seat] = longest_trail(state, seat)
    _award_longest_road(state)


def add_road(state: CatanState, seat: int, edge: int) -> None:
    """After the seat's new road on ``edge``: its length and the award, as
    :func:`update_longest_road` would set them, walking only the group of roads the new one joined.

    Why that is enough: a road added breaks no trail, so the seat's old trails all remain, none
    longer than its recorded length; a new trail must use the new road, so it lies in that road's
    group. The longest road is then the longer of the recorded length and that group's longest
    (the recorded lengths are always those of the board: every change of roads or buildings
    recounts them). Building a road is the most common change of the board, and a seat's roads
    often stay in two groups from its two starting settlements for much of a game."""
    lengths = state.road_length
    found = longest_trail(state, seat, edge)
    if found > lengths[seat]:
        lengths[seat] = found
    _award_longest_road(state)


def _award_longest_road(state: CatanState) -> None:
    """Move the award as the rules say, given every seat's current length."""
    lengths = state.road_length
    best = max(lengths)
    holder = state.longest_road
    if holder >= 0 and lengths[holder] == best and best >= EDITION.longest_road_minimum:
        return
    leaders = [seat for seat, length in enumerate(lengths) if length == best]
    new = leaders[0] if best >= EDITION.longest_road_minimum and len(leaders) == 1 else -1
    if new != holder:
        state.longest_road = new
        record(state, {"type": "longest_road", "seat": None if new < 0 else new, "length": best})


def update_largest_army(state: CatanState, seat: int) -> None:
    """After a knight: the first to three knights takes the award, then only strictly more."""
    knights = state.played[seat][KNIGHT]
    holder = state.largest_army
    if holder == seat or knights < EDITION.largest_army_minimum:
        return
    if holder < 0 or knights > state.played[holder][KNIGHT]:
        state.largest_army = seat
        record(state, {"type": "largest_army", "seat": seat, "knights": knights})
