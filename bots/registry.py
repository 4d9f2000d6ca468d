"""The reference bots of every game, as each game declares them (:attr:`referee.game.Game.bot_modules`).

Each module a game names exposes ``BOTS``, a dict from bot name to :data:`bots.base.BotFactory`; a
game's bots may come from several modules (a planning bot that builds on a simpler one lives in a
module of its own, so that neither imports the other both ways).
"""

from __future__ import annotations

import importlib
from functools import cache

from bots.base import Bot, BotFactory
from referee.registry import get_game


class UnknownBot(LookupError):
    """No reference bot of that name for that game."""


@cache
def bots_for(game_id: str) -> dict[str, BotFactory]:
    """The reference bots of a game, by name (empty for a game without any, or not known)."""
    try:
        modules = get_game(game_id).bot_modules
    except Exception:  # unknown or failing to load: a game without bots, as far as bots go
        return {}
    found: dict[str, BotFactory] = {}
    for module_name in modules:
        found.update(importlib.import_module(module_name).BOTS)
    return found


def make_bot(game_id: str, name: str, seed: int) -> Bot:
    """A fresh reference bot. Raises :class:`UnknownBot` with the names that exist."""
    factories = bots_for(game_id)
    if name not in factories:
        known = ", ".join(sorted(factories)) or "none"
        raise UnknownBot(f"no reference bot {name!r} for {game_id} (reference bots: {known})")
    return factories[name](seed)
