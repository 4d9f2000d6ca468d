"""Where the platform finds games: one line per game module, nothing else to change.

Each module named here exposes ``GAME``, an instance of :class:`referee.game.Game`. Modules are
imported on first use so that a broken or slow game never slows the start of the others.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from referee.game import Game, SetupError

GAME_MODULES: dict[str, str] = {
    "vulkan": "referee.vulkan",
    "volcano": "referee.volcano",
    "boulderville": "referee.boulderville",
    "catan-volcano": "referee.catan_volcano",
}


@cache
def get_game(game_id: str) -> Game[Any]:
    """The registered game with this id; :class:`SetupError` (field ``game``) if there is none."""
    try:
        module_name = GAME_MODULES[game_id]
    except KeyError:
        known = ", ".join(sorted(GAME_MODULES))
        raise SetupError(f"unknown game {game_id!r} (games: {known})", "game") from None
    game: Game[Any] = importlib.import_module(module_name).GAME
    if game.id != game_id:
        raise RuntimeError(f"{module_name}.GAME has id {game.id!r}, registered as {game_id!r}")
    return game


def all_games() -> list[Game[Any]]:
    """Every registered game, in id order."""
    return [get_game(game_id) for game_id in sorted(GAME_MODULES)]
