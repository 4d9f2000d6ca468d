"""The platform's one store: bots, matches, replays, tournaments and ladders in Redis.

Everything lives under one key prefix, so several platforms (or test runs) can share a Redis.
Records are JSON strings of the types in :mod:`arena.records`; a match is its spec and its status
record, side by side; replays are gzip bytes; a ladder is a sorted set of its rows' ranking keys plus one
small record per row, so a page reads only its own rows and a finished match writes only its bots'.
Changes that must not interleave (a match's status, its finishing) are optimistic
transactions: ``WATCH`` the keys, read, compute, ``MULTI``/``EXEC``, retry on conflict. No Lua, so
the in-memory Redis of the embedded default needs no scripting engine.

The client answers text (``decode_responses=True``); only replays, which are gzip, are read through
a second client on the same server that answers bytes.

Replays are not kept in Redis: they go to the store's files (:mod:`arena.replays`: a directory or an
S3 bucket), each run's under a name of its own, and the transaction that stores a match's end records
which run's replay counts (``match:<id>:replay`` holds that run's token; a replay stored whole there
by an older version is still read). Ended matches older than ``ARENA_ARCHIVE_AFTER_DAYS`` move to the
files as well (:mod:`arena.archive`): record, spec and replay token in one JSON document, and Redis
keeps only the id in ``matches``, through which they are still found and read.

Keys (after the prefix)::

    bot:<id>                 JSON      bots           zset of bot ids by creation time
    bots:game:<game>         zset of the ids of the bots playing a game, by creation time
    bot:<id>:faults          hash kind -> count
    match:<id>               JSON status record        match:<id>:spec   JSON spec (written once)
    match:<id>:replay        token of the run whose replay counts   match:<id>:progress   moves so far
    match:<id>:live          list of the moves of a running match, as JSON (dropped when it ends)
    match:<id>:lease         the worker running it, with a TTL
    matches                  zset of match ids by creation time
    matches:bot:<id>, matches:game:<game>[:<variant>], matches:status:<finished|aborted>
                             zsets of match ids by creation time, to list matches by filter
    running                  set of the ids of matches a worker started and that have not ended
    queued                   zset of the ids of matches waiting for a worker, by when they were queued
    sweeper                  held by the worker sweeping for stranded matches, with a TTL
    running                  set of the ids of matches a worker started and that have not ended
    queued                   zset of the ids of matches waiting for a worker, by when they were queued
    sweeper                  held by the worker sweeping for stranded matches, with a TTL
    archiver                 held by the worker archiving old matches, with a TTL
    archive:cursor           creation time up to which every match is archived: the next pass starts there
    applied:<match id>       set when the match's result went into its ladder (exactly once)
    tournament:<id>          JSON      tournament:<id>:matches   list of match ids
    tournaments              zset of tournament ids by creation time
    ladder:<g>:<v>:rank      zset bot id -> minus the row's ranking key (ascending = best first;
                             equal keys share a rank, and Redis orders them by bot id)
    ladder:<g>:<v>:bot:<id>  JSON: the bot's row (see arena.ladder); one key per row, so a finishing
                             match WATCHes only its own bots' rows, and a page is one MGET
    ladder:<g>:<v>:game      JSON: a team variant's game as an entrant (its skill; not ranked)
    ladder:<g>:<v>:results   list of the counted results, JSON {match, bots, places, team_won}
    ladder:<g>:<v>:refit     hash bot id -> JSON {rating, low, high} of the last batch refit
    ladder:<g>:<v>:refit:at  JSON {matches, samples, seed, at} of that refit
    ladder-names             hash bot id -> name, for showing ladders without reading bot records
    matchmaking:ladders      set of the ladders with matchmaking on, each JSON [game, variant]
    matchmaking:ticked       when the scheduler last ticked (a timestamp)
    matchmaking:<g>:<v>      JSON: the ladder's matchmaking settings (absent: matchmaking is off)
    matchmaking:<g>:<v>:in-flight   set of the ids of its matches not yet seen ended
    matchmaking:<g>:<v>:made        zset match id -> when made (the last minute's, for the rate)
    matchmaking:<g>:<v>:last        hash bot id -> JSON list of the bots of its last match
    matchmaking:<g>:<v>:lock        held by the scheduler tick making its matches, with a TTL
    matchmaking:<g>:<v>:tick:<n>    taken by the first tick of period n, with a TTL
"""

from __future__ import annotations

import io
import json
import logging
import os
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import compress
from typing import IO, Any

import fakeredis
import orjson
from redis import BlockingConnectionPool, Redis, WatchError

from arena import replays
from arena.records import BotRecord, MatchRecord, MatchStatus, RoundRecord, TournamentRecord
from referee.match import MatchSpec

log = logging.getLogger(__name__)

LadderRow = dict[str, Any]
"""One bot's row in one ladder (see :mod:`arena.ladder`); its ``key`` field is its ranking key."""

GAME_ENTRANT = "@game"
"""The row id a team variant's game itself has in ``update_ladder``'s rows (see arena.skill)."""


@dataclass(frozen=True)
class LadderEntry:
    """One row of a ladder page: its competition rank, the bot, its name, row and last refit."""

    rank: int
    bot_id: str
    name: str
    row: LadderRow
    refit: dict[str, Any] | None


@dataclass(frozen=True)
class LadderPage:
    total: int
    entries: list[LadderEntry]
    refit: dict[str, Any] | None = None
    """What the ladder's last batch refit was (matches, samples, seed, at), None before one."""


class Begun(StrEnum):
    """What :meth:`Store.begin_match` found."""

    STARTED = "started"
    """The lease is this run's and the match is marked running, one attempt more."""
    MISSING = "missing"
    """No such match (or its spec is gone)."""
    ENDED = "ended"
    """The match has ended: nothing to play."""
    BUSY = "busy"
    """Another run holds the match's lease."""


@dataclass(frozen=True)
class MatchStart:
    """A run's start: the outcome, and for a started match its running record, its spec and the
    seats' bots that still exist (by id)."""

    outcome: Begun
    match: MatchRecord | None = None
    spec: MatchSpec | None = None
    bots: dict[str, BotRecord] = field(default_factory=dict)


LIVE_TTL_S = 7 * 24 * 3600
ARCHIVE_FORMAT = "arena-archived-match/1"
GZIP_MAGIC = b"\x1f\x8b"


def _blob(value: bytes | str) -> bytes:
    """A value read through the bytes client (``blobs``): bytes, which redis-py's types do not know."""
    if not isinstance(value, bytes):
        raise TypeError("the blobs client must not decode responses")
    return value


def _found_bots(bot_ids: Sequence[str], raws: Sequence[str | bytes | None]) -> dict[str, BotRecord]:
    """The bots of ``bot_ids`` whose stored records (``raws``, read in the same order) exist, by id."""
    return {
        bot_id: BotRecord.from_json(json.loads(raw))
        for bot_id, raw in zip(bot_ids, raws, strict=True)
        if raw is not None
    }


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class Store:
    """Reads and writes the platform's records; knows nothing of games, ratings or HTTP."""

    def __init__(
        self, redis: Redis, blobs: Redis, prefix: str = "arena:", files: replays.FileStore | None = None
    ) -> None:
        self.redis = redis
        self.blobs = blobs
        self.prefix = prefix
        self.files: replays.FileStore = files if files is not None else replays.MemoryStore()
        self._archived_cache: OrderedDict[str, dict[str, Any] | None] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._ladder_turns: dict[tuple[str, str], threading.Lock] = {}
        self._ladder_turns_guard = threading.Lock()

    @classmethod
    def connect(
        cls,
        url: str,
        prefix: str = "arena:",
        files: replays.FileStore | None = None,
        connections: int = 64,
        timeout_s: float = 10.0,
    ) -> Store:
        """A store on the Redis at ``url`` (``redis://[:password@]host:port/db``), replays in ``files``.

        At most ``connections`` connections (sized to the matches played at once): past that a
        command waits for a free connection (up to 20 s) instead of failing with "Too many
        connections", which at high concurrency used to fail stores and replay matches.

        A command, or a new connection, fails with a ``RedisError`` after ``timeout_s`` without an
        answer: a Redis cut off without the connection being closed (a network partition) would
        otherwise hold every command, and the match waiting on it, until TCP gave up hours later.
        """
        timeouts = {"socket_timeout": timeout_s, "socket_connect_timeout": timeout_s}
        text = Redis(
            connection_pool=BlockingConnectionPool.from_url(
                url,
                decode_responses=True,
                health_check_interval=30,
                max_connections=connections,
                timeout=20,
                **timeouts,
            )
        )
        blobs = Redis(
            connection_pool=BlockingConnectionPool.from_url(
                url,
                health_check_interval=30,
                max_connections=max(4, connections // 8),
                timeout=20,
                **timeouts,
            )
        )
        return cls(text, blobs, prefix, files)

    @classmethod
    def in_memory(cls, prefix: str = "arena:", files: replays.FileStore | None = None) -> Store:
        """A store on a fresh in-process Redis (fakeredis): the embedded default and the tests.

        Replays go to ``files``, by default a dict that goes with the process like the Redis.
        """
        server = fakeredis.FakeServer()
        return cls(
            fakeredis.FakeRedis(server=server, decode_responses=True),
            fakeredis.FakeRedis(server=server),
            prefix,
            files,
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
        return _found_bots(ids, self.redis.mget([self.key("bot", bot_id) for bot_id in ids]))

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
            for index in self._match_indexes(match):
                pipe.zadd(index, {match.id: match.created_ts})

    def _match_indexes(self, match: MatchRecord) -> list[str]:
        """The lists a match is found in by its bots, its game and its variant (never change)."""
        bots = [self.key("matches", "bot", bot_id) for bot_id in dict.fromkeys(match.bots)]
        return [
            *bots,
            self.key("matches", "game", match.game),
            self.key("matches", "game", match.game, match.variant),
        ]

    def match_ids_page(
        self,
        *,
        bot: str | None = None,
        game: str | None = None,
        variant: str | None = None,
        status: MatchStatus | None = None,
        offset: int = 0,
        limit: int = 10,
    ) -> tuple[list[str], int]:
        """One page of match ids, newest first, of the matches that fit every filter given, and how
        many fit. ``variant`` counts only with ``game``."""
        indexes: list[tuple[str, float]] = [(self.key("matches"), 1.0)]
        if bot:
            indexes.append((self.key("matches", "bot", bot), 0.0))
        if game:
            game_index = (
                self.key("matches", "game", game, variant) if variant else self.key("matches", "game", game)
            )
            indexes.append((game_index, 0.0))
        if status is not None:
            indexes.append((self._status_index(status), 0.0))
        if len(indexes) == 1:
            source = indexes[0][0]
        else:
            source = self.key("tmp", "matches", os.urandom(8).hex())
            with self.redis.pipeline(transaction=False) as pipe:
                pipe.zinterstore(source, dict(indexes), aggregate="SUM")
                pipe.expire(source, 30)
                pipe.execute()
        try:
            total = int(self.redis.zcard(source))
            if offset >= total:
                return [], total
            ids = [str(match_id) for match_id in self.redis.zrevrange(source, offset, offset + limit - 1)]
            return ids, total
        finally:
            if source != indexes[0][0]:
                self.redis.delete(source)

    def _status_index(self, status: MatchStatus) -> str:
        return {
            MatchStatus.QUEUED: self.key("queued"),
            MatchStatus.RUNNING: self.key("running"),
            MatchStatus.FINISHED: self.key("matches", "status", "finished"),
            MatchStatus.ABORTED: self.key("matches", "status", "aborted"),
        }[status]

    def get_match(self, match_id: str) -> MatchRecord | None:
        """The match's record, from Redis or, once archived, from the files."""
        raw = self.redis.get(self.key("match", match_id))
        if raw is not None:
            return MatchRecord.from_json(json.loads(raw))
        archived = self._archived([match_id]).get(match_id)
        return None if archived is None else MatchRecord.from_json(archived["record"])

    def get_spec(self, match_id: str) -> MatchSpec | None:
        return self.get_specs([match_id]).get(match_id)

    def get_specs(self, match_ids: Sequence[str]) -> dict[str, MatchSpec]:
        if not match_ids:
            return {}
        raws = self.redis.mget([self.key("match", match_id, "spec") for match_id in match_ids])
        found = {
            match_id: json.loads(raw)
            for match_id, raw in zip(match_ids, raws, strict=True)
            if raw is not None
        }
        missing = [match_id for match_id in match_ids if match_id not in found]
        for match_id, document in self._archived(missing).items():
            if document is not None and document.get("spec") is not None:
                found[match_id] = document["spec"]
        return {match_id: MatchSpec.from_json(found[match_id]) for match_id in match_ids if match_id in found}

    def get_matches(self, match_ids: Sequence[str]) -> list[MatchRecord]:
        """The matches among ``match_ids`` that exist (in Redis or archived), in the given order."""
        if not match_ids:
            return []
        raws = self.redis.mget([self.key("match", match_id) for match_id in match_ids])
        found = {
            match_id: json.loads(raw)
            for match_id, raw in zip(match_ids, raws, strict=True)
            if raw is not None
        }
        missing = [match_id for match_id in match_ids if match_id not in found]
        for match_id, document in self._archived(missing).items():
            if document is not None:
                found[match_id] = document["record"]
        return [MatchRecord.from_json(found[match_id]) for match_id in match_ids if match_id in found]

    def unarchived_matches(self, match_ids: Sequence[str]) -> dict[str, MatchRecord]:
        """The records still in Redis among ``match_ids`` (archived ones are not looked up)."""
        if not match_ids:
            return {}
        raws = self.redis.mget([self.key("match", match_id) for match_id in match_ids])
        return {
            match_id: MatchRecord.from_json(json.loads(raw))
            for match_id, raw in zip(match_ids, raws, strict=True)
            if raw is not None
        }

    # -- archived matches: out of Redis, in the files ------------------------------------------

    ARCHIVE_CACHE_SIZE = 2048
    """Archived documents never change, so a few are kept in memory for pages that read them again."""

    def _archived(self, match_ids: Sequence[str]) -> dict[str, dict[str, Any] | None]:
        """The archived documents of those ``match_ids`` that are listed in ``matches`` (an id that
        never existed costs no file read)."""
        ids = list(dict.fromkeys(match_ids))
        if not ids:
            return {}
        with self.redis.pipeline(transaction=False) as pipe:
            for match_id in ids:
                pipe.zscore(self.key("matches"), match_id)
            scores = pipe.execute()
        listed = [match_id for match_id, score in zip(ids, scores, strict=True) if score is not None]
        documents: dict[str, dict[str, Any] | None] = {}
        to_read = []
        with self._cache_lock:
            for match_id in listed:
                if match_id in self._archived_cache:
                    documents[match_id] = self._archived_cache[match_id]
                else:
                    to_read.append(match_id)
        if len(to_read) > 1:
            with ThreadPoolExecutor(max_workers=min(16, len(to_read))) as pool:
                read = dict(zip(to_read, pool.map(self._read_archived, to_read), strict=True))
        else:
            read = {match_id: self._read_archived(match_id) for match_id in to_read}
        with self._cache_lock:
            for match_id, document in read.items():
                if document is not None:  # a match being archived right now may have no file yet
                    self._archived_cache[match_id] = document
            while len(self._archived_cache) > self.ARCHIVE_CACHE_SIZE:
                self._archived_cache.popitem(last=False)
        documents.update(read)
        return documents

    def _read_archived(self, match_id: str) -> dict[str, Any] | None:
        data = replays.read(self.files, replays.record_name(match_id))
        if data is None:
            return None
        document: dict[str, Any] = json.loads(data)
        return document

    def archive_match(self, match_id: str) -> bool:
        """Move an ended match out of Redis: its record, spec and replay token go to one document in
        the files, then its keys go from Redis (its id stays in ``matches``). True when it moved;
        False when it is not ended, already archived, or changed meanwhile (the next pass retries).
        """
        key = self.key("match", match_id)
        spec_key, replay_key = self.key("match", match_id, "spec"), self.key("match", match_id, "replay")
        raw = self.redis.get(key)
        if raw is None:
            return False
        record = json.loads(raw)
        if not MatchStatus(record["status"]).ended:
            return False
        spec_raw = self.redis.get(spec_key)
        run = self._replay_run(match_id)
        document = {
            "format": ARCHIVE_FORMAT,
            "record": record,
            "spec": None if spec_raw is None else json.loads(spec_raw),
            "replay": run,
        }
        if not self.files.put(replays.record_name(match_id), _dumps(document).encode()):
            stored = self._read_archived(match_id)  # an earlier, interrupted pass wrote it
            if stored is None or stored.get("record") != record or stored.get("replay") != run:
                log.warning("match %s: its archived document differs from Redis; left in Redis", match_id)
                return False
        with self.redis.pipeline() as pipe:
            try:
                pipe.watch(key, replay_key)
                if pipe.get(key) != raw:
                    pipe.unwatch()
                    return False
                pipe.multi()
                pipe.delete(
                    key,
                    spec_key,
                    replay_key,
                    self.key("applied", match_id),
                    self.key("match", match_id, "progress"),
                    self.key("match", match_id, "live"),
                )
                pipe.execute()
            except WatchError:
                return False
        return True

    def _replay_run(self, match_id: str) -> str | None:
        """The token of the run whose replay counts; a replay an older version kept whole in Redis
        is moved to the files first (under a token of its own)."""
        value = self.blobs.get(self.key("match", match_id, "replay"))
        if value is None:
            return None
        data = _blob(value)
        if not data.startswith(GZIP_MAGIC):
            return data.decode()
        run = "r" + uuid.uuid4().hex[:15]
        self.files.put(replays.replay_name(match_id, run), data)
        return run

    def archive_cursor(self) -> float:
        raw = self.redis.get(self.key("archive", "cursor"))
        return float(raw) if raw is not None else float("-inf")

    def set_archive_cursor(self, created_ts: float) -> None:
        self.redis.set(self.key("archive", "cursor"), repr(created_ts))

    def match_ids_created(
        self, after: float, until: float, offset: int, count: int
    ) -> list[tuple[str, float]]:
        """Ids in ``matches`` created in ``[after, until]``, oldest first, with their creation times."""
        found: list[Any] = self.redis.zrangebyscore(  # pairs of id and score
            self.key("matches"), after, until, start=offset, num=count, withscores=True
        )
        return [(str(pair[0]), float(pair[1])) for pair in found]

    def take_archiver_lock(self, owner: str, seconds: float) -> bool:
        """One archiver at a time across the workers: True when ``owner`` may archive now."""
        return bool(self.redis.set(self.key("archiver"), owner, nx=True, px=int(seconds * 1000)))

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
        returns what was written (None when nothing was, or the match does not exist). The lists of
        matches by status (running, queued, finished, aborted) and a running match's live moves
        follow the new status in the same transaction.
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
                    self._write_match(pipe, updated)
                    pipe.execute()
                    return updated
                except WatchError:
                    continue

    def _write_match(self, pipe: Any, match: MatchRecord) -> None:
        """Queue, in a transaction, the record's write and the lists of matches by status following
        its status (running, queued, finished, aborted; an ended match's live moves go)."""
        match_id = match.id
        pipe.set(self.key("match", match_id), _dumps(match.to_json()))
        if match.status is MatchStatus.RUNNING:
            pipe.sadd(self.key("running"), match_id)
        else:
            pipe.srem(self.key("running"), match_id)
        if match.status is MatchStatus.QUEUED:
            pipe.zadd(self.key("queued"), {match_id: time.time()})
        else:
            pipe.zrem(self.key("queued"), match_id)
        if match.status.ended:
            pipe.delete(self.key("match", match_id, "live"))
            pipe.zadd(self._status_index(match.status), {match_id: match.created_ts})

    def start_match(self, match_id: str) -> MatchRecord | None:
        """Mark a match running (one more attempt) and list it among the running; None if it ended."""
        return self.update_match(match_id, lambda match: None if match.status.ended else match.started())

    def begin_match(self, match_id: str, owner: str, lease_s: float) -> MatchStart:
        """Start a run of a match for ``owner``: take its lease for ``lease_s`` seconds, mark it
        running (one more attempt, listed among the running, moves of an earlier run cleared) and
        read its spec and its bots, all in one transaction guarded by the record and the lease.

        Three round trips (watch; read the record, the spec and the lease; the transaction, which
        reads the bots too) where reading, leasing, starting, clearing and loading the bots one
        after the other took eight: a worker playing short matches spent a tenth of its time on
        them. Nothing is written for a match that is missing, has ended or is leased to another
        run; a record changed meanwhile (an abort) makes the transaction start over.
        """
        key = self.key("match", match_id)
        spec_key = self.key("match", match_id, "spec")
        lease_key = self.key("match", match_id, "lease")
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(key, lease_key)
                    raw, raw_spec, holder = pipe.mget(key, spec_key, lease_key)
                    if raw is None or raw_spec is None:
                        pipe.unwatch()
                        break
                    match = MatchRecord.from_json(json.loads(raw))
                    if match.status.ended or holder is not None:
                        pipe.unwatch()
                        return MatchStart(Begun.ENDED if match.status.ended else Begun.BUSY, match)
                    spec = MatchSpec.from_json(json.loads(raw_spec))
                    running = match.started()
                    bot_ids = list(dict.fromkeys(spec.bots))
                    pipe.multi()
                    pipe.set(lease_key, owner, px=int(lease_s * 1000))
                    self._write_match(pipe, running)
                    pipe.delete(self.key("match", match_id, "live"), self.key("match", match_id, "progress"))
                    pipe.mget([self.key("bot", bot_id) for bot_id in bot_ids])
                    bots = _found_bots(bot_ids, pipe.execute()[-1])
                    return MatchStart(Begun.STARTED, running, spec, bots)
                except WatchError:
                    continue
        archived = self.get_match(match_id) if raw is None else None  # an archived match has ended
        if archived is not None and archived.status.ended:
            return MatchStart(Begun.ENDED, archived)
        return MatchStart(Begun.MISSING)

    def abort_match(self, match_id: str, reason: str) -> MatchRecord | None:
        """Mark a match aborted unless it already ended; its live moves go."""
        return self.update_match(
            match_id, lambda match: None if match.status.ended else match.aborted(reason)
        )

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
        self.update_match(
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

    def append_live_many(self, progress: Mapping[str, tuple[Sequence[Mapping[str, Any]], int]]) -> None:
        """Add moves of running matches (for spectators) and the count each has played so far, match
        id -> (moves, played), in one round trip: a worker playing hundreds of matches reports them
        all together rather than taking a connection for each."""
        if not progress:
            return
        with self.redis.pipeline(transaction=False) as pipe:
            for match_id, (moves, played) in progress.items():
                key = self.key("match", match_id, "live")
                if moves:
                    pipe.rpush(key, *[_dumps(move) for move in moves])
                    pipe.expire(key, LIVE_TTL_S)
                pipe.set(self.key("match", match_id, "progress"), played, ex=LIVE_TTL_S)
            pipe.execute()

    def live_moves(self, match_id: str, start: int = 0) -> list[dict[str, Any]]:
        """The moves of a running match from index ``start`` on (empty once it has ended)."""
        return [json.loads(raw) for raw in self.redis.lrange(self.key("match", match_id, "live"), start, -1)]

    def get_replay(self, match_id: str) -> bytes | None:
        """The match's replay (gzip of its JSON), or None when it has none (not finished)."""
        handle = self.open_replay(match_id)
        if handle is None:
            return None
        with handle:
            return handle.read()

    def open_replay(self, match_id: str) -> IO[bytes] | None:
        """The match's replay as a file of gzip bytes to read and close (streamed from the files)."""
        value = self.blobs.get(self.key("match", match_id, "replay"))
        if value is not None:
            data = _blob(value)
            if data.startswith(GZIP_MAGIC):  # kept whole in Redis by an older version
                return io.BytesIO(data)
            return self.files.open(replays.replay_name(match_id, data.decode()))
        archived = self._archived([match_id]).get(match_id)
        if archived is None or not archived.get("replay"):
            return None
        return self.files.open(replays.replay_name(match_id, archived["replay"]))

    def _stage_replay(self, match_id: str, replay: bytes) -> str:
        """Write a run's replay under a name of its own before its end is stored (why: see
        :mod:`arena.replays`); its token. Written without asking first whether the end is stored
        already: a second run of a match is rare, and the end's transaction finds it out and
        removes the file, where asking cost every match a round trip."""
        run = uuid.uuid4().hex[:16]
        self.files.put(replays.replay_name(match_id, run), replay)
        return run

    def _drop_staged_replay(self, match_id: str, run: str) -> None:
        """Another run's end was stored: this run's replay is no one's."""
        try:
            self.files.delete(replays.replay_name(match_id, run))
        except Exception as error:  # an orphan file harms nothing
            log.warning("match %s: could not remove the replay of a losing run: %s", match_id, error)

    def finish_match(
        self,
        match_id: str,
        finished: Callable[[MatchRecord], MatchRecord],
        replay: bytes,
        ladder: tuple[str, str] | None,
        update_ladder: Callable[[dict[str, LadderRow]], dict[str, LadderRow]],
        faults: Mapping[str, Mapping[str, int]],
        bots: Sequence[str] | None = None,
    ) -> bool:
        """Store a match's end and count it in its ladder, all at once and exactly once.

        The replay goes to the files first, under this run's name; then one transaction sets
        ``applied:<match id>``, writes the record ``finished(current)`` and this run's replay token,
        writes the ladder rows ``update_ladder(current rows)`` returns and adds ``faults``
        (bot id -> kind -> count), and deletes the match's lease (the run need not release it).
        Returns False, changing nothing but removing the staged replay, when the match was already
        applied or has ended otherwise (a second run of the same match lands here).

        Only the match's own ladder rows are read and watched (and, in a team variant, the game's
        entry, :data:`GAME_ENTRANT`), so matches of other bots in the same ladder never conflict;
        each row's ranking key goes into the ladder's sorted set, and the result is appended to the
        ladder's list of counted results. A bot deleted meanwhile gets no row.

        ``bots``, the match's bots when the caller knows them (they never change), lets the rows be
        watched and read with the record: two round trips before the transaction instead of four,
        while this process's other ends in the ladder wait their turn.
        """
        run = self._stage_replay(match_id, replay)
        applied_key = self.key("applied", match_id)
        match_key = self.key("match", match_id)
        with self._ladder_turn(ladder), self.redis.pipeline() as pipe:
            while True:
                try:
                    row_bots = [*dict.fromkeys(bots), GAME_ENTRANT] if ladder and bots is not None else []
                    row_keys = [self._row_key(ladder, bot) for bot in row_bots] if ladder else []
                    pipe.watch(applied_key, match_key, *row_keys)
                    raw, applied, *raw_rows = pipe.mget(match_key, applied_key, *row_keys)  # at once
                    current = None if raw is None else MatchRecord.from_json(json.loads(raw))
                    if applied is not None or current is None or current.status.ended:
                        pipe.unwatch()
                        self._drop_staged_replay(match_id, run)
                        return False
                    rows: dict[str, LadderRow] = {}
                    if ladder and row_bots and list(dict.fromkeys(current.bots)) == row_bots[:-1]:
                        rows = {
                            bot: row
                            for bot, raw_row in zip(row_bots, raw_rows, strict=True)
                            if (row := self._parse_row(raw_row)) is not None
                        }
                    elif ladder:  # the bots were not given (or not the record's): watch and read them now
                        rows = self._watch_ladder_rows(pipe, ladder, current.bots)
                    changed_rows = update_ladder(rows)
                    record = finished(current)
                    gone = {bot for bot in changed_rows if bot != GAME_ENTRANT and bot not in rows}
                    if gone:  # new rows: write them only for bots that still exist
                        gone = {bot for bot in gone if not pipe.exists(self.key("bot", bot))}
                    pipe.multi()
                    pipe.set(applied_key, "1")
                    pipe.set(match_key, _dumps(record.to_json()))
                    pipe.set(self.key("match", match_id, "replay"), run)
                    if ladder:
                        kept = {bot: row for bot, row in changed_rows.items() if bot not in gone}
                        self._write_ladder(pipe, ladder, record, kept)
                    for bot_id, kinds in faults.items():
                        for kind, count in kinds.items():
                            pipe.hincrby(self.key("bot", bot_id, "faults"), kind, count)
                    pipe.delete(
                        self.key("match", match_id, "lease"),
                        self.key("match", match_id, "live"),
                    )
                    pipe.srem(self.key("running"), match_id)
                    pipe.zrem(self.key("queued"), match_id)
                    pipe.zadd(self._status_index(MatchStatus.FINISHED), {match_id: record.created_ts})
                    pipe.execute()
                    return True
                except WatchError:
                    continue

    def _ladder_turn(self, ladder: tuple[str, str] | None) -> AbstractContextManager[object]:
        """This process's turn to count a match in ``ladder``: one end at a time per ladder.

        The end's transaction watches the ladder rows of the match's bots and is tried again when
        another end changed them first. Ends that run at once in one worker (hundreds of matches
        between the same few bots, as in a tournament) would otherwise keep invalidating each
        other: at 250 matches at once between two bots, 28 tries a match. Taking turns in the
        process leaves only ends of other processes to conflict with.
        """
        if ladder is None:
            return nullcontext()
        with self._ladder_turns_guard:
            return self._ladder_turns.setdefault(ladder, threading.Lock())

    def is_applied(self, match_id: str) -> bool:
        return bool(self.redis.exists(self.key("applied", match_id)))

    # -- leases: which worker runs a match right now -----------------------------------------

    def acquire_lease(self, match_id: str, owner: str, seconds: float) -> bool:
        """Take the match's lease unless another worker holds a live one."""
        key = self.key("match", match_id, "lease")
        return bool(self.redis.set(key, owner, nx=True, px=int(seconds * 1000)))

    def renew_leases(self, held: Mapping[str, str], seconds: float) -> list[str]:
        """Extend every lease of ``held`` (match id -> owner) still held by its owner, in two round
        trips whatever their number; the match ids whose lease lapsed or is another's.

        A worker renews all its matches' leases together (:class:`arena.execution._LeaseKeeper`):
        a watched check-and-set per lease cost three round trips each, one after the other, so a
        slow answer delayed every renewal behind it. Here the leases are read at once, and those
        still ours extended at once. A lease that lapsed and was taken by another
        run in the moment between the two (it had a third of its life left when read) would be
        extended for that run, which holds it anyway.
        """
        ids = list(held)
        if not ids:
            return []
        keys = [self.key("match", match_id, "lease") for match_id in ids]
        holders = self.redis.mget(keys)
        still = [holder == held[match_id] for match_id, holder in zip(ids, holders, strict=True)]
        if any(still):
            with self.redis.pipeline(transaction=False) as pipe:
                for key in compress(keys, still):
                    pipe.pexpire(key, int(seconds * 1000))
                pipe.execute()
        return [match_id for match_id, ours in zip(ids, still, strict=True) if not ours]

    def release_lease(self, match_id: str, owner: str) -> None:
        self._delete_if_owner(self.key("match", match_id, "lease"), owner)

    def _delete_if_owner(self, key: str, owner: str) -> None:
        """Delete a lock or lease ``key`` only while ``owner`` holds it (never another's).

        Read plainly first: a finished match's lease is already gone (the end's transaction
        deleted it), and a key someone else holds stays theirs; only a key that is still ours
        needs the watched delete, three round trips instead of one.
        """
        if self.redis.get(key) != owner:
            return
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
            round_json: RoundRecord = {"matches": [m.id for m, _ in matches], "byes": list(byes)}
            pipe.rpush(self.key("tournament", tournament_id, "rounds"), _dumps(round_json))
            self._add_matches(pipe, matches)
            pipe.execute()

    def tournament_rounds(self, tournament_id: str) -> list[RoundRecord]:
        """The rounds made so far, each ``{"matches": [ids], "byes": [bot ids]}``."""
        raw = self.redis.lrange(self.key("tournament", tournament_id, "rounds"), 0, -1)
        return [json.loads(item) for item in raw]

    def abort_if_queued(self, match_id: str, reason: str) -> MatchRecord | None:
        """Abort a match only while it is still queued (atomic): a running match plays on."""
        return self.update_match(
            match_id, lambda match: match.aborted(reason) if match.status is MatchStatus.QUEUED else None
        )

    # -- matchmaking: the continuous ladder (arena.matchmaking) --------------------------------

    def _mm_key(self, ladder: tuple[str, str], *parts: str) -> str:
        return self.key("matchmaking", *ladder, *parts)

    def matchmaking_ladders(self) -> list[tuple[str, str]]:
        """The ladders with matchmaking on, sorted."""
        found = (json.loads(raw) for raw in self.redis.smembers(self.key("matchmaking", "ladders")))
        return sorted((str(game), str(variant)) for game, variant in found)

    def matchmaking_config(self, game_id: str, variant: str) -> dict[str, Any] | None:
        raw = self.redis.get(self._mm_key((game_id, variant)))
        return None if raw is None else dict(json.loads(raw))

    def put_matchmaking(self, game_id: str, variant: str, config: Mapping[str, Any]) -> None:
        """Turn a ladder's matchmaking on, or change its settings."""
        with self.redis.pipeline() as pipe:
            pipe.set(self._mm_key((game_id, variant)), _dumps(config))
            pipe.sadd(self.key("matchmaking", "ladders"), _dumps([game_id, variant]))
            pipe.execute()

    def delete_matchmaking(self, game_id: str, variant: str) -> bool:
        """Turn a ladder's matchmaking off; True when it was on. A tick that read the settings
        before this cannot store its matches after it (:meth:`add_matchmaking_matches`)."""
        with self.redis.pipeline() as pipe:
            pipe.delete(self._mm_key((game_id, variant)))
            pipe.srem(self.key("matchmaking", "ladders"), _dumps([game_id, variant]))
            removed, _ = pipe.execute()
        return bool(removed)

    def matchmaking_ticked(self, moment: float) -> None:
        """Note that the scheduler ticked (shown, so that a scheduler that is not running shows)."""
        self.redis.set(self.key("matchmaking", "ticked"), repr(moment))

    def matchmaking_last_tick(self) -> float | None:
        raw = self.redis.get(self.key("matchmaking", "ticked"))
        return None if raw is None else float(raw)

    def matchmaking_in_flight(self, game_id: str, variant: str) -> list[str]:
        return sorted(str(m) for m in self.redis.smembers(self._mm_key((game_id, variant), "in-flight")))

    def matchmaking_landed(self, game_id: str, variant: str, match_ids: Sequence[str]) -> None:
        """Forget ended matches from the ladder's matches in flight."""
        if match_ids:
            self.redis.srem(self._mm_key((game_id, variant), "in-flight"), *match_ids)

    def matchmaking_made_since(self, game_id: str, variant: str, moment: float, trim: bool = False) -> int:
        """How many matches the ladder's matchmaking made from ``moment`` on; ``trim`` drops the
        older entries (the scheduler's tick does, with its own clock)."""
        key = self._mm_key((game_id, variant), "made")
        with self.redis.pipeline(transaction=False) as pipe:
            if trim:
                pipe.zremrangebyscore(key, "-inf", f"({moment!r}")
            pipe.zcount(key, moment, "+inf")
            *_, count = pipe.execute()
        return int(count)

    def matchmaking_last_opponents(self, game_id: str, variant: str) -> dict[str, frozenset[str]]:
        raw = self.redis.hgetall(self._mm_key((game_id, variant), "last"))
        return {str(bot): frozenset(json.loads(others)) for bot, others in raw.items()}

    def take_matchmaking_tick(self, game_id: str, variant: str, period: int, seconds: float) -> bool:
        """True for the first tick of ``period`` (SET NX): two schedulers make one tick's matches."""
        key = self._mm_key((game_id, variant), "tick", str(period))
        return bool(self.redis.set(key, "1", nx=True, px=max(1, int(seconds * 2000))))

    def take_matchmaking_lock(self, game_id: str, variant: str, owner: str, seconds: float) -> bool:
        key = self._mm_key((game_id, variant), "lock")
        return bool(self.redis.set(key, owner, nx=True, px=max(1, int(seconds * 1000))))

    def release_matchmaking_lock(self, game_id: str, variant: str, owner: str) -> None:
        self._delete_if_owner(self._mm_key((game_id, variant), "lock"), owner)

    def add_matchmaking_matches(
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
        with self.redis.pipeline() as pipe:
            try:
                pipe.watch(config_key)
                raw = pipe.get(config_key)
                if raw is None or json.loads(raw) != dict(config):
                    pipe.unwatch()
                    return False
                pipe.multi()
                self._add_matches(pipe, matches)
                if matches:
                    pipe.sadd(self._mm_key(ladder, "in-flight"), *[m.id for m, _ in matches])
                    pipe.zadd(self._mm_key(ladder, "made"), {m.id: made_at for m, _ in matches})
                    pipe.hset(
                        self._mm_key(ladder, "last"),
                        mapping={
                            bot: _dumps(sorted(set(m.bots) - {bot})) for m, _ in matches for bot in m.bots
                        },
                    )
                pipe.execute()
                return True
            except WatchError:
                return False

    def bot_ids_of_game(self, game_id: str) -> list[str]:
        """Every bot playing ``game_id``, oldest first."""
        return [str(bot_id) for bot_id in self.redis.zrange(self.key("bots", "game", game_id), 0, -1)]

    def ladder_rows_of(self, game_id: str, variant: str, bot_ids: Sequence[str]) -> dict[str, LadderRow]:
        """The ladder rows of those ``bot_ids`` that have one (one MGET)."""
        if not bot_ids:
            return {}
        raws = self.redis.mget([self._row_key((game_id, variant), bot) for bot in bot_ids])
        return {
            bot: row
            for bot, raw in zip(bot_ids, raws, strict=True)
            if (row := self._parse_row(raw)) is not None
        }

    # -- ladders -----------------------------------------------------------------------------

    def _ladder_key(self, ladder: tuple[str, str], *parts: str) -> str:
        return self.key("ladder", *ladder, *parts)

    def _row_key(self, ladder: tuple[str, str], bot_id: str) -> str:
        if bot_id == GAME_ENTRANT:
            return self._ladder_key(ladder, "game")
        return self._ladder_key(ladder, "bot", bot_id)

    @staticmethod
    def _parse_row(raw: str | bytes | None) -> LadderRow | None:
        return None if raw is None else dict(orjson.loads(raw))

    def _watch_ladder_rows(
        self, pipe: Any, ladder: tuple[str, str], bots: Sequence[str]
    ) -> dict[str, LadderRow]:
        """WATCH and read the rows of ``bots`` (and the game's entry) in one ladder."""
        ids = [*dict.fromkeys(bots), GAME_ENTRANT]
        keys = [self._row_key(ladder, bot) for bot in ids]
        pipe.watch(*keys)
        rows: dict[str, LadderRow] = {}
        for bot, raw in zip(ids, pipe.mget(keys), strict=True):  # read at once, after the WATCH
            row = self._parse_row(raw)
            if row is not None:
                rows[bot] = row
        return rows

    def _write_ladder(
        self, pipe: Any, ladder: tuple[str, str], record: MatchRecord, rows: Mapping[str, LadderRow]
    ) -> None:
        """Queue (inside MULTI) the rows, their ranking keys, the names and the counted result."""
        ranking: dict[str, float] = {}
        for bot, row in rows.items():
            pipe.set(self._row_key(ladder, bot), _dumps(row))
            if bot != GAME_ENTRANT:
                ranking[bot] = -float(row["key"])
        if ranking:
            pipe.zadd(self._ladder_key(ladder, "rank"), ranking)
        for bot, name in zip(record.bots, record.names, strict=True):
            if bot in ranking:
                pipe.hsetnx(self.key("ladder-names"), bot, name)
        if record.result is not None:
            result = {
                "match": record.id,
                "bots": list(record.bots),
                "places": list(record.result.places),
                "team_won": record.result.team_won,
            }
            pipe.rpush(self._ladder_key(ladder, "results"), _dumps(result))

    def ladder_size(self, game_id: str, variant: str) -> int:
        return int(self.redis.zcard(self._ladder_key((game_id, variant), "rank")))

    def ladder_page(self, game_id: str, variant: str, offset: int, limit: int) -> LadderPage:
        """Rows ``offset`` to ``offset + limit`` of a ladder, best first, with competition ranks.

        Two round trips whatever the ladder's size: the page's ids and scores; then the total, the
        last refit, the count of rows ranked above the page, and the page's rows, names and refits.
        Ranks come from the sorted set's scores alone (a tie that spans pages shares its rank on
        both).
        """
        ladder = (game_id, variant)
        rank_key = self._ladder_key(ladder, "rank")
        page: list[tuple[str, float]] = (
            # withscores=True answers (member, score) pairs; redis-py's return type does not follow the flag
            list(self.redis.zrange(rank_key, offset, offset + limit - 1, withscores=True))  # type: ignore[arg-type]
            if limit > 0
            else []
        )
        ids = [str(bot) for bot, _ in page]
        scores = [float(score) for _, score in page]
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.zcard(rank_key)
            pipe.get(self._ladder_key(ladder, "refit", "at"))
            if ids:
                pipe.zcount(rank_key, "-inf", f"({scores[0]!r}")
                pipe.hmget(self.key("ladder-names"), ids)
                pipe.hmget(self._ladder_key(ladder, "refit"), ids)
                pipe.mget([self._row_key(ladder, bot) for bot in ids])
            total, about, *found = pipe.execute()
        refit_about = None if about is None else dict(json.loads(about))
        if not ids:
            return LadderPage(int(total), [], refit_about)
        better, names, refits, rows = found
        entries: list[LadderEntry] = []
        rank = int(better) + 1
        for position, (bot, score, name, refit, raw) in enumerate(
            zip(ids, scores, names, refits, rows, strict=True)
        ):
            if position and score != scores[position - 1]:
                rank = offset + position + 1
            row = self._parse_row(raw)
            if row is None:  # the row went between the two reads (its bot was deleted)
                continue
            entries.append(
                LadderEntry(rank, bot, name or bot, row, None if refit is None else json.loads(refit))
            )
        return LadderPage(int(total), entries, refit_about)

    def ladder_rows(self, game_id: str, variant: str) -> dict[str, LadderRow]:
        """Every row of a ladder, by bot id (a whole read: for tools and tests, not for pages)."""
        page = self.ladder_page(game_id, variant, 0, max(self.ladder_size(game_id, variant), 1))
        return {entry.bot_id: entry.row for entry in page.entries}

    def ladder_row(self, game_id: str, variant: str, bot_id: str) -> LadderRow | None:
        return self._parse_row(self.redis.get(self._row_key((game_id, variant), bot_id)))

    def ladder_rename(self, bot_id: str, name: str) -> None:
        """The name the ladders show for a bot (called when a bot is renamed)."""
        self.redis.hset(self.key("ladder-names"), bot_id, name)

    def ladder_forget(self, bot_id: str, ladders: Iterable[tuple[str, str]]) -> None:
        """Take a deleted bot out of the given ladders (its past results stay in the results lists)."""
        with self.redis.pipeline() as pipe:
            for ladder in ladders:
                pipe.zrem(self._ladder_key(ladder, "rank"), bot_id)
                pipe.delete(self._row_key(ladder, bot_id))
                pipe.hdel(self._ladder_key(ladder, "refit"), bot_id)
            pipe.hdel(self.key("ladder-names"), bot_id)
            pipe.execute()

    def ladder_results(self, game_id: str, variant: str) -> list[dict[str, Any]]:
        """The ladder's counted results, oldest first: ``{match, bots, places, team_won}``."""
        raws = self.redis.lrange(self._ladder_key((game_id, variant), "results"), 0, -1)
        return [json.loads(raw) for raw in raws]

    def ladder_put_refit(
        self, game_id: str, variant: str, fits: Mapping[str, Mapping[str, Any]], about: Mapping[str, Any]
    ) -> None:
        """Replace a ladder's batch-refit ratings (bot id -> {rating, low, high}) in one go."""
        ladder = (game_id, variant)
        with self.redis.pipeline() as pipe:
            pipe.delete(self._ladder_key(ladder, "refit"))
            if fits:
                pipe.hset(self._ladder_key(ladder, "refit"), mapping={b: _dumps(f) for b, f in fits.items()})
            pipe.set(self._ladder_key(ladder, "refit", "at"), _dumps(about))
            pipe.execute()

    def ladder_refit_about(self, game_id: str, variant: str) -> dict[str, Any] | None:
        raw = self.redis.get(self._ladder_key((game_id, variant), "refit", "at"))
        return None if raw is None else dict(json.loads(raw))

    def ladder_legacy_rows(self, game_id: str, variant: str) -> dict[str, LadderRow]:
        """The rows of a ladder kept the old way (one hash ``ladder:<game>:<variant>`` of JSON rows)."""
        key = self.key("ladder", game_id, variant)
        if self.redis.type(key) != "hash":
            return {}
        return {str(bot): json.loads(row) for bot, row in self.redis.hgetall(key).items()}

    def ladder_drop_legacy(self, game_id: str, variant: str) -> None:
        self.redis.delete(self.key("ladder", game_id, variant))

    def ladder_put_rows(
        self, game_id: str, variant: str, rows: Mapping[str, LadderRow], names: Mapping[str, str]
    ) -> None:
        """Write rows (with their ranking keys) and names directly: for seeding benchmarks and tools."""
        ladder = (game_id, variant)
        with self.redis.pipeline(transaction=False) as pipe:
            for bot, row in rows.items():
                pipe.set(self._row_key(ladder, bot), _dumps(row))
            ranking = {bot: -float(row["key"]) for bot, row in rows.items() if bot != GAME_ENTRANT}
            if ranking:
                pipe.zadd(self._ladder_key(ladder, "rank"), ranking)
            if names:
                pipe.hset(self.key("ladder-names"), mapping={bot: name for bot, name in names.items()})
            pipe.execute()


__all__ = ["GAME_ENTRANT", "LadderEntry", "LadderPage", "LadderRow", "MatchStatus", "Store"]
