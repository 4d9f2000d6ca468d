"""The snake-order setup: a settlement and a road each, the second round in reverse, the second
settlement's cards, the distance rule from the first settlement on."""

from __future__ import annotations

from referee.catan_volcano import GAME
from referee.catan_volcano.geometry import NODE_EDGES, NODE_NODES, edge_between
from tests.referee.catan_volcano.positions import events, hand


def _place(state, node: int, towards: int) -> None:
    seat = state.current_seat
    state.apply({"type": "place_settlement", "node": node})
    assert state.current_seat == seat and state.phase == "place_road"
    state.apply({"type": "place_road", "edge": edge_between(node, towards)})


def test_seats_place_in_snake_order_and_seat_0_then_rolls() -> None:
    state = GAME.start("base", 4, seed=3, options={"board": "beginner"})
    spots = [(0, 3), (2, 6), (11, 7), (15, 10), (21, 16), (26, 20), (38, 33), (42, 37)]
    order = []
    for node, towards in spots:
        order.append(state.current_seat)
        _place(state, node, towards)
    assert order == [0, 1, 2, 3, 3, 2, 1, 0]
    # the setup is over: seat 0's turn began with the roll (no card to play first, so the engine
    # rolled for it), and production or a 7 followed
    assert state.turn_seat == 0 and state.turn == 0
    assert events(state, "roll")[0]["seat"] == 0
    assert state.phase in ("main", "discard", "robber")


def test_three_seats_place_0_1_2_2_1_0() -> None:
    state = GAME.start("base", 3, seed=3, options={"board": "beginner"})
    order = []
    for node, towards in [(0, 3), (2, 6), (11, 7), (15, 10), (21, 16), (26, 20)]:
        order.append(state.current_seat)
        _place(state, node, towards)
    assert order == [0, 1, 2, 2, 1, 0]


def test_the_distance_rule_holds_from_the_first_settlement() -> None:
    state = GAME.start("base", 4, seed=3, options={"board": "beginner"})
    state.apply({"type": "place_settlement", "node": 18})
    offered_roads = {m["edge"] for m in state.legal_moves()}
    assert offered_roads == set(NODE_EDGES[18])  # the road must touch the new settlement
    state.apply({"type": "place_road", "edge": edge_between(18, 13)})
    spots = {m["node"] for m in state.legal_moves()}
    assert 18 not in spots
    assert not spots & set(NODE_NODES[18])  # no neighbour of a settlement
    assert 8 in spots  # two edges away is fine
    assert len(spots) == 54 - 1 - 3


def test_only_the_second_settlement_yields_one_card_per_producing_hex() -> None:
    state = GAME.start("base", 3, seed=3, options={"board": "beginner"})
    # node 12 touches mountains 10, fields 12 and hills 6; node 18 touches hills, pasture, desert
    _place(state, 12, 7)
    assert hand(state, 0) == {}
    _place(state, 2, 6)
    _place(state, 26, 20)
    _place(state, 38, 33)  # seat 2's second: forest 8 only
    assert hand(state, 2) == {"wood": 1}
    _place(state, 42, 37)  # seat 1's second: pasture 5 only
    assert hand(state, 1) == {"sheep": 1}
    state.apply({"type": "place_settlement", "node": 18})  # seat 0's second: hills, pasture, desert
    assert events(state, "starting_resources")[-1] == {
        "type": "starting_resources",
        "seat": 0,
        "resources": {"brick": 1, "sheep": 1},
        "turn": 0,
    }
    assert state.hands[0] == [0, 1, 1, 0, 0]
    assert state.bank == [18, 18, 17, 19, 19]  # one wood, one brick, two sheep paid out
