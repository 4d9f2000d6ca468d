"""The end: ten points on one's own turn, the turn limit, forced moves played by the engine."""

from __future__ import annotations

from referee.catan_volcano import awards
from tests.referee.catan_volcano.positions import (
    deal_card,
    events,
    give,
    rig,
    road,
    roll,
    settlement,
    start_turn,
    table,
)


def test_ten_points_on_ones_own_turn_win_at_once() -> None:
    state = table("base", 4)
    for node in (0, 2, 26, 42):
        settlement(state, 0, node, city=True)  # eight points
    road(state, 0, 42, 37, 31)
    start_turn(state, 0, "main")
    give(state, 0, wood=1, brick=1, sheep=1, wheat=1)
    assert awards.points(state, 0) == 8
    state.apply({"type": "build_settlement", "node": 31})
    assert state.outcome() is None  # nine
    start_turn(state, 0, "main")
    road(state, 0, 31, 25, 19)
    give(state, 0, wood=1, brick=1, sheep=1, wheat=1)
    state.apply({"type": "build_settlement", "node": 19})
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "points"
    assert outcome.places == (1, 2, 2, 2) and outcome.scores == (10.0, 0.0, 0.0, 0.0)
    assert state.current_seat is None and state.legal_moves() == []
    assert events(state, "game_over")[-1]["winner"] == 0


def test_points_reached_on_another_seats_turn_win_when_that_seats_turn_begins() -> None:
    state = table("base", 4)
    for node in (0, 2, 26, 42):
        settlement(state, 1, node, city=True)
    deal_card(state, 1, "victory_point")
    deal_card(state, 1, "victory_point")
    assert awards.points(state, 1) == 10
    start_turn(state, 0, "main")
    give(state, 0, wood=1, brick=1)
    settlement(state, 0, 18)
    assert state.outcome() is None  # not seat 1's turn
    state.apply({"type": "end_turn"})
    assert state.outcome() is not None
    assert state.outcome().places[1] == 1 and state.winner == 1
    assert state.turn_seat == 1


def test_points_won_after_the_seat_was_looked_at_win_when_its_turn_comes_round() -> None:
    """The engine looks at a seat's points when they may have moved since it last did: seat 1 is
    looked at on its own turn (eight points), the longest road moves to it on seat 2's turn (a
    settlement breaks seat 0's road: ten), and it wins when its turn next begins, not before."""
    state = table("base", 4)
    road(state, 0, 3, 0, 4, 1, 5, 2, 6)  # six: the longest road
    road(state, 1, 11, 7, 12, 8, 13, 9)  # five
    for node in (26, 42, 45, 50):
        settlement(state, 1, node, city=True)  # eight points
    road(state, 2, 8, 4)
    give(state, 2, wood=1, brick=1, sheep=1, wheat=1)
    start_turn(state, 1, "main")
    rig(state, roll(1, 2), roll(1, 2), roll(1, 2))  # seats 2, 3 and 0 roll a 3
    state.apply({"type": "end_turn"})  # seat 1 looked at: eight
    assert (state.turn_seat, state.phase) == (2, "main")
    state.apply({"type": "build_settlement", "node": 4})  # 3-0-4 | 4-1-5-2-6: four
    assert state.longest_road == 1 and awards.points(state, 1) == 10
    while state.turn_seat != 1:
        assert state.outcome() is None  # not seat 1's turn
        state.apply({"type": "end_turn"})
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "points" and state.winner == 1


def test_points_given_by_hand_are_looked_at_after_the_next_move() -> None:
    """The engine looks at the win only after a change that may move points, and counts those
    changes where it makes them; a position changed by hand (and refreshed, as every rule test's
    is) is looked at after its next move, whatever it was."""
    state = table("base", 4)
    for node in (0, 2, 26, 42):
        settlement(state, 0, node, city=True)  # eight points
    start_turn(state, 0, "main")
    give(state, 0, wood=8)
    state.apply({"type": "maritime_trade", "give": "wood", "get": "ore"})
    assert state.outcome() is None  # looked at: eight
    deal_card(state, 0, "victory_point")
    deal_card(state, 0, "victory_point")
    assert awards.points(state, 0) == 10
    state.apply({"type": "maritime_trade", "give": "wood", "get": "ore"})  # moves no point itself
    assert state.outcome() is not None and state.winner == 0


def test_the_turn_limit_ends_the_game_on_points() -> None:
    state = table("base", 4, turn_limit=3)
    settlement(state, 2, 18)
    rig(state, roll(1, 1), roll(1, 1), roll(1, 1))  # a 2 on each of the three turns: nothing paid
    # nobody can do anything but end their turns, so the engine plays them out to the limit
    state.apply({"type": "roll"})
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "turn_limit"
    assert state.turn == 3
    assert outcome.places == (2, 2, 1, 2)
    assert outcome.details["winner"] is None


def test_a_turn_with_nothing_to_decide_is_played_by_the_engine() -> None:
    state = table("base", 4)
    give(state, 1, wood=4)  # seat 1 can trade with the bank, so it has a real choice
    rig(state, roll(1, 1), roll(1, 1))
    state.apply({"type": "roll"})
    assert [e["type"] for e in state.events] == ["roll", "production", "end_turn", "roll", "production"]
    assert state.turn_seat == 1 and state.phase == "main" and state.current_seat == 1
    assert state.turn == 1


def test_hidden_victory_points_count_in_the_final_scores() -> None:
    state = table("base", 4, turn_limit=1)
    deal_card(state, 3, "victory_point")
    settlement(state, 1, 18)
    start_turn(state, 0, "main")
    give(state, 0, wood=4)
    state.apply({"type": "end_turn"})
    assert state.outcome().scores == (0.0, 1.0, 0.0, 1.0)
    assert state.outcome().places == (3, 1, 3, 1)
