"""Connection pools to Redis that wait a little for a free connection, and say so when none came.

A process holds at most a given number of connections to Redis; a command that finds them all in
use waits up to ``wait_s`` for one to be handed back (redis-py's ``BlockingConnectionPool``), rather
than opening one more (unbounded) or failing at once (redis-py's default pool, whose
``MaxConnectionsError`` a burst of requests turned into "the store is unreachable"). When the wait
runs out, the command raises :class:`PoolExhausted`: the process is busy, Redis itself may be fine.
Callers tell that apart from an outage (:func:`is_busy`): the API answers that one request 503 with a
short ``Retry-After`` and leaves its breaker closed (:mod:`arena.api.store_errors`).
"""

from __future__ import annotations

import queue
from typing import Any

from redis import BlockingConnectionPool
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import MaxClientsReachedError, MaxConnectionsError, RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError


class PoolExhausted(MaxConnectionsError):
    """Every connection of the pool stayed in use for as long as a command may wait for one."""


class _WaitingQueue(queue.LifoQueue[Any]):
    """The pool's free connections; a wait that runs out raises :class:`PoolExhausted` (redis-py's
    own pool raises a plain ``ConnectionError`` then, the very type of "Redis is unreachable")."""

    def get(self, block: bool = True, timeout: float | None = None) -> Any:
        try:
            return super().get(block, timeout)
        except queue.Empty:
            if not block:
                raise
            raise PoolExhausted(
                f"all {self.maxsize} connections to Redis stayed in use for {timeout} s"
            ) from None


def waiting_pool(
    url: str,
    connections: int,
    wait_s: float,
    timeout_s: float,
    decode_responses: bool = False,
    **options: Any,
) -> BlockingConnectionPool:
    """A pool of at most ``connections`` connections to the Redis at ``url``, a command waiting up to
    ``wait_s`` for a free one; a command (or a new connection) fails after ``timeout_s`` without an
    answer."""
    pool: BlockingConnectionPool = BlockingConnectionPool.from_url(
        url,
        max_connections=connections,
        timeout=wait_s,
        queue_class=_WaitingQueue,
        socket_timeout=timeout_s,
        socket_connect_timeout=timeout_s,
        decode_responses=decode_responses,
        **options,
    )
    return pool


def is_busy(error: BaseException) -> bool:
    """Whether ``error`` says connections ran out (this process's pool, or Redis's ``maxclients``),
    not that Redis is unreachable.

    >>> is_busy(PoolExhausted("all in use")), is_busy(ConnectionError("refused"))
    (True, False)
    """
    return isinstance(error, (MaxConnectionsError, MaxClientsReachedError))


def is_outage(error: BaseException) -> bool:
    """Whether ``error`` says the store cannot be reached: a connection refused, reset or timed out,
    or Redis not ready (loading, authentication). Command errors (a wrong type, a value out of range,
    a script error) and busy pools are not.

    >>> from redis.exceptions import ConnectionError, ResponseError, TimeoutError
    >>> is_outage(TimeoutError("frozen")), is_outage(ConnectionError("refused"))
    (True, True)
    >>> is_outage(ResponseError("value is not an integer or out of range")), is_outage(PoolExhausted("x"))
    (False, False)
    """
    if not isinstance(error, RedisError) or is_busy(error):
        return False
    return isinstance(error, (RedisConnectionError, RedisTimeoutError))
