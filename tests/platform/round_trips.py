"""Counting a store's round trips to Redis, for tests that hold an operation to a number of them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from arena.storage import Store


@contextmanager
def counting_round_trips(store: Store, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Within the block, every batch of commands the store's text connections send (a command, a
    pipeline, a transaction) is added to the list yielded: one entry per round trip."""
    connection = store.redis.connection_pool.get_connection()
    store.redis.connection_pool.release(connection)
    kind = type(connection)
    trips: list[Any] = []
    real = kind.send_packed_command

    def counted(self: Any, command: Any, *args: Any, **kwargs: Any) -> Any:
        trips.append(command)
        return real(self, command, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(kind, "send_packed_command", counted)
        yield trips
