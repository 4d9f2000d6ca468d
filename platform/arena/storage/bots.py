"""Bots: their records, the lists of them by creation time (all, and by game), their fault counts,
and when each last passed a ping asked for by its owner (which ends a rest, see
:mod:`arena.ladders.matchmaking`)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from redis.client import Pipeline

from arena.records import BotRecord
from arena.storage.base import StoreBase, dumps
from arena.storage.transaction import optimistic


class BotChanged(Exception):
    """The stored bot no longer holds what a change was decided on: ``fields`` are those that moved."""

    def __init__(self, fields: Sequence[str]) -> None:
        super().__init__(", ".join(fields))
        self.fields = tuple(fields)


def found_bots(bot_ids: Sequence[str], raws: Sequence[str | bytes | None]) -> dict[str, BotRecord]:
    """The bots of ``bot_ids`` whose stored records (``raws``, read in the same order) exist, by id."""
    return {
        bot_id: BotRecord.from_json(json.loads(raw))
        for bot_id, raw in zip(bot_ids, raws, strict=True)
        if raw is not None
    }


class Bots(StoreBase):
    def put_bot(self, bot: BotRecord) -> None:
        """Store a new bot (the record holds its token hash and secret). A bot that exists changes
        through :meth:`change_bot`, which writes only what changed."""
        with self.redis.pipeline() as pipe:
            self._write_bot(pipe, bot, None)
            pipe.execute()

    def change_bot(
        self, bot_id: str, expected: Mapping[str, Any], changes: Mapping[str, Any]
    ) -> BotRecord | None:
        """Write ``changes`` (fields of :class:`BotRecord` and their new values) into the stored bot,
        and nothing else of it, provided its fields named in ``expected`` still hold the values
        given there; returns the record written, or None if there is no such bot.

        A change is decided on a record read earlier, often seconds earlier (a ping in between):
        writing that whole record back would undo whatever another request stored meanwhile (a new
        secret). So only the changed fields are written, in an optimistic transaction on the bot's
        key, and :class:`BotChanged` is raised, nothing written, when a field the decision rested
        on (``expected``: the endpoint, secret and protocol a ping vouched for) is no longer what
        it was."""
        key = self.key("bot", bot_id)

        def attempt(pipe: Pipeline) -> BotRecord | None:
            raw = pipe.get(key)
            if raw is None:
                return None
            current = BotRecord.from_json(json.loads(raw))
            moved = [name for name, value in expected.items() if getattr(current, name) != value]
            if moved:
                raise BotChanged(moved)
            changed = replace(current, **changes)
            pipe.multi()
            self._write_bot(pipe, changed, current)
            pipe.execute()
            return changed

        return optimistic(self.redis, [key], attempt)

    def _write_bot(self, pipe: Pipeline, bot: BotRecord, previous: BotRecord | None) -> None:
        """Queue the record's write, and its place in the lists of all bots and of its games."""
        pipe.set(self.key("bot", bot.id), dumps(bot.to_json()))
        pipe.zadd(self.key("bots"), {bot.id: bot.created_ts}, nx=True)
        for game_id in bot.games:
            pipe.zadd(self.key("bots", "game", game_id), {bot.id: bot.created_ts}, nx=True)
        for game_id in set(previous.games if previous else ()) - set(bot.games):
            pipe.zrem(self.key("bots", "game", game_id), bot.id)

    def get_bot(self, bot_id: str) -> BotRecord | None:
        raw = self.redis.get(self.key("bot", bot_id))
        return None if raw is None else BotRecord.from_json(json.loads(raw))

    def get_bots(self, bot_ids: Iterable[str]) -> dict[str, BotRecord]:
        """The bots that exist among ``bot_ids``, by id."""
        ids = list(dict.fromkeys(bot_ids))
        if not ids:
            return {}
        return found_bots(ids, self.redis.mget([self.key("bot", bot_id) for bot_id in ids]))

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

    def bot_ids_of_game(self, game_id: str) -> list[str]:
        """Every bot playing ``game_id``, oldest first."""
        return [str(bot_id) for bot_id in self.redis.zrange(self.key("bots", "game", game_id), 0, -1)]

    def delete_bot(self, bot_id: str, ladders: Iterable[tuple[str, str]], games: Iterable[str] = ()) -> None:
        """Remove a bot, its fault counts, its place in the lists of ``games`` and its ladder rows."""
        with self.redis.pipeline() as pipe:
            pipe.delete(
                self.key("bot", bot_id), self.key("bot", bot_id, "faults"), self.key("bot", bot_id, "back")
            )
            pipe.zrem(self.key("bots"), bot_id)
            for game_id in games:
                pipe.zrem(self.key("bots", "game", game_id), bot_id)
            for game_id, variant in ladders:
                pipe.hdel(self.key("ladder", game_id, variant), bot_id)
            pipe.execute()

    def bot_faults(self, bot_id: str) -> dict[str, int]:
        raw = self.redis.hgetall(self.key("bot", bot_id, "faults"))
        return {str(kind): int(count) for kind, count in raw.items()}

    def mark_back(self, bot_id: str, at: str) -> None:
        """The bot passed a ping its owner asked for at ``at`` (an ISO time)."""
        self.redis.set(self.key("bot", bot_id, "back"), at)

    def back_times(self, bot_ids: Sequence[str]) -> dict[str, str]:
        """When each of ``bot_ids`` last passed a ping its owner asked for, for those that did."""
        if not bot_ids:
            return {}
        raws = self.redis.mget([self.key("bot", bot_id, "back") for bot_id in bot_ids])
        return {bot_id: str(raw) for bot_id, raw in zip(bot_ids, raws, strict=True) if raw is not None}
