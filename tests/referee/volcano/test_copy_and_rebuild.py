"""``State.copy()`` and ``state_from_observation``: the two ways a bot gets a game of its own to try moves on.

Both must give a state equal to the original (same document, same moves, same views) and independent
of it (playing on one never shows in the other), from any position random play reaches.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.game import SetupError, canonical_json
from referee.rng import Rng
from referee.volcano import GAME, VolcanoState, state_from_observation

PROPERTY_SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _played(seed: int, seats: int, moves: int, power_play: bool = True) -> VolcanoState:
    state = GAME.start("fiesta-caldera", seats=seats, seed=seed, options={"power_play": power_play})
    chooser = Rng(seed)
    for _ in range(moves):
        if state.outcome() is not None:
            break
        state.apply(chooser.choice(state.legal_moves()))
    return state


def _facts(state: VolcanoState) -> str:
    """Everything a caller can see of a state, as one string."""
    views = [state.observation(seat) for seat in range(state.seats)]
    return canonical_json([state.to_json(), state.legal_moves(), views])


def _play_on(state: VolcanoState, seed: int, moves: int) -> None:
    chooser = Rng(seed)
    for _ in range(moves):
        if state.outcome() is not None:
            return
        state.apply(chooser.choice(state.legal_moves()))


@PROPERTY_SETTINGS
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    seats=st.sampled_from([2, 3]),
    moves=st.integers(min_value=0, max_value=400),
    later=st.integers(min_value=1, max_value=60),
    power_play=st.booleans(),
)
def test_a_copy_is_equal_and_independent(
    seed: int, seats: int, moves: int, later: int, power_play: bool
) -> None:
    state = _played(seed, seats, moves, power_play)
    before = _facts(state)  # views built (and kept) before the copy, so the copy starts with them shared
    twin = state.copy()
    assert _facts(twin) == before

    _play_on(twin, seed + 1, later)  # the copy plays on: the original is untouched
    assert _facts(state) == before

    copy_after = _facts(twin)
    _play_on(state, seed + 2, later)  # and the other way round
    assert _facts(twin) == copy_after


@PROPERTY_SETTINGS
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    seats=st.sampled_from([2, 3]),
    moves=st.integers(min_value=0, max_value=400),
    viewer=st.integers(min_value=0, max_value=2),
)
def test_the_state_an_observation_shows_plays_on_exactly_as_the_game(
    seed: int, seats: int, moves: int, viewer: int
) -> None:
    state = _played(seed, seats, moves)
    if state.outcome() is not None:
        return
    rebuilt = state_from_observation(state.observation(viewer % seats))
    assert _facts(rebuilt) == _facts(state)

    for twin in (state, rebuilt):
        _play_on(twin, seed, 30)
    assert _facts(rebuilt) == _facts(state)


def test_an_observation_of_a_finished_game_or_of_something_else_is_refused() -> None:
    state = GAME.start("fiesta-caldera", seats=2, seed=1, options={"turn_limit": 1})
    while state.outcome() is None:
        state.apply(state.legal_moves()[0])
    with pytest.raises(SetupError) as finished:
        state_from_observation(state.observation(0))
    assert finished.value.field_name == "observation.to_move"

    view = dict(GAME.start("fiesta-caldera", seats=2, seed=1).observation(0))
    del view["captures"]
    with pytest.raises(SetupError) as damaged:
        state_from_observation(view)
    assert damaged.value.field_name == "observation"
