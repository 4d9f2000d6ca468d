"""The embedded store kept on disk: every key under the prefix written to one JSON file, read back.

The embedded default's Redis lives in the process (fakeredis). Given a data directory
(``arena serve --data DIR``, ``arena demo --data DIR``) the platform reads ``DIR/store.json`` when it
starts and writes it when it stops, with the replays in ``DIR/replays``, so what was played can be
browsed again later. Keys with a time to live (leases, locks, a tick's period) are not kept: they
belong to the process that held them. The file is written beside its place and renamed over it, so
a stop half way leaves the previous one whole.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from redis import Redis

FORMAT = "arena-store/1"


def _dump_key(redis: Redis, key: str) -> dict[str, Any] | None:
    kind = redis.type(key)
    if kind == "string":
        return {"type": kind, "value": redis.get(key)}
    if kind == "hash":
        return {"type": kind, "value": redis.hgetall(key)}
    if kind == "list":
        return {"type": kind, "value": redis.lrange(key, 0, -1)}
    if kind == "set":
        return {"type": kind, "value": sorted(redis.smembers(key))}
    if kind == "zset":
        # withscores=True answers (member, score) pairs; redis-py's return type does not follow the flag
        pairs: list[tuple[str, float]] = list(redis.zrange(key, 0, -1, withscores=True))  # type: ignore[arg-type]
        return {"type": kind, "value": [[member, score] for member, score in pairs]}
    return None  # gone meanwhile, or a type the store never writes


def save(redis: Redis, prefix: str, path: Path) -> int:
    """Write every lasting key under ``prefix`` to ``path``; how many were written. ``redis`` must
    answer text (``decode_responses``), as the store's client does."""
    keys: dict[str, Any] = {}
    for key in redis.scan_iter(match=f"{prefix}*", count=1000):
        if int(redis.pttl(key)) >= 0:  # expires: the process's own
            continue
        dumped = _dump_key(redis, str(key))
        if dumped is not None:
            keys[str(key)] = dumped
    path.parent.mkdir(parents=True, exist_ok=True)
    staged = path.with_name(path.name + ".tmp")
    staged.write_text(json.dumps({"format": FORMAT, "keys": keys}, separators=(",", ":")))
    os.replace(staged, path)
    return len(keys)


def load(redis: Redis, path: Path) -> int:
    """Write the keys saved in ``path`` into ``redis`` (replacing those of the same names); how many."""
    document = json.loads(path.read_text())
    if document.get("format") != FORMAT:
        raise ValueError(f"{path} is not a saved store ({FORMAT})")
    with redis.pipeline(transaction=False) as pipe:
        for key, saved in document["keys"].items():
            kind, value = saved["type"], saved["value"]
            pipe.delete(key)
            if kind == "string":
                pipe.set(key, value)
            elif kind == "hash" and value:
                pipe.hset(key, mapping=value)
            elif kind == "list" and value:
                pipe.rpush(key, *value)
            elif kind == "set" and value:
                pipe.sadd(key, *value)
            elif kind == "zset" and value:
                pipe.zadd(key, {member: score for member, score in value})
        pipe.execute()
    return len(document["keys"])
