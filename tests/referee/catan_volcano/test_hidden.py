"""Hidden information: a seat sees its own cards; of the others only what the table sees."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catan_volcano import GAME
from referee.game import canonical_json
from referee.rng import Rng
from tests.referee.catan_volcano.positions import (
    deal_card,
    give,
    refresh,
    rig,
    road,
    roll,
    settlement,
    start_turn,
    table,
)


def _two_tables(hand_a: dict[str, int], hand_b: dict[str, int], card_a: str, card_b: str):
    """The same table twice, seat 1 holding different cards of the same counts.

    The bank is public (every card that enters or leaves it does so in the open), so both tables
    are given the same bank, as two different histories could."""
    states = []
    for hand, card in ((hand_a, card_a), (hand_b, card_b)):
        state = table("base", 4)
        settlement(state, 0, 18)
        road(state, 0, 18, 13)
        settlement(state, 1, 8)
        give(state, 0, wood=2, brick=1, ore=1)
        give(state, 1, **hand)
        deal_card(state, 1, card)
        state.bank = [15, 15, 15, 15, 15]
        start_turn(state, 0, "main")
        states.append(state)
    return states


def test_other_seats_cards_change_nothing_another_seat_is_shown() -> None:
    a, b = _two_tables({"ore": 2, "wood": 1}, {"sheep": 3}, "knight", "victory_point")
    for viewer in (0, 2, 3):
        assert canonical_json(a.observation(viewer)) == canonical_json(b.observation(viewer))
    assert canonical_json(a.legal_moves()) == canonical_json(b.legal_moves())
    assert a.observation(1) != b.observation(1)


def test_a_seat_sees_its_own_hand_and_counts_of_the_others() -> None:
    state, _ = _two_tables({"ore": 2, "wood": 1}, {"sheep": 3}, "victory_point", "knight")
    mine = state.observation(1)
    assert mine["you"]["hand"] == {"wood": 1, "brick": 0, "sheep": 0, "wheat": 0, "ore": 2}
    assert mine["you"]["development_cards"]["victory_point"] == 1
    assert mine["you"]["points"] == 2
    theirs = state.observation(0)
    assert theirs["players"][1]["resource_cards"] == 3
    assert theirs["players"][1]["development_cards"] == 1
    assert theirs["players"][1]["points_showing"] == 1  # the victory point card is hidden
    assert "hand" not in theirs["players"][1]
    assert theirs["you"]["hand"]["wood"] == 2


def test_only_thief_and_victim_learn_the_stolen_card() -> None:
    state, _ = _two_tables({"ore": 2, "wood": 1}, {"sheep": 3}, "knight", "knight")
    start_turn(state, 0, "roll")
    rig(state, roll(3, 4), (3, 0))
    state.apply({"type": "roll"})
    state.apply({"type": "move_robber", "hex": 4, "victim": 1})
    seen = {
        seat: [e for e in state.observation(seat)["events"] if e["type"] == "steal"][-1] for seat in range(4)
    }
    assert seen[0]["resource"] == seen[1]["resource"] == "wood"
    assert "resource" not in seen[2] and "resource" not in seen[3]
    assert "secret" not in json.dumps(state.observation(2))


def test_only_the_buyer_learns_the_card_bought() -> None:
    state = start_turn(table("base", 4), 0, "main")
    give(state, 0, wood=4, sheep=1, wheat=1, ore=1)
    rig(state, (25, 20))
    state.apply({"type": "buy_development_card"})
    bought = {
        seat: [e for e in state.observation(seat)["events"] if e["type"].startswith("buy")][-1]
        for seat in (0, 1)
    }
    assert bought[0]["card"] == "road_building"
    assert "card" not in bought[1]
    assert state.observation(1)["players"][0]["development_cards"] == 1


def test_the_observation_carries_the_board_geometry_and_is_json() -> None:
    state = GAME.start("vulkan-issimo", 3, seed=4)
    view = json.loads(json.dumps(state.observation(2)))
    board = view["board"]
    assert len(board["hexes"]) == 19 and len(board["edge_nodes"]) == 72 and len(board["node_hexes"]) == 54
    assert [v["hex"] for v in board["volcanoes"]] == sorted(v["hex"] for v in board["volcanoes"])
    assert {v["number"] for v in board["volcanoes"]} == {4, 5, 6}
    assert all(v["gold"] for v in board["volcanoes"])
    assert view["phase"] == "place_settlement" and view["to_move"] == 0


def test_a_seat_is_asked_for_a_forced_move_when_only_its_hidden_cards_force_it() -> None:
    # seat 1 holds a victory point card (nothing to play before the roll) or a knight (something
    # to play): either way it is asked, so the count of requests says nothing about the card
    for card, choices in (
        ("victory_point", [{"type": "roll"}]),
        ("knight", [{"type": "roll"}, {"type": "play_knight"}]),
    ):
        state = table("base", 4)
        deal_card(state, 1, card)
        start_turn(state, 0, "main")
        give(state, 0, wood=4)
        state.apply({"type": "end_turn"})
        assert state.current_seat == 1 and state.phase == "roll"
        assert state.legal_moves() == choices


def test_a_seat_that_cannot_pay_is_asked_unless_its_card_count_shows_it() -> None:
    state = start_turn(table("base", 4), 0, "main")
    give(state, 0, wood=2)
    give(state, 1, sheep=2)  # two cards, no ore: it cannot accept, but only it knows why
    state.apply(
        {"type": "offer_trade", "to": "all", "give": "wood", "give_count": 1, "get": "ore", "get_count": 1}
    )
    assert state.current_seat == 1
    assert state.legal_moves() == [{"type": "decline_trade"}]
    state.apply({"type": "decline_trade"})
    # seats 2 and 3 hold no cards at all, which everyone sees: they decline without being asked
    assert state.phase == "main" and state.current_seat == 0
    assert [e["seat"] for e in state.events if e["type"] == "decline_trade"] == [1, 2, 3]


def _swap_resources(state, first: int, second: int, kinds: list[int]) -> bool:
    """One card of a kind ``first`` holds for one of another kind ``second`` holds (the first such
    pair in ``kinds`` order): the counts, the bank and the board stay; only the two hands change."""
    for give_kind in kinds:
        for take_kind in kinds:
            if give_kind != take_kind and state.hands[first][give_kind] and state.hands[second][take_kind]:
                state.hands[first][give_kind] -= 1
                state.hands[second][give_kind] += 1
                state.hands[second][take_kind] -= 1
                state.hands[first][take_kind] += 1
                return True
    return False


def _swap_development_card(state, seat: int, kinds: list[int]) -> bool:
    """One of the seat's older development cards exchanged for another kind still in the deck: the
    deck's size and the seat's card count stay."""
    devs, new, deck = state.devs[seat], state.new_devs[seat], state.deck
    for held in kinds:
        for other in kinds:
            if held != other and devs[held] > new[held] and deck[other]:
                devs[held] -= 1
                deck[held] += 1
                deck[other] -= 1
                devs[other] += 1
                return True
    return False


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(sorted(GAME.variants)),
    st.integers(0, 2**32),
    st.integers(1, 400),
    st.permutations(range(4)),
    st.permutations(range(5)),
)
def test_changing_hidden_cards_changes_nothing_the_other_seats_see(
    variant: str, seed: int, steps: int, order: list[int], kinds: list[int]
) -> None:
    state = GAME.start(variant, 4, seed=seed)
    chooser = Rng(seed)
    for _ in range(steps):
        if state.outcome() is not None:
            break
        state.apply(chooser.choice(state.legal_moves()))
    first, second = order[0], order[1]
    other = state.copy()
    changed = {first, second} if _swap_resources(other, first, second, kinds) else set()
    if _swap_development_card(other, first, kinds):
        changed.add(first)
    refresh(other)
    for viewer in set(range(4)) - changed:
        assert canonical_json(other.observation(viewer)) == canonical_json(state.observation(viewer))
        if state.current_seat == viewer:
            assert canonical_json(other.legal_moves()) == canonical_json(state.legal_moves())
    for seat in changed:
        assert other.observation(seat)["you"] != state.observation(seat)["you"]
