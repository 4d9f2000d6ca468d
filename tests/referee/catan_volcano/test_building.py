"""Roads, settlements and cities: connection, the distance rule, costs and the piece limits."""

from __future__ import annotations

import pytest

from referee.catan_volcano import GAME, CatanState, building
from referee.catan_volcano import move_table as table_moves
from referee.catan_volcano.changes import CITIES, ROADS, SETTLEMENTS
from referee.catan_volcano.geometry import HEX_NODES, NODE_EDGES, edge_between
from referee.catan_volcano.placed import derived
from referee.game import IllegalMove, Move
from referee.rng import Rng
from tests.referee.catan_volcano.positions import (
    give,
    hand,
    of_type,
    refresh,
    road,
    settlement,
    start_turn,
    table,
)

ROAD_CARDS = {"wood": 1, "brick": 1}
SETTLEMENT_CARDS = {"wood": 1, "brick": 1, "sheep": 1, "wheat": 1}


def _seat0_at_18():
    """Seat 0: a settlement on node 18 and a road 18-13; its turn, after the roll."""
    state = table("base", 4)
    settlement(state, 0, 18)
    road(state, 0, 18, 13)
    return start_turn(state, 0, "main")


def test_a_road_extends_the_seats_own_road_or_building_and_costs_wood_and_brick() -> None:
    state = _seat0_at_18()
    give(state, 0, **ROAD_CARDS)
    offered = {m["edge"] for m in of_type(state, "build_road")}
    expected = (set(NODE_EDGES[18]) | set(NODE_EDGES[13])) - {edge_between(18, 13)}
    assert offered == expected
    state.apply({"type": "build_road", "edge": edge_between(13, 9)})
    assert state.edge_owner[edge_between(13, 9)] == 0
    assert hand(state, 0) == {}
    assert state.pieces[0][ROADS] == 15 - 2
    assert of_type(state, "build_road") == []  # no cards left


def test_a_road_may_end_at_another_seats_settlement_but_not_pass_through_it() -> None:
    state = _seat0_at_18()
    settlement(state, 1, 8)
    road(state, 0, 13, 8)
    give(state, 0, **ROAD_CARDS)
    offered = {m["edge"] for m in of_type(state, "build_road")}
    assert edge_between(8, 4) not in offered and edge_between(8, 12) not in offered
    assert edge_between(13, 9) in offered


def test_a_settlement_needs_an_own_road_and_two_edges_to_every_building() -> None:
    state = _seat0_at_18()
    road(state, 0, 13, 9)
    give(state, 0, **SETTLEMENT_CARDS)
    # node 13 is next to the settlement on 18; node 9 is two edges away
    assert [m["node"] for m in of_type(state, "build_settlement")] == [9]
    settlement(state, 2, 14)  # another seat settles next to node 9
    give(state, 0, **SETTLEMENT_CARDS)
    assert of_type(state, "build_settlement") == []
    with pytest.raises(IllegalMove):
        state.apply({"type": "build_settlement", "node": 9})


def test_a_settlement_costs_its_four_cards_and_a_piece() -> None:
    state = _seat0_at_18()
    road(state, 0, 13, 9)
    give(state, 0, **SETTLEMENT_CARDS, ore=1)
    state.apply({"type": "build_settlement", "node": 9})
    assert state.node_owner[9] == 0 and state.node_level[9] == 1
    assert hand(state, 0) == {"ore": 1}
    assert state.pieces[0][SETTLEMENTS] == 5 - 2
    assert state.bank == [19, 19, 19, 19, 18]


def test_a_city_replaces_an_own_settlement_and_returns_it_to_the_supply() -> None:
    state = _seat0_at_18()
    settlement(state, 1, 8)
    give(state, 0, wheat=2, ore=3)
    assert of_type(state, "build_city") == [{"type": "build_city", "node": 18}]
    state.apply({"type": "build_city", "node": 18})
    assert state.node_level[18] == 2
    assert state.pieces[0][CITIES] == 3 and state.pieces[0][SETTLEMENTS] == 5
    assert hand(state, 0) == {}


@pytest.mark.parametrize(
    ("piece", "cards", "move_type"),
    [
        (ROADS, ROAD_CARDS, "build_road"),
        (SETTLEMENTS, SETTLEMENT_CARDS, "build_settlement"),
        (CITIES, {"wheat": 2, "ore": 3}, "build_city"),
    ],
)
def test_no_piece_left_means_no_such_building(piece: int, cards: dict[str, int], move_type: str) -> None:
    state = _seat0_at_18()
    road(state, 0, 13, 9)
    give(state, 0, **cards)
    assert of_type(state, move_type)
    state.pieces[0][piece] = 0
    start_turn(state, 0, "main")
    assert of_type(state, move_type) == []


def test_building_is_only_after_the_roll_on_ones_own_turn() -> None:
    state = _seat0_at_18()
    give(state, 0, **ROAD_CARDS)
    start_turn(state, 0, "roll")
    assert of_type(state, "build_road") == []
    with pytest.raises(IllegalMove):
        state.apply({"type": "build_road", "edge": edge_between(13, 9)})


def _assert_kept_moves_are_worked_out_afresh(state: CatanState) -> None:
    """Every seat's road, settlement and city moves kept by what the pieces imply equal the spots
    the building rules work out from the board itself."""
    placed = derived(state)
    for seat in range(state.seats):
        assert placed.road_moves(state, seat) == tuple(
            table_moves.ROAD[edge] for edge in building.road_spots(state, seat)
        )
        assert placed.settlement_moves(state, seat) == tuple(
            table_moves.SETTLEMENT[node] for node in building.settlement_spots(state, seat)
        )
        assert placed.city_moves(state, seat) == tuple(
            table_moves.CITY[node] for node in building.city_spots(state, seat)
        )


def test_the_kept_build_moves_follow_the_board() -> None:
    """What the pieces imply keeps, per seat, the road, settlement and city moves as tuples of the
    shared move objects: on every position of random games they equal the spots worked out
    afresh, and a board changed by hand (then ``refresh``) gives the new ones."""
    for seed in range(3):
        state = GAME.start("vulkan-issimo", 4, seed=seed)
        picker = Rng(seed)
        while state.current_seat is not None:
            _assert_kept_moves_are_worked_out_afresh(state)
            state.apply(picker.choice(state.legal_moves()))
    state = _seat0_at_18()
    placed = derived(state)
    before = placed.road_moves(state, 0), placed.settlement_moves(state, 0), placed.city_moves(state, 0)
    road(state, 0, 13, 9)
    settlement(state, 0, 40, city=True)
    refresh(state)
    placed = derived(state)
    after = placed.road_moves(state, 0), placed.settlement_moves(state, 0), placed.city_moves(state, 0)
    assert after != before
    assert after[0] == tuple(table_moves.ROAD[edge] for edge in building.road_spots(state, 0))
    assert after[1] == tuple(table_moves.SETTLEMENT[node] for node in building.settlement_spots(state, 0))
    assert after[2] == tuple(table_moves.CITY[node] for node in building.city_spots(state, 0))


def test_kept_spots_follow_a_road_and_a_city_built_before_the_next_look() -> None:
    """The spots carried over after one building (a city raised leaves who owns each node as it
    was) are carried only if the roads stand as they did: here a road and a city are both built
    before the pieces are looked at again, so seat 0's road spots must take in the new road."""
    state = _seat0_at_18()
    give(state, 0, **ROAD_CARDS, wheat=2, ore=3)
    _assert_kept_moves_are_worked_out_afresh(state)  # every seat's found, to be carried over or not
    building.build_road(state, table_moves.ROAD[edge_between(13, 9)])  # the stage functions alone:
    building.build_city(state, table_moves.CITY[18])  # no look at the pieces between the two
    _assert_kept_moves_are_worked_out_afresh(state)


def _robber_moves_afresh(state: CatanState, robber: int, thief: int, has_cards: int) -> list[Move]:
    """The robber's moves worked out from the board alone: every hex but the robber's, with each
    other seat holding a card that has a building on a corner, or with no victim."""
    found: list[Move] = []
    for hex_id, corners in enumerate(HEX_NODES):
        if hex_id == robber:
            continue
        there = {state.node_owner[node] for node in corners} - {-1, thief}
        victims = [seat for seat in sorted(there) if has_cards >> seat & 1]
        found += [table_moves.ROBBER[(hex_id, seat)] for seat in victims or [None]]
    return found


def test_the_kept_robber_moves_follow_the_board() -> None:
    """The robber's moves, kept per thief and seats holding cards with the robber's hex cut out,
    equal those worked out afresh for every robber hex, and follow a building placed by hand."""
    state = _seat0_at_18()
    settlement(state, 1, 8)
    settlement(state, 2, 40, city=True)
    refresh(state)
    for robber in range(len(HEX_NODES)):
        for thief, has_cards in ((0, 0b1111), (0, 0b0101), (1, 0b0011), (3, 0)):
            kept = derived(state).robber_moves(robber, thief, has_cards)
            assert kept == _robber_moves_afresh(state, robber, thief, has_cards)
            assert all(move is table_moves.ROBBER[(move["hex"], move["victim"])] for move in kept)
    settlement(state, 3, 24)
    refresh(state)
    assert derived(state).robber_moves(4, 0, 0b1111) == _robber_moves_afresh(state, 4, 0, 0b1111)
