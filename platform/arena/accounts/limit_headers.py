"""The rate limit headers: ``Retry-After`` exactly what the limit that answered says, on the answers
that are about waiting only, and ``X-RateLimit-*`` for the limit a request was counted under.

flask-limiter's own headers (``headers_enabled``) set ``Retry-After`` on every answer of a limited
view, a 200 or a 422 included, and on an answer that already had one it writes the later of the two
and its own limit's window: the ping gate's 503 (try again in the ping's 3 s) said 60, its 429 for
an address (try again when the address's window frees a ping) said the registration limit's reset,
and the seconds were rounded down (0 for a wait under one). Here, instead:

- a 429 of flask-limiter's gets the seconds until the limit it broke admits a request again (the
  moving window's oldest entry expires), rounded up, at least 1;
- an answer whose ``Retry-After`` the platform set itself (its own 429s and 503s) keeps it as it is;
- no other answer gets one.
"""

from __future__ import annotations

import logging
import math
import time

from flask import Flask, Response
from flask_limiter import Limiter

log = logging.getLogger(__name__)
RETRY_AFTER = "Retry-After"


def seconds_until(reset_time: float, now: float | None = None) -> int:
    """Whole seconds to wait until ``reset_time`` (a Unix time), rounded up and at least 1: a client
    that waits that long finds the limit admitting it, never a second early.

    >>> seconds_until(100.2, now=40.0), seconds_until(40.0, now=40.0)
    (61, 1)
    """
    return max(1, math.ceil(reset_time - (time.time() if now is None else now)))


def install(app: Flask, limiter: Limiter) -> None:
    """Write the rate limit headers of every answer of ``app`` (``limiter`` made with
    ``headers_enabled=False``)."""

    @app.after_request
    def rate_limit_headers(response: Response) -> Response:
        try:
            _write(limiter, response)
        except Exception as error:  # the headers inform; a storage failing here never fails the answer
            log.warning("the rate limit headers were left out: %s", error)
        return response


def _write(limiter: Limiter, response: Response) -> None:
    counted = limiter.current_limits
    if response.status_code == 429 and RETRY_AFTER not in response.headers:
        waits = [seconds_until(limit.window.reset_time) for limit in counted if limit.breached]
        if waits:
            response.headers[RETRY_AFTER] = str(max(waits))
    shown = limiter.current_limit
    if shown is not None:
        window = shown.window
        response.headers["X-RateLimit-Limit"] = str(shown.limit.amount)
        response.headers["X-RateLimit-Remaining"] = str(max(0, window.remaining))
        response.headers["X-RateLimit-Reset"] = str(math.ceil(window.reset_time))
