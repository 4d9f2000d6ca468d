"""Rate limits (flask-limiter): what one client may ask of the platform in a given time.

Registering a bot is open to anyone and costs the platform a DNS look-up, a ping and a record, so it
is limited per client address (``ARENA_REGISTRATION_LIMIT``, default ``20 per minute; 200 per day``),
and so is each of the other requests that may ping a bot (``PATCH``, a new secret, a ping on
demand: each kind counted apart) when it does not carry that bot's token. Its owner's requests
count per bot token only, the three together (``ARENA_PING_LIMIT``, default ``10 per minute; 100
per day``): nobody else's requests fill that budget. Every ping counts in the ping gate
(:mod:`arena.accounts.ping_gate`, which also bounds how many pings wait at once): a probe (a
registration's, anyone's) per address pinged (``ARENA_PING_HOST_LIMIT``), a ping on an owner's
behalf per bot, and per address too only where the bot never passed a ping. Challenges (a bot's
owner requesting an unrated match) are limited per bot token (``ARENA_CHALLENGE_LIMIT``, default
``30 per minute; 500 per day``). The organizer is limited by neither token limit.

The client address is the socket's peer, or behind ``ARENA_TRUSTED_PROXIES`` reverse proxies the
address they forwarded (:func:`trust_proxies`), an IPv6 client counted by its /64
(:func:`client_key`). A request over a limit is answered 429 with ``Retry-After`` and the
platform's usual error body. Counts are kept where the store is: in Redis for a deployment (every
API process sees the same counts), in memory for the embedded default. What a request gets when they cannot be
counted is :mod:`arena.accounts.limit_storage`'s.
"""

from __future__ import annotations

import hashlib
import ipaddress

from flask import Blueprint, Flask, current_app, request
from flask_limiter import Limiter
from limits import parse_many
from werkzeug.middleware.proxy_fix import ProxyFix

from arena.accounts import limit_headers, limit_storage
from arena.accounts.auth import bearer_token, token_matches
from arena.accounts.ping_gate import PingGate, host_key
from arena.current import runtime
from arena.settings import Settings

PING_GATE = "arena.pings"
"""Where :func:`install` puts the app's :class:`PingGate` in ``app.extensions``."""
OWNER_PINGS = frozenset({"bots.BotById", "bots.BotSecret", "bots.BotPing"})
"""The views of a bot's owner that may ping it: ``PATCH``, a new secret, a ping on demand."""


def client_key() -> str:
    """What a per-client limit counts a request under: the client's address (behind
    ``ARENA_TRUSTED_PROXIES`` proxies, the one they forwarded: :func:`trust_proxies`), an IPv6
    address by its /64, as a ping's target is (:func:`arena.accounts.ping_gate.host_key`): one
    subscriber commonly holds a whole /64, and would otherwise have 2**64 budgets."""
    remote = request.remote_addr or ""
    try:
        return host_key(ipaddress.ip_address(remote))
    except ValueError:  # not an address (a unix socket's peer): one budget for all such
        return remote or "unknown"


def trust_proxies(app: Flask, proxies: int) -> None:
    """Take the client's address from ``X-Forwarded-For`` as written by the ``proxies`` reverse
    proxies in front (werkzeug's ``ProxyFix``, ``x_for``): each appends the address it got the
    request from, so the ``proxies``-th entry from the end is the client as the outermost proxy saw
    it, and whatever the client wrote before it is ignored. None (0): the header is not believed."""
    if proxies > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies)  # type: ignore[method-assign]  # Flask's documented way


def _presented_token() -> str:
    """A challenge or a ping is counted against the token that asks for it (one bot's owner), hashed."""
    token = bearer_token(request.headers.get("Authorization")) or client_key()
    return hashlib.sha256(token.encode()).hexdigest()


def install(app: Flask, settings: Settings, registration: Blueprint, matches: Blueprint) -> Limiter:
    """Limit ``POST`` and ``PATCH`` on the ``registration`` blueprint (``/api/v1/bots``) per client
    address, its owner's pings per token too, and challenges (``POST`` on ``/api/v1/matches`` with a
    bot's token) per token; put the app's :class:`PingGate` in ``app.extensions``."""
    trust_proxies(app, settings.trusted_proxies)
    limiter = Limiter(
        client_key,
        app=app,
        storage_uri=settings.redis_url or "memory://",
        storage_options=limit_storage.storage_options(settings),
        swallow_errors=settings.limits_fail_open,
        headers_enabled=False,  # limit_headers writes them: Retry-After as the limit says
        key_prefix=f"{settings.key_prefix}limits",
        strategy="moving-window",
    )
    limit_storage.install_failures(app, limiter)
    limit_headers.install(app, limiter)
    organizer = settings.admin_token

    def by_the_organizer() -> bool:
        return bool(organizer) and bearer_token(request.headers.get("Authorization")) == organizer

    def by_its_owner() -> bool:
        """A request of the bot's owner (or the organizer) on its own bot: limited per token only,
        so that nobody sharing its address (a NAT, a proxy not trusted) uses up its budget."""
        if request.endpoint not in OWNER_PINGS:
            return False
        if by_the_organizer():
            return True
        bot = runtime().store.bots.get(str((request.view_args or {}).get("bot_id", "")))
        return bot is not None and token_matches(
            bearer_token(request.headers.get("Authorization")), bot.token_hash
        )

    limiter.limit(settings.registration_limit, methods=["POST", "PATCH"], exempt_when=by_its_owner)(
        registration
    )

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
        owner_limits=parse_many(settings.ping_limit),
    )
    return limiter


def ping_gate() -> PingGate:
    """The ping gate of the app handling the current request."""
    gate: PingGate = current_app.extensions[PING_GATE]
    return gate
