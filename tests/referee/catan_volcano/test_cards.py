"""Development cards: buying, the timing rules, and the four kinds that are played."""

from __future__ import annotations

import pytest

from referee.catan_volcano.edition import DEV_CARDS, KNIGHT, VICTORY_POINT
from referee.catan_volcano.geometry import edge_between
from referee.game import IllegalMove, canonical_json
from tests.referee.catan_volcano.positions import (
    deal_card,
    events,
    give,
    hand,
    of_type,
    refresh,
    rig,
    road,
    roll,
    settlement,
    start_turn,
    table,
    types,
)

BUY = {"type": "buy_development_card"}
KNIGHT_MOVE = {"type": "play_knight"}


def _ready():
    state = table("base", 4)
    settlement(state, 0, 18)
    road(state, 0, 18, 13)
    settlement(state, 1, 8)
    return start_turn(state, 0, "main")


def test_buying_costs_sheep_wheat_ore_and_draws_from_the_deck() -> None:
    state = _ready()
    give(state, 0, sheep=1, wheat=1, ore=1)
    rig(state, (25, 0))  # the first card of the deck's 25 in kind order: a knight
    state.apply(BUY)
    assert hand(state, 0) == {}
    assert state.devs[0][KNIGHT] == 1 and sum(state.deck) == 24
    assert events(state, "buy_development_card")[-1]["secret"] == {"seats": [0], "fields": {"card": "knight"}}


def test_a_card_bought_this_turn_cannot_be_played_until_the_next_turn() -> None:
    state = _ready()
    give(state, 0, wood=1, brick=1, sheep=1, wheat=1, ore=1)
    rig(state, (25, 0))
    state.apply(BUY)
    assert "play_knight" not in types(state)
    assert state.new_devs[0][KNIGHT] == 1
    state.apply({"type": "end_turn"})
    assert state.new_devs[0] == [0, 0, 0, 0, 0]
    start_turn(state, 0, "roll")
    assert types(state) == {"roll", "play_knight"}


def test_a_knight_bought_this_turn_is_not_offered_beside_a_card_held_from_before() -> None:
    """ "Never one bought that turn": with an older card in hand the seat has a card to play, and
    the knight it just bought must still not be offered (the rule per kind, not per hand)."""
    state = _ready()
    deal_card(state, 0, "monopoly")
    give(state, 0, sheep=1, wheat=1, ore=1)
    rig(state, (24, 0))  # the first of the deck's 24 cards left, in kind order: a knight
    state.apply(BUY)
    assert state.new_devs[0][KNIGHT] == 1
    assert "play_monopoly" in types(state)
    assert "play_knight" not in types(state)


def test_one_development_card_per_turn() -> None:
    state = _ready()
    deal_card(state, 0, "knight")
    deal_card(state, 0, "monopoly")
    assert {"play_knight", "play_monopoly"} <= types(state)
    state.apply({"type": "play_monopoly", "resource": "ore"})
    assert not types(state) & {"play_knight", "play_monopoly"}


def test_a_knight_may_be_played_before_the_roll_and_then_the_seat_rolls() -> None:
    state = _ready()
    deal_card(state, 0, "knight")
    start_turn(state, 0, "roll")
    state.apply(KNIGHT_MOVE)
    assert state.phase == "robber" and state.played[0][KNIGHT] == 1
    rig(state, roll(2, 2))
    state.apply({"type": "move_robber", "hex": 13, "victim": None})
    # back before the roll with the card played: rolling is the only choice, so the engine rolled
    assert state.dice == (2, 2) and state.phase == "main"


def test_a_victory_point_card_counts_at_once_and_can_win_the_turn_it_is_bought() -> None:
    state = _ready()
    for node in (0, 2, 26, 42):
        settlement(state, 0, node, city=True)  # 1 + 4 cities x 2 = 9 points
    give(state, 0, sheep=1, wheat=1, ore=1)
    rig(state, (25, 14))  # after 14 knights come the victory points
    state.apply(BUY)
    assert state.devs[0][VICTORY_POINT] == 1
    assert state.outcome() is not None
    assert state.outcome().places[0] == 1 and state.outcome().reason == "points"
    assert state.outcome().scores[0] == 10


def test_victory_point_cards_are_never_played() -> None:
    state = _ready()
    deal_card(state, 0, "victory_point")
    assert not any(t.startswith("play_") for t in types(state))


def test_road_building_places_two_free_roads() -> None:
    state = _ready()
    deal_card(state, 0, "road_building")
    deal_card(state, 0, "knight")  # a card held: the turn is not ended for the seat (see FORCED_IN_PUBLIC)
    state.apply({"type": "play_road_building"})
    assert state.phase == "road_building"
    state.apply({"type": "place_road", "edge": edge_between(13, 9)})
    assert state.phase == "road_building"
    state.apply({"type": "place_road", "edge": edge_between(9, 5)})
    assert state.phase == "main" and state.current_seat == 0 and hand(state, 0) == {}
    assert state.pieces[0][0] == 15 - 3


def test_road_building_with_one_road_left_places_one() -> None:
    state = _ready()
    deal_card(state, 0, "road_building")
    deal_card(state, 0, "knight")  # a card held: the turn is not ended for the seat
    state.pieces[0][0] = 1
    state.apply({"type": "play_road_building"})
    state.apply({"type": "place_road", "edge": edge_between(13, 9)})
    assert state.phase == "main" and state.pieces[0][0] == 0


def test_year_of_plenty_takes_two_cards_the_bank_has() -> None:
    state = _ready()
    deal_card(state, 0, "year_of_plenty")
    state.bank[4] = 1  # one ore left: ore twice is not offered
    refresh(state)
    plays = of_type(state, "play_year_of_plenty")
    assert len(plays) == 14
    assert {"type": "play_year_of_plenty", "first": "ore", "second": "ore"} not in plays
    state.apply({"type": "play_year_of_plenty", "first": "brick", "second": "ore"})
    assert hand(state, 0) == {"brick": 1, "ore": 1}
    assert state.bank[4] == 0


def test_monopoly_takes_every_card_of_one_resource_from_the_others() -> None:
    state = _ready()
    deal_card(state, 0, "monopoly")
    give(state, 0, wheat=1)
    give(state, 1, wheat=3, ore=1)
    give(state, 3, wheat=2)
    state.apply({"type": "play_monopoly", "resource": "wheat"})
    assert hand(state, 0) == {"wheat": 6}
    assert hand(state, 1) == {"ore": 1} and hand(state, 3) == {}
    assert events(state, "play_monopoly")[-1]["taken"] == [0, 3, 0, 2]


def test_a_card_one_does_not_hold_cannot_be_played() -> None:
    state = _ready()
    deal_card(state, 0, "monopoly")
    before = canonical_json(state.to_json())
    with pytest.raises(IllegalMove):
        state.apply(KNIGHT_MOVE)  # a monopoly card is no knight
    assert canonical_json(state.to_json()) == before


PLAYS = {
    "knight": {"type": "play_knight"},
    "road_building": {"type": "play_road_building"},
    "year_of_plenty": {"type": "play_year_of_plenty", "first": "ore", "second": "wheat"},
    "monopoly": {"type": "play_monopoly", "resource": "ore"},
}


def _buy_a(state, kind: str) -> None:
    """Seat 0 buys a development card, the deck rigged so that it draws ``kind``."""
    deck = list(state.deck)
    index = DEV_CARDS.index(kind)
    give(state, 0, sheep=1, wheat=1, ore=1)
    rig(state, (sum(deck), sum(deck[:index])))
    state.apply(BUY)
    assert state.new_devs[0][index] == 1


@pytest.mark.parametrize("kind", sorted(PLAYS))
@pytest.mark.parametrize("older", [None, "knight", "monopoly"])
def test_no_kind_of_card_bought_this_turn_is_playable_that_turn(kind: str, older: str | None) -> None:
    """ "Never one bought that turn", for every kind that is played: alone in hand, and beside an
    older card (of its own kind too) that gives the seat a card to play this turn."""
    state = _ready()
    give(state, 1, ore=2)
    if older is not None:
        deal_card(state, 0, older)
    _buy_a(state, kind)
    held_before = 1 if older == kind else 0
    offered = [move for move in state.legal_moves() if move["type"] == PLAYS[kind]["type"]]
    assert bool(offered) == bool(held_before), offered
    if not held_before:
        before = canonical_json(state.to_json())
        with pytest.raises(IllegalMove):
            state.apply(PLAYS[kind])
        assert canonical_json(state.to_json()) == before
    state.apply({"type": "end_turn"})
    start_turn(state, 0, "main")
    assert PLAYS[kind]["type"] in types(state), "playable from the next turn"


def test_a_victory_point_card_is_never_played() -> None:
    state = _ready()
    _buy_a(state, "victory_point")
    state.apply({"type": "end_turn"})
    start_turn(state, 0, "main")
    assert not {move_type for move_type in types(state) if move_type.startswith("play_")}
