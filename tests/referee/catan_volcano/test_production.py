"""Dice and production with the bank's limits; the 7: discards, the robber, the steal."""

from __future__ import annotations

import pytest

from referee.game import IllegalMove
from tests.referee.catan_volcano.positions import (
    deal_card,
    events,
    give,
    hand,
    of_type,
    rig,
    roll,
    settlement,
    start_turn,
    table,
    types,
)

ROLL = {"type": "roll"}


def _producing_table(**options: str):
    """Seat 0: a settlement on node 8 (mountains 10, pasture 2, hills 6).
    Seat 1: a city on node 23 (hills 6, forest 11, desert).
    Seat 0 holds a victory point card: a seat holding nothing has nothing to decide after its roll,
    so the engine would end its turn and roll for the next seat, and a test would see two rolls."""
    state = table("base", 4, **options)
    settlement(state, 0, 8)
    settlement(state, 1, 23, city=True)
    deal_card(state, 0, "victory_point")
    return state


def test_a_settlement_yields_one_card_and_a_city_two() -> None:
    state = _producing_table()
    rig(state, roll(2, 4))
    state.apply(ROLL)
    assert state.dice == (2, 4)
    assert hand(state, 0) == {"brick": 1}
    assert hand(state, 1) == {"brick": 2}
    assert state.bank[1] == 19 - 3
    assert events(state, "production")[-1]["gains"] == [{"brick": 1}, {"brick": 2}, {}, {}]
    assert state.phase == "main" and state.current_seat == 0


def test_hexes_without_the_number_and_the_desert_yield_nothing() -> None:
    state = _producing_table()
    rig(state, roll(5, 6))  # 11: forest 11 touches node 23 only
    state.apply(ROLL)
    assert hand(state, 0) == {}
    assert hand(state, 1) == {"wood": 2}


def test_the_robber_stops_its_hex_from_producing() -> None:
    state = _producing_table()
    state.robber = 4  # hills 6
    rig(state, roll(3, 3))
    state.apply(ROLL)
    assert hand(state, 0) == {} and hand(state, 1) == {}


def test_a_resource_the_bank_cannot_pay_to_everyone_is_paid_to_no_one() -> None:
    state = _producing_table()
    state.bank[1] = 2  # three bricks are owed
    rig(state, roll(3, 3))
    state.apply(ROLL)
    assert hand(state, 0) == {} and hand(state, 1) == {}
    assert state.bank[1] == 2
    assert events(state, "production")[-1]["bank_short"] == ["brick"]


def test_a_bank_holding_exactly_what_is_owed_pays_everyone() -> None:
    """Only a bank that cannot pay is short: one holding exactly the cards owed pays them all."""
    state = _producing_table()
    state.bank[1] = 3  # three bricks are owed: one to the settlement, two to the city
    rig(state, roll(3, 3))
    state.apply(ROLL)
    assert hand(state, 0) == {"brick": 1} and hand(state, 1) == {"brick": 2}
    assert state.bank[1] == 0
    assert events(state, "production")[-1]["bank_short"] == []


def test_by_default_a_single_seat_owed_a_short_resource_gets_nothing_either() -> None:
    state = table("base", 4)
    settlement(state, 1, 23, city=True)
    deal_card(state, 0, "victory_point")  # seat 0 has a decision after the roll (see _producing_table)
    state.bank[1] = 1  # the city is owed two bricks
    rig(state, roll(3, 3))
    state.apply(ROLL)
    assert hand(state, 1) == {}
    assert state.bank[1] == 1
    assert events(state, "production")[-1]["bank_short"] == ["brick"]


def test_with_the_rulebooks_exception_a_single_seat_owed_a_short_resource_takes_what_is_left() -> None:
    state = table("base", 4, bank_shortage="single_takes_rest")
    settlement(state, 1, 23, city=True)
    state.bank[1] = 1  # the city is owed two bricks
    rig(state, roll(3, 3))
    state.apply(ROLL)
    assert hand(state, 1) == {"brick": 1}
    assert state.bank[1] == 0


def test_with_the_rulebooks_exception_two_seats_owed_a_short_resource_still_get_nothing() -> None:
    state = _producing_table(bank_shortage="single_takes_rest")
    state.bank[1] = 2  # three bricks are owed
    rig(state, roll(3, 3))
    state.apply(ROLL)
    assert hand(state, 0) == {} and hand(state, 1) == {}
    assert state.bank[1] == 2


def _roll_six(state) -> dict:
    """Seat 0 rolls a 6 (hills 6 is hex 4) at the start of its turn; the production event."""
    start_turn(state, 0, "roll")
    rig(state, roll(3, 3))
    state.apply(ROLL)
    return events(state, "production")[-1]


def test_the_same_number_pays_again_after_a_short_bank_and_after_the_robber_leaves() -> None:
    """What a number pays is worked out once per arrangement of the pieces and robber hex: a
    shortage, the robber coming and going, and a city built in between all show on the next roll."""
    state = _producing_table()
    state.bank[1] = 2  # three bricks owed: paid to no one
    assert _roll_six(state)["gains"] == [{}, {}, {}, {}]
    state.bank[1] = 19
    assert _roll_six(state)["gains"] == [{"brick": 1}, {"brick": 2}, {}, {}]
    state.robber = 4
    assert _roll_six(state)["gains"] == [{}, {}, {}, {}]
    state.robber = 9
    assert _roll_six(state)["gains"] == [{"brick": 1}, {"brick": 2}, {}, {}]
    start_turn(state, 0, "main")
    give(state, 0, wheat=2, ore=3)
    state.apply({"type": "build_city", "node": 8})
    assert _roll_six(state)["gains"] == [{"brick": 2}, {"brick": 2}, {}, {}]
    assert hand(state, 0) == {"brick": 2}


def test_a_seven_makes_big_hands_discard_half_rounded_down_one_card_at_a_time() -> None:
    state = _producing_table()
    give(state, 0, wood=5, ore=4)  # 9 cards: discards 4
    give(state, 1, sheep=7)  # 7 cards: keeps them
    give(state, 2, wheat=8)  # 8 cards: discards 4
    rig(state, roll(3, 4))
    state.apply(ROLL)
    assert events(state, "discards_due")[-1]["counts"] == [4, 0, 4, 0]
    assert state.phase == "discard" and state.current_seat == 0
    assert of_type(state, "discard") == [
        {"type": "discard", "resource": "wood"},
        {"type": "discard", "resource": "ore"},
    ]
    for resource in ("wood", "wood", "ore"):
        state.apply({"type": "discard", "resource": resource})
        assert state.current_seat == 0
    state.apply({"type": "discard", "resource": "ore"})
    # seat 2 holds one kind only, but it is asked all the same: whether a hand holds one kind or
    # more is hidden, and being asked or not would tell the table
    assert state.current_seat == 2
    assert state.legal_moves() == [{"type": "discard", "resource": "wheat"}]
    for _ in range(4):
        state.apply({"type": "discard", "resource": "wheat"})
    assert hand(state, 0) == {"wood": 3, "ore": 2}
    assert hand(state, 1) == {"sheep": 7}
    assert hand(state, 2) == {"wheat": 4}
    assert [e["seat"] for e in events(state, "discard")] == [0, 0, 0, 0, 2, 2, 2, 2]
    assert state.phase == "robber" and state.current_seat == 0


def test_the_robber_moves_to_another_hex_and_steals_from_a_seat_there() -> None:
    state = _producing_table()
    give(state, 1, sheep=1, ore=2)
    give(state, 2, wood=1)
    settlement(state, 2, 13)  # seat 2 on hills 6 as well
    rig(state, roll(3, 4))
    state.apply(ROLL)
    moves = of_type(state, "move_robber")
    assert all(move["hex"] != 9 for move in moves)  # it must leave the desert
    on_hills = [move for move in moves if move["hex"] == 4]
    # seat 0 (the thief) is on hills 6 too, but never robs itself
    assert on_hills == [
        {"type": "move_robber", "hex": 4, "victim": 1},
        {"type": "move_robber", "hex": 4, "victim": 2},
    ]
    assert {"type": "move_robber", "hex": 0, "victim": None} in moves  # only seat 0 is there
    rig(state, (3, 2))  # the third of seat 1's three cards, in resource order: ore
    state.apply({"type": "move_robber", "hex": 4, "victim": 1})
    assert state.robber == 4
    assert hand(state, 1) == {"sheep": 1, "ore": 1}
    assert hand(state, 0) == {"ore": 1}
    assert state.phase == "main" and state.current_seat == 0


def test_a_seat_without_cards_cannot_be_robbed() -> None:
    state = _producing_table()
    rig(state, roll(3, 4))
    state.apply(ROLL)
    assert [m for m in of_type(state, "move_robber") if m["hex"] == 4] == [
        {"type": "move_robber", "hex": 4, "victim": None}
    ]
    with pytest.raises(IllegalMove):
        state.apply({"type": "move_robber", "hex": 4, "victim": 1})


def test_without_big_hands_a_seven_goes_straight_to_the_robber() -> None:
    state = _producing_table()
    give(state, 0, wood=7)
    rig(state, roll(1, 6))
    state.apply(ROLL)
    assert state.phase == "robber"
    assert not events(state, "discards_due")


def test_before_the_roll_only_the_roll_and_card_plays_are_allowed() -> None:
    state = _producing_table()
    give(state, 0, wood=4, brick=1)  # enough for a road and a bank trade, after the roll
    deal_card(state, 0, "knight")
    start_turn(state, 0, "roll")
    assert types(state) == {"roll", "play_knight"}
    start_turn(state, 0, "main")
    assert {"build_road", "maritime_trade", "play_knight"} <= types(state)
    assert "roll" not in types(state)
