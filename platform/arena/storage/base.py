"""What every part of the store shares: the two Redis clients, the key prefix, the replay files, the
key of bots' secrets.

The store is one class (:class:`arena.storage.Store`) made of one part per concern, each a subclass
of :class:`StoreBase` in its own module; a part that builds on another's keys (finishing a match
writes its ladder rows) subclasses that part. The state the parts keep in memory is set here, once,
so that no part needs a constructor of its own.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

from redis import Redis

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


class StoreBase:
    """The clients, the key prefix and the replay files every part of the store works with.

    The client answers text (``decode_responses=True``); only replays, which are gzip, are read
    through a second client on the same server that answers bytes.
    """

    def __init__(
        self,
        redis: Redis,
        blobs: Redis,
        prefix: str = "arena:",
        files: file_stores.FileStore | None = None,
        secrets: SecretBox | None = None,
    ) -> None:
        self.redis = redis
        self.blobs = blobs
        self.prefix = prefix
        self.files: file_stores.FileStore = files if files is not None else file_stores.MemoryStore()
        self.secrets = secrets if secrets is not None else SecretBox()
        """Seals bots' secrets on write and opens them on read (as they are without a key)."""
        self._archived_cache: OrderedDict[str, dict[str, Any] | None] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._ladder_turns: dict[tuple[str, str], threading.Lock] = {}
        self._ladder_turns_guard = threading.Lock()

    def key(self, *parts: str) -> str:
        """The Redis key of ``parts`` under this store's prefix (the layout: :mod:`arena.storage`)."""
        return self.prefix + ":".join(parts)
