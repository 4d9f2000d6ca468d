"""Maritime trade (4:1, 3:1 and 2:1 at harbours) and trade offers between seats."""

from __future__ import annotations

import pytest

from referee.game import IllegalMove
from tests.referee.catan_volcano.positions import (
    events,
    give,
    hand,
    of_type,
    settlement,
    start_turn,
    table,
    types,
)


def _maritime(state, give_name: str) -> list[str]:
    return [m["get"] for m in of_type(state, "maritime_trade") if m["give"] == give_name]


def test_the_bank_trades_four_for_one() -> None:
    state = start_turn(table("base", 4), 0, "main")
    give(state, 0, wood=4, brick=3)
    assert _maritime(state, "wood") == ["brick", "sheep", "wheat", "ore"]
    assert _maritime(state, "brick") == []
    state.apply({"type": "maritime_trade", "give": "wood", "get": "ore"})
    assert hand(state, 0) == {"brick": 3, "ore": 1}
    assert state.bank == [19, 19 - 3, 19, 19, 19 - 1]  # the four wood went back to the bank


def test_a_generic_harbour_trades_three_for_one() -> None:
    state = table("base", 4)
    settlement(state, 0, 3)  # the beginner board's top-left 3:1 harbour
    start_turn(state, 0, "main")
    give(state, 0, brick=3)
    state.apply({"type": "maritime_trade", "give": "brick", "get": "wheat"})
    assert hand(state, 0) == {"wheat": 1}


def test_a_resource_harbour_trades_two_of_that_resource_only() -> None:
    state = table("base", 4)
    settlement(state, 0, 16)  # the 2:1 wood harbour
    start_turn(state, 0, "main")
    give(state, 0, wood=2, sheep=3)
    assert _maritime(state, "wood") == ["brick", "sheep", "wheat", "ore"]
    assert _maritime(state, "sheep") == []
    state.apply({"type": "maritime_trade", "give": "wood", "get": "sheep"})
    assert hand(state, 0) == {"sheep": 4}


def test_the_bank_gives_only_what_it_has() -> None:
    state = start_turn(table("base", 4), 0, "main")
    state.bank[4] = 0
    give(state, 0, wood=4)
    assert "ore" not in _maritime(state, "wood")


def _offer(to, give_name="wood", get_name="ore", give_count=1, get_count=1) -> dict:
    return {
        "type": "offer_trade",
        "to": to,
        "give": give_name,
        "give_count": give_count,
        "get": get_name,
        "get_count": get_count,
    }


def test_an_offer_to_all_is_answered_in_seat_order_and_the_offerer_picks_one() -> None:
    state = start_turn(table("base", 4), 1, "main")
    give(state, 1, wood=2)
    give(state, 2, ore=1)
    give(state, 0, ore=2)
    # seat 3 holds no ore: it declines without being asked
    state.apply(_offer("all"))
    assert state.phase == "trade_answer" and state.current_seat == 2
    assert types(state) == {"accept_trade", "decline_trade"}
    state.apply({"type": "accept_trade"})
    assert state.current_seat == 0
    state.apply({"type": "accept_trade"})
    assert [e["seat"] for e in events(state, "decline_trade")] == [3]
    assert state.phase == "trade_confirm" and state.current_seat == 1
    assert state.legal_moves() == [
        {"type": "confirm_trade", "seat": 2},
        {"type": "confirm_trade", "seat": 0},
        {"type": "cancel_trade"},
    ]
    state.apply({"type": "confirm_trade", "seat": 0})
    assert hand(state, 1) == {"wood": 1, "ore": 1}
    assert hand(state, 0) == {"wood": 1, "ore": 1}
    assert hand(state, 2) == {"ore": 1}
    assert state.phase == "main" and state.current_seat == 1


def test_an_offer_to_one_seat_and_a_two_for_one() -> None:
    state = start_turn(table("base", 4), 0, "main")
    give(state, 0, sheep=2, brick=1)
    give(state, 3, wheat=1)
    state.apply(_offer(3, "sheep", "wheat", give_count=2))
    assert state.current_seat == 3
    state.apply({"type": "accept_trade"})
    state.apply({"type": "confirm_trade", "seat": 3})
    assert hand(state, 0) == {"brick": 1, "wheat": 1}
    assert hand(state, 3) == {"sheep": 2}


def test_declined_or_cancelled_offers_change_nothing() -> None:
    state = start_turn(table("base", 4), 0, "main")
    give(state, 0, wood=1, brick=1)
    give(state, 1, ore=1)
    state.apply(_offer(1))
    state.apply({"type": "decline_trade"})
    assert state.phase == "main" and hand(state, 1) == {"ore": 1}
    state.apply(_offer(1, "brick"))
    state.apply({"type": "accept_trade"})
    state.apply({"type": "cancel_trade"})
    assert hand(state, 0) == {"wood": 1, "brick": 1} and hand(state, 1) == {"ore": 1}


def test_offers_are_bounded_per_turn_and_small() -> None:
    state = start_turn(table("base", 4), 0, "main")
    give(state, 0, wood=4, brick=1)
    give(state, 1, ore=1)
    offers = of_type(state, "offer_trade")
    # wood one-for-one and two-for-one, brick one-for-one; four other resources; all or one of 3 seats
    assert len(offers) == 3 * 4 * 4
    for _ in range(2):
        state.apply(_offer(1))
        state.apply({"type": "decline_trade"})
    assert state.phase == "main" and state.current_seat == 0
    assert of_type(state, "offer_trade") == []
    assert of_type(state, "maritime_trade")


def test_an_offer_needs_the_cards_offered() -> None:
    state = start_turn(table("base", 4), 0, "main")
    give(state, 0, wood=1, brick=1)
    with pytest.raises(IllegalMove):
        state.apply(_offer(1, "wood", give_count=2))
    with pytest.raises(IllegalMove):
        state.apply(_offer(1, "sheep"))


def test_the_trades_option_off_allows_no_offers() -> None:
    state = start_turn(table("base", 4, trades=False), 0, "main")
    give(state, 0, wood=1, brick=1)
    assert of_type(state, "offer_trade") == []


def test_trading_only_after_the_roll() -> None:
    state = table("base", 4)
    give(state, 0, wood=4)
    assert types(state) == {"roll"}
