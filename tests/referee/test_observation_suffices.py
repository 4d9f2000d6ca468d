"""A seat's legal moves follow from its observation alone.

Every game lets a bot rebuild a playable position from what a seat sees (``state_from_observation``
where nothing is hidden, a determinization where something is): the search bots plan on such
positions. The legal moves of the seat to move in any such rebuilt position must be exactly the
referee's, whatever was drawn for the parts the seat cannot see; otherwise a bot planning on it
would try moves the referee refuses, or the legal moves would leak hidden information. It is also
what would let a bot that knows the rules do without the legal-move list in its requests.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import registry
from referee.game import Game, canonical_json
from referee.registry import get_game
from referee.rng import Rng
from tests.referee.engine_checks import registered_cases

DRAWS = (0, 1)
"""Two draws of what the seat cannot see (the same position twice where nothing is hidden)."""
MOVES_PER_GAME = 120


def rebuilds(game_id: str) -> bool:
    """Whether the game says how a seat rebuilds its position (overrides the interface's default)."""
    return type(get_game(game_id)).from_observation is not Game.from_observation


def test_every_game_the_platform_ships_says_how_a_seat_rebuilds_its_position() -> None:
    # the games of the referee package (test games registered by other tests are not its concern)
    shipped = [game_id for game_id, target in registry.declared().items() if target.startswith("referee.")]
    assert shipped and [game_id for game_id in shipped if not rebuilds(game_id)] == []


def _spelled(moves: list[Any]) -> list[str]:
    return [canonical_json(move) for move in moves]


@pytest.mark.parametrize(
    ("game_id", "variant", "seats"), [case for case in registered_cases() if rebuilds(case[0])]
)
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_the_legal_moves_of_a_position_rebuilt_from_the_observation_are_the_referees(
    game_id: str, variant: str, seats: int, seed: int
) -> None:
    rebuild = get_game(game_id).from_observation
    state = get_game(game_id).start(variant, seats=seats, seed=seed)
    chooser = Rng(seed)
    for turn in range(MOVES_PER_GAME):
        if state.outcome() is not None:
            break
        seat = state.current_seat
        assert seat is not None
        legal = state.legal_moves()
        observation = state.observation(seat)
        for draw in DRAWS:
            rebuilt = rebuild(observation, seat, draw)
            assert rebuilt.current_seat == seat, f"turn {turn}: another seat to move"
            assert _spelled(rebuilt.legal_moves()) == _spelled(legal), f"turn {turn}, draw {draw}"
        state.apply(chooser.choice(legal))
