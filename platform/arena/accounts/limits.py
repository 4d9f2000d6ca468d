"""Rate limits (flask-limiter): what one client may ask of the platform in a given time.

Registering a bot is open to anyone and costs the platform a DNS look-up and a record, so it is
limited per client address (``ARENA_REGISTRATION_LIMIT``, default ``20 per minute; 200 per day``).
Challenges (a bot's owner requesting an unrated match) are limited per bot token
(``ARENA_CHALLENGE_LIMIT``, default ``30 per minute; 500 per day``); the organizer is not limited.
A request over the limit is answered 429 with ``Retry-After`` and the platform's usual error body.
Counts are kept where the store is: in Redis for a deployment (every API process sees the same
counts), in memory for the embedded default.
"""

from __future__ import annotations

import hashlib

from flask import Blueprint, Flask, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from arena.accounts.auth import bearer_token
from arena.settings import Settings


def _presented_token() -> str:
    """A challenge is counted against the token that asks for it (one bot's owner), hashed."""
    token = bearer_token(request.headers.get("Authorization")) or get_remote_address()
    return hashlib.sha256(token.encode()).hexdigest()


def install(app: Flask, settings: Settings, registration: Blueprint, matches: Blueprint) -> Limiter:
    """Limit ``POST`` on the ``registration`` blueprint (``/api/v1/bots``) per client address, and
    challenges (``POST`` on ``/api/v1/matches`` with a bot's token) per token."""
    limiter = Limiter(
        get_remote_address,
        app=app,
        storage_uri=settings.redis_url or "memory://",
        headers_enabled=True,
        key_prefix=f"{settings.key_prefix}limits",
        strategy="moving-window",
    )
    limiter.limit(settings.registration_limit, methods=["POST"])(registration)
    organizer = settings.admin_token

    def by_the_organizer() -> bool:
        return bool(organizer) and bearer_token(request.headers.get("Authorization")) == organizer

    limiter.limit(
        settings.challenge_limit, methods=["POST"], key_func=_presented_token, exempt_when=by_the_organizer
    )(matches)
    return limiter
