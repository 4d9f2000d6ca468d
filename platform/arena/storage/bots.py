"""Bots: their records, the lists of them by creation time (all, and by game), their fault counts,
and when each last passed a ping asked for by its owner (which ends a rest, see
:mod:`arena.ladders.matchmaking`). A record's secret is sealed on write and opened on read
(:mod:`arena.storage.secret_box`) when the store has a key."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from redis.client import Pipeline

from arena.records import BotRecord
from arena.storage.base import Part, dumps
from arena.storage.secret_box import SEALED, SecretBox
from arena.storage.transaction import optimistic


class BotChanged(Exception):
    """The stored bot no longer holds what a change was decided on: ``fields`` are those that moved."""

    def __init__(self, fields: Sequence[str]) -> None:
        super().__init__(", ".join(fields))
        self.fields = tuple(fields)


def bot_from_json(secrets: SecretBox, raw: str | bytes) -> BotRecord:
    """A stored bot record, its secret opened if it is sealed."""
    data = json.loads(raw)
    if SEALED in data:
        data["secret"] = secrets.open(data.pop(SEALED), str(data.get("id")))
    return BotRecord.from_json(data)


def bot_to_json(secrets: SecretBox, bot: BotRecord) -> str:
    """A bot record as stored: its secret sealed when there is a key."""
    data = bot.to_json()
    if secrets.sealing:
        data[SEALED] = secrets.seal(data.pop("secret"))
    return dumps(data)


def found_bots(
    secrets: SecretBox, bot_ids: Sequence[str], raws: Sequence[str | bytes | None]
) -> dict[str, BotRecord]:
    """The bots of ``bot_ids`` whose stored records (``raws``, read in the same order) exist, by id."""
    return {
        bot_id: bot_from_json(secrets, raw)
        for bot_id, raw in zip(bot_ids, raws, strict=True)
        if raw is not None
    }


class Bots(Part):
    def put(self, bot: BotRecord) -> None:
        """Store a new bot (the record holds its token hash and secret). A bot that exists changes
        through :meth:`change`, which writes only what changed."""
        with self.redis.pipeline() as pipe:
            self._write_bot(pipe, bot, None)
            pipe.execute()

    def add_once(self, bot: BotRecord) -> bool:
        """Store ``bot`` unless a bot with its id exists; whether this call stored it.

        For records whose id is known in advance (house bots): several processes starting at once
        may each try to add the same bot, and exactly one of them does, in one transaction with
        its place in the lists, so nobody ever sees the record without them."""
        key = self.key("bot", bot.id)

        def add_if_absent(pipe: Pipeline) -> bool:
            if pipe.exists(key):
                return False
            pipe.multi()
            self._write_bot(pipe, bot, None)
            pipe.execute()
            return True

        return optimistic(self.redis, [key], add_if_absent)

    def change(
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
            current = bot_from_json(self.secrets, raw)
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
        pipe.set(self.key("bot", bot.id), bot_to_json(self.secrets, bot))
        pipe.zadd(self.key("bots"), {bot.id: bot.created_ts}, nx=True)
        for game_id in bot.games:
            pipe.zadd(self.key("bots", "game", game_id), {bot.id: bot.created_ts}, nx=True)
        for game_id in set(previous.games if previous else ()) - set(bot.games):
            pipe.zrem(self.key("bots", "game", game_id), bot.id)

    def get(self, bot_id: str) -> BotRecord | None:
        raw = self.redis.get(self.key("bot", bot_id))
        return None if raw is None else bot_from_json(self.secrets, raw)

    def get_many(self, bot_ids: Iterable[str]) -> dict[str, BotRecord]:
        """The bots that exist among ``bot_ids``, by id."""
        ids = list(dict.fromkeys(bot_ids))
        if not ids:
            return {}
        return found_bots(self.secrets, ids, self.redis.mget([self.key("bot", bot_id) for bot_id in ids]))

    def prepare_secrets(self) -> int:
        """Check the secrets key against the bots' stored secrets, and seal those stored as they are
        when there is a key; how many were sealed. Run as a process starts, so that a missing or
        wrong ``ARENA_SECRETS_KEY`` stops it there (:class:`SecretsKeyError`, from the first sealed
        secret found) rather than failing every request and match that reads a bot, and so that no
        secret written before the key was set stays readable in Redis."""
        checked = False
        sealed = 0
        for page in self._bot_id_pages():
            raws = self.redis.mget([self.key("bot", bot_id) for bot_id in page])
            for bot_id, raw in zip(page, raws, strict=True):
                if raw is None:
                    continue
                data = json.loads(raw)
                if SEALED in data and not checked:
                    self.secrets.open(data[SEALED], bot_id)
                    checked = True
                elif SEALED not in data and self.secrets.sealing:
                    sealed += self._seal(bot_id)
        return sealed

    def _bot_id_pages(self, size: int = 500) -> Iterator[list[str]]:
        start = 0
        while page := [
            str(bot_id) for bot_id in self.redis.zrange(self.key("bots"), start, start + size - 1)
        ]:
            yield page
            start += size

    def _seal(self, bot_id: str) -> int:
        """Rewrite the bot's record with its secret sealed, unless another process did first; 1 if
        this one did."""
        key = self.key("bot", bot_id)

        def attempt(pipe: Pipeline) -> int:
            raw = pipe.get(key)
            if raw is None or SEALED in json.loads(raw):
                return 0
            pipe.multi()
            pipe.set(key, bot_to_json(self.secrets, bot_from_json(self.secrets, raw)))
            pipe.execute()
            return 1

        return optimistic(self.redis, [key], attempt)

    def list_all(self) -> list[BotRecord]:
        ids = [str(bot_id) for bot_id in self.redis.zrange(self.key("bots"), 0, -1)]
        found = self.get_many(ids)
        return [found[bot_id] for bot_id in ids if bot_id in found]

    def ids_page(self, game_id: str | None, offset: int, limit: int) -> tuple[list[str], int]:
        """One page of bot ids, oldest first (those playing ``game_id`` when given), and the count."""
        index = self.key("bots", "game", game_id) if game_id else self.key("bots")
        total = int(self.redis.zcard(index))
        if offset >= total:
            return [], total
        return [str(bot_id) for bot_id in self.redis.zrange(index, offset, offset + limit - 1)], total

    def ids_of_game(self, game_id: str) -> list[str]:
        """Every bot playing ``game_id``, oldest first."""
        return [str(bot_id) for bot_id in self.redis.zrange(self.key("bots", "game", game_id), 0, -1)]

    def delete(self, bot_id: str, ladders: Iterable[tuple[str, str]], games: Iterable[str] = ()) -> None:
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

    def faults(self, bot_id: str) -> dict[str, int]:
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
