"""Roads, settlements and cities: where they may go, what they cost, and the snake-order setup.

The distance rule: no building on a node next to another building. A road extends from the seat's
own road or building and never through another seat's building. A settlement after the setup must
touch one of the seat's roads. Pieces come from a limited supply (15 roads, 5 settlements, 4
cities); a city returns its settlement to the supply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.catan_volcano import awards, changes, flow
from referee.catan_volcano.changes import ROADS
from referee.catan_volcano.edition import EDITION
from referee.catan_volcano.events import named, record
from referee.catan_volcano.geometry import EDGE_NODES, NODE_COUNT, NODE_EDGES, NODE_HEXES, NODE_NODES

if TYPE_CHECKING:
    from referee.catan_volcano.position import Position
    from referee.game import Move

ROAD_COST = EDITION.costs["road"]
SETTLEMENT_COST = EDITION.costs["settlement"]
CITY_COST = EDITION.costs["city"]


def can_pay(hand: list[int], cost: tuple[int, ...]) -> bool:
    wood, brick, sheep, wheat, ore = hand  # written out: no generator for five comparisons
    need_wood, need_brick, need_sheep, need_wheat, need_ore = cost
    return (
        wood >= need_wood
        and brick >= need_brick
        and sheep >= need_sheep
        and wheat >= need_wheat
        and ore >= need_ore
    )


def own_road_ends(state: Position, seat: int) -> set[int]:
    """Nodes at the end of one of the seat's roads where it may build on: not another seat's building."""
    node_owner, edge_owner = state.node_owner, state.edge_owner
    ends: set[int] = set()
    open_to = (-1, seat)
    edge = -1
    for _ in range(edge_owner.count(seat)):  # the seat's roads found by C scans, not a Python loop
        edge = edge_owner.index(seat, edge + 1)
        a, b = EDGE_NODES[edge]
        if node_owner[a] in open_to:
            ends.add(a)
        if node_owner[b] in open_to:
            ends.add(b)
    return ends


def owned_nodes(state: Position, seat: int) -> list[int]:
    """The nodes of the seat's buildings, in node order (found by C scans of ``node_owner``)."""
    node_owner = state.node_owner
    nodes: list[int] = []
    node = -1
    for _ in range(node_owner.count(seat)):
        node = node_owner.index(seat, node + 1)
        nodes.append(node)
    return nodes


def road_spots(state: Position, seat: int) -> list[int]:
    """Empty edges the seat may build a road on (touching its road or building), in edge order."""
    edge_owner = state.edge_owner
    ends = own_road_ends(state, seat)
    ends.update(owned_nodes(state, seat))
    return sorted({edge for node in ends for edge in NODE_EDGES[node] if edge_owner[edge] == -1})


def settlement_spots(state: Position, seat: int) -> list[int]:
    """Nodes on the seat's roads where the distance rule allows a settlement, in node order."""
    owner = state.node_owner
    spots: list[int] = []
    for node in own_road_ends(state, seat):
        if owner[node] == -1:  # the distance rule: the node and its neighbours free
            for other in NODE_NODES[node]:
                if owner[other] != -1:
                    break
            else:
                spots.append(node)
    spots.sort()
    return spots


def city_spots(state: Position, seat: int) -> list[int]:
    """The seat's settlements, in node order."""
    level = state.node_level
    return [node for node in owned_nodes(state, seat) if level[node] == 1]


def place_building(state: Position, seat: int, node: int) -> None:
    """A settlement goes on ``node``; roads of other seats through it may be broken."""
    changes.put_settlement(state, seat, node)
    edge_owner = state.edge_owner
    cut = {edge_owner[edge] for edge in NODE_EDGES[node]} - {-1, seat}
    if cut:
        awards.update_longest_road(state, sorted(cut))


# -- the setup ---------------------------------------------------------------------------------


def setup_seat(state: Position, step: int) -> int:
    """Snake order: seats 0..n-1 place once, then n-1..0 again."""
    n = state.seats
    order = step if step < n else 2 * n - 1 - step
    return (EDITION.first_seat + order) % n


def setup_settlement_spots(state: Position) -> list[int]:
    """Free nodes under the distance rule (and off the volcanoes with ``no_start_on_volcano``).

    The nodes each building rules out (its own and its neighbours, :data:`_RULED_OUT`) are joined
    first, then the nodes left listed: a handful of set unions instead of a look at every node's
    neighbours."""
    ruled_out = set(state.tables.volcano_nodes) if state.option("no_start_on_volcano") else set()
    for seat in range(state.seats):
        for node in owned_nodes(state, seat):
            ruled_out |= _RULED_OUT[node]
    return [node for node in range(NODE_COUNT) if node not in ruled_out]


_RULED_OUT: tuple[frozenset[int], ...] = tuple(
    frozenset((node, *NODE_NODES[node])) for node in range(NODE_COUNT)
)
"""``_RULED_OUT[node]``: the nodes a building on ``node`` keeps others off (the distance rule)."""


def setup_road_spots(state: Position) -> list[int]:
    """Edges at the seat's newest settlement, the one without a road of the seat yet."""
    seat = state.current
    edge_owner = state.edge_owner
    for node in range(NODE_COUNT):
        if state.node_owner[node] == seat and all(edge_owner[e] != seat for e in NODE_EDGES[node]):
            return [edge for edge in NODE_EDGES[node] if edge_owner[edge] == -1]
    return []


def place_settlement(state: Position, move: Move) -> None:
    """Setup: a free settlement; the second one yields a card per neighbouring producing hex."""
    seat, node = state.current, move["node"]
    place_building(state, seat, node)
    record(state, {"type": "place_settlement", "seat": seat, "node": node})
    if state.setup_step >= state.seats:
        production, bank = state.tables.production, state.bank
        gained = [0] * len(EDITION.resources)
        for hex_id in NODE_HEXES[node]:
            resource = production[hex_id]
            if 0 <= resource < len(gained) and bank[resource]:
                changes.from_bank(state, seat, resource, 1)
                gained[resource] += 1
        record(state, {"type": "starting_resources", "seat": seat, "resources": named(gained)})
    state.phase = "place_road"


def place_road(state: Position, move: Move) -> None:
    """A free road: in the setup, or from a road building card."""
    seat, edge = state.current, move["edge"]
    changes.put_road(state, seat, edge)
    record(state, {"type": "place_road", "seat": seat, "edge": edge})
    awards.add_road(state, seat, edge)
    if state.phase == "road_building":
        state.free_roads -= 1
        if state.free_roads == 0 or not state.pieces[seat][ROADS] or not road_spots(state, seat):
            state.free_roads = 0
            flow.resume(state)
        return
    state.setup_step += 1
    if state.setup_step < 2 * state.seats:
        state.current = setup_seat(state, state.setup_step)
        state.phase = "place_settlement"
    else:
        flow.begin_turn(state, EDITION.first_seat)


# -- building after the setup ------------------------------------------------------------------


def build_road(state: Position, move: Move) -> None:
    seat, edge = state.current, move["edge"]
    changes.pay_bank(state, seat, ROAD_COST)
    changes.put_road(state, seat, edge)
    record(state, {"type": "build_road", "seat": seat, "edge": edge})
    awards.add_road(state, seat, edge)


def build_settlement(state: Position, move: Move) -> None:
    seat, node = state.current, move["node"]
    changes.pay_bank(state, seat, SETTLEMENT_COST)
    place_building(state, seat, node)
    record(state, {"type": "build_settlement", "seat": seat, "node": node})


def build_city(state: Position, move: Move) -> None:
    seat, node = state.current, move["node"]
    changes.pay_bank(state, seat, CITY_COST)
    changes.upgrade_city(state, seat, node)
    record(state, {"type": "build_city", "seat": seat, "node": node})
