"""A match's end: its record, its replay, its ladder rows, its bots' rating histories and
head-to-head records and their faults in one transaction, stored exactly once whatever the number of
runs that reach it.

What the end is comes as one value, :class:`MatchEnd`, which the worker makes once the match has
stopped: how it ended (finished with its result, or stopped: cancelled or aborted, and why), its
replay, its faults, its head-to-head verdicts and, for a rated match, how it counts in its ladder
(:class:`LadderChange`). What can only be computed inside the transaction, from what it reads there
(the record as it stands, the bots' ladder rows), the store computes from that value: its ladder
change (:class:`LadderChange`, made by :class:`arena.ladders.counting.LadderCount`) gives the rows
after the match from the rows read, so a retried transaction computes them again on fresh reads.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any, Protocol

from redis.client import Pipeline

from arena.records import GAME_ENTRANT, MatchRecord, MatchStatus
from arena.storage.base import Part, Shared, dumps
from arena.storage.history import History
from arena.storage.ladders import LadderRow, Ladders, parse_row
from arena.storage.replays import Replays
from arena.storage.status_index import StatusIndexes
from arena.storage.transaction import optimistic
from referee.replay import MatchResult, SeatRecord

HISTORY_POINTS = 500
"""The rating points kept per bot and ladder by default (``ARENA_HISTORY_POINTS``): the newest."""


class LadderChange(Protocol):
    """How a finished match changes its ladder, worked out inside the end's transaction from the
    rows read there (:class:`arena.ladders.counting.LadderCount`: pure functions of its data)."""

    @property
    def ladder(self) -> tuple[str, str]:
        """The ladder, (game, variant)."""
        ...

    def rows_after(self, before: Mapping[str, LadderRow]) -> dict[str, LadderRow]:
        """The match's bots' rows after the match, from their rows before it (those that have one)."""
        ...

    def point(self, row: Mapping[str, Any], record: MatchRecord) -> dict[str, Any] | None:
        """A bot's rating point after the match, from its new row and the finished record (None: none)."""
        ...


@dataclass(frozen=True)
class MatchEnd:
    """Everything the store needs to record how a match ended, decided before its transaction.

    ``status`` is how it ended: finished (with ``result`` and ``seats``), or stopped before its game
    ended, cancelled or aborted (``reason`` says why); ``moves`` were played. ``replay`` is the gzip
    of its replay. ``bots``, the match's bots when the caller knows them (they never change), lets
    the ladder rows be watched and read with the record: two round trips before the transaction
    instead of four. A rated finished match carries its ``ladder``; ``faults`` (bot id -> kind ->
    count) and ``verdicts`` ((bot, opponent) -> win, draw or loss) are added to the bots' counts;
    each bot's rating history keeps its newest ``history_points``.
    """

    match_id: str
    status: MatchStatus
    replay: bytes
    moves: int
    result: MatchResult | None = None
    seats: tuple[SeatRecord, ...] = ()
    reason: str | None = None
    bots: tuple[str, ...] | None = None
    ladder: LadderChange | None = None
    faults: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    verdicts: Mapping[tuple[str, str], str] = field(default_factory=dict)
    history_points: int = HISTORY_POINTS

    def __post_init__(self) -> None:
        if not self.status.ended:
            raise ValueError(f"a match does not end {self.status.value}")
        if (self.status is MatchStatus.FINISHED) != (self.result is not None):
            raise ValueError("a finished match, and only a finished one, has a result")
        if self.ladder is not None and self.result is None:
            raise ValueError("only a finished match counts in a ladder")

    def record(self, current: MatchRecord) -> MatchRecord:
        """The match's record once ended this way, from its record as it stands."""
        if self.result is not None:
            return current.finished(self.result, self.seats, self.moves)
        reason = self.reason or ""
        if self.status is MatchStatus.CANCELLED:
            return current.cancelled(reason, self.moves)
        return current.aborted(reason, self.moves)


class Finishing(Part):
    def __init__(
        self,
        shared: Shared,
        indexes: StatusIndexes,
        replays: Replays,
        ladders: Ladders,
        history: History,
    ) -> None:
        super().__init__(shared)
        self.indexes = indexes
        self.replays = replays
        self.ladders = ladders
        self.history = history
        self._ladder_turns: dict[tuple[str, str], threading.Lock] = {}
        self._ladder_turns_guard = threading.Lock()

    def finish_match(self, end: MatchEnd) -> bool:
        """Store a match's end and count it in its ladder, all at once and exactly once.

        The replay goes to the files first, under this run's name; then one transaction sets
        ``applied:<match id>``, writes the record ``end.record(current)`` and this run's replay
        token, moves the match to the list of its status, writes the ladder rows the result gives
        and adds the faults and verdicts, and deletes the match's lease (the run need not release
        it). Returns False, changing nothing but removing the staged replay, when the match was
        already applied or has ended otherwise (a second run of the same match lands here).

        Only the match's own ladder rows are read and watched (and, in a team variant, the game's
        entry, :data:`GAME_ENTRANT`), so matches of other bots in the same ladder never conflict;
        each row's ranking key goes into the ladder's sorted set, and the result is appended to the
        ladder's list of counted results. A bot deleted meanwhile gets no row. Each bot given a
        row also gets its rating point appended to its rating history in the ladder.
        """
        match_id = end.match_id
        count = end.ladder
        ladder = None if count is None else count.ladder
        run = self.replays.stage(match_id, end.replay)
        applied_key = self.key("applied", match_id)
        match_key = self.key("match", match_id)
        row_bots = [*dict.fromkeys(end.bots), GAME_ENTRANT] if ladder and end.bots is not None else []
        row_keys = [self.ladders.row_key(ladder, bot) for bot in row_bots] if ladder else []

        def store_end(pipe: Pipeline) -> bool:
            raw, applied, *raw_rows = pipe.mget(match_key, applied_key, *row_keys)  # read at once
            current = None if raw is None else MatchRecord.from_json(json.loads(raw))
            if applied is not None or current is None or current.status.ended:
                self.replays.drop_staged(match_id, run)
                return False
            rows: dict[str, LadderRow] = {}
            if ladder and row_bots and list(dict.fromkeys(current.bots)) == row_bots[:-1]:
                rows = {
                    bot: row
                    for bot, raw_row in zip(row_bots, raw_rows, strict=True)
                    if (row := parse_row(raw_row)) is not None
                }
            elif ladder:  # the bots were not given (or not the record's): watch and read them now
                rows = self.ladders.watch_rows(pipe, ladder, current.bots)
            changed_rows = self._counted(end, rows)
            record = end.record(current)
            gone = {bot for bot in changed_rows if bot != GAME_ENTRANT and bot not in rows}
            if gone:  # new rows: write them only for bots that still exist
                gone = {bot for bot in gone if not pipe.exists(self.key("bot", bot))}
            pipe.multi()
            pipe.set(applied_key, "1")
            pipe.set(match_key, dumps(record.to_json()))
            pipe.set(self.key("match", match_id, "replay"), run)
            if count is not None:
                kept = {bot: row for bot, row in changed_rows.items() if bot not in gone}
                self.ladders.write_in(pipe, count.ladder, record, kept)
                self.history.write_in(
                    pipe, count.ladder, self._points(count, kept, record), end.history_points
                )
            self.history.write_versus_in(pipe, record.game, end.verdicts)
            for bot_id, kinds in end.faults.items():
                for kind, number in kinds.items():
                    pipe.hincrby(self.key("bot", bot_id, "faults"), kind, number)
            pipe.delete(self.key("match", match_id, "lease"))
            self.indexes.move(pipe, match_id, record.status, record.created_ts)
            pipe.execute()
            return True

        with self._ladder_turn(ladder):
            return optimistic(self.redis, [applied_key, match_key, *row_keys], store_end)

    @staticmethod
    def _counted(end: MatchEnd, rows: Mapping[str, LadderRow]) -> dict[str, LadderRow]:
        """The ladder rows of the match's bots after it (none when it counts in no ladder)."""
        return {} if end.ladder is None else end.ladder.rows_after(rows)

    @staticmethod
    def _points(
        count: LadderChange, rows: Mapping[str, LadderRow], record: MatchRecord
    ) -> dict[str, dict[str, Any]]:
        """Each ranked bot's rating point after the match, for its rating history."""
        return {
            bot: point
            for bot, row in rows.items()
            if bot != GAME_ENTRANT and (point := count.point(row, record)) is not None
        }

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
