"""What the state keeps between moves never shows: cached observations, listed moves and copies.

The state keeps each seat's observation, the parts it is made of and the legal moves until the
next ``apply`` (``referee/boulderville/observer.py``, ``game.py``), and the process keeps the
townspeople's and scientists' views by what they show (``view.py``); these tests hold every one
of them to the plain functions that work everything out from the table alone, and to the
interface's contract for ``copy()`` and for moves that only look like legal ones.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.boulderville import GAME, BouldervilleState, view
from referee.boulderville.attributes import Standing, belief, speed, willingness
from referee.boulderville.turn import legal_moves
from referee.boulderville.view import (
    PersonKey,
    observation,
    ongoing_view,
    scientist_view,
    settled_parts,
    townspeople_views,
)
from referee.game import IllegalMove, canonical_json
from referee.memo import Memo
from referee.rng import Rng
from tests.referee.boulderville.helpers import FAR, place, position, scientist

FAST = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32)


def random_moves(state: BouldervilleState, chooser: Rng, count: int) -> None:
    for _ in range(count):
        if state.outcome() is not None:
            return
        state.apply(chooser.choice(state.legal_moves()))


@FAST
@given(seed=seeds, chooser=seeds)
def test_every_cached_observation_equals_one_worked_out_from_the_table_alone(seed: int, chooser: int) -> None:
    state = GAME.start("standard", seats=4, seed=seed)
    rng = Rng(chooser)
    while state.outcome() is None:
        seat = rng.below(4)  # the seat to move, or another: both come from the caches
        for viewer in (state.current_seat, seat):
            seen = canonical_json(state.observation(viewer))
            assert seen == canonical_json(observation(state.table, viewer))
        assert state.legal_moves() == legal_moves(state.table)
        state.apply(rng.choice(state.legal_moves()))


@FAST
@given(seed=seeds, chooser=seeds)
def test_the_numbers_shown_are_each_townsperson_s_own_belief_willingness_and_speed(
    seed: int, chooser: int
) -> None:
    state = GAME.start("standard", seats=4, seed=seed)
    rng = Rng(chooser)
    while state.outcome() is None:
        table = state.table
        shown = {p["id"]: p.get("now") for p in state.observation(state.current_seat)["townspeople"]}
        for person in table.people:
            numbers = [belief(table, person), willingness(table, person), speed(table, person)]
            expected = dict(zip(("belief", "willingness", "speed"), numbers, strict=True))
            assert shown[person.id] == (expected if person.on_board else None)
        state.apply(rng.choice(state.legal_moves()))


@FAST
@given(seed=seeds, chooser=seeds, moves=st.integers(min_value=0, max_value=120))
def test_a_copy_is_equal_and_independent(seed: int, chooser: int, moves: int) -> None:
    state = GAME.start("standard", seats=4, seed=seed)
    random_moves(state, Rng(chooser), moves)
    state.observation(0)  # let the original fill its caches first
    before = canonical_json(state.to_json())
    twin = state.copy()
    assert canonical_json(twin.to_json()) == before
    assert twin.legal_moves() == state.legal_moves()
    for seat in range(4):
        assert twin.observation(seat) == state.observation(seat)
    # playing the copy to its end leaves the original as it was, and the original plays on alike
    random_moves(twin, Rng(chooser + 1), 10_000)
    assert canonical_json(state.to_json()) == before
    again = GAME.load_state(json.loads(before))
    random_moves(state, Rng(chooser + 2), 60)
    random_moves(again, Rng(chooser + 2), 60)
    assert canonical_json(state.to_json()) == canonical_json(again.to_json())


def test_changing_a_listed_move_changes_neither_the_next_listing_nor_the_move_played() -> None:
    state = GAME.start("standard", seats=4, seed=5)
    listed = state.legal_moves()
    first = dict(listed[0])
    listed[0]["space"] = "nowhere"
    assert state.legal_moves()[0] == first
    with pytest.raises(IllegalMove):
        state.apply(listed[0])
    state.apply(first)
    assert state.table.scientists[0].space == first["space"]


@pytest.mark.parametrize("there", ["town_hall_steps", "north_road"])
@pytest.mark.parametrize("moved_to", ["town_hall_chamber", "market_square"])
def test_a_placer_already_standing_somewhere_is_followed_to_its_new_space(there: str, moved_to: str) -> None:
    """A setup may ask a seat to place a scientist that stands on the board: its old space's terms go."""
    people = [
        {"id": "t07", "space": "north_road"},
        {"id": "t08", "space": "market_square"},
        {"id": "t10", "space": "west_estate_a"},
    ]
    scientists = [scientist(0, space=there), scientist(1), scientist(2), scientist(3)]
    state = position(stage="place", queue=[0], lead=0, people=people, scientists=scientists)
    assert canonical_json(state.observation(0)) == canonical_json(observation(state.table, 0))
    state.apply(next(m for m in state.legal_moves() if m["space"] == moved_to))
    for seat in range(4):
        assert canonical_json(state.observation(seat)) == canonical_json(observation(state.table, seat))


def reviewing() -> BouldervilleState:
    """Seat 0 (a volcanologist) may play a hostile peer review on seat 1 (a seismologist with tokens)."""
    scientists = [
        scientist(0, "volcanologist", hand=["peer_review"] * 3),
        scientist(1, "seismologist", tokens=4),
        scientist(2, "meteorologist"),
        scientist(3, "geologist"),
    ]
    state = position(stage="place", lead=0, scientists=scientists)
    place(state, FAR)
    return state


def test_a_seat_number_must_be_a_whole_number_as_json_spells_it() -> None:
    review = {"type": "play", "card": "peer_review", "use": "scientist", "target": 1}
    assert review in reviewing().legal_moves()
    for lookalike in (True, 1.0):  # equal to 1 in Python, not in JSON
        state = reviewing()
        before = canonical_json(state.to_json())
        with pytest.raises(IllegalMove):
            state.apply({**review, "target": lookalike})
        assert canonical_json(state.to_json()) == before
    state = reviewing()
    state.apply(review)
    assert state.table.scientists[1].tokens == 2  # the review takes two tokens


STANDING_TERMS = ("hall_and_meeting", "aura_belief", "aura_willingness", "sharing_at", "rush", "belief_off")


def from_scratch(state: BouldervilleState, seat: int) -> str:
    """``seat``'s observation worked out from the table alone, the process's kept views emptied first
    (so nothing kept in them, right or stale, goes into it)."""
    view.PERSON_VIEWS.clear()
    view.SCIENTIST_VIEWS.clear()
    return canonical_json(observation(state.table, seat))


def check_kept_parts(state: BouldervilleState) -> None:
    """Each part the observer and the state keep now (those not dropped) equals one worked out afresh."""
    table, kept = state.table, state._observer
    if kept.townspeople is not None:
        standing = Standing(table)
        assert kept.standing is not None
        for term in STANDING_TERMS:
            assert getattr(kept.standing, term) == getattr(standing, term), term
        assert kept.placed == [s.space is not None for s in table.scientists]
        assert kept.where == {p.space: index for index, p in enumerate(table.people) if p.space is not None}
        fresh = Memo[PersonKey, dict]("test.person_views", limit=len(table.people) + 1, process_wide=False)
        assert kept.townspeople == townspeople_views(table.people, standing, fresh)
    if kept.scientists is not None:
        assert kept.scientists == [scientist_view(table, seat) for seat in range(table.seats)]
    if kept.log is table.events:
        for seat, events in enumerate(kept.views):
            assert events == [view.event_view(event, seat) for event in table.events[: kept.logged]]
    if kept.ground is not None:
        assert kept.ground == view.ground_view(table)
    if kept.settled is not None:
        assert kept.settled == settled_parts(table)
    if kept.ongoing is not None:
        assert kept.ongoing == [ongoing_view(effect) for effect in table.ongoing]
    for seat, seen in kept.seen.items():
        assert canonical_json(seen) == canonical_json(observation(table, seat))
    if state._legal is not None:
        assert state._legal == legal_moves(table)


@FAST
@given(seed=seeds, chooser=seeds, max_turns=st.sampled_from([None, 1, 3]))
def test_every_kept_part_equals_one_worked_out_afresh(seed: int, chooser: int, max_turns: int | None) -> None:
    """After every move of random games (the one variant, its default turn limit and short ones),
    before and after the seats look: every part kept equals its plain function's, and every
    observation one made with the process's kept views emptied."""
    options = None if max_turns is None else {"max_turns": max_turns}
    state = GAME.start("standard", seats=4, seed=seed, options=options)
    rng = Rng(chooser)
    while state.outcome() is None:
        check_kept_parts(state)
        seat = state.current_seat
        assert seat is not None
        viewers = (seat, rng.below(4))
        seen = [canonical_json(state.observation(viewer)) for viewer in viewers]
        check_kept_parts(state)
        assert seen == [from_scratch(state, viewer) for viewer in viewers]
        state.apply(rng.choice(state.legal_moves()))
    check_kept_parts(state)
