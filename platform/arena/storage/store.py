"""The store as callers use it: every part in one class, on a Redis at a URL or in memory."""

from __future__ import annotations

import fakeredis
from redis import Redis

from arena.storage import files as file_stores
from arena.storage.bots import Bots
from arena.storage.finishing import Finishing
from arena.storage.matchmaking import Matchmaking
from arena.storage.pools import waiting_pool
from arena.storage.progress import Progress
from arena.storage.queue import Queue
from arena.storage.secret_box import SecretBox
from arena.storage.tournaments import Tournaments


class Store(Bots, Queue, Finishing, Matchmaking, Tournaments, Progress):
    """Reads and writes the platform's records; knows nothing of games, ratings or HTTP."""

    @classmethod
    def connect(
        cls,
        url: str,
        prefix: str = "arena:",
        files: file_stores.FileStore | None = None,
        connections: int = 64,
        timeout_s: float = 10.0,
        secrets: SecretBox | None = None,
        wait_s: float = 20.0,
    ) -> Store:
        """A store on the Redis at ``url`` (``redis://[:password@]host:port/db``), replays in ``files``.

        At most ``connections`` connections (sized to the matches played at once, or to an API
        process's requests): past that a command waits for a free connection (up to ``wait_s``)
        instead of failing with "Too many connections", which at high concurrency used to fail
        stores and replay matches; a wait that runs out raises
        :class:`arena.storage.pools.PoolExhausted` (busy, not unreachable).

        Bots' secrets are sealed with ``secrets`` (:mod:`arena.storage.secret_box`), kept as they are
        without it. A command, or a new connection, fails with a ``RedisError`` after ``timeout_s`` without an
        answer: a Redis cut off without the connection being closed (a network partition) would
        otherwise hold every command, and the match waiting on it, until TCP gave up hours later.
        """
        text = Redis(
            connection_pool=waiting_pool(
                url, connections, wait_s, timeout_s, decode_responses=True, health_check_interval=30
            )
        )
        blobs = Redis(
            connection_pool=waiting_pool(
                url, max(4, connections // 8), wait_s, timeout_s, health_check_interval=30
            )
        )
        return cls(text, blobs, prefix, files, secrets)

    @classmethod
    def in_memory(
        cls,
        prefix: str = "arena:",
        files: file_stores.FileStore | None = None,
        secrets: SecretBox | None = None,
    ) -> Store:
        """A store on a fresh in-process Redis (fakeredis): the embedded default and the tests.

        Replays go to ``files``, by default a dict that goes with the process like the Redis; bots'
        secrets are sealed with ``secrets``, as they are without it.
        """
        server = fakeredis.FakeServer()
        return cls(
            fakeredis.FakeRedis(server=server, decode_responses=True),
            fakeredis.FakeRedis(server=server),
            prefix,
            files,
            secrets,
        )

    def ping(self) -> bool:
        return bool(self.redis.ping())
