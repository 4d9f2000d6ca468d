"""What a request is answered when one of its Redis commands fails: only an outage is an outage.

Three kinds of failure, three answers, and only the first concerns other clients:

- **unreachable** (a connection refused, reset or timed out, Redis loading): 503 with
  ``Retry-After: 5``, and the breaker opens (:mod:`arena.api.store_breaker`): for a few seconds the
  process answers every request that would read the store the same 503 at once;
- **busy** (every connection of this process's pool in use for as long as a command may wait,
  :class:`arena.storage.pools.PoolExhausted`, or Redis's own ``maxclients``): back-pressure, 503
  with ``Retry-After: 1`` for this request alone; the breaker is left as it is;
- **a command error** (``ResponseError``: a wrong type, a value out of range, a script error; or any
  other ``RedisError``): a fault of the platform, since requests are checked before anything
  reaches the store; this request's 500, logged with its trace, and nothing else changes. A request
  that could make one is a bug of the request's checks: their answer is a 4xx.

Before this a command error opened the breaker: one anonymous ``GET`` with a page number too large
for Redis answered every client 503 for five seconds.
"""

from __future__ import annotations

import logging

from flask import Response, current_app, jsonify
from redis.exceptions import RedisError
from werkzeug.exceptions import InternalServerError
from werkzeug.http import HTTP_STATUS_CODES

from arena.api.store_breaker import BREAKER, StoreBreaker
from arena.storage.pools import is_busy, is_outage
from arena.web import unavailable_page, wants_page

log = logging.getLogger("arena.api")

RETRY_AFTER_S = "5"
"""What a 503 (queue or store unreachable) tells the client to wait before trying again."""
BUSY_RETRY_AFTER_S = "1"
"""What a 503 of a busy process (no connection free in time) tells the client to wait."""
STORE_UNREACHABLE = "the store is unreachable; try again later"
STORE_BUSY = "the platform is busy; try again in a moment"

Answer = tuple[Response, int, dict[str, str]]


def unavailable(message: str = STORE_UNREACHABLE, retry_after: str = RETRY_AFTER_S) -> Answer:
    """The 503 with ``Retry-After``: the error body for the API, a small HTML page for a browser's
    page request; drawn without reading the store."""
    if wants_page():
        return unavailable_page(message, retry_after), 503, {}
    body = {"code": 503, "status": HTTP_STATUS_CODES[503], "message": message, "errors": {}}
    return jsonify(body), 503, {"Retry-After": retry_after}


def internal_error(error: BaseException) -> Answer:
    """This request's 500, its trace in the log."""
    log.error("unhandled error", exc_info=error)
    body = {
        "code": 500,
        "status": HTTP_STATUS_CODES[500],
        "message": InternalServerError.description,
        "errors": {},
    }
    return jsonify(body), 500, {}


def store_failed(error: RedisError) -> Answer:
    """The error handler for every ``RedisError`` a request raised: the answer of its kind (above)."""
    if is_outage(error):
        log.error("the store is unreachable: %s", error)
        breaker: StoreBreaker = current_app.extensions[BREAKER]
        breaker.failed()
        return unavailable()
    if is_busy(error):
        log.warning("no connection to the store was free in time: %s", error)
        return unavailable(STORE_BUSY, BUSY_RETRY_AFTER_S)
    return internal_error(error)
