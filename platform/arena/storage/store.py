"""The store as callers use it: one object per concern, on a Redis at a URL or in memory."""

from __future__ import annotations

import fakeredis
from redis import Redis

from arena.clock import SYSTEM_CLOCK, Clock
from arena.storage import files as file_stores
from arena.storage.archive import Archive
from arena.storage.base import Shared
from arena.storage.bots import Bots
from arena.storage.entries import Entries
from arena.storage.finishing import Finishing
from arena.storage.history import History
from arena.storage.ladders import Ladders
from arena.storage.leases import Leases
from arena.storage.matches import Matches
from arena.storage.matchmaking import Matchmaking
from arena.storage.organizers import Organizers
from arena.storage.pools import waiting_pool
from arena.storage.progress import Progress
from arena.storage.queue import Queue
from arena.storage.replays import Replays
from arena.storage.secret_box import SecretBox
from arena.storage.status_index import StatusIndexes
from arena.storage.tournaments import Tournaments


class Store:
    """Reads and writes the platform's records, one part per concern: ``store.bots``,
    ``store.matches``, ``store.queue``, ``store.leases``, ``store.progress``, ``store.replays``,
    ``store.archive``, ``store.finishing``, ``store.ladders``, ``store.history``,
    ``store.matchmaking``, ``store.tournaments``, ``store.organizers``, ``store.entries``. The parts
    share the clients, the key prefix, the replay files, the secrets' key and the clock
    (:class:`arena.storage.base.Shared`); a part that builds on another's keys is handed it here."""

    def __init__(
        self,
        redis: Redis,
        blobs: Redis,
        prefix: str = "arena:",
        files: file_stores.FileStore | None = None,
        secrets: SecretBox | None = None,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        shared = Shared(redis, blobs, prefix, files, secrets, clock)
        self.shared = shared
        self.redis = shared.redis
        self.blobs = shared.blobs
        self.prefix = shared.prefix
        self.files = shared.files
        self.secrets = shared.secrets
        self.clock = shared.clock
        indexes = StatusIndexes(shared)
        self.archive = Archive(shared)
        self.bots = Bots(shared)
        self.matches = Matches(shared, self.archive, indexes)
        self.queue = Queue(shared, self.matches, indexes)
        self.leases = Leases(shared)
        self.progress = Progress(shared)
        self.replays = Replays(shared, self.archive)
        self.ladders = Ladders(shared)
        self.history = History(shared)
        self.finishing = Finishing(shared, indexes, self.replays, self.ladders, self.history)
        self.matchmaking = Matchmaking(shared, self.matches)
        self.tournaments = Tournaments(shared, self.matches)
        self.organizers = Organizers(shared)
        self.entries = Entries(shared)

    def key(self, *parts: str) -> str:
        """The Redis key of ``parts`` under this store's prefix (the layout: :mod:`arena.storage`)."""
        return self.prefix + ":".join(parts)

    @classmethod
    def connect(
        cls,
        url: str,
        prefix: str = "arena:",
        files: file_stores.FileStore | None = None,
        connections: int = 64,
        timeout_s: float = 10.0,
        secrets: SecretBox | None = None,
        clock: Clock = SYSTEM_CLOCK,
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
        return cls(text, blobs, prefix, files, secrets, clock)

    @classmethod
    def in_memory(
        cls,
        prefix: str = "arena:",
        files: file_stores.FileStore | None = None,
        secrets: SecretBox | None = None,
        clock: Clock = SYSTEM_CLOCK,
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
            clock,
        )

    def ping(self) -> bool:
        return bool(self.redis.ping())
