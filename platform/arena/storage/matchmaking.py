"""Matchmaking, the continuous ladder (:mod:`arena.matchmaking`): each ladder's settings, the
matches it has in flight and made lately, each bot's last opponents, and the scheduler's ticks."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from redis.client import Pipeline

from arena.records import MatchRecord
from arena.storage.base import Part, Shared, dumps
from arena.storage.matches import Matches
from arena.storage.transaction import delete_if_owner, optimistic
from referee.match import MatchSpec


class Matchmaking(Part):
    def __init__(self, shared: Shared, matches: Matches) -> None:
        super().__init__(shared)
        self.matches = matches

    def _mm_key(self, ladder: tuple[str, str], *parts: str) -> str:
        return self.key("matchmaking", *ladder, *parts)

    def ladders(self) -> list[tuple[str, str]]:
        """The ladders with matchmaking on, sorted."""
        found = (json.loads(raw) for raw in self.redis.smembers(self.key("matchmaking", "ladders")))
        return sorted((str(game), str(variant)) for game, variant in found)

    def config(self, game_id: str, variant: str) -> dict[str, Any] | None:
        raw = self.redis.get(self._mm_key((game_id, variant)))
        return None if raw is None else dict(json.loads(raw))

    def put(self, game_id: str, variant: str, config: Mapping[str, Any]) -> None:
        """Turn a ladder's matchmaking on, or change its settings."""
        with self.redis.pipeline() as pipe:
            pipe.set(self._mm_key((game_id, variant)), dumps(config))
            pipe.sadd(self.key("matchmaking", "ladders"), dumps([game_id, variant]))
            pipe.execute()

    def delete(self, game_id: str, variant: str) -> bool:
        """Turn a ladder's matchmaking off; True when it was on. A tick that read the settings
        before this cannot store its matches after it (:meth:`add_matches`)."""
        with self.redis.pipeline() as pipe:
            pipe.delete(self._mm_key((game_id, variant)))
            pipe.srem(self.key("matchmaking", "ladders"), dumps([game_id, variant]))
            removed, _ = pipe.execute()
        return bool(removed)

    def ticked(self, moment: float) -> None:
        """Note that the scheduler ticked (shown, so that a scheduler that is not running shows)."""
        self.redis.set(self.key("matchmaking", "ticked"), repr(moment))

    def last_tick(self) -> float | None:
        raw = self.redis.get(self.key("matchmaking", "ticked"))
        return None if raw is None else float(raw)

    def in_flight(self, game_id: str, variant: str) -> list[str]:
        return sorted(str(m) for m in self.redis.smembers(self._mm_key((game_id, variant), "in-flight")))

    def landed(self, game_id: str, variant: str, match_ids: Sequence[str]) -> None:
        """Forget ended matches from the ladder's matches in flight."""
        if match_ids:
            self.redis.srem(self._mm_key((game_id, variant), "in-flight"), *match_ids)

    def made_since(self, game_id: str, variant: str, moment: float, trim: bool = False) -> int:
        """How many matches the ladder's matchmaking made from ``moment`` on; ``trim`` drops the
        older entries (the scheduler's tick does, with its own clock)."""
        key = self._mm_key((game_id, variant), "made")
        with self.redis.pipeline(transaction=False) as pipe:
            if trim:
                pipe.zremrangebyscore(key, "-inf", f"({moment!r}")
            pipe.zcount(key, moment, "+inf")
            *_, count = pipe.execute()
        return int(count)

    def last_opponents(self, game_id: str, variant: str) -> dict[str, frozenset[str]]:
        raw = self.redis.hgetall(self._mm_key((game_id, variant), "last"))
        return {str(bot): frozenset(json.loads(others)) for bot, others in raw.items()}

    def take_tick(self, game_id: str, variant: str, period: int, seconds: float) -> bool:
        """True for the first tick of ``period`` (SET NX): two schedulers make one tick's matches."""
        key = self._mm_key((game_id, variant), "tick", str(period))
        return bool(self.redis.set(key, "1", nx=True, px=max(1, int(seconds * 2000))))

    def take_lock(self, game_id: str, variant: str, owner: str, seconds: float) -> bool:
        key = self._mm_key((game_id, variant), "lock")
        return bool(self.redis.set(key, owner, nx=True, px=max(1, int(seconds * 1000))))

    def release_lock(self, game_id: str, variant: str, owner: str) -> None:
        delete_if_owner(self.redis, self._mm_key((game_id, variant), "lock"), owner)

    def add_matches(
        self,
        game_id: str,
        variant: str,
        config: Mapping[str, Any],
        matches: Sequence[tuple[MatchRecord, MatchSpec]],
        made_at: float,
    ) -> bool:
        """Store a tick's matches, in flight and counted against the rate, each bot's last opponents
        noted, in one transaction that happens only while the settings are still ``config``: once
        matchmaking is turned off (or changed), a tick that read the old settings stores nothing."""
        ladder = (game_id, variant)
        config_key = self._mm_key(ladder)

        def store_if_unchanged(pipe: Pipeline) -> bool:
            raw = pipe.get(config_key)
            if raw is None or json.loads(raw) != dict(config):
                return False
            pipe.multi()
            self.matches.add_in(pipe, matches)
            if matches:
                pipe.sadd(self._mm_key(ladder, "in-flight"), *[m.id for m, _ in matches])
                pipe.zadd(self._mm_key(ladder, "made"), {m.id: made_at for m, _ in matches})
                pipe.hset(
                    self._mm_key(ladder, "last"),
                    mapping={bot: dumps(sorted(set(m.bots) - {bot})) for m, _ in matches for bot in m.bots},
                )
            pipe.execute()
            return True

        return optimistic(self.redis, [config_key], store_if_unchanged, on_conflict=False)
