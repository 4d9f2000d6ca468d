"""Ladders: a sorted set of each ladder's ranking keys plus one small record per row.

A page reads only its own rows (one MGET) and a finished match writes only its bots' rows, so a
finishing match WATCHes nothing of other bots (:mod:`arena.storage.finishing`). What a row holds,
how a match changes it and how rows rank are :mod:`arena.ladders.rows`'s; the store keeps each row's
ranking key (``key``) negated in the sorted set, ascending = best first (equal keys share a rank,
and Redis orders them by bot id).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from redis.client import Pipeline

from arena.records import GAME_ENTRANT, MatchRecord
from arena.storage.base import Part, dumps
from arena.storage.transaction import watch

LadderRow = dict[str, Any]
"""One bot's row in one ladder (see :mod:`arena.ladders.rows`); its ``key`` field is its ranking key."""


@dataclass(frozen=True)
class LadderEntry:
    """One row of a ladder page: its ranking key (higher is better), the bot, its name, row and last
    refit. Its rank is the ladder's to give (:func:`arena.ladders.rows.competition_ranks`)."""

    key: float
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
    first_rank: int = 1
    """1 + the count of rows with a better key than the page's first: where its ranks start (a tie
    that spans pages shares its rank on both)."""


def parse_row(raw: str | bytes | None) -> LadderRow | None:
    return None if raw is None else dict(orjson.loads(raw))


class Ladders(Part):
    def ladder_key(self, ladder: tuple[str, str], *parts: str) -> str:
        return self.key("ladder", *ladder, *parts)

    def row_key(self, ladder: tuple[str, str], bot_id: str) -> str:
        if bot_id == GAME_ENTRANT:
            return self.ladder_key(ladder, "game")
        return self.ladder_key(ladder, "bot", bot_id)

    def watch_rows(
        self, pipe: Pipeline, ladder: tuple[str, str], bots: Sequence[str]
    ) -> dict[str, LadderRow]:
        """WATCH and read the rows of ``bots`` (and the game's entry) in one ladder."""
        ids = [*dict.fromkeys(bots), GAME_ENTRANT]
        keys = [self.row_key(ladder, bot) for bot in ids]
        watch(pipe, *keys)
        rows: dict[str, LadderRow] = {}
        for bot, raw in zip(ids, pipe.mget(keys), strict=True):  # read at once, after the WATCH
            row = parse_row(raw)
            if row is not None:
                rows[bot] = row
        return rows

    def write_in(
        self, pipe: Pipeline, ladder: tuple[str, str], record: MatchRecord, rows: Mapping[str, LadderRow]
    ) -> None:
        """Queue (inside MULTI) the rows, their ranking keys, the names and the counted result."""
        ranking: dict[str, float] = {}
        for bot, row in rows.items():
            pipe.set(self.row_key(ladder, bot), dumps(row))
            if bot != GAME_ENTRANT:
                ranking[bot] = -float(row["key"])
        if ranking:
            pipe.zadd(self.ladder_key(ladder, "rank"), ranking)
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
            pipe.rpush(self.ladder_key(ladder, "results"), dumps(result))

    def size(self, game_id: str, variant: str) -> int:
        return int(self.redis.zcard(self.ladder_key((game_id, variant), "rank")))

    def page(self, game_id: str, variant: str, offset: int, limit: int) -> LadderPage:
        """Rows ``offset`` to ``offset + limit`` of a ladder, best first, with their ranking keys and
        where the page's ranks start (the ranks themselves are :func:`arena.ladders.ladder.page`'s).

        Two round trips whatever the ladder's size: the page's ids and scores; then the total, the
        last refit, the count of rows ranked above the page, and the page's rows, names and refits.
        """
        ladder = (game_id, variant)
        rank_key = self.ladder_key(ladder, "rank")
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
            pipe.get(self.ladder_key(ladder, "refit", "at"))
            if ids:
                pipe.zcount(rank_key, "-inf", f"({scores[0]!r}")
                pipe.hmget(self.key("ladder-names"), ids)
                pipe.hmget(self.ladder_key(ladder, "refit"), ids)
                pipe.mget([self.row_key(ladder, bot) for bot in ids])
            total, about, *found = pipe.execute()
        refit_about = None if about is None else dict(json.loads(about))
        if not ids:
            return LadderPage(int(total), [], refit_about)
        better, names, refits, rows = found
        entries: list[LadderEntry] = []
        for bot, score, name, refit, raw in zip(ids, scores, names, refits, rows, strict=True):
            row = parse_row(raw)
            if row is None:  # the row went between the two reads (its bot was deleted)
                continue
            entries.append(
                LadderEntry(-score, bot, name or bot, row, None if refit is None else json.loads(refit))
            )
        return LadderPage(int(total), entries, refit_about, first_rank=int(better) + 1)

    def rows(self, game_id: str, variant: str) -> dict[str, LadderRow]:
        """Every row of a ladder, by bot id (a whole read: for tools and tests, not for pages)."""
        page = self.page(game_id, variant, 0, max(self.size(game_id, variant), 1))
        return {entry.bot_id: entry.row for entry in page.entries}

    def row(self, game_id: str, variant: str, bot_id: str) -> LadderRow | None:
        return parse_row(self.redis.get(self.row_key((game_id, variant), bot_id)))

    def rows_of(self, game_id: str, variant: str, bot_ids: Sequence[str]) -> dict[str, LadderRow]:
        """The ladder rows of those ``bot_ids`` that have one (one MGET)."""
        if not bot_ids:
            return {}
        raws = self.redis.mget([self.row_key((game_id, variant), bot) for bot in bot_ids])
        return {
            bot: row for bot, raw in zip(bot_ids, raws, strict=True) if (row := parse_row(raw)) is not None
        }

    def rename(self, bot_id: str, name: str) -> None:
        """The name the ladders show for a bot (called when a bot is renamed)."""
        self.redis.hset(self.key("ladder-names"), bot_id, name)

    def forget(self, bot_id: str, ladders: Iterable[tuple[str, str]]) -> None:
        """Take a deleted bot out of the given ladders (its past results stay in the results lists)."""
        with self.redis.pipeline() as pipe:
            for ladder in ladders:
                pipe.zrem(self.ladder_key(ladder, "rank"), bot_id)
                pipe.delete(self.row_key(ladder, bot_id))
                pipe.hdel(self.ladder_key(ladder, "refit"), bot_id)
            pipe.hdel(self.key("ladder-names"), bot_id)
            pipe.execute()

    def results(self, game_id: str, variant: str) -> list[dict[str, Any]]:
        """The ladder's counted results, oldest first: ``{match, bots, places, team_won}``."""
        raws = self.redis.lrange(self.ladder_key((game_id, variant), "results"), 0, -1)
        return [json.loads(raw) for raw in raws]

    def put_refit(
        self, game_id: str, variant: str, fits: Mapping[str, Mapping[str, Any]], about: Mapping[str, Any]
    ) -> None:
        """Replace a ladder's batch-refit ratings (bot id -> {rating, low, high}) in one go."""
        ladder = (game_id, variant)
        with self.redis.pipeline() as pipe:
            pipe.delete(self.ladder_key(ladder, "refit"))
            if fits:
                pipe.hset(self.ladder_key(ladder, "refit"), mapping={b: dumps(f) for b, f in fits.items()})
            pipe.set(self.ladder_key(ladder, "refit", "at"), dumps(about))
            pipe.execute()

    def legacy_rows(self, game_id: str, variant: str) -> dict[str, LadderRow]:
        """The rows of a ladder kept the old way (one hash ``ladder:<game>:<variant>`` of JSON rows)."""
        key = self.key("ladder", game_id, variant)
        if self.redis.type(key) != "hash":
            return {}
        return {str(bot): json.loads(row) for bot, row in self.redis.hgetall(key).items()}

    def drop_legacy(self, game_id: str, variant: str) -> None:
        self.redis.delete(self.key("ladder", game_id, variant))

    def put_rows(
        self, game_id: str, variant: str, rows: Mapping[str, LadderRow], names: Mapping[str, str]
    ) -> None:
        """Write rows (with their ranking keys) and names directly: for seeding benchmarks and tools."""
        ladder = (game_id, variant)
        with self.redis.pipeline(transaction=False) as pipe:
            for bot, row in rows.items():
                pipe.set(self.row_key(ladder, bot), dumps(row))
            ranking = {bot: -float(row["key"]) for bot, row in rows.items() if bot != GAME_ENTRANT}
            if ranking:
                pipe.zadd(self.ladder_key(ladder, "rank"), ranking)
            if names:
                pipe.hset(self.key("ladder-names"), mapping={bot: name for bot, name in names.items()})
            pipe.execute()
