"""Reference bots: ``random``, and ``greedy``, which wins when it can, blocks a four it would leave
open, and otherwise plays towards the centre (its own seeded choice among equals)."""

from __future__ import annotations

from bots.base import BotFactory, Move, RandomBot, Request
from connect_four import grid
from connect_four.game import GAME
from referee.rng import Rng, derive_seed


def _wins(columns: grid.Columns, column: int, seat: int) -> bool:
    trial = [list(c) for c in columns]
    trial[column].append(seat)
    return grid.line_through(trial, column, len(trial[column]) - 1) is not None


class GreedyBot:
    def __init__(self, seed: int) -> None:
        self.rng = Rng(derive_seed(seed, "greedy-bot"))

    def choose(self, request: Request) -> Move:
        seat: int = request["seat"]
        state = GAME.from_observation(request["observation"], seat)
        legal = [move["column"] for move in state.legal_moves()]
        for who in (seat, 1 - seat):  # first a four of one's own, then the opponent's to block
            for column in legal:
                if _wins(state.columns, column, who):
                    return {"column": column}
        # not under the opponent's winning cell, where there is another choice
        safe = [
            c
            for c in legal
            if len(state.columns[c]) + 1 >= grid.HEIGHT or not _above_loses(state.columns, c, seat)
        ]
        choices = safe or legal
        nearest = min(abs(c - grid.WIDTH // 2) for c in choices)
        return {"column": self.rng.choice([c for c in choices if abs(c - grid.WIDTH // 2) == nearest])}


def _above_loses(columns: grid.Columns, column: int, seat: int) -> bool:
    trial = [list(c) for c in columns]
    trial[column].append(seat)
    return _wins(trial, column, 1 - seat)


BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot}
