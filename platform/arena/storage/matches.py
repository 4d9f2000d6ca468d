"""Matches: a spec and a status record side by side, the lists that find them, and status changes.

A match is its spec (``match:<id>:spec``, written once) and its status record (``match:<id>``); it
is listed in ``matches`` by creation time and in lists by bot, game and variant (which never
change) and by status (which follow the record in the same transaction as each change). A run's
start takes the match's lease, marks it running and reads its spec and bots in one transaction.
Once archived, the record and spec are read from the files (:mod:`arena.storage.archive`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from redis.client import Pipeline

from arena.records import BotRecord, MatchRecord, MatchStatus
from arena.storage.archive import Archive
from arena.storage.base import Part, Shared, dumps
from arena.storage.bots import found_bots
from arena.storage.status_index import StatusIndexes
from arena.storage.transaction import optimistic
from referee.match import MatchSpec


class Begun(StrEnum):
    """What :meth:`Matches.begin` found."""

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


STOP_MARK_S = 7 * 24 * 3600
"""How long a match's stop mark outlives the cancel: longer than any match runs."""


class Matches(Part):
    def __init__(self, shared: Shared, archive: Archive, indexes: StatusIndexes) -> None:
        super().__init__(shared)
        self.archive = archive
        self.indexes = indexes

    def add(self, matches: Sequence[tuple[MatchRecord, MatchSpec]]) -> None:
        """Store new matches, each its status record and its spec."""
        with self.redis.pipeline() as pipe:
            self.add_in(pipe, matches)
            pipe.execute()

    def add_in(self, pipe: Pipeline, matches: Sequence[tuple[MatchRecord, MatchSpec]]) -> None:
        """Queue the writes of new matches in ``pipe``, for a part that stores them with its own
        keys in one transaction (a tournament's round, a matchmaking tick)."""
        for match, spec in matches:
            pipe.set(self.key("match", match.id), dumps(match.to_json()))
            pipe.set(self.key("match", match.id, "spec"), dumps(spec.to_json()))
            pipe.zadd(self.key("matches"), {match.id: match.created_ts})
            self.indexes.move(
                pipe, match.id, match.status, match.created_ts, queued_at=match.created_ts, new=True
            )
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

    def ids_page(
        self,
        *,
        bot: str | None = None,
        game: str | None = None,
        variant: str | None = None,
        status: MatchStatus | None = None,
        offset: int = 0,
        limit: int = 10,
        variant_games: Sequence[str] = (),
    ) -> tuple[list[str], int]:
        """One page of match ids, newest first, of the matches that fit every filter given, and how
        many fit. ``variant`` without ``game`` means that variant of any of ``variant_games`` (the
        games there are): the union of their lists, none when no game has it."""
        indexes: list[tuple[str, float]] = [(self.key("matches"), 1.0)]
        unions: dict[str, list[str]] = {}
        if bot:
            indexes.append((self.key("matches", "bot", bot), 0.0))
        if game:
            game_index = (
                self.key("matches", "game", game, variant) if variant else self.key("matches", "game", game)
            )
            indexes.append((game_index, 0.0))
        elif variant:
            union = self.key("tmp", "matches", os.urandom(8).hex())
            unions[union] = [self.key("matches", "game", other, variant) for other in variant_games]
            indexes.append((union, 0.0))
        if status is not None:
            indexes.append((self.indexes.key_of(status), 0.0))
        if len(indexes) == 1:
            source = indexes[0][0]
        else:
            source = self.key("tmp", "matches", os.urandom(8).hex())
            with self.redis.pipeline(transaction=False) as pipe:
                for union, lists in unions.items():
                    if lists:  # ZUNIONSTORE wants at least one list; no games: the union stays empty
                        pipe.zunionstore(union, lists)
                        pipe.expire(union, 30)
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
                self.redis.delete(source, *unions)

    def get(self, match_id: str) -> MatchRecord | None:
        """The match's record, from Redis or, once archived, from the files."""
        raw = self.redis.get(self.key("match", match_id))
        if raw is not None:
            return MatchRecord.from_json(json.loads(raw))
        archived = self.archive.documents([match_id]).get(match_id)
        return None if archived is None else MatchRecord.from_json(archived["record"])

    def spec(self, match_id: str) -> MatchSpec | None:
        return self.specs([match_id]).get(match_id)

    def _documents(self, match_ids: Sequence[str], part: str) -> dict[str, Any]:
        """The JSON of one part (``record`` or ``spec``) of each match among ``match_ids`` that has
        it, from Redis or else from the match's archived document."""
        suffix = () if part == "record" else (part,)
        raws = self.redis.mget([self.key("match", match_id, *suffix) for match_id in match_ids])
        found = {
            match_id: json.loads(raw)
            for match_id, raw in zip(match_ids, raws, strict=True)
            if raw is not None
        }
        missing = [match_id for match_id in match_ids if match_id not in found]
        for match_id, document in self.archive.documents(missing).items():
            if document is not None and document.get(part) is not None:
                found[match_id] = document[part]
        return found

    def specs(self, match_ids: Sequence[str]) -> dict[str, MatchSpec]:
        if not match_ids:
            return {}
        found = self._documents(match_ids, "spec")
        return {match_id: MatchSpec.from_json(found[match_id]) for match_id in match_ids if match_id in found}

    def get_many(self, match_ids: Sequence[str]) -> list[MatchRecord]:
        """The matches among ``match_ids`` that exist (in Redis or archived), in the given order."""
        if not match_ids:
            return []
        found = self._documents(match_ids, "record")
        return [MatchRecord.from_json(found[match_id]) for match_id in match_ids if match_id in found]

    def unarchived(self, match_ids: Sequence[str]) -> dict[str, MatchRecord]:
        """The records still in Redis among ``match_ids`` (archived ones are not looked up)."""
        if not match_ids:
            return {}
        raws = self.redis.mget([self.key("match", match_id) for match_id in match_ids])
        return {
            match_id: MatchRecord.from_json(json.loads(raw))
            for match_id, raw in zip(match_ids, raws, strict=True)
            if raw is not None
        }

    def recent_ids(self, limit: int, offset: int = 0) -> list[str]:
        return [
            str(match_id)
            for match_id in self.redis.zrevrange(self.key("matches"), offset, offset + limit - 1)
        ]

    def count(self) -> int:
        return int(self.redis.zcard(self.key("matches")))

    def update(
        self, match_id: str, change: Callable[[MatchRecord], MatchRecord | None]
    ) -> MatchRecord | None:
        """Apply ``change`` to the stored match atomically (retrying on conflict).

        ``change`` gets the current record and returns the new one, or None to leave it as it is;
        returns what was written (None when nothing was, or the match does not exist). The lists of
        matches by status (running, queued, finished, aborted) and a running match's live moves
        follow the new status in the same transaction.
        """
        key = self.key("match", match_id)

        def write_change(pipe: Pipeline) -> MatchRecord | None:
            raw = pipe.get(key)
            updated = None if raw is None else change(MatchRecord.from_json(json.loads(raw)))
            if updated is None:
                return None
            pipe.multi()
            self._write_match(pipe, updated)
            pipe.execute()
            return updated

        return optimistic(self.redis, [key], write_change)

    def _write_match(self, pipe: Pipeline, match: MatchRecord) -> None:
        """Queue, in a transaction, the record's write and its move to the list of its status."""
        pipe.set(self.key("match", match.id), dumps(match.to_json()))
        self.indexes.move(pipe, match.id, match.status, match.created_ts)

    def start(self, match_id: str) -> MatchRecord | None:
        """Mark a match running (one more attempt) and list it among the running; None if it ended."""
        return self.update(match_id, lambda match: None if match.status.ended else match.started())

    def begin(self, match_id: str, owner: str, lease_s: float) -> MatchStart:
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

        def start(pipe: Pipeline) -> MatchStart | None:
            raw, raw_spec, holder = pipe.mget(key, spec_key, lease_key)
            if raw is None:
                return None  # not in Redis: perhaps archived
            if raw_spec is None:
                return MatchStart(Begun.MISSING)
            match = MatchRecord.from_json(json.loads(raw))
            if match.status.ended or holder is not None:
                return MatchStart(Begun.ENDED if match.status.ended else Begun.BUSY, match)
            spec = MatchSpec.from_json(json.loads(raw_spec))
            running = match.started()
            bot_ids = list(dict.fromkeys(spec.bots))
            pipe.multi()
            pipe.set(lease_key, owner, px=int(lease_s * 1000))
            self._write_match(pipe, running)
            pipe.delete(self.key("match", match_id, "live"), self.key("match", match_id, "progress"))
            pipe.mget([self.key("bot", bot_id) for bot_id in bot_ids])
            bots = found_bots(self.secrets, bot_ids, pipe.execute()[-1])
            return MatchStart(Begun.STARTED, running, spec, bots)

        started = optimistic(self.redis, [key, lease_key], start)
        if started is not None:
            return started
        archived = self.get(match_id)  # an archived match has ended
        if archived is not None and archived.status.ended:
            return MatchStart(Begun.ENDED, archived)
        return MatchStart(Begun.MISSING)

    def abort(self, match_id: str, reason: str) -> MatchRecord | None:
        """Mark a match aborted unless it already ended; its live moves go."""
        return self.update(match_id, lambda match: None if match.status.ended else match.aborted(reason))

    def cancel(self, match_id: str, reason: str) -> MatchRecord | None:
        """Cancel a match that has not ended: a queued one is marked cancelled now (no worker will
        play it); a running one is asked to stop (:meth:`stop_asked`), and its worker records it
        cancelled before its next move. The record as it now stands; None for an unknown match."""
        changed = self.cancel_if_queued(match_id, reason)
        if changed is not None:
            return changed
        current = self.get(match_id)
        if current is not None and current.status is MatchStatus.RUNNING:
            self.redis.set(self.key("match", match_id, "stop"), "1", ex=STOP_MARK_S)
        return current

    def cancel_if_queued(self, match_id: str, reason: str) -> MatchRecord | None:
        """Mark a match cancelled only while it is still queued (atomic): a worker that takes it
        later finds it ended and leaves it alone."""
        return self.update(
            match_id, lambda match: match.cancelled(reason) if match.status is MatchStatus.QUEUED else None
        )

    def stop_asked(self, match_id: str, tournament: str | None) -> bool:
        """Whether the match, or its tournament, was cancelled: one read of two small keys, what a
        worker asks between moves (at most every so often) to stop a match it is playing."""
        keys = [self.key("match", match_id, "stop")]
        if tournament:
            keys.append(self.key("tournament", tournament, "cancelled"))
        return bool(self.redis.exists(*keys))

    def abort_if_queued(self, match_id: str, reason: str) -> MatchRecord | None:
        """Abort a match only while it is still queued (atomic): a running match plays on."""
        return self.update(
            match_id, lambda match: match.aborted(reason) if match.status is MatchStatus.QUEUED else None
        )
