"""Archived matches: ended matches moved out of Redis into the replay files, and read back from there.

Ended matches older than ``ARENA_ARCHIVE_AFTER_DAYS`` (:mod:`arena.archive` decides which, and
when) go to the files: record, spec and replay token in one JSON document, and Redis keeps only the
id in ``matches``, through which they are still found and read.
"""

from __future__ import annotations

import json
import logging
import threading
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from redis.client import Pipeline

from arena.records import MatchStatus
from arena.storage import files as file_stores
from arena.storage.base import GZIP_MAGIC, Part, Shared, blob, dumps
from arena.storage.transaction import optimistic

log = logging.getLogger(__name__)

ARCHIVE_FORMAT = "arena-archived-match/1"


class Archive(Part):
    CACHE_SIZE = 2048
    """Archived documents never change, so a few are kept in memory for pages that read them again."""

    def __init__(self, shared: Shared) -> None:
        super().__init__(shared)
        self._cache: OrderedDict[str, dict[str, Any] | None] = OrderedDict()
        self._cache_lock = threading.Lock()

    def documents(self, match_ids: Sequence[str]) -> dict[str, dict[str, Any] | None]:
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
                if match_id in self._cache:
                    documents[match_id] = self._cache[match_id]
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
                    self._cache[match_id] = document
            while len(self._cache) > self.CACHE_SIZE:
                self._cache.popitem(last=False)
        documents.update(read)
        return documents

    def _read_archived(self, match_id: str) -> dict[str, Any] | None:
        data = file_stores.read(self.files, file_stores.record_name(match_id))
        if data is None:
            return None
        document: dict[str, Any] = json.loads(data)
        return document

    def archive(self, match_id: str) -> bool:
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
        if not self.files.put(file_stores.record_name(match_id), dumps(document).encode()):
            stored = self._read_archived(match_id)  # an earlier, interrupted pass wrote it
            if stored is None or stored.get("record") != record or stored.get("replay") != run:
                log.warning("match %s: its archived document differs from Redis; left in Redis", match_id)
                return False

        def drop_from_redis(pipe: Pipeline) -> bool:
            if pipe.get(key) != raw:
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
            return True

        return optimistic(self.redis, [key, replay_key], drop_from_redis, on_conflict=False)

    def _replay_run(self, match_id: str) -> str | None:
        """The token of the run whose replay counts; a replay an older version kept whole in Redis
        is moved to the files first (under a token of its own)."""
        value = self.blobs.get(self.key("match", match_id, "replay"))
        if value is None:
            return None
        data = blob(value)
        if not data.startswith(GZIP_MAGIC):
            return data.decode()
        run = "r" + uuid.uuid4().hex[:15]
        self.files.put(file_stores.replay_name(match_id, run), data)
        return run

    def cursor(self) -> float:
        raw = self.redis.get(self.key("archive", "cursor"))
        return float(raw) if raw is not None else float("-inf")

    def set_cursor(self, created_ts: float) -> None:
        self.redis.set(self.key("archive", "cursor"), repr(created_ts))

    def match_ids_created(
        self, after: float, until: float, offset: int, count: int
    ) -> list[tuple[str, float]]:
        """Ids in ``matches`` created in ``[after, until]``, oldest first, with their creation times."""
        found: list[Any] = self.redis.zrangebyscore(  # pairs of id and score
            self.key("matches"), after, until, start=offset, num=count, withscores=True
        )
        return [(str(pair[0]), float(pair[1])) for pair in found]

    def take_lock(self, owner: str, seconds: float) -> bool:
        """One archiver at a time across the workers: True when ``owner`` may archive now."""
        return bool(self.redis.set(self.key("archiver"), owner, nx=True, px=int(seconds * 1000)))
