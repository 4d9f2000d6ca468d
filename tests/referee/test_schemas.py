"""Every game's JSON Schemas (:meth:`referee.game.Game.schema`) hold for what the referee sends: over
whole random games of every variant and seat count, every legal move validates, and so does the
observation sent to the seat to move for the first :data:`EVERY_OBSERVATION_UNTIL` moves, then every
:data:`OBSERVATION_STRIDE` th (validating a late Catan observation, its event log grown long, takes
tens of milliseconds), and every seat's at the end; and they are strict enough to catch a key left
out or a move of another shape."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from referee.game import canonical_json
from referee.registry import get_game
from referee.rng import Rng
from tests.referee.engine_checks import registered_cases

SEEDS = (1,)
EVERY_OBSERVATION_UNTIL = 30
OBSERVATION_STRIDE = 40


@cache
def validators(game_id: str, variant: str) -> tuple[Draft202012Validator, Draft202012Validator]:
    schemas = get_game(game_id).schema(variant)
    assert schemas is not None, f"{game_id} declares no JSON Schemas"
    for schema in schemas.values():
        Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schemas["observation"]), Draft202012Validator(schemas["move"])


def _sent(value: Any) -> Any:
    """The value as a bot reads it off the wire."""
    return json.loads(canonical_json(value))


def _errors(validator: Draft202012Validator, value: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in validator.iter_errors(value)
    ][:3]


def shipped_cases() -> list[tuple[str, str, int]]:
    return [case for case in registered_cases() if get_game(case[0]).schema(case[1]) is not None]


def test_every_game_of_the_project_declares_its_schemas() -> None:
    games = {"vulkan", "volcano", "boulderville", "catan-volcano"}
    declared = {case[0] for case in shipped_cases()}
    assert games <= declared
    for game_id in games:
        game = get_game(game_id)
        assert all(game.schema(variant) is not None for variant in game.variants)


@pytest.mark.parametrize(("game_id", "variant", "seats"), shipped_cases())
def test_every_observation_sent_and_every_legal_move_validates(
    game_id: str, variant: str, seats: int
) -> None:
    observation_schema, move_schema = validators(game_id, variant)
    game = get_game(game_id)
    for seed in SEEDS:
        state = game.start(variant, seats=seats, seed=seed)
        chooser = Rng(seed)
        checked: set[str] = set()  # each distinct legal move once: most come back move after move
        for played in range(game.variant(variant).max_moves):
            seat = state.current_seat
            if seat is None:
                break
            if played < EVERY_OBSERVATION_UNTIL or played % OBSERVATION_STRIDE == 0:
                observation = _sent(state.observation(seat))
                assert _errors(observation_schema, observation) == [], (seed, seat, played)
            legal = state.legal_moves()
            for move in legal:
                spelled = canonical_json(move)
                if spelled not in checked:
                    assert _errors(move_schema, json.loads(spelled)) == [], move
                    checked.add(spelled)
            state.apply(chooser.choice(legal))
        for seat in range(seats):
            assert _errors(observation_schema, _sent(state.observation(seat))) == [], ("the end", seat)


@pytest.mark.parametrize(("game_id", "variant", "seats"), shipped_cases())
def test_the_schemas_refuse_a_key_left_out_and_a_move_of_another_shape(
    game_id: str, variant: str, seats: int
) -> None:
    observation_schema, move_schema = validators(game_id, variant)
    state = get_game(game_id).start(variant, seats=seats, seed=3)
    seat = state.current_seat
    assert seat is not None
    observation = _sent(state.observation(seat))
    for key in observation:
        partial = {k: v for k, v in observation.items() if k != key}
        assert _errors(observation_schema, partial), f"an observation without {key!r} validates"
    move = _sent(state.legal_moves()[0])
    for wrong in ([move], "pass", {**move, "unknown_key": 1}, {}):
        assert _errors(move_schema, wrong), f"{wrong!r} validates as a move"
