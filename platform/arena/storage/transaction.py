"""Optimistic transactions: the one way the store changes keys that must not interleave.

``WATCH`` the keys, read them, decide, then ``MULTI``/``EXEC`` the writes: Redis refuses the
``EXEC`` (redis-py raises ``WatchError``) when another client wrote a watched key in between, and
the whole attempt starts over on fresh reads. No Lua, so the in-memory Redis of the embedded default
needs no scripting engine.

Most changes retry until they go through (a conflict means someone else changed the key first; the
next attempt sees what they wrote). A few give up at the first conflict, because a later pass does
the work again anyway (archiving a match) or the conflict already answers the question (a lock that
changed hands is not ours to delete; matchmaking settings that changed make the tick's matches stale).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast, overload

from redis import Redis, WatchError
from redis.client import Pipeline

Outcome = TypeVar("Outcome")
Conflicted = TypeVar("Conflicted")

_RETRY: Any = object()
"""``on_conflict``'s default: no value to give up with, so a conflict means another attempt."""


def watch(pipe: Pipeline, *keys: str) -> None:
    """``WATCH`` more ``keys`` in an attempt, for keys it learns only from what it read."""
    # redis-py leaves Pipeline.watch unannotated; the cast keeps mypy --strict from refusing the call
    cast(Callable[..., object], pipe.watch)(*keys)


@overload
def optimistic(redis: Redis, watched: Sequence[str], attempt: Callable[[Pipeline], Outcome]) -> Outcome: ...


@overload
def optimistic(
    redis: Redis,
    watched: Sequence[str],
    attempt: Callable[[Pipeline], Outcome],
    *,
    on_conflict: Conflicted,
) -> Outcome | Conflicted: ...


def optimistic(
    redis: Redis, watched: Sequence[str], attempt: Callable[[Pipeline], Any], *, on_conflict: Any = _RETRY
) -> Any:
    """Run ``attempt`` as an optimistic transaction on ``watched`` and answer what it returns.

    Each attempt gets a pipeline already watching ``watched``; commands on it run at once (the
    reads) until the attempt calls ``pipe.multi()``, after which they are queued until its
    ``pipe.execute()``. An attempt that decides to write nothing just returns (closing the pipeline
    unwatches its keys). When a watched key changed before the ``EXEC``, the attempt runs again, as
    often as it takes; given ``on_conflict``, that value is answered at the first conflict instead.
    """
    with redis.pipeline() as pipe:
        while True:
            try:
                watch(pipe, *watched)
                return attempt(pipe)
            except WatchError:
                if on_conflict is not _RETRY:
                    return on_conflict


def delete_if_owner(redis: Redis, key: str, owner: str) -> None:
    """Delete a lock or lease ``key`` only while ``owner`` holds it (never another's).

    Read plainly first: a finished match's lease is already gone (the end's transaction
    deleted it), and a key someone else holds stays theirs; only a key that is still ours
    needs the watched delete, three round trips instead of one.
    """
    if redis.get(key) != owner:
        return

    def delete_if_still_ours(pipe: Pipeline) -> None:
        if pipe.get(key) == owner:
            pipe.multi()
            pipe.delete(key)
            pipe.execute()

    optimistic(redis, [key], delete_if_still_ours, on_conflict=None)
