"""A bot's history: its rating after each counted match of a ladder, and its record against each
opponent. Both are written by the transaction that stores a match's end
(:mod:`arena.storage.finishing`), so each counted match adds its point and its verdicts exactly once.

The rating history is a list per bot and ladder, oldest first, trimmed to the newest points (the cap
is the caller's: ``ARENA_HISTORY_POINTS``); the head-to-head record is one hash per bot of counts by
game, opponent and verdict, so reading it costs one command whatever the number of matches.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from redis.client import Pipeline

from arena.storage.base import Part

VERDICTS = ("win", "draw", "loss")


@dataclass(frozen=True)
class Versus:
    """A bot's record against one opponent in one game."""

    game: str
    opponent: str
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


class History(Part):
    def _history_key(self, ladder: tuple[str, str], bot_id: str) -> str:
        return self.key("ladder", *ladder, "history", bot_id)

    def write_in(
        self, pipe: Pipeline, ladder: tuple[str, str], points: Mapping[str, Mapping[str, Any]], cap: int
    ) -> None:
        """Queue (inside MULTI) one point per bot at the end of its history, keeping the newest ``cap``."""
        for bot_id, point in points.items():
            key = self._history_key(ladder, bot_id)
            pipe.rpush(key, json.dumps(point, separators=(",", ":")))
            pipe.ltrim(key, -cap, -1)

    def write_versus_in(self, pipe: Pipeline, game_id: str, verdicts: Mapping[tuple[str, str], str]) -> None:
        """Queue (inside MULTI) one verdict per (bot, opponent) pair of a finished match."""
        for (bot_id, opponent), verdict in verdicts.items():
            pipe.hincrby(self.key("bot", bot_id, "versus"), f"{game_id}:{opponent}:{verdict}", 1)

    def ratings(self, game_id: str, variant: str, bot_id: str) -> list[dict[str, Any]]:
        """The bot's rating points in a ladder, oldest first: ``{match, at, rating, mu, sigma,
        conservative}`` (see :func:`arena.ladders.rows.history_point`)."""
        raws = self.redis.lrange(self._history_key((game_id, variant), bot_id), 0, -1)
        return [json.loads(raw) for raw in raws]

    def versus(self, bot_id: str) -> list[Versus]:
        """The bot's record against each opponent it met, by game; most games first."""
        counts: dict[tuple[str, str], dict[str, int]] = {}
        for field, count in self.redis.hgetall(self.key("bot", bot_id, "versus")).items():
            game_id, opponent, verdict = str(field).rsplit(":", 2)
            counts.setdefault((game_id, opponent), dict.fromkeys(VERDICTS, 0))[verdict] = int(count)
        found = [
            Versus(game_id, opponent, tally["win"], tally["draw"], tally["loss"])
            for (game_id, opponent), tally in counts.items()
        ]
        return sorted(found, key=lambda v: (-v.games, v.game, v.opponent))

    def forget(self, bot_id: str, ladders: list[tuple[str, str]]) -> None:
        """Drop a deleted bot's rating histories and head-to-head record (its opponents keep theirs)."""
        keys = [self._history_key(ladder, bot_id) for ladder in ladders]
        self.redis.delete(self.key("bot", bot_id, "versus"), *keys)
