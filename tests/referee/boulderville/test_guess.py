"""A state guessed from one seat's observation shows that seat exactly what it saw, and no more.

``determinize`` must agree with every public fact and the seat's own hand, keep the decks' and the
hands' sizes, leave the same seats to decide, and depend on nothing the observation hides.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.boulderville import GAME
from referee.boulderville.deal import check_table
from referee.boulderville.edition import EDITION
from referee.boulderville.guess import determinize
from referee.game import canonical_json
from referee.rng import Rng
from tests.referee.boulderville.helpers import FAR, hidden_apart, place, position

FAST = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32)


def public(observation: dict) -> str:
    """Everything an observation shows but the event log (a guess starts a new one)."""
    return canonical_json({key: value for key, value in observation.items() if key != "events"})


@FAST
@given(seed=seeds, chooser=seeds, guess_seed=seeds)
def test_a_guess_shows_the_seat_to_move_exactly_what_it_saw_all_game_long(
    seed: int, chooser: int, guess_seed: int
) -> None:
    state = GAME.start("standard", seats=4, seed=seed)
    rng = Rng(chooser)
    while (seat := state.current_seat) is not None:
        seen = state.observation(seat)
        guess = determinize(seen, seat, guess_seed)
        check_table(guess.table)  # a position the engine accepts as a setup
        assert public(guess.observation(seat)) == public(seen)
        assert guess.current_seat == seat and guess.legal_moves() == state.legal_moves()
        assert guess.table.queue == state.table.queue
        state.apply(rng.choice(state.legal_moves()))


def test_a_guess_deals_the_unseen_cards_and_keeps_the_eruption_deck_s_structure() -> None:
    state = GAME.start("standard", seats=4, seed=11)
    guess = determinize(state.observation(2), 2, seed=5)
    table = guess.table
    cards = Counter(table.action_deck) + Counter(table.discards)
    for other in table.scientists:
        cards += Counter(other.hand)
    assert cards == Counter(EDITION.action_deck())  # every card somewhere, none twice
    deck = table.eruption_deck
    pools = EDITION.eruption_decks
    assert len(deck) == len(state.table.eruption_deck)
    assert all(card in pools["build_up"] for card in deck[:4])  # one build-up card is revealed
    assert all(card in pools["pre_eruption"] or card == EDITION.eruption_card for card in deck[4:10])
    assert all(card in pools["post_eruption"] for card in deck[10:])
    assert not set(deck) & set(table.revealed)


def test_a_guess_depends_on_the_observation_alone() -> None:
    first, second = hidden_apart(seed=3)
    assert canonical_json(first.observation(0)) == canonical_json(second.observation(0))
    assert first.table.scientists[1].hand != second.table.scientists[1].hand
    one, other = (determinize(state.observation(0), 0, seed=9) for state in (first, second))
    assert canonical_json(one.to_json()) == canonical_json(other.to_json())


def test_lasting_changes_are_worked_back_from_the_numbers_shown() -> None:
    people = [
        {"id": "t07", "space": "mill_lane", "belief_down": 4, "willingness_down": 2, "speed_up": 1},
        {"id": "t10", "space": "west_estate_a"},
    ]
    state = position(stage="place", lead=0, people=people)
    place(state, FAR | {0: "mill_lane"})  # seat 0 shares the Okafors' space: their numbers move too
    guess = determinize(state.observation(1), 1, seed=1)
    okafors = guess.table.person("t07")
    assert (okafors.belief_down, okafors.willingness_down, okafors.speed_up) == (4, 2, 1)
    assert guess.observation(1)["townspeople"] == state.observation(1)["townspeople"]


def test_a_finished_game_has_nothing_to_guess() -> None:
    state = GAME.start("standard", seats=4, seed=2)
    while state.outcome() is None:
        state.apply(state.legal_moves()[-1])
    with pytest.raises(ValueError, match="over"):
        determinize(state.observation(0), 0, seed=1)
