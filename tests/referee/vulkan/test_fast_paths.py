"""The engine's shortcuts agree with the rules they stand for: the legal flight list kept by byte-lane
counters, the shared read-only moves, the shared observation and the field-by-field ``copy()``."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.game import IllegalMove, canonical_json
from referee.rng import Rng
from referee.vulkan import GAME, VulkanState
from referee.vulkan.edition import EDITION
from referee.vulkan.paths import FlightMove
from referee.vulkan.rules import flight_paths

MODES = [("competitive", 2), ("competitive", 3), ("competitive", 4), ("solitaire", 1), ("cooperative", 3)]
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def flights_by_the_rules(state: VulkanState) -> list[dict]:
    """The legal flights straight from the rule: every straight run of forest tiles with a free space
    (:func:`flight_paths`, which walks the board), once per colour the seat still holds."""
    seat = state.current_seat
    coords = state.board.layout.coords
    return [
        {"type": "flight", "path": [list(coords[cell]) for cell in path], "colour": EDITION.colours[colour]}
        for colour in state.seat_colours[seat]
        if state.supply[seat][colour]
        for path in flight_paths(state.board)
    ]


@SETTINGS
@given(mode=st.sampled_from(MODES), seed=st.integers(0, 2**32), layout=st.sampled_from(["classic", "random"]))
def test_the_listed_flights_are_the_runs_the_rules_allow_at_every_move(mode, seed, layout) -> None:
    variant, seats = mode
    state = GAME.start(variant, seats=seats, seed=seed, options={"layout": layout})
    chooser = Rng(seed)
    state.apply(chooser.choice(state.legal_moves()))  # the volcano
    while state.current_seat is not None:
        legal = state.legal_moves()
        assert legal == flights_by_the_rules(state)
        state.apply(chooser.choice(legal))


@pytest.mark.parametrize("seed", range(6))
def test_a_state_loaded_mid_game_lists_the_runs_the_rules_allow(seed) -> None:
    """A loaded state works its byte-lane counters out from the whole board: from the cells with
    room while few have it, from the cells without while most have it (a fresh table). Both ways
    agree with the rule at every move, from the first flight to the last."""
    layout = "random" if seed % 2 else "classic"
    state = GAME.start("competitive", seats=2 + seed % 3, seed=seed, options={"layout": layout})
    chooser = Rng(seed)
    state.apply(chooser.choice(state.legal_moves()))  # the volcano
    while state.current_seat is not None:
        loaded = GAME.load_state(json.loads(json.dumps(state.to_json())))
        assert loaded.legal_moves() == flights_by_the_rules(state)
        state.apply(chooser.choice(state.legal_moves()))


def played(seed: int, moves: int, variant: str = "competitive", seats: int = 4) -> VulkanState:
    layout = "random" if seed % 2 else "classic"
    state = GAME.start(variant, seats=seats, seed=seed, options={"layout": layout})
    chooser = Rng(seed)
    for _ in range(moves):
        if state.current_seat is None:
            break
        state.apply(chooser.choice(state.legal_moves()))
    return state


def snapshot(state: VulkanState) -> str:
    """Everything a state shows: its JSON, every seat's observation, its legal moves."""
    views = [state.observation(seat) for seat in range(state.seats)]
    outcome = state.outcome()
    return canonical_json([state.to_json(), views, state.legal_moves(), outcome and outcome.to_json()])


@SETTINGS
@given(
    mode=st.sampled_from(MODES),
    seed=st.integers(0, 2**32),
    before=st.integers(0, 30),
    after=st.integers(1, 30),
)
def test_a_copy_is_equal_and_independent_both_ways(mode, seed, before, after) -> None:
    variant, seats = mode
    original = played(seed, before, variant, seats)
    original.observation(0)  # caches built before the copy is taken must not leak between the two
    copied = original.copy()
    assert snapshot(copied) == snapshot(original)
    frozen = snapshot(original)
    chooser = Rng(seed + 1)
    twin = GAME.load_state(json.loads(json.dumps(copied.to_json())))
    for _ in range(after):
        if copied.current_seat is None:
            break
        move = chooser.choice(copied.legal_moves())
        copied.apply(move)
        twin.apply(move)
    assert snapshot(original) == frozen, "playing on the copy changed the original"
    assert snapshot(copied) == snapshot(twin), "the copy plays on as a state loaded from JSON does"
    # and the other way round: the original playing on leaves the copy as it was
    kept = snapshot(copied)
    while original.current_seat is not None:
        original.apply(original.legal_moves()[0])
    assert snapshot(copied) == kept


def test_listed_flights_are_read_only_and_copy_to_plain_objects() -> None:
    state = played(4, 3)
    move = state.legal_moves()[0]
    assert isinstance(move, FlightMove)
    for change in (
        lambda m: m.__setitem__("colour", "red"),
        lambda m: m.update(colour="red"),
        lambda m: m.pop("colour"),
        lambda m: m.clear(),
    ):
        with pytest.raises(TypeError):
            change(move)
    for duplicate in (dict(move), copy.deepcopy(move), copy.copy(move), json.loads(json.dumps(move))):
        assert type(duplicate) is dict and duplicate == move
    # the plain copy is the same move to the engine
    twin = state.copy()
    state.apply(move)
    twin.apply(json.loads(json.dumps(move)))
    assert canonical_json(state.to_json()) == canonical_json(twin.to_json())


def test_a_flight_listed_on_another_layout_is_judged_on_this_one() -> None:
    classic = played(2, 1)
    elsewhere = played(3, 1)  # a random layout
    assert classic.board.layout.coords != elsewhere.board.layout.coords
    for move in elsewhere.legal_moves()[:200]:
        legal = move in classic.legal_moves()
        try:
            classic.copy().apply(move)
            accepted = True
        except IllegalMove:
            accepted = False
        assert accepted == legal


def test_an_observation_once_handed_out_never_changes() -> None:
    state = played(6, 2)
    first = state.observation(1)
    kept = canonical_json(first)
    first_again = state.observation(2)
    assert first_again["seat"] == 2 and first["seat"] == 1  # each call its own top-level object
    while state.current_seat is not None:
        state.apply(state.legal_moves()[-1])
        state.observation(0)
    assert canonical_json(first) == kept
