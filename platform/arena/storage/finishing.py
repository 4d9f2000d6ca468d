"""A match's end: its record, its replay, its ladder rows, its bots' rating histories and
head-to-head records and their faults in one transaction, stored exactly once whatever the number of
runs that reach it."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from redis.client import Pipeline

from arena.records import GAME_ENTRANT, MatchRecord
from arena.storage.base import dumps
from arena.storage.history import History
from arena.storage.ladders import LadderRow, parse_row
from arena.storage.matches import Matches
from arena.storage.replays import Replays
from arena.storage.transaction import optimistic

HISTORY_POINTS = 500
"""The rating points kept per bot and ladder by default (``ARENA_HISTORY_POINTS``): the newest."""

RatingPoint = Callable[[LadderRow, MatchRecord], dict[str, Any] | None]
"""A bot's rating point after a match, from its new ladder row and the finished record (None: none)."""


def _no_point(row: LadderRow, record: MatchRecord) -> None:
    return None


class Finishing(Matches, Replays, History):
    def finish_match(
        self,
        match_id: str,
        finished: Callable[[MatchRecord], MatchRecord],
        replay: bytes,
        ladder: tuple[str, str] | None,
        update_ladder: Callable[[dict[str, LadderRow]], dict[str, LadderRow]],
        faults: Mapping[str, Mapping[str, int]],
        bots: Sequence[str] | None = None,
        *,
        rating_point: RatingPoint = _no_point,
        history_points: int = HISTORY_POINTS,
        verdicts: Mapping[tuple[str, str], str] | None = None,
    ) -> bool:
        """Store a match's end and count it in its ladder, all at once and exactly once.

        A match stopped at a move (cancelled) ends here too: ``finished`` makes it cancelled, with no
        ladder and no faults, so its replay is kept like any other.

        The replay goes to the files first, under this run's name; then one transaction sets
        ``applied:<match id>``, writes the record ``finished(current)`` and this run's replay token,
        writes the ladder rows ``update_ladder(current rows)`` returns and adds ``faults``
        (bot id -> kind -> count), and deletes the match's lease (the run need not release it).
        Returns False, changing nothing but removing the staged replay, when the match was already
        applied or has ended otherwise (a second run of the same match lands here).

        Only the match's own ladder rows are read and watched (and, in a team variant, the game's
        entry, :data:`GAME_ENTRANT`), so matches of other bots in the same ladder never conflict;
        each row's ranking key goes into the ladder's sorted set, and the result is appended to the
        ladder's list of counted results. A bot deleted meanwhile gets no row. Each bot given a
        row also gets ``rating_point(its row, the finished record)``, when not None, appended to its
        rating history in the ladder (the newest ``history_points`` kept); ``verdicts`` ((bot,
        opponent) -> win, draw or loss) go into the bots' head-to-head records, counted or not.

        ``bots``, the match's bots when the caller knows them (they never change), lets the rows be
        watched and read with the record: two round trips before the transaction instead of four,
        while this process's other ends in the ladder wait their turn.
        """
        run = self._stage_replay(match_id, replay)
        applied_key = self.key("applied", match_id)
        match_key = self.key("match", match_id)
        row_bots = [*dict.fromkeys(bots), GAME_ENTRANT] if ladder and bots is not None else []
        row_keys = [self._row_key(ladder, bot) for bot in row_bots] if ladder else []

        def store_end(pipe: Pipeline) -> bool:
            raw, applied, *raw_rows = pipe.mget(match_key, applied_key, *row_keys)  # read at once
            current = None if raw is None else MatchRecord.from_json(json.loads(raw))
            if applied is not None or current is None or current.status.ended:
                self._drop_staged_replay(match_id, run)
                return False
            rows: dict[str, LadderRow] = {}
            if ladder and row_bots and list(dict.fromkeys(current.bots)) == row_bots[:-1]:
                rows = {
                    bot: row
                    for bot, raw_row in zip(row_bots, raw_rows, strict=True)
                    if (row := parse_row(raw_row)) is not None
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
            pipe.set(match_key, dumps(record.to_json()))
            pipe.set(self.key("match", match_id, "replay"), run)
            if ladder:
                kept = {bot: row for bot, row in changed_rows.items() if bot not in gone}
                self._write_ladder(pipe, ladder, record, kept)
                points = {
                    bot: point
                    for bot, row in kept.items()
                    if bot != GAME_ENTRANT and (point := rating_point(row, record)) is not None
                }
                self._write_history(pipe, ladder, points, history_points)
            self._write_versus(pipe, record.game, verdicts or {})
            for bot_id, kinds in faults.items():
                for kind, count in kinds.items():
                    pipe.hincrby(self.key("bot", bot_id, "faults"), kind, count)
            pipe.delete(self.key("match", match_id, "lease"), self.key("match", match_id, "live"))
            pipe.srem(self.key("running"), match_id)
            pipe.zrem(self.key("queued"), match_id)
            pipe.zadd(self._status_index(record.status), {match_id: record.created_ts})
            pipe.execute()
            return True

        with self._ladder_turn(ladder):
            return optimistic(self.redis, [applied_key, match_key, *row_keys], store_end)

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
