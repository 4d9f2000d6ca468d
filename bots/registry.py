"""The reference bots of every game: one line per game, like :mod:`referee.registry`.

Each module named here exposes ``BOTS``, a dict from bot name to :data:`bots.base.BotFactory`; a
game's bots may come from several modules (a planning bot that builds on a simpler one lives in a
module of its own, so that neither imports the other both ways).
"""

from __future__ import annotations

import importlib
from functools import cache

from bots.base import Bot, BotFactory

BOT_MODULES: dict[str, tuple[str, ...]] = {
    "vulkan": ("bots.vulkan", "bots.vulkan_search"),
    "volcano": ("bots.volcano", "bots.volcano_search"),
    "boulderville": ("bots.boulderville", "bots.boulderville_search"),
    "catan-volcano": ("bots.catan_volcano", "bots.catan_search"),
}


class UnknownBot(LookupError):
    """No reference bot of that name for that game."""


@cache
def bots_for(game_id: str) -> dict[str, BotFactory]:
    """The reference bots of a game, by name (empty for a game without any)."""
    found: dict[str, BotFactory] = {}
    for module_name in BOT_MODULES.get(game_id, ()):
        found.update(importlib.import_module(module_name).BOTS)
    return found


def make_bot(game_id: str, name: str, seed: int) -> Bot:
    """A fresh reference bot. Raises :class:`UnknownBot` with the names that exist."""
    factories = bots_for(game_id)
    if name not in factories:
        known = ", ".join(sorted(factories)) or "none"
        raise UnknownBot(f"no reference bot {name!r} for {game_id} (reference bots: {known})")
    return factories[name](seed)
