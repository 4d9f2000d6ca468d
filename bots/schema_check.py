"""A move request and a bot's answer checked against the game's JSON Schemas, for bot authors who
want to know at once when what they read or send is not of the game's shape (``validate=True`` in
:func:`bots.sdk.run_bot`). The schemas are the game's own (:meth:`referee.game.Game.schema`, the
same ``GET /api/v1/games/<id>/schema`` serves); each is compiled once per process."""

from __future__ import annotations

from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from referee.registry import get_game

MOST_ERRORS = 3
"""Errors named in one message: the first few say enough to find the field."""


@cache
def validators(game_id: str, variant: str | None) -> tuple[Draft202012Validator, Draft202012Validator] | None:
    """The observation's and the move's validators of a game's variant, None for a game without
    schemas. Raises :class:`referee.game.SetupError` for an unknown game or variant."""
    schemas = get_game(game_id).schema(variant)
    if schemas is None:
        return None
    return Draft202012Validator(schemas["observation"]), Draft202012Validator(schemas["move"])


def _problems(validator: Draft202012Validator, value: Any, what: str) -> str | None:
    errors = sorted(validator.iter_errors(value), key=lambda error: list(error.absolute_path))[:MOST_ERRORS]
    if not errors:
        return None
    said = "; ".join(
        f"{'/'.join(map(str, error.absolute_path)) or '(top)'}: {error.message}" for error in errors
    )
    return f"{what} does not fit the game's JSON Schema: {said}"


def request_problem(request: dict[str, Any]) -> str | None:
    """Why a move request's observation or one of its legal moves does not fit the schemas, or None
    (also None for a game that declares no schemas, or that this installation does not know)."""
    try:
        found = validators(request["game"], request.get("variant"))
    except (KeyError, TypeError, ValueError):  # SetupError is a ValueError: nothing to check against
        return None
    if found is None:
        return None
    observation, move = found
    problem = _problems(observation, request.get("observation"), "the observation")
    for index, legal in enumerate(request.get("legal_moves") or []):
        problem = problem or _problems(move, legal, f"legal move {index}")
    return problem


def move_problem(request: dict[str, Any], chosen: Any) -> str | None:
    """Why the bot's chosen move does not fit the game's move schema, or None."""
    try:
        found = validators(request["game"], request.get("variant"))
    except (KeyError, TypeError, ValueError):
        return None
    return None if found is None else _problems(found[1], chosen, "the bot's move")
