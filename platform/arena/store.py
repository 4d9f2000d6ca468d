"""The platform's one store: bots, matches, replays, tournaments and ladders in Redis.

Everything lives under one key prefix, so several platforms (or test runs) can share a Redis.
Records are JSON strings of the types in :mod:`arena.records`; a match is its spec and its status
record, side by side; replays are gzip bytes; a ladder is one hash per game and variant mapping bot
ids to JSON rows. Changes that must not interleave (a match's status, its finishing) are optimistic
transactions: ``WATCH`` the keys, read, compute, ``MULTI``/``EXEC``, retry on conflict. No Lua, so
the in-memory Redis of the embedded default needs no scripting engine.

The client answers text (``decode_responses=True``); only replays, which are gzip, are read through
a second client on the same server that answers bytes.

Keys (after the prefix)::

    bot:<id>                 JSON      bots           zset of bot ids by creation time
    bots:game:<game>         zset of the ids of the bots playing a game, by creation time
    bot:<id>:faults          hash kind -> count
    match:<id>               JSON status record        match:<id>:spec   JSON spec (written once)
    match:<id>:replay        gzip      match:<id>:progress   moves played so far
    match:<id>:live          list of the moves of a running match, as JSON (dropped when it ends)
    match:<id>:lease         the worker running it, with a TTL
    matches                  zset of match ids by creation time
    running                  set of the ids of matches a worker started and that have not ended
    queued                   zset of the ids of matches waiting for a worker, by when they were queued
    sweeper                  held by the worker sweeping for stranded matches, with a TTL
    running                  set of the ids of matches a worker started and that have not ended
    queued                   zset of the ids of matches waiting for a worker, by when they were queued
    sweeper                  held by the worker sweeping for stranded matches, with a TTL
    applied:<match id>       set when the match's result went into its ladder (exactly once)
    tournament:<id>          JSON      tournament:<id>:matches   list of match ids
    tournaments              zset of tournament ids by creation time
    ladder:<game>:<variant>  hash bot id -> JSON row
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import fakeredis
from redis import BlockingConnectionPool, Redis, WatchError

from arena.records import BotRecord, MatchRecord, MatchStatus, TournamentRecord
from referee.match import MatchSpec

LadderRow = dict[str, Any]
"""One bot's row in one ladder (see :mod:`arena.ladder`)."""

LIVE_TTL_S = 7 * 24 * 3600


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class Store:
    """Reads and writes the platform's records; knows nothing of games, ratings or HTTP."""

    def __init__(self, redis: Redis, blobs: Redis, prefix: str = "arena:") -> None:
        self.redis = redis
        self.blobs = blobs
        self.prefix = prefix

    @classmethod
    def connect(cls, url: str, prefix: str = "arena:", connections: int = 64) -> Store:
        """A store on the Redis at ``url`` (``redis://[:password@]host:port/db``).

        At most ``connections`` connections (sized to the matches played at once): past that a
        command waits for a free connection (up to 20 s) instead of failing with "Too many
        connections", which at high concurrency used to fail stores and replay matches.
        """
        text = Redis(
            connection_pool=BlockingConnectionPool.from_url(
                url, decode_responses=True, health_check_interval=30, max_connections=connections, timeout=20
            )
        )
        blobs = Redis(
            connection_pool=BlockingConnectionPool.from_url(
                url, health_check_interval=30, max_connections=max(4, connections // 8), timeout=20
            )
        )
        return cls(text, blobs, prefix)

    @classmethod
    def in_memory(cls, prefix: str = "arena:") -> Store:
        """A store on a fresh in-process Redis (fakeredis): the embedded default and the tests."""
        server = fakeredis.FakeServer()
        return cls(
            fakeredis.FakeRedis(server=server, decode_responses=True),
            fakeredis.FakeRedis(server=server),
            prefix,
        )

    def key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    def ping(self) -> bool:
        return bool(self.redis.ping())

    # -- bots --------------------------------------------------------------------------------

    def put_bot(self, bot: BotRecord, previous: BotRecord | None = None) -> None:
        """Create or replace a bot (the record holds its token hash and secret); ``previous`` is the
        record it replaces, so that it leaves the lists of the games it no longer plays."""
        with self.redis.pipeline() as pipe:
            pipe.set(self.key("bot", bot.id), _dumps(bot.to_json()))
            pipe.zadd(self.key("bots"), {bot.id: bot.created_ts}, nx=True)
            for game_id in bot.games:
                pipe.zadd(self.key("bots", "game", game_id), {bot.id: bot.created_ts}, nx=True)
            for game_id in set(previous.games if previous else ()) - set(bot.games):
                pipe.zrem(self.key("bots", "game", game_id), bot.id)
            pipe.execute()

    def get_bot(self, bot_id: str) -> BotRecord | None:
        raw = self.redis.get(self.key("bot", bot_id))
        return None if raw is None else BotRecord.from_json(json.loads(raw))

    def get_bots(self, bot_ids: Iterable[str]) -> dict[str, BotRecord]:
        """The bots that exist among ``bot_ids``, by id."""
        ids = list(dict.fromkeys(bot_ids))
        if not ids:
            return {}
        raws = self.redis.mget([self.key("bot", bot_id) for bot_id in ids])
        return {
            bot_id: BotRecord.from_json(json.loads(raw))
            for bot_id, raw in zip(ids, raws, strict=True)
            if raw is not None
        }

    def list_bots(self) -> list[BotRecord]:
        ids = [str(bot_id) for bot_id in self.redis.zrange(self.key("bots"), 0, -1)]
        found = self.get_bots(ids)
        return [found[bot_id] for bot_id in ids if bot_id in found]

    def bot_ids_page(self, game_id: str | None, offset: int, limit: int) -> tuple[list[str], int]:
        """One page of bot ids, oldest first (those playing ``game_id`` when given), and the count."""
        index = self.key("bots", "game", game_id) if game_id else self.key("bots")
        total = int(self.redis.zcard(index))
        if offset >= total:
            return [], total
        return [str(bot_id) for bot_id in self.redis.zrange(index, offset, offset + limit - 1)], total

    def delete_bot(self, bot_id: str, ladders: Iterable[tuple[str, str]], games: Iterable[str] = ()) -> None:
        """Remove a bot, its fault counts, its place in the lists of ``games`` and its ladder rows."""
        with self.redis.pipeline() as pipe:
            pipe.delete(self.key("bot", bot_id), self.key("bot", bot_id, "faults"))
            pipe.zrem(self.key("bots"), bot_id)
            for game_id in games:
                pipe.zrem(self.key("bots", "game", game_id), bot_id)
            for game_id, variant in ladders:
                pipe.hdel(self.key("ladder", game_id, variant), bot_id)
            pipe.execute()

    def bot_faults(self, bot_id: str) -> dict[str, int]:
        raw = self.redis.hgetall(self.key("bot", bot_id, "faults"))
        return {str(kind): int(count) for kind, count in raw.items()}

    # -- matches -----------------------------------------------------------------------------

    def add_matches(self, matches: Sequence[tuple[MatchRecord, MatchSpec]]) -> None:
        """Store new matches, each its status record and its spec."""
        with self.redis.pipeline() as pipe:
            self._add_matches(pipe, matches)
            pipe.execute()

    def _add_matches(self, pipe: Any, matches: Sequence[tuple[MatchRecord, MatchSpec]]) -> None:
        for match, spec in matches:
            pipe.set(self.key("match", match.id), _dumps(match.to_json()))
            pipe.set(self.key("match", match.id, "spec"), _dumps(spec.to_json()))
            pipe.zadd(self.key("matches"), {match.id: match.created_ts})
            pipe.zadd(self.key("queued"), {match.id: match.created_ts})

    def get_match(self, match_id: str) -> MatchRecord | None:
        raw = self.redis.get(self.key("match", match_id))
        return None if raw is None else MatchRecord.from_json(json.loads(raw))

    def get_spec(self, match_id: str) -> MatchSpec | None:
        raw = self.redis.get(self.key("match", match_id, "spec"))
        return None if raw is None else MatchSpec.from_json(json.loads(raw))

    def get_specs(self, match_ids: Sequence[str]) -> dict[str, MatchSpec]:
        if not match_ids:
            return {}
        raws = self.redis.mget([self.key("match", match_id, "spec") for match_id in match_ids])
        return {
            match_id: MatchSpec.from_json(json.loads(raw))
            for match_id, raw in zip(match_ids, raws, strict=True)
            if raw is not None
        }

    def get_matches(self, match_ids: Sequence[str]) -> list[MatchRecord]:
        """The matches among ``match_ids`` that exist, in the given order."""
        if not match_ids:
            return []
        raws = self.redis.mget([self.key("match", match_id) for match_id in match_ids])
        return [MatchRecord.from_json(json.loads(raw)) for raw in raws if raw is not None]

    def recent_match_ids(self, limit: int, offset: int = 0) -> list[str]:
        return [
            str(match_id)
            for match_id in self.redis.zrevrange(self.key("matches"), offset, offset + limit - 1)
        ]

    def match_count(self) -> int:
        return int(self.redis.zcard(self.key("matches")))

    def update_match(
        self, match_id: str, change: Callable[[MatchRecord], MatchRecord | None]
    ) -> MatchRecord | None:
        """Apply ``change`` to the stored match atomically (retrying on conflict).

        ``change`` gets the current record and returns the new one, or None to leave it as it is;
        returns what was written (None when nothing was, or the match does not exist).
        """
        key = self.key("match", match_id)
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(key)
                    raw = pipe.get(key)
                    updated = None if raw is None else change(MatchRecord.from_json(json.loads(raw)))
                    if updated is None:
                        pipe.unwatch()
                        return None
                    pipe.multi()
                    pipe.set(key, _dumps(updated.to_json()))
                    pipe.execute()
                    return updated
                except WatchError:
                    continue

    def start_match(self, match_id: str) -> MatchRecord | None:
        """Mark a match running (one more attempt) and list it among the running; None if it ended."""
        return self._change_status(match_id, lambda match: None if match.status.ended else match.started())

    def abort_match(self, match_id: str, reason: str) -> MatchRecord | None:
        """Mark a match aborted unless it already ended; its live moves go."""
        return self._change_status(
            match_id, lambda match: None if match.status.ended else match.aborted(reason)
        )

    def _change_status(
        self, match_id: str, change: Callable[[MatchRecord], MatchRecord | None]
    ) -> MatchRecord | None:
        """Like :meth:`update_match`, keeping the ``running`` set and the live moves in step."""
        key = self.key("match", match_id)
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(key)
                    raw = pipe.get(key)
                    updated = None if raw is None else change(MatchRecord.from_json(json.loads(raw)))
                    if updated is None:
                        pipe.unwatch()
                        return None
                    pipe.multi()
                    pipe.set(key, _dumps(updated.to_json()))
                    if updated.status is MatchStatus.RUNNING:
                        pipe.sadd(self.key("running"), match_id)
                    else:
                        pipe.srem(self.key("running"), match_id)
                    if updated.status is MatchStatus.QUEUED:
                        pipe.zadd(self.key("queued"), {match_id: time.time()})
                    else:
                        pipe.zrem(self.key("queued"), match_id)
                    if updated.status.ended:
                        pipe.delete(self.key("match", match_id, "live"))
                    pipe.execute()
                    return updated
                except WatchError:
                    continue

    def running_match_ids(self) -> list[str]:
        return sorted(str(match_id) for match_id in self.redis.smembers(self.key("running")))

    def requeue_if_stranded(self, match_id: str) -> bool:
        """Put a ``running`` match whose lease lapsed (its worker died, or the store went away under
        it) back to ``queued``; True when it did, and the caller must then queue it again."""
        key = self.key("match", match_id)
        lease = self.key("match", match_id, "lease")
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(key, lease)
                    raw = pipe.get(key)
                    match = None if raw is None else MatchRecord.from_json(json.loads(raw))
                    if match is None or match.status is not MatchStatus.RUNNING or pipe.exists(lease):
                        pipe.unwatch()
                        if match is None or match.status.ended:
                            self.redis.srem(self.key("running"), match_id)
                        return False
                    pipe.multi()
                    pipe.set(key, _dumps(replace(match, status=MatchStatus.QUEUED).to_json()))
                    pipe.srem(self.key("running"), match_id)
                    pipe.zadd(self.key("queued"), {match_id: time.time()})
                    pipe.execute()
                    return True
                except WatchError:
                    continue

    def back_to_running(self, match_id: str) -> None:
        """Undo :meth:`requeue_if_stranded` when the match could not be queued: the next sweep
        finds it running without a lease again."""
        self._change_status(
            match_id,
            lambda match: (
                replace(match, status=MatchStatus.RUNNING) if match.status is MatchStatus.QUEUED else None
            ),
        )

    def queued_before(self, moment: float) -> list[str]:
        """The matches still waiting for a worker that were queued before ``moment`` (a timestamp)."""
        return [str(match_id) for match_id in self.redis.zrangebyscore(self.key("queued"), "-inf", moment)]

    def requeued_now(self, match_id: str) -> None:
        """Note that a waiting match was just queued again (its wait starts over)."""
        self.redis.zadd(self.key("queued"), {match_id: time.time()}, xx=True)

    def take_sweeper_lock(self, owner: str, seconds: float) -> bool:
        """One sweeper at a time across the workers: True when ``owner`` may sweep now."""
        return bool(self.redis.set(self.key("sweeper"), owner, nx=True, px=int(seconds * 1000)))

    def set_progress(self, match_id: str, moves: int) -> None:
        self.redis.set(self.key("match", match_id, "progress"), moves, ex=LIVE_TTL_S)

    def progress(self, match_ids: Sequence[str]) -> dict[str, int]:
        if not match_ids:
            return {}
        raws = self.redis.mget([self.key("match", match_id, "progress") for match_id in match_ids])
        return {match_id: int(raw) for match_id, raw in zip(match_ids, raws, strict=True) if raw is not None}

    def restart_live(self, match_id: str) -> None:
        """A run starts: moves of an earlier, interrupted run are not this run's."""
        self.redis.delete(self.key("match", match_id, "live"), self.key("match", match_id, "progress"))

    def append_live(self, match_id: str, moves: Sequence[Mapping[str, Any]], played: int) -> None:
        """Add moves of a running match (for spectators) and the count played so far."""
        key = self.key("match", match_id, "live")
        with self.redis.pipeline(transaction=False) as pipe:
            if moves:
                pipe.rpush(key, *[_dumps(move) for move in moves])
                pipe.expire(key, LIVE_TTL_S)
            pipe.set(self.key("match", match_id, "progress"), played, ex=LIVE_TTL_S)
            pipe.execute()

    def live_moves(self, match_id: str, start: int = 0) -> list[dict[str, Any]]:
        """The moves of a running match from index ``start`` on (empty once it has ended)."""
        return [json.loads(raw) for raw in self.redis.lrange(self.key("match", match_id, "live"), start, -1)]

    def get_replay(self, match_id: str) -> bytes | None:
        data = self.blobs.get(self.key("match", match_id, "replay"))
        return None if data is None else bytes(data)  # type: ignore[arg-type]  # the bytes client

    def finish_match(
        self,
        match_id: str,
        finished: Callable[[MatchRecord], MatchRecord],
        replay: bytes,
        ladder: tuple[str, str] | None,
        update_ladder: Callable[[dict[str, LadderRow]], dict[str, LadderRow]],
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
                    raw = pipe.get(match_key)
                    current = None if raw is None else MatchRecord.from_json(json.loads(raw))
                    if pipe.exists(applied_key) or current is None or current.status.ended:
                        pipe.unwatch()
                        return False
                    rows: dict[str, LadderRow] = {}
                    if ladder_key:
                        rows = {str(bot): json.loads(row) for bot, row in pipe.hgetall(ladder_key).items()}
                    changed_rows = update_ladder(rows)
                    record = finished(current)
                    pipe.multi()
                    pipe.set(applied_key, "1")
                    pipe.set(match_key, _dumps(record.to_json()))
                    pipe.set(self.key("match", match_id, "replay"), replay)
                    if ladder_key and changed_rows:
                        pipe.hset(ladder_key, mapping={bot: _dumps(row) for bot, row in changed_rows.items()})
                    for bot_id, kinds in faults.items():
                        for kind, count in kinds.items():
                            pipe.hincrby(self.key("bot", bot_id, "faults"), kind, count)
                    pipe.delete(
                        self.key("match", match_id, "lease"),
                        self.key("match", match_id, "live"),
                    )
                    pipe.srem(self.key("running"), match_id)
                    pipe.zrem(self.key("queued"), match_id)
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
                if pipe.get(key) != owner:
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
                if pipe.get(key) == owner:
                    pipe.multi()
                    pipe.delete(key)
                    pipe.execute()
                else:
                    pipe.unwatch()
            except WatchError:
                return

    # -- tournaments -------------------------------------------------------------------------

    def add_tournament(
        self, tournament: TournamentRecord, matches: Sequence[tuple[MatchRecord, MatchSpec]]
    ) -> None:
        """Store a tournament with all its matches in one go (nothing is enqueued here)."""
        with self.redis.pipeline() as pipe:
            pipe.set(self.key("tournament", tournament.id), _dumps(tournament.to_json()))
            pipe.zadd(self.key("tournaments"), {tournament.id: tournament.created_ts})
            if matches:
                pipe.rpush(self.key("tournament", tournament.id, "matches"), *[m.id for m, _ in matches])
            self._add_matches(pipe, matches)
            pipe.execute()

    def get_tournament(self, tournament_id: str) -> TournamentRecord | None:
        raw = self.redis.get(self.key("tournament", tournament_id))
        return None if raw is None else TournamentRecord.from_json(json.loads(raw))

    def tournament_match_ids(self, tournament_id: str) -> list[str]:
        return [str(m) for m in self.redis.lrange(self.key("tournament", tournament_id, "matches"), 0, -1)]

    def recent_tournament_ids(self, limit: int, offset: int = 0) -> list[str]:
        return [str(t) for t in self.redis.zrevrange(self.key("tournaments"), offset, offset + limit - 1)]

    def tournament_count(self) -> int:
        return int(self.redis.zcard(self.key("tournaments")))

    def put_tournament(self, tournament: TournamentRecord) -> None:
        """Store a changed tournament record (its matches are not touched)."""
        self.redis.set(self.key("tournament", tournament.id), _dumps(tournament.to_json()))

    def take_round_mark(self, tournament_id: str, round_no: int) -> bool:
        """True for the one caller that may make this round (SET NX): a round is made exactly once."""
        mark = self.key("tournament", tournament_id, "made", str(round_no))
        return bool(self.redis.set(mark, "1", nx=True))

    def add_round(
        self,
        tournament_id: str,
        round_no: int,
        matches: Sequence[tuple[MatchRecord, MatchSpec]],
        byes: Sequence[str],
    ) -> None:
        """Store one round's matches under the tournament, with the round's list of matches and byes."""
        with self.redis.pipeline() as pipe:
            if matches:
                pipe.rpush(self.key("tournament", tournament_id, "matches"), *[m.id for m, _ in matches])
            round_json = {"matches": [m.id for m, _ in matches], "byes": list(byes)}
            pipe.rpush(self.key("tournament", tournament_id, "rounds"), _dumps(round_json))
            self._add_matches(pipe, matches)
            pipe.execute()

    def tournament_rounds(self, tournament_id: str) -> list[dict[str, Any]]:
        """The rounds made so far, each ``{"matches": [ids], "byes": [bot ids]}``."""
        raw = self.redis.lrange(self.key("tournament", tournament_id, "rounds"), 0, -1)
        return [json.loads(item) for item in raw]

    def abort_if_queued(self, match_id: str, reason: str) -> MatchRecord | None:
        """Abort a match only while it is still queued (atomic): a running match plays on."""
        return self._change_status(
            match_id, lambda match: match.aborted(reason) if match.status is MatchStatus.QUEUED else None
        )

    # -- ladders -----------------------------------------------------------------------------

    def ladder_rows(self, game_id: str, variant: str) -> dict[str, LadderRow]:
        raw = self.redis.hgetall(self.key("ladder", game_id, variant))
        return {str(bot): json.loads(row) for bot, row in raw.items()}

    def ladder_row(self, game_id: str, variant: str, bot_id: str) -> LadderRow | None:
        raw = self.redis.hget(self.key("ladder", game_id, variant), bot_id)
        return None if raw is None else dict(json.loads(raw))


__all__ = ["LadderRow", "MatchStatus", "Store"]
