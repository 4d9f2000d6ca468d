"""The platform's one store: bots, matches, replays, tournaments and ladders in Redis.

Everything lives under one key prefix, so several platforms (or test runs) can share a Redis.
Records are JSON strings; replays are gzip bytes; a ladder is one hash per game and variant
mapping bot ids to JSON entries. Changes that must not interleave (a match's status, its finishing)
are optimistic transactions: ``WATCH`` the keys, read, compute, ``MULTI``/``EXEC``, retry on
conflict. No Lua, so the in-memory Redis of the embedded default needs no scripting engine.

Keys (after the prefix)::

    bot:<id>                 JSON      bots           zset of bot ids by creation time
    bot:<id>:faults          hash kind -> count
    match:<id>               JSON      matches        zset of match ids by creation time
    match:<id>:replay        gzip      match:<id>:progress   moves played so far
    match:<id>:lease         the worker running it, with a TTL
    applied:<match id>       set when the match's result went into its ladder (exactly once)
    tournament:<id>          JSON      tournament:<id>:matches   list of match ids
    tournaments              zset of tournament ids by creation time
    ladder:<game>:<variant>  hash bot id -> JSON entry
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from redis import Redis, WatchError

Record = dict[str, Any]
TERMINAL_STATUSES = frozenset({"finished", "aborted"})


def _dumps(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def _loads(raw: bytes | None) -> Any:
    return None if raw is None else json.loads(raw)


class Store:
    """Reads and writes the platform's records; knows nothing of games, ratings or HTTP."""

    def __init__(self, redis: Redis, prefix: str = "arena:") -> None:
        self.redis = redis
        self.prefix = prefix

    def key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    def ping(self) -> bool:
        return bool(self.redis.ping())

    # -- bots --------------------------------------------------------------------------------

    def put_bot(self, bot: Record) -> None:
        """Create or replace a bot (the record holds its token hash and secret)."""
        with self.redis.pipeline() as pipe:
            pipe.set(self.key("bot", bot["id"]), _dumps(bot))
            pipe.zadd(self.key("bots"), {bot["id"]: bot.get("created_ts", time.time())}, nx=True)
            pipe.execute()

    def get_bot(self, bot_id: str) -> Record | None:
        return _loads(self.redis.get(self.key("bot", bot_id)))

    def get_bots(self, bot_ids: Iterable[str]) -> dict[str, Record]:
        """The bots that exist among ``bot_ids``, by id."""
        ids = list(dict.fromkeys(bot_ids))
        if not ids:
            return {}
        raws = self.redis.mget([self.key("bot", bot_id) for bot_id in ids])
        return {bot_id: _loads(raw) for bot_id, raw in zip(ids, raws, strict=True) if raw is not None}

    def list_bots(self) -> list[Record]:
        ids = [raw.decode() for raw in self.redis.zrange(self.key("bots"), 0, -1)]
        found = self.get_bots(ids)
        return [found[bot_id] for bot_id in ids if bot_id in found]

    def delete_bot(self, bot_id: str, ladders: Iterable[tuple[str, str]]) -> None:
        """Remove a bot, its fault counts and its rows in the given ladders."""
        with self.redis.pipeline() as pipe:
            pipe.delete(self.key("bot", bot_id), self.key("bot", bot_id, "faults"))
            pipe.zrem(self.key("bots"), bot_id)
            for game_id, variant in ladders:
                pipe.hdel(self.key("ladder", game_id, variant), bot_id)
            pipe.execute()

    def bot_faults(self, bot_id: str) -> dict[str, int]:
        raw = self.redis.hgetall(self.key("bot", bot_id, "faults"))
        return {kind.decode(): int(count) for kind, count in raw.items()}

    # -- matches -----------------------------------------------------------------------------

    def add_matches(self, matches: list[Record]) -> None:
        with self.redis.pipeline() as pipe:
            for match in matches:
                pipe.set(self.key("match", match["id"]), _dumps(match))
                pipe.zadd(self.key("matches"), {match["id"]: match["created_ts"]})
            pipe.execute()

    def get_match(self, match_id: str) -> Record | None:
        return _loads(self.redis.get(self.key("match", match_id)))

    def get_matches(self, match_ids: list[str]) -> list[Record]:
        """The matches among ``match_ids`` that exist, in the given order."""
        if not match_ids:
            return []
        raws = self.redis.mget([self.key("match", match_id) for match_id in match_ids])
        return [_loads(raw) for raw in raws if raw is not None]

    def recent_match_ids(self, limit: int) -> list[str]:
        return [raw.decode() for raw in self.redis.zrevrange(self.key("matches"), 0, limit - 1)]

    def update_match(self, match_id: str, change: Callable[[Record], Record | None]) -> Record | None:
        """Apply ``change`` to the stored match atomically (retrying on conflict).

        ``change`` gets the current record and returns the new one, or None to leave it as it is;
        returns what was written (None when nothing was, or the match does not exist).
        """
        key = self.key("match", match_id)
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(key)
                    current = _loads(pipe.get(key))
                    updated = None if current is None else change(current)
                    if updated is None:
                        pipe.unwatch()
                        return None
                    pipe.multi()
                    pipe.set(key, _dumps(updated))
                    pipe.execute()
                    return updated
                except WatchError:
                    continue

    def set_progress(self, match_id: str, moves: int) -> None:
        self.redis.set(self.key("match", match_id, "progress"), moves, ex=7 * 24 * 3600)

    def progress(self, match_ids: list[str]) -> dict[str, int]:
        if not match_ids:
            return {}
        raws = self.redis.mget([self.key("match", match_id, "progress") for match_id in match_ids])
        return {match_id: int(raw) for match_id, raw in zip(match_ids, raws, strict=True) if raw is not None}

    def get_replay(self, match_id: str) -> bytes | None:
        return self.redis.get(self.key("match", match_id, "replay"))

    def finish_match(
        self,
        match_id: str,
        finished: Callable[[Record], Record],
        replay: bytes,
        ladder: tuple[str, str] | None,
        update_ladder: Callable[[dict[str, Record]], dict[str, Record]],
        faults: Mapping[str, Mapping[str, int]],
    ) -> bool:
        """Store a match's end and count it in its ladder, all at once and exactly once.

        One transaction sets ``applied:<match id>``, writes the record ``finished(current)`` and the
        replay, writes the ladder rows ``update_ladder(current rows)`` returns and adds ``faults``
        (bot id -> kind -> count). Returns False, changing nothing, when the match was already
        applied or has ended otherwise (a second run of the same match lands here).
        """
        applied_key = self.key("applied", match_id)
        match_key = self.key("match", match_id)
        ladder_key = self.key("ladder", *ladder) if ladder else None
        watched = [applied_key, match_key] + ([ladder_key] if ladder_key else [])
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(*watched)
                    current = _loads(pipe.get(match_key))
                    if pipe.exists(applied_key) or current is None or current["status"] in TERMINAL_STATUSES:
                        pipe.unwatch()
                        return False
                    rows: dict[str, Record] = {}
                    if ladder_key:
                        rows = {bot.decode(): _loads(raw) for bot, raw in pipe.hgetall(ladder_key).items()}
                    changed_rows = update_ladder(rows)
                    record = finished(current)
                    pipe.multi()
                    pipe.set(applied_key, b"1")
                    pipe.set(match_key, _dumps(record))
                    pipe.set(self.key("match", match_id, "replay"), replay)
                    if ladder_key and changed_rows:
                        pipe.hset(ladder_key, mapping={bot: _dumps(row) for bot, row in changed_rows.items()})
                    for bot_id, kinds in faults.items():
                        for kind, count in kinds.items():
                            pipe.hincrby(self.key("bot", bot_id, "faults"), kind, count)
                    pipe.delete(self.key("match", match_id, "lease"))
                    pipe.execute()
                    return True
                except WatchError:
                    continue

    def is_applied(self, match_id: str) -> bool:
        return bool(self.redis.exists(self.key("applied", match_id)))

    # -- leases: which worker runs a match right now -----------------------------------------

    def acquire_lease(self, match_id: str, owner: str, seconds: float) -> bool:
        """Take the match's lease unless another worker holds a live one."""
        key = self.key("match", match_id, "lease")
        return bool(self.redis.set(key, owner, nx=True, px=int(seconds * 1000)))

    def renew_lease(self, match_id: str, owner: str, seconds: float) -> bool:
        """Extend our lease; False when it lapsed or someone else holds it."""
        key = self.key("match", match_id, "lease")
        with self.redis.pipeline() as pipe:
            try:
                pipe.watch(key)
                holder = pipe.get(key)
                if holder is None or holder.decode() != owner:
                    pipe.unwatch()
                    return False
                pipe.multi()
                pipe.pexpire(key, int(seconds * 1000))
                pipe.execute()
                return True
            except WatchError:
                return False

    def release_lease(self, match_id: str, owner: str) -> None:
        key = self.key("match", match_id, "lease")
        with self.redis.pipeline() as pipe:
            try:
                pipe.watch(key)
                holder = pipe.get(key)
                if holder is not None and holder.decode() == owner:
                    pipe.multi()
                    pipe.delete(key)
                    pipe.execute()
                else:
                    pipe.unwatch()
            except WatchError:
                return

    # -- tournaments -------------------------------------------------------------------------

    def add_tournament(self, tournament: Record, matches: list[Record]) -> None:
        """Store a tournament with all its matches in one go (nothing is enqueued here)."""
        with self.redis.pipeline() as pipe:
            pipe.set(self.key("tournament", tournament["id"]), _dumps(tournament))
            pipe.zadd(self.key("tournaments"), {tournament["id"]: tournament["created_ts"]})
            if matches:
                pipe.rpush(self.key("tournament", tournament["id"], "matches"), *[m["id"] for m in matches])
            for match in matches:
                pipe.set(self.key("match", match["id"]), _dumps(match))
                pipe.zadd(self.key("matches"), {match["id"]: match["created_ts"]})
            pipe.execute()

    def get_tournament(self, tournament_id: str) -> Record | None:
        return _loads(self.redis.get(self.key("tournament", tournament_id)))

    def tournament_match_ids(self, tournament_id: str) -> list[str]:
        return [
            raw.decode() for raw in self.redis.lrange(self.key("tournament", tournament_id, "matches"), 0, -1)
        ]

    def recent_tournament_ids(self, limit: int) -> list[str]:
        return [raw.decode() for raw in self.redis.zrevrange(self.key("tournaments"), 0, limit - 1)]

    # -- ladders -----------------------------------------------------------------------------

    def ladder_rows(self, game_id: str, variant: str) -> dict[str, Record]:
        raw = self.redis.hgetall(self.key("ladder", game_id, variant))
        return {bot.decode(): _loads(row) for bot, row in raw.items()}

    def ladder_row(self, game_id: str, variant: str, bot_id: str) -> Record | None:
        return _loads(self.redis.hget(self.key("ladder", game_id, variant), bot_id))
