"""Determinization: a state built from one seat's observation that the seat cannot tell from the
real one, the hidden cards drawn to fit every count the observation shows."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catan_volcano import GAME, CatanState
from referee.catan_volcano.determinize import InconsistentObservation, from_observation
from referee.catan_volcano.edition import EDITION, VICTORY_POINT
from referee.game import canonical_json
from referee.rng import Rng
from tests.referee.catan_volcano.positions import deal_card, give, settlement, start_turn, table

positions = st.fixed_dictionaries(
    {
        "variant": st.sampled_from(sorted(GAME.variants)),
        "seats": st.sampled_from((3, 4)),
        "seed": st.integers(0, 2**32),
        "moves": st.integers(0, 1500),
        "trades": st.booleans(),
        "draw": st.integers(0, 2**32),
    }
)


def _played(spec: dict) -> CatanState:
    state = GAME.start(spec["variant"], spec["seats"], seed=spec["seed"], options={"trades": spec["trades"]})
    chooser = Rng(spec["seed"] + 1)
    for _ in range(spec["moves"]):
        if state.current_seat is None:
            break
        state.apply(chooser.choice(state.legal_moves()))
    return state


@settings(max_examples=60, deadline=None)
@given(positions)
def test_the_seat_to_move_cannot_tell_the_world_from_the_truth(spec: dict) -> None:
    truth = _played(spec)
    seat = truth.current_seat
    if seat is None:
        return
    seen = truth.observation(seat)
    world = from_observation(seen, Rng(spec["draw"]))
    assert canonical_json(world.observation(seat)) == canonical_json(seen)
    assert world.legal_moves() == truth.legal_moves()
    # the hidden parts are consistent: every card accounted for, every count as shown
    for resource in range(5):
        total = world.bank[resource] + sum(hand[resource] for hand in world.hands)
        assert total == EDITION.bank_per_resource
    for other in range(truth.seats):
        assert sum(world.hands[other]) == sum(truth.hands[other])
        assert sum(world.devs[other]) == sum(truth.devs[other])
    assert sum(world.deck) == sum(truth.deck)
    dealt = [
        sum(devs[k] for devs in world.devs) + world.deck[k] + sum(seen_k[k] for seen_k in world.played)
        for k in range(5)
    ]
    assert dealt == list(EDITION.deck)


@settings(max_examples=25, deadline=None)
@given(positions)
def test_a_world_plays_on_to_the_end(spec: dict) -> None:
    truth = _played(spec)
    seat = truth.current_seat
    if seat is None:
        return
    world = from_observation(truth.observation(seat), Rng(spec["draw"]))
    chooser = Rng(spec["draw"] + 1)
    for _ in range(20_000):
        if world.current_seat is None:
            break
        world.apply(chooser.choice(world.legal_moves()))
    assert world.outcome() is not None


def test_the_hidden_cards_vary_with_the_draw_but_never_the_seats_own() -> None:
    state = table("base", 4)
    settlement(state, 0, 18)
    settlement(state, 1, 8)
    give(state, 0, wood=2, ore=1)
    give(state, 1, sheep=2, wheat=1, brick=1)
    give(state, 2, ore=2, wood=1)
    deal_card(state, 1, "knight")
    start_turn(state, 0, "main")
    seen = state.observation(0)
    worlds = [from_observation(seen, Rng(draw)) for draw in range(30)]
    assert all(world.hands[0] == state.hands[0] for world in worlds)
    assert {tuple(world.hands[1]) for world in worlds} != {tuple(state.hands[1])}
    assert all(sum(world.hands[1]) == 4 and sum(world.hands[2]) == 3 for world in worlds)
    # seats 1 and 2 hold, between them, exactly the cards seat 0 does not see
    for world in worlds:
        assert [world.hands[1][r] + world.hands[2][r] for r in range(5)] == [1, 1, 2, 1, 2]


def test_no_other_seat_is_dealt_the_victory_points_it_would_have_won_with() -> None:
    state = table("base", 4)
    for node in (0, 2, 10, 27, 40):  # five settlements, and two cities make nine points showing
        settlement(state, 1, node)
    settlement(state, 1, 45, city=True)
    settlement(state, 1, 50, city=True)
    deal_card(state, 1, "knight")
    start_turn(state, 0, "main")
    seen = state.observation(0)
    assert seen["players"][1]["points_showing"] == 9
    for draw in range(40):
        assert from_observation(seen, Rng(draw)).devs[1][VICTORY_POINT] == 0


def test_counts_that_do_not_add_up_are_refused() -> None:
    seen = GAME.start("base", 4, seed=1).observation(0)
    broken = {**seen, "players": [dict(p) for p in seen["players"]]}
    broken["players"][2]["resource_cards"] = 3
    with pytest.raises(InconsistentObservation):
        from_observation(broken, Rng(1))


def test_a_pending_trade_shows_the_cards_its_seats_hold_and_every_world_can_settle_it() -> None:
    """Seat 2 accepted seat 1's wood for its ore: whatever else seat 1 guesses of the other hands,
    seat 2 holds that ore in every world (it could not have accepted without it), so confirming the
    trade never leaves a hand below zero."""
    state = start_turn(table("base", 4), 1, "main")
    give(state, 1, wood=2)
    give(state, 2, ore=1, wood=3, brick=3, sheep=2)
    give(state, 0, ore=2, wheat=2)
    give(state, 3, sheep=1, brick=2)
    state.apply(
        {"type": "offer_trade", "to": 2, "give": "wood", "give_count": 1, "get": "ore", "get_count": 1}
    )
    state.apply({"type": "accept_trade"})
    assert state.phase == "trade_confirm" and state.current_seat == 1
    ore = EDITION.resources.index("ore")
    seen = set()
    for draw in range(200):
        world = from_observation(state.observation(1), Rng(draw))
        assert world.hands[2][ore] >= 1 and sum(world.hands[2]) == 9
        seen.add(tuple(world.hands[2]))
        world.apply({"type": "confirm_trade", "seat": 2})
        assert min(min(hand) for hand in world.hands) >= 0
    assert len(seen) > 10, "the rest of seat 2's hand is still drawn"


def test_a_world_with_no_pending_trade_is_drawn_as_before() -> None:
    """The cards a pending trade commits are dealt first only when there is one: otherwise the draw
    is the one made before pending trades were taken into account (its digest recorded then), so the
    search bots' play for a seed stays as it was."""
    state = start_turn(table("base", 4), 1, "main")
    give(state, 2, ore=1, wood=3)
    give(state, 0, ore=2, wheat=2)
    data = from_observation(state.observation(1), Rng(7)).to_json()
    # (the rolls drawn ahead came into the state later: a rebuilt world has none, its own to draw)
    assert (data.pop("rolls_ahead"), data.pop("rolls_left")) == (0, 0)
    world = canonical_json(data)
    assert hashlib.sha256(world.encode()).hexdigest() == (
        "c43d58006d5f9e98525ba6fe9a35b20ef870a8beabef4e453e8ccc2768b21699"
    )
