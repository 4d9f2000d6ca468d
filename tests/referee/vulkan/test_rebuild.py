"""The quick rebuild of a flight-phase position (referee.vulkan.rebuild) against the full check.

Whatever ``quick_state`` accepts, the full check of an explicit setup accepts too, with the same
seat to move and the same legal moves in the same order; what it does not accept it leaves to the
full check (None), which then refuses or rebuilds as it always did. It must accept every
observation the referee writes in the flight phase, or the rebuild silently goes the slow way.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.game import canonical_json
from referee.rng import Rng
from referee.vulkan import GAME, VulkanState
from referee.vulkan.game import checked_state_from_observation
from referee.vulkan.rebuild import quick_state

CASES = [
    ("competitive", 2, "classic"),
    ("competitive", 3, "random"),
    ("competitive", 4, "classic"),
    ("cooperative", 2, "random"),
    ("solitaire", 1, "classic"),
]


@cache
def observations(variant: str, seats: int, layout: str, seed: int) -> list[dict[str, Any]]:
    """The observation of the seat to move at every turn of a seeded random game (JSON copies:
    read them, change copies)."""
    state = GAME.start(variant, seats=seats, seed=seed, options={"layout": layout})
    chooser = Rng(seed)
    seen = []
    while state.outcome() is None:
        seat = state.current_seat
        assert seat is not None
        seen.append(copy.deepcopy(state.observation(seat)))
        state.apply(chooser.choice(state.legal_moves()))
    return seen


def _spelled(state: VulkanState) -> tuple[int | None, list[str]]:
    return state.current_seat, [canonical_json(move) for move in state.legal_moves()]


@pytest.mark.parametrize(("variant", "seats", "layout"), CASES)
def test_every_flight_phase_observation_is_rebuilt_quickly_with_the_full_checks_moves(
    variant: str, seats: int, layout: str
) -> None:
    for seed in (1, 2):
        for observation in observations(variant, seats, layout, seed):
            quick = quick_state(observation)
            if observation["volcano"] is None:
                assert quick is None  # the first move is left to the full check
                continue
            assert quick is not None, f"turn {observation['turn']}: left to the full check"
            assert _spelled(quick) == _spelled(checked_state_from_observation(observation))


def test_a_rebuilt_position_keeps_the_whole_layout_with_the_tiles_gone_as_gaps() -> None:
    last = observations("competitive", 2, "classic", 3)[-1]
    state = quick_state(last)
    assert state is not None
    assert len(state.board.layout) == 36  # the volcano and 35 forest tiles, whether or not still there
    assert sum(state.board.present) == len(last["tiles"])


ODD_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 2, 3, 5, 6, 7, 12, 13, 65, 1.0, "red", "blue", "purple", "3",
    [], [0], [0, 0], [1, 0], [0, 1], [0, 0, 0], [1.0, 0], [True, 0], [70, 0], (0, 0), ["red"],
    ["red", "red"], ["red", "red", "red", "red"], [["red"]], {}, {"red": 1}, {"at": [0, 0], "value": 1},
    {"at": None, "value": 1},
]  # fmt: skip
"""Values put in place of one part of a real observation: right and wrong types, in and out of range."""


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside ``value`` (keys of objects, indices of lists), ``value`` itself first."""
    found = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _places(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _places(inner, (*path, index))
    return found


def _changed(observation: dict[str, Any], place: tuple[Any, ...], how: str, value: Any) -> dict[str, Any]:
    """A copy of ``observation`` with the part at ``place`` replaced by ``value``, deleted, or
    (for an object) given one more key."""
    changed = copy.deepcopy(observation)
    parent: Any = changed
    for step in place[:-1]:
        parent = parent[step]
    last = place[-1]
    if how == "delete":
        del parent[last]
    elif how == "extra" and isinstance(parent[last], dict):
        parent[last]["extra"] = value
    else:
        parent[last] = value
    return changed


def _outcome(rebuild: Any, observation: dict[str, Any]) -> Any:
    try:
        state = rebuild(copy.deepcopy(observation))
    except Exception as error:  # noqa: BLE001 - the kind and the words are what is compared
        return type(error).__name__, str(error)
    return None if state is None else _spelled(state)


READ = ("variant", "to_move", "tiles", "volcano", "seats", "removed")
"""The parts of an observation a rebuild reads."""


@settings(max_examples=1500, deadline=None)
@given(
    case=st.sampled_from(CASES),
    seed=st.integers(min_value=0, max_value=50),
    turn=st.integers(min_value=1, max_value=60),
    pick=st.integers(min_value=0, max_value=10**6),
    how=st.sampled_from(["replace", "replace", "replace", "delete", "extra"]),
    value=st.sampled_from(ODD_VALUES),
)
def test_what_the_quick_rebuild_accepts_the_full_check_accepts_with_the_same_moves(
    case: tuple[str, int, str], seed: int, turn: int, pick: int, how: str, value: Any
) -> None:
    seen = [view for view in observations(*case, seed) if view["volcano"] is not None]
    observation = seen[turn % len(seen)]
    kinds = defaultdict(list)  # places by kind, list indices left out: each kind as likely
    for place in _places(observation):
        if place and place[0] in READ:
            kinds[tuple(step for step in place if not isinstance(step, int))].append(place)
    kind = sorted(kinds)[pick % len(kinds)]
    places = kinds[kind]
    changed = _changed(observation, places[pick // len(kinds) % len(places)], how, value)
    quick = _outcome(quick_state, changed)
    if quick is None:  # left to the full check: nothing to compare
        return
    assert quick == _outcome(checked_state_from_observation, changed)


def test_some_made_up_observations_are_refused_as_the_full_check_refuses_them() -> None:
    from referee.vulkan import state_from_observation

    observation = observations("competitive", 2, "classic", 5)[1]  # the first flight
    assert observation["volcano"] is not None and len(observation["tiles"]) == 36
    colour = observation["seats"][0]["colours"][0]
    full_tile = copy.deepcopy(observation)
    corner = full_tile["tiles"][0]  # (-3, 0): three free edges in a row
    corner["loads"] = [colour] * corner["spaces"]
    crowded = copy.deepcopy(observation)
    crowded["seats"][0]["supply"][colour] = 12
    next(tile for tile in crowded["tiles"] if tile["at"] != crowded["volcano"])["loads"].append(colour)
    for bad in (full_tile, crowded):
        assert quick_state(bad) is None
        with pytest.raises(ValueError) as raised:
            state_from_observation(bad)
        with pytest.raises(ValueError) as expected:
            checked_state_from_observation(bad)
        assert str(raised.value) == str(expected.value)
