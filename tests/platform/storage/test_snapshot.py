"""The embedded store written to a file and read back, as `arena serve --data` and `arena demo` keep it."""

from __future__ import annotations

from pathlib import Path

from arena.storage import Store, snapshot


def test_every_kind_of_key_reads_back_the_same_and_expiring_keys_stay_behind(tmp_path: Path) -> None:
    store = Store.in_memory("t:")
    redis = store.redis
    redis.set("t:text", "ü value")
    redis.hset("t:hash", mapping={"a": "1", "b": "two"})
    redis.rpush("t:list", "x", "y", "x")
    redis.sadd("t:set", "p", "q")
    redis.zadd("t:zset", {"m": 1.5, "n": -2.0})
    redis.set("t:lease", "worker", ex=30)
    redis.set("other:key", "not ours")
    path = tmp_path / "store.json"
    assert snapshot.save(redis, "t:", path) == 5

    fresh = Store.in_memory("t:").redis
    assert snapshot.load(fresh, path) == 5
    assert fresh.get("t:text") == "ü value"
    assert fresh.hgetall("t:hash") == {"a": "1", "b": "two"}
    assert fresh.lrange("t:list", 0, -1) == ["x", "y", "x"]
    assert fresh.smembers("t:set") == {"p", "q"}
    assert fresh.zrange("t:zset", 0, -1, withscores=True) == [("n", -2.0), ("m", 1.5)]
    assert fresh.get("t:lease") is None and fresh.get("other:key") is None
