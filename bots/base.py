"""The bot interface (:class:`referee.bot.Bot`, named here for bot authors) and the random bot every
game's reference bots include."""

from __future__ import annotations

from referee.bot import Bot, BotFactory, Move, Request
from referee.rng import Rng, derive_seed

__all__ = ["Bot", "BotFactory", "Move", "RandomBot", "Request"]


class RandomBot:
    """Uniform over the legal moves, from its own seeded stream. Every game's ``random`` bot."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(derive_seed(seed, "random-bot"))

    def choose(self, request: Request) -> Move:
        return self.rng.choice(request["legal_moves"])
