"""Rate limits (flask-limiter): what one client may ask of the platform in a given time.

Registering a bot is open to anyone and costs the platform a DNS look-up and a record, so it is
limited per client address (``ARENA_REGISTRATION_LIMIT``, default ``20 per minute; 200 per day``).
A request over the limit is answered 429 with ``Retry-After`` and the platform's usual error body.
Counts are kept where the store is: in Redis for a deployment (every API process sees the same
counts), in memory for the embedded default.
"""

from __future__ import annotations

from flask import Blueprint, Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from arena.settings import Settings


def install(app: Flask, settings: Settings, registration: Blueprint) -> Limiter:
    """Limit ``POST`` on the ``registration`` blueprint (``/api/v1/bots``) per client address."""
    limiter = Limiter(
        get_remote_address,
        app=app,
        storage_uri=settings.redis_url or "memory://",
        headers_enabled=True,
        key_prefix=f"{settings.key_prefix}limits",
        strategy="moving-window",
    )
    limiter.limit(settings.registration_limit, methods=["POST"])(registration)
    return limiter
