"""Scheduled tournaments and their entries: the schedule of starts, who entered, and the one start.

A scheduled tournament's record is stored as any tournament's (``tournament:<id>``, listed in
``tournaments``) with ``scheduled`` set and no match; this part adds its place on the schedule and
its entries. An entry, an edit and the start exclude one another: an entry or an edit is an
optimistic transaction that watches the record and the start mark, and the start takes the mark
first (``SET NX``), so nothing enters or changes a tournament once its start has begun, and however
many processes look for due tournaments, one starts each.

Keys (after the prefix)::

    tournaments:scheduled        zset tournament id -> its start time (a timestamp)
    tournament:<id>:entries      hash bot id -> JSON EntryRecord
    tournament:<id>:start        held by the process starting it, with a TTL (a dead starter's
                                 tournament is started by the next one once it expires)
    entries:bot:<bot id>         zset of the tournaments the bot entered, by when it entered
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from enum import StrEnum

from redis.client import Pipeline

from arena.records import EntryRecord, EntryStatus, TournamentRecord
from arena.storage.base import Part, dumps
from arena.storage.transaction import optimistic

START_MARK_TTL_S = 600
"""How long a start mark holds: far beyond a start's check-in pings (a few seconds)."""


class EntryOutcome(StrEnum):
    DONE = "done"
    STARTED = "started"
    """The tournament's start has begun (or it was cancelled): nothing changes any more."""
    FULL = "full"
    ALREADY = "already"
    ABSENT = "absent"


class Entries(Part):
    def _entries_key(self, tournament_id: str) -> str:
        return self.key("tournament", tournament_id, "entries")

    def _start_key(self, tournament_id: str) -> str:
        return self.key("tournament", tournament_id, "start")

    def schedule(self, tournament: TournamentRecord, entries: Sequence[EntryRecord]) -> None:
        """Store a scheduled tournament, its first entries (an invited field) and its start time."""
        with self.redis.pipeline() as pipe:
            pipe.set(self.key("tournament", tournament.id), dumps(tournament.to_json()))
            pipe.zadd(self.key("tournaments"), {tournament.id: tournament.created_ts})
            pipe.zadd(self.key("tournaments:scheduled"), {tournament.id: tournament.starts_ts})
            self._write_entries(pipe, tournament.id, entries)
            pipe.execute()

    def _write_entries(self, pipe: Pipeline, tournament_id: str, entries: Sequence[EntryRecord]) -> None:
        for entry in entries:
            pipe.hset(self._entries_key(tournament_id), entry.bot, dumps(entry.to_json()))
            pipe.zadd(self.key("entries:bot", entry.bot), {tournament_id: entry.ts})

    def put(self, tournament_id: str, entries: Sequence[EntryRecord]) -> None:
        """Store entries as they are now (the start's check-in and cuts)."""
        if not entries:
            return
        with self.redis.pipeline() as pipe:
            self._write_entries(pipe, tournament_id, entries)
            pipe.execute()

    def of_tournament(self, tournament_id: str) -> list[EntryRecord]:
        """Every entry, withdrawn ones included, in the order they were made."""
        raw = self.redis.hvals(self._entries_key(tournament_id))
        return sorted((EntryRecord.from_json(json.loads(item)) for item in raw), key=lambda e: (e.ts, e.bot))

    def tournament_ids_of(self, bot_id: str, limit: int = 50) -> list[str]:
        """The tournaments the bot entered, the latest entry first."""
        return [str(t) for t in self.redis.zrevrange(self.key("entries:bot", bot_id), 0, limit - 1)]

    def change(
        self,
        tournament_id: str,
        bot_id: str,
        change: Callable[[TournamentRecord, EntryRecord | None, int], EntryRecord | EntryOutcome],
    ) -> EntryOutcome:
        """Enter or withdraw a bot while the tournament waits for its start, in one optimistic
        transaction: ``change`` gets the record, the bot's entry (if any) and the count of bots
        entered, and answers the entry to store or why nothing is stored."""
        record_key = self.key("tournament", tournament_id)

        def attempt(pipe: Pipeline) -> EntryOutcome:
            raw = pipe.get(record_key)
            if raw is None:
                return EntryOutcome.ABSENT
            tournament = TournamentRecord.from_json(json.loads(raw))
            if (
                not tournament.scheduled
                or tournament.cancelled_at
                or pipe.exists(self._start_key(tournament_id))
            ):
                return EntryOutcome.STARTED
            found = pipe.hget(self._entries_key(tournament_id), bot_id)
            entry = None if found is None else EntryRecord.from_json(json.loads(found))
            entered = sum(
                1
                for item in pipe.hvals(self._entries_key(tournament_id))
                if json.loads(item)["status"] == EntryStatus.ENTERED.value
            )
            outcome = change(tournament, entry, entered)
            if isinstance(outcome, EntryOutcome):
                return outcome
            pipe.multi()
            self._write_entries(pipe, tournament_id, [outcome])
            pipe.execute()
            return EntryOutcome.DONE

        return optimistic(
            self.redis,
            [record_key, self._entries_key(tournament_id), self._start_key(tournament_id)],
            attempt,
        )

    def change_scheduled(self, tournament: TournamentRecord) -> bool:
        """Store an edited scheduled tournament (and its new start time), unless its start has begun
        or it was cancelled meanwhile; whether it was stored."""
        record_key = self.key("tournament", tournament.id)

        def attempt(pipe: Pipeline) -> bool:
            raw = pipe.get(record_key)
            if raw is None or pipe.exists(self._start_key(tournament.id)):
                return False
            stored = TournamentRecord.from_json(json.loads(raw))
            if not stored.scheduled or stored.cancelled_at:
                return False
            pipe.multi()
            pipe.set(record_key, dumps(tournament.to_json()))
            pipe.zadd(self.key("tournaments:scheduled"), {tournament.id: tournament.starts_ts})
            pipe.execute()
            return True

        return optimistic(self.redis, [record_key, self._start_key(tournament.id)], attempt)

    def due_ids(self, now_ts: float, limit: int = 100) -> list[str]:
        """Scheduled tournaments whose start time has come, the earliest first."""
        return [
            str(t)
            for t in self.redis.zrangebyscore(self.key("tournaments:scheduled"), "-inf", now_ts, 0, limit)
        ]

    def take_start_mark(self, tournament_id: str) -> bool:
        """True for the one caller that may start the tournament now (SET NX with a TTL)."""
        return bool(self.redis.set(self._start_key(tournament_id), "1", nx=True, ex=START_MARK_TTL_S))

    def unschedule(self, tournament_id: str) -> None:
        """Take a tournament off the schedule: started, or cancelled."""
        self.redis.zrem(self.key("tournaments:scheduled"), tournament_id)

    def cancel_asked(self, tournament_id: str) -> bool:
        """Whether a DELETE marked the tournament cancelled (its matches stop at that mark)."""
        return bool(self.redis.exists(self.key("tournament", tournament_id, "cancelled")))
