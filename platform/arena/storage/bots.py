"""Bots: their records, the lists of them by creation time (all, and by game), their fault counts,
and when each last passed a ping asked for by its owner (which ends a rest, see
:mod:`arena.ladders.matchmaking`)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from redis.client import Pipeline

from arena.records import BotRecord
from arena.storage.base import StoreBase, dumps
from arena.storage.transaction import optimistic


def found_bots(bot_ids: Sequence[str], raws: Sequence[str | bytes | None]) -> dict[str, BotRecord]:
    """The bots of ``bot_ids`` whose stored records (``raws``, read in the same order) exist, by id."""
    return {
        bot_id: BotRecord.from_json(json.loads(raw))
        for bot_id, raw in zip(bot_ids, raws, strict=True)
        if raw is not None
    }


class Bots(StoreBase):
    def put_bot(self, bot: BotRecord, previous: BotRecord | None = None) -> None:
        """Create or replace a bot (the record holds its token hash and secret); ``previous`` is the
        record it replaces, so that it leaves the lists of the games it no longer plays."""
        with self.redis.pipeline() as pipe:
            pipe.set(self.key("bot", bot.id), dumps(bot.to_json()))
            pipe.zadd(self.key("bots"), {bot.id: bot.created_ts}, nx=True)
            for game_id in bot.games:
                pipe.zadd(self.key("bots", "game", game_id), {bot.id: bot.created_ts}, nx=True)
            for game_id in set(previous.games if previous else ()) - set(bot.games):
                pipe.zrem(self.key("bots", "game", game_id), bot.id)
            pipe.execute()

    def add_bot_once(self, bot: BotRecord) -> bool:
        """Store ``bot`` unless a bot with its id exists; whether this call stored it.

        For records whose id is known in advance (house bots): several processes starting at once
        may each try to add the same bot, and exactly one of them does, in one transaction with
        its place in the lists, so nobody ever sees the record without them."""
        key = self.key("bot", bot.id)

        def add_if_absent(pipe: Pipeline) -> bool:
            if pipe.exists(key):
                return False
            pipe.multi()
            pipe.set(key, dumps(bot.to_json()))
            pipe.zadd(self.key("bots"), {bot.id: bot.created_ts}, nx=True)
            for game_id in bot.games:
                pipe.zadd(self.key("bots", "game", game_id), {bot.id: bot.created_ts}, nx=True)
            pipe.execute()
            return True

        return optimistic(self.redis, [key], add_if_absent)

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
