"""Observations show the whole table, and a position can be rebuilt from one."""

from __future__ import annotations

import pytest

from referee.game import SetupError, canonical_json
from referee.rng import Rng
from referee.vulkan import GAME, state_from_observation


def played(seed: int, moves: int, variant: str = "competitive", seats: int = 3):
    state = GAME.start(variant, seats=seats, seed=seed)
    chooser = Rng(seed)
    for _ in range(moves):
        if state.outcome() is not None:
            break
        state.apply(chooser.choice(state.legal_moves()))
    return state


def test_every_seat_sees_the_same_table() -> None:
    state = played(seed=2, moves=6)
    views = [state.observation(seat) for seat in range(3)]
    assert [view.pop("seat") for view in views] == [0, 1, 2]
    assert views[0] == views[1] == views[2]


def test_the_only_private_fact_the_deals_random_stream_reaches_no_seat() -> None:
    # Everything on the table is public; the state's RNG (which dealt the tiles) is the one thing
    # no seat needs. Two games that differ only in it look the same to every seat.
    state = played(seed=4, moves=5)
    data = state.to_json()
    data["rng"] = (data["rng"] + 12345) % 2**63
    twin = GAME.load_state(data)
    for seat in range(3):
        seen = canonical_json(state.observation(seat))
        assert seen == canonical_json(twin.observation(seat))
        assert str(state.rng_state) not in seen
    assert state.legal_moves() == twin.legal_moves()


def test_the_observation_tells_the_last_move_and_its_events() -> None:
    state = played(seed=2, moves=1)
    last = state.observation(1)["last"]
    assert last["seat"] == 0 and last["move"]["type"] == "volcano"
    state.apply(state.legal_moves()[0])
    last = state.observation(1)["last"]
    assert last["seat"] == 1 and last["move"]["type"] == "flight"
    drops = [event for event in last["events"] if event["kind"] == "drop"]
    assert drops and all(event["colour"] == last["move"]["colour"] for event in drops)


@pytest.mark.parametrize(("variant", "seats"), [("competitive", 2), ("competitive", 3), ("solitaire", 1)])
@pytest.mark.parametrize("moves", [0, 1, 5, 12])
def test_a_position_rebuilt_from_an_observation_plays_the_same(variant: str, seats: int, moves: int) -> None:
    state = played(seed=moves + seats, moves=moves, variant=variant, seats=seats)
    if state.outcome() is not None:
        pytest.skip("the game ended early")
    rebuilt = state_from_observation(state.observation(0))
    assert rebuilt.current_seat == state.current_seat
    assert rebuilt.legal_moves() == state.legal_moves()
    chooser = Rng(99)
    while state.outcome() is None:
        move = chooser.choice(state.legal_moves())
        state.apply(move)
        rebuilt.apply(move)
        assert state.last == rebuilt.last
    assert canonical_json(rebuilt.outcome().to_json()) == canonical_json(state.outcome().to_json())


def test_a_finished_game_cannot_be_rebuilt() -> None:
    state = played(seed=1, moves=10_000)
    with pytest.raises(SetupError):
        state_from_observation(state.observation(0))
