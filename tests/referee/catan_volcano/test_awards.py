"""Longest road (broken by an opponent's settlement) and largest army."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catan_volcano import awards
from referee.catan_volcano.geometry import (
    EDGE_COUNT,
    EDGE_NODES,
    HEX_NODES,
    NODE_COUNT,
    NODE_EDGES,
    edge_between,
)
from tests.referee.catan_volcano.positions import (
    deal_card,
    events,
    give,
    road,
    settlement,
    start_turn,
    table,
)

# a path of six edges along the top of the island, and one along the second row
TOP = (3, 0, 4, 1, 5, 2, 6)
SECOND = (11, 7, 12, 8, 13, 9, 14)


def test_five_roads_in_a_row_take_the_longest_road() -> None:
    state = table("base", 4)
    settlement(state, 0, 3)
    road(state, 0, 3, 0, 4, 1, 5)  # four
    assert state.longest_road == -1 and state.road_length[0] == 4
    start_turn(state, 0, "main")
    give(state, 0, wood=1, brick=1)
    state.apply({"type": "build_road", "edge": edge_between(5, 2)})
    assert state.road_length[0] == 5 and state.longest_road == 0
    assert awards.visible_points(state, 0) == 1 + 2
    assert events(state, "longest_road")[-1]["seat"] == 0


def test_a_branch_does_not_count_twice_but_a_loop_does() -> None:
    state = table("base", 4)
    road(state, 0, 3, 0, 4, 1, 5)
    road(state, 0, 4, 8)  # a branch: still four
    assert state.road_length[0] == 4
    # a ring around hex 0 (six edges) plus a tail: the trail runs the ring and the tail
    ring = table("base", 4)
    road(ring, 1, 0, 4, 8, 12, 7, 3, 0)
    assert ring.road_length[1] == 6
    road(ring, 1, 7, 11)
    assert ring.road_length[1] == 7


def test_only_a_strictly_longer_road_takes_the_award() -> None:
    state = table("base", 4)
    road(state, 0, *TOP[:6])  # five
    road(state, 1, *SECOND[:6])  # five as well
    assert state.longest_road == 0
    road(state, 1, SECOND[5], SECOND[6])  # six
    assert state.longest_road == 1


def test_an_opponents_settlement_breaks_a_road_and_the_award_moves() -> None:
    state = table("base", 4)
    road(state, 0, *TOP)  # six
    road(state, 1, *SECOND[:6])  # five
    assert state.longest_road == 0
    start_turn(state, 2, "main")
    road(state, 2, 8, 4)
    give(state, 2, wood=1, brick=1, sheep=1, wheat=1)
    # node 4 lies in the middle of seat 0's road: 3-0-4 | 4-1-5-2-6 leaves four
    state.apply({"type": "build_settlement", "node": 4})
    assert state.road_length[0] == 4
    assert state.longest_road == 1


def test_a_broken_road_with_a_tie_for_longest_sets_the_award_aside() -> None:
    state = table("base", 4)
    road(state, 0, *TOP)  # six
    road(state, 1, *SECOND[:6])  # five
    road(state, 2, 21, 27, 33, 28, 34, 29)  # five
    start_turn(state, 3, "main")
    road(state, 3, 8, 4)
    give(state, 3, wood=1, brick=1, sheep=1, wheat=1)
    state.apply({"type": "build_settlement", "node": 4})
    assert state.road_length[:3] == [4, 5, 5]
    assert state.longest_road == -1
    assert events(state, "longest_road")[-1]["seat"] is None


def test_the_holder_keeps_the_award_while_still_tied_for_longest() -> None:
    state = table("base", 4)
    road(state, 0, *TOP, 10)  # seven
    road(state, 1, *SECOND[:6])  # five
    start_turn(state, 2, "main")
    road(state, 2, 8, 4)
    give(state, 2, wood=1, brick=1, sheep=1, wheat=1)
    state.apply({"type": "build_settlement", "node": 4})  # 3-0-4 | 4-1-5-2-6-10: five
    assert state.road_length[:2] == [5, 5]
    assert state.longest_road == 0


def test_three_knights_take_the_largest_army_and_only_more_take_it_away() -> None:
    state = table("base", 4)
    settlement(state, 0, 18)
    for turn in range(3):
        start_turn(state, 0, "main")
        deal_card(state, 0, "knight")
        state.apply({"type": "play_knight"})
        state.apply({"type": "move_robber", "hex": 0 if turn % 2 == 0 else 1, "victim": None})
    assert state.largest_army == 0
    assert awards.visible_points(state, 0) == 1 + 2
    for turn in range(3):
        start_turn(state, 1, "main")
        deal_card(state, 1, "knight")
        state.apply({"type": "play_knight"})
        state.apply({"type": "move_robber", "hex": 2 if turn % 2 == 0 else 3, "victim": None})
    assert state.largest_army == 0  # three is not more than three
    start_turn(state, 1, "main")
    deal_card(state, 1, "knight")
    state.apply({"type": "play_knight"})
    assert state.largest_army == 1


def _longest_from_every_node(state: Any, seat: int) -> int:
    """The longest trail by walking from every node of the seat's roads (what the engine may skip)."""
    adjacency: dict[int, list[tuple[int, int]]] = {}
    for edge, owner in enumerate(state.edge_owner):
        if owner == seat:
            a, b = EDGE_NODES[edge]
            adjacency.setdefault(a, []).append((edge, b))
            adjacency.setdefault(b, []).append((edge, a))
    blocked = {node for node in adjacency if state.node_owner[node] not in (-1, seat)}

    def walk(node: int, used: frozenset[int]) -> int:
        if used and node in blocked:
            return len(used)
        return max([len(used)] + [walk(o, used | {e}) for e, o in adjacency[node] if e not in used])

    return max((walk(node, frozenset()) for node in adjacency), default=0)


@settings(max_examples=300, deadline=None)
@given(
    roads=st.lists(st.integers(0, EDGE_COUNT - 1), max_size=15, unique=True),
    seeds=st.lists(st.integers(0, EDGE_COUNT - 1), max_size=6, unique=True),
    grow=st.lists(st.integers(0, 2), min_size=15, max_size=15),
    others=st.lists(st.integers(0, NODE_COUNT - 1), max_size=4, unique=True),
    on_network=st.lists(st.integers(0, 40), max_size=3),
)
def test_longest_road_equals_a_walk_from_every_node(
    roads: list[int], seeds: list[int], grow: list[int], others: list[int], on_network: list[int]
) -> None:
    """Walking only from odd or blocked nodes (one node per group without any) finds the same length
    as walking from every node, on scattered roads and on connected networks with loops and
    branches, other seats' buildings on them or not."""
    state = table("base", 4)
    for edge in roads:
        state.edge_owner[edge] = 0
    network = list(seeds)  # grown from a few edges along their neighbours: loops and branches
    for step, choice in enumerate(grow):
        if not network:
            break
        a, b = EDGE_NODES[network[step % len(network)]]
        touching = [e for e in NODE_EDGES[a] + NODE_EDGES[b] if e not in network]
        if touching:
            network.append(touching[choice % len(touching)])
    for edge in network:
        state.edge_owner[edge] = 1
    corners = sorted({node for edge in network for node in EDGE_NODES[edge]})
    if corners:  # other seats' buildings on the network too, where they block it (on a loop, say)
        others = others + [corners[pick % len(corners)] for pick in on_network]
    for node in others:
        state.node_owner[node] = 2
        state.node_level[node] = 1
    for seat in (0, 1):
        assert awards.longest_trail(state, seat) == _longest_from_every_node(state, seat)


def test_a_ring_through_another_seats_building_is_walked_from_that_building() -> None:
    """Every node of a ring has two roads; with another seat's settlement on one, the only trail
    over all six roads starts and ends at that settlement (it may not be passed through)."""
    state = table("base", 4)
    ring = HEX_NODES[0]
    for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
        state.edge_owner[edge_between(a, b)] = 0
    for blocked in ring:
        state.node_owner[blocked] = 2
        state.node_level[blocked] = 1
        assert awards.longest_trail(state, 0) == _longest_from_every_node(state, 0) == 6
        state.node_owner[blocked] = -1
        state.node_level[blocked] = 0


@settings(max_examples=150)
@given(
    rings=st.lists(st.integers(0, 18), max_size=2, unique=True),
    seeds=st.lists(st.integers(0, EDGE_COUNT - 1), min_size=1, max_size=3, unique=True),
    grow=st.lists(st.integers(0, 5), min_size=1, max_size=15),
    others=st.lists(st.integers(0, 40), max_size=4),
)
def test_a_road_added_counts_as_a_walk_from_every_node(
    rings: list[int], seeds: list[int], grow: list[int], others: list[int]
) -> None:
    """``add_road``, which walks from the new road's two ends when the trails from them cannot
    meet (and the group otherwise), gives after every road the length a walk from every node
    gives: roads around hexes (closing loops) and grown one at a time along their neighbours
    (branching), past other seats' buildings."""
    state = table("base", 4)
    network = [  # each ring open at first: its last side is built after the roads leading on
        edge_between(ring[k], ring[k + 1]) for ring in map(HEX_NODES.__getitem__, rings) for k in range(5)
    ]
    network += [edge for edge in seeds if edge not in network]
    for step, choice in enumerate(grow):
        a, b = EDGE_NODES[network[step % len(network)]]
        touching = [e for e in NODE_EDGES[a] + NODE_EDGES[b] if e not in network]
        if touching:
            network.append(touching[choice % len(touching)])
    network += [
        edge_between(HEX_NODES[hex_id][-1], HEX_NODES[hex_id][0])
        for hex_id in rings
        if edge_between(HEX_NODES[hex_id][-1], HEX_NODES[hex_id][0]) not in network
    ]
    corners = sorted({node for edge in network for node in EDGE_NODES[edge]})
    for pick in others:  # other seats' buildings on the network, before the roads are built
        state.node_owner[corners[pick % len(corners)]] = 2
        state.node_level[corners[pick % len(corners)]] = 1
    for edge in network:
        state.edge_owner[edge] = 1
        awards.add_road(state, 1, edge)
        assert state.road_length[1] == _longest_from_every_node(state, 1)
