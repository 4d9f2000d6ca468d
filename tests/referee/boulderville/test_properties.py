"""Random play never breaks an invariant (hypothesis picks the deal and the choices)."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.boulderville import GAME, BouldervilleState
from referee.boulderville.edition import EDITION
from referee.boulderville.table import DEAD, SAVED
from referee.rng import Rng

MAX_MOVES = 5_000
FAST = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32)


def random_game(seed: int, chooser: int):
    """Yield the state after every move of a random game (the same object, changed in place)."""
    state = GAME.start("standard", seats=4, seed=seed)
    rng = Rng(chooser)
    yield state
    for _ in range(MAX_MOVES):
        if state.outcome() is not None:
            return
        state.apply(rng.choice(state.legal_moves()))
        yield state
    raise AssertionError("the game did not end")


def check_spaces(state: BouldervilleState) -> None:
    table = state.table
    people = [p.space for p in table.people if p.space is not None]
    scientists = [s.space for s in table.scientists if s.space is not None]
    assert len(people) == len(set(people)), "two townspeople share a space"
    assert len(scientists) == len(set(scientists)), "two scientists share a space"
    assert not set(people) & set(table.terrain), "a townsperson stands on lava or rubble"
    lava_or_ruin = {s for s, cover in table.terrain.items() if cover in ("lava", "ruin")}
    assert not set(scientists) & lava_or_ruin, "a scientist stands on lava or ruin"


def check_books(state: BouldervilleState) -> None:
    table = state.table
    value = {p.id: EDITION.townspeople[p.id].value for p in table.people}
    saved = sum(value[p.id] for p in table.people if p.status == SAVED)
    dead = sum(value[p.id] for p in table.people if p.status == DEAD)
    assert table.rescue == saved - dead
    cards = Counter(table.action_deck) + Counter(table.discards) + Counter(o.card for o in table.ongoing)
    for scientist in table.scientists:
        cards += Counter(scientist.hand)
        assert scientist.tokens >= 0
        assert len(scientist.hand) <= EDITION.scientists[scientist.id].abilities.hand_size
    assert cards == Counter(EDITION.action_deck()), "action cards appeared or vanished"


@FAST
@given(seed=seeds, chooser=seeds)
def test_every_game_ends_with_a_well_formed_outcome(seed: int, chooser: int) -> None:
    *_, state = random_game(seed, chooser)
    outcome = state.outcome()
    assert outcome is not None and state.legal_moves() == []
    assert not state.table.on_board()
    assert outcome.team_won is (state.table.rescue > 0)
    if not outcome.team_won:
        assert outcome.places == (1, 1, 1, 1)


@FAST
@given(seed=seeds, chooser=seeds)
def test_no_space_ever_holds_two_scientists_or_two_townspeople(seed: int, chooser: int) -> None:
    for state in random_game(seed, chooser):
        check_spaces(state)


@FAST
@given(seed=seeds, chooser=seeds)
def test_renown_on_the_track_and_the_eruption_counter_only_grow(seed: int, chooser: int) -> None:
    renown = [0, 0, 0, 0]
    eruption = 0
    for state in random_game(seed, chooser):
        now = [s.renown for s in state.table.scientists]
        assert all(after >= before for before, after in zip(renown, now, strict=True))
        assert state.table.eruption >= eruption
        renown, eruption = now, state.table.eruption


@FAST
@given(seed=seeds, chooser=seeds)
def test_the_rescue_track_and_the_action_cards_always_add_up(seed: int, chooser: int) -> None:
    for state in random_game(seed, chooser):
        check_books(state)


@FAST
@given(seed=seeds, chooser=seeds)
def test_no_seat_ever_sees_another_seat_s_hand(seed: int, chooser: int) -> None:
    for index, state in enumerate(random_game(seed, chooser)):
        if index % 5:
            continue
        for seat in range(4):
            seen = state.observation(seat)
            assert seen["hand"] == sorted(state.table.scientists[seat].hand)
            for event in seen["events"]:
                assert "private" not in event or event["seat"] == seat
