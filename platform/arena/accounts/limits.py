"""Rate limits (flask-limiter): what one client may ask of the platform in a given time.

Registering a bot is open to anyone and costs the platform a DNS look-up, a ping and a record, so it
is limited per client address (``ARENA_REGISTRATION_LIMIT``, default ``20 per minute; 200 per day``),
and so is each of the other requests that may ping a bot (``PATCH``, a new secret, a ping on
demand: each kind counted apart). Those three also count per bot token, together
(``ARENA_PING_LIMIT``, default ``10 per minute; 100 per day``), and every ping counts per address
pinged, whoever asks (``ARENA_PING_HOST_LIMIT``, :mod:`arena.accounts.ping_gate`, which also bounds
how many pings wait at once). Challenges (a bot's
owner requesting an unrated match) are limited per bot token (``ARENA_CHALLENGE_LIMIT``, default
``30 per minute; 500 per day``). The organizer is limited by neither token limit. A request over a
limit is answered 429 with ``Retry-After`` and the platform's usual error body. Counts are kept where
the store is: in Redis for a deployment (every API process sees the same counts), in memory for the
embedded default; what a request gets when they cannot be counted is :mod:`arena.accounts.limit_storage`'s.
"""

from __future__ import annotations

import hashlib

from flask import Blueprint, Flask, current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many

from arena.accounts import limit_storage
from arena.accounts.auth import bearer_token
from arena.accounts.ping_gate import PingGate
from arena.settings import Settings

PING_GATE = "arena.pings"
"""Where :func:`install` puts the app's :class:`PingGate` in ``app.extensions``."""
OWNER_PINGS = frozenset({"bots.BotById", "bots.BotSecret", "bots.BotPing"})
"""The views of a bot's owner that may ping it: ``PATCH``, a new secret, a ping on demand."""


def _presented_token() -> str:
    """A challenge or a ping is counted against the token that asks for it (one bot's owner), hashed."""
    token = bearer_token(request.headers.get("Authorization")) or get_remote_address()
    return hashlib.sha256(token.encode()).hexdigest()


def install(app: Flask, settings: Settings, registration: Blueprint, matches: Blueprint) -> Limiter:
    """Limit ``POST`` and ``PATCH`` on the ``registration`` blueprint (``/api/v1/bots``) per client
    address, its owner's pings per token too, and challenges (``POST`` on ``/api/v1/matches`` with a
    bot's token) per token; put the app's :class:`PingGate` in ``app.extensions``."""
    limiter = Limiter(
        get_remote_address,
        app=app,
        storage_uri=settings.redis_url or "memory://",
        storage_options=limit_storage.storage_options(settings),
        swallow_errors=settings.limits_fail_open,
        headers_enabled=True,
        key_prefix=f"{settings.key_prefix}limits",
        strategy="moving-window",
    )
    limit_storage.install_failures(app, limiter)
    limiter.limit(settings.registration_limit, methods=["POST", "PATCH"])(registration)
    organizer = settings.admin_token

    def by_the_organizer() -> bool:
        return bool(organizer) and bearer_token(request.headers.get("Authorization")) == organizer

    def no_owners_ping() -> bool:
        return request.endpoint not in OWNER_PINGS or by_the_organizer()

    # one count per token for the three requests, so that none of them is a way round the others
    limiter.shared_limit(
        settings.ping_limit,
        "bot-pings",
        methods=["POST", "PATCH"],
        key_func=_presented_token,
        exempt_when=no_owners_ping,
    )(registration)
    limiter.limit(
        settings.challenge_limit, methods=["POST"], key_func=_presented_token, exempt_when=by_the_organizer
    )(matches)
    app.extensions[PING_GATE] = PingGate(
        settings.policy,
        settings.ping_timeout_s,
        limiter.limiter,
        parse_many(settings.ping_host_limit),
        settings.max_pings,
        f"{settings.key_prefix}limits",
    )
    return limiter


def ping_gate() -> PingGate:
    """The ping gate of the app handling the current request."""
    gate: PingGate = current_app.extensions[PING_GATE]
    return gate
