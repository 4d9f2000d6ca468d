"""What a bot is, in-process: something that answers a protocol ``move`` request with a move.

Reference bots see exactly the request an HTTP bot receives (``docs/protocol.md``): the same dict
with ``seat``, ``observation``, ``legal_moves``, ``time`` and the rest, so a bot written against
this interface runs unchanged behind :mod:`bots.sdk`'s HTTP server.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from referee.rng import Rng, derive_seed

Request = dict[str, Any]
Move = dict[str, Any]


class Bot(Protocol):
    """Chooses one of ``request["legal_moves"]``; may keep state between requests of one match."""

    def choose(self, request: Request) -> Move: ...


BotFactory = Callable[[int], Bot]
"""Builds a bot from a seed, so that a reference bot's play is reproducible."""


class RandomBot:
    """Uniform over the legal moves, from its own seeded stream. Every game's ``random`` bot."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(derive_seed(seed, "random-bot"))

    def choose(self, request: Request) -> Move:
        return self.rng.choice(request["legal_moves"])
