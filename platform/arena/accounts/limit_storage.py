"""Where the rate limits are counted, and what a request gets when they cannot be.

On Redis the counts go through a pool of their own (``ARENA_LIMITER_CONNECTIONS`` per API process)
that waits ``ARENA_REDIS_WAIT_MS`` for a free connection (:func:`arena.storage.pools.waiting_pool`).
redis-py's default pool, which flask-limiter used, failed at once past 100 connections with a
``RedisError``: a thousand registrations at once from one address made the API take that for Redis
being unreachable and answer every client 503.

The limits' failures are the limits' own: their storage raises :class:`limits.errors.StorageError`,
which is no ``RedisError`` (so the store's breaker never hears of it), and then

- counting a request (before its view) fails: with ``ARENA_LIMITS_ON_ERROR=closed`` (the default)
  that request alone is answered 503 with ``Retry-After`` (1 s when no connection was free, 5 s when
  Redis is unreachable); with ``open`` it is served uncounted (flask-limiter logs it);
- reading the counts for the ``X-RateLimit-*`` headers (after the view) fails: the answer goes out
  as the view made it, without those headers, never as a 500 (which also lost the security headers).

A ping's count per target address (:mod:`arena.accounts.ping_gate`) fails as a count before a view
does in ``closed`` mode, whatever the setting: a ping is never sent uncounted.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, jsonify
from flask_limiter import Limiter
from limits.errors import StorageError
from werkzeug.http import HTTP_STATUS_CODES

from arena.settings import Settings
from arena.storage.pools import is_busy, waiting_pool

log = logging.getLogger(__name__)

LIMITS_UNAVAILABLE = "the rate limits cannot be counted now; try again shortly"


def storage_options(settings: Settings) -> dict[str, Any]:
    """flask-limiter's ``storage_options``: on Redis, the bounded waiting pool; errors as
    ``StorageError`` either way."""
    options: dict[str, Any] = {"wrap_exceptions": True}
    if settings.redis_url:
        options["connection_pool"] = waiting_pool(
            settings.redis_url,
            settings.limiter_connections,
            settings.redis_wait_ms / 1000,
            settings.redis_timeout_s,
        )
    return options


def limits_failed(error: StorageError) -> tuple[Response, int, dict[str, str]]:
    """The error handler for ``StorageError``: this request's 503, with ``Retry-After``."""
    cause = error.storage_error
    busy = is_busy(cause)
    log.warning("the rate limits could not be counted (%s): %s", "busy" if busy else "unreachable", cause)
    retry_after = "1" if busy else "5"
    body = {"code": 503, "status": HTTP_STATUS_CODES[503], "message": LIMITS_UNAVAILABLE, "errors": {}}
    return jsonify(body), 503, {"Retry-After": retry_after}


def _keeping_the_answer(inject: Callable[[Response], Response]) -> Callable[[Response], Response]:
    """flask-limiter's ``after_request`` hook, the answer kept as it is when the counts cannot be read."""

    @functools.wraps(inject)
    def guarded(response: Response) -> Response:
        try:
            return inject(response)
        except StorageError as error:
            log.warning("the rate limit headers were left out: %s", error.storage_error)
            return response

    return guarded


def install_failures(app: Flask, limiter: Limiter) -> None:
    """Make ``limiter``'s failures on ``app`` its own (above): its header hook never fails an
    answer, and a count that fails is a 503 (unless flask-limiter swallows it, ``open``)."""
    hooks = app.after_request_funcs.get(None, [])
    mine = [
        index
        for index, hook in enumerate(hooks)
        if isinstance(hook, functools.partial) and hook.args == (limiter,)
    ]
    if len(mine) != 1:  # flask-limiter registers its header hook so (4.x); anything else is a new release
        raise RuntimeError("flask-limiter's header hook was not found: check arena.accounts.limit_storage")
    hooks[mine[0]] = _keeping_the_answer(hooks[mine[0]])  # type: ignore[arg-type]  # Flask types hooks sync or async; this one is sync
    app.register_error_handler(StorageError, limits_failed)
