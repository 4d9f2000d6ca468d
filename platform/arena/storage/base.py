"""What every part of the store shares: the two Redis clients, the key prefix, the replay files, the
key of bots' secrets and the clock.

The store (:class:`arena.storage.Store`) is made of one part per concern (``store.matches``,
``store.ladders``, ...), each a :class:`Part` over one :class:`Shared`; a part that builds on
another's keys (finishing a match writes its ladder rows) is handed that part when the store is
put together, instead of inheriting from it.
"""

from __future__ import annotations

import json
from typing import Any

from redis import Redis

from arena.clock import SYSTEM_CLOCK, Clock
from arena.storage import files as file_stores
from arena.storage.secret_box import SecretBox

GZIP_MAGIC = b"\x1f\x8b"
"""How a replay kept whole in Redis by an older version starts (newer ones keep a run's token)."""


def dumps(value: Any) -> str:
    """Compact JSON, as every record is stored."""
    return json.dumps(value, separators=(",", ":"))


def blob(value: bytes | str) -> bytes:
    """A value read through the bytes client (``blobs``): bytes, which redis-py's types do not know."""
    if not isinstance(value, bytes):
        raise TypeError("the blobs client must not decode responses")
    return value


class Shared:
    """The clients, the key prefix, the replay files, the secrets' key and the clock of one store.

    The client answers text (``decode_responses=True``); only replays, which are gzip, are read
    through a second client on the same server that answers bytes. Timestamps the store writes
    itself (when a match was queued) come from ``clock``, so a test that steps a clock of its own
    sees them follow it.
    """

    def __init__(
        self,
        redis: Redis,
        blobs: Redis,
        prefix: str = "arena:",
        files: file_stores.FileStore | None = None,
        secrets: SecretBox | None = None,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self.redis = redis
        self.blobs = blobs
        self.prefix = prefix
        self.files: file_stores.FileStore = files if files is not None else file_stores.MemoryStore()
        self.secrets = secrets if secrets is not None else SecretBox()
        """Seals bots' secrets on write and opens them on read (as they are without a key)."""
        self.clock = clock


class Part:
    """One concern of the store: its keys under the shared prefix, read and written with the shared
    clients. The shared pieces are copied onto the part, so a call reads ``self.redis`` directly."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.redis = shared.redis
        self.blobs = shared.blobs
        self.prefix = shared.prefix
        self.files = shared.files
        self.secrets = shared.secrets
        self.clock = shared.clock

    def key(self, *parts: str) -> str:
        """The Redis key of ``parts`` under this store's prefix (the layout: :mod:`arena.storage`)."""
        return self.prefix + ":".join(parts)
