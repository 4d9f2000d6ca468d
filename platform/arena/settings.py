"""The platform's settings, read once from the environment.

Every process of a deployment (API, workers) reads the same variables, so the same ``.env`` file
configures all of them. Without ``REDIS_URL`` the platform runs on its embedded default: an
in-memory Redis and a match worker inside the same process.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from arena.cores import processes_from_env
from arena.storage.files import DEPLOYMENT_DIR, FileStore, check_location, open_file_store
from arena.storage.finishing import HISTORY_POINTS
from arena.storage.secret_box import SecretBox, check_key
from referee.transport.endpoints import ALLOWLIST_ENV, EndpointPolicy
from referee.transport.ping import PING_TIMEOUT_S


class SettingsError(ValueError):
    """An environment variable holds a value the platform cannot use."""


def _int(env: Mapping[str, str], name: str, default: int, minimum: int = 1) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be an integer, not {raw!r}") from None
    if value < minimum:
        raise SettingsError(f"{name} must be at least {minimum}, not {value}")
    return value


def _choice(env: Mapping[str, str], name: str, choices: tuple[str, ...], default: str) -> str:
    raw = env.get(name, "").strip() or default
    if raw not in choices:
        raise SettingsError(f"{name} must be one of {', '.join(choices)}, not {raw!r}")
    return raw


FLAG_WORDS = {
    "1": True,
    "true": True,
    "yes": True,
    "on": True,
    "0": False,
    "false": False,
    "no": False,
    "off": False,
}
"""What a yes-or-no variable may say (any case)."""


def _flag(env: Mapping[str, str], name: str) -> bool | None:
    """A yes-or-no variable (``1``/``0``, ``true``/``false``, ``yes``/``no``, ``on``/``off``); None
    when it is unset or empty, so that its default may depend on other settings.

    >>> _flag({"X": "Yes"}, "X"), _flag({"X": "0"}, "X"), _flag({}, "X")
    (True, False, None)
    """
    raw = env.get(name, "").strip()
    if not raw:
        return None
    try:
        return FLAG_WORDS[raw.lower()]
    except KeyError:
        raise SettingsError(f"{name} must be 1 or 0 (or true/false, yes/no, on/off), not {raw!r}") from None


def _limit(env: Mapping[str, str], name: str, default: str) -> str:
    """A rate limit in flask-limiter's notation (``10 per minute; 100 per day``), checked here."""
    from limits import parse_many

    raw = env.get(name, "").strip() or default
    try:
        parse_many(raw)
    except ValueError:
        message = f"{name} must be limits such as '10 per minute; 100 per day', not {raw!r}"
        raise SettingsError(message) from None
    return raw


def _secrets_key(env: Mapping[str, str]) -> str | None:
    raw = env.get("ARENA_SECRETS_KEY", "").strip()
    if not raw:
        return None
    try:
        check_key(raw)
    except ValueError as error:
        raise SettingsError(str(error)) from None
    return raw


@dataclass(frozen=True)
class Settings:
    """What a platform process needs to know; :meth:`from_env` documents each variable."""

    redis_url: str | None = None
    admin_token: str = ""
    key_prefix: str = "arena:"
    queue: str = "arena.matches"
    policy: EndpointPolicy = field(default_factory=EndpointPolicy)
    visibility_timeout_s: int = 60
    lease_s: int = 30
    redis_timeout_s: int = 10
    """How long one Redis command may wait for its answer (``ARENA_REDIS_TIMEOUT_SECONDS``)."""
    request_body_s: int = 10
    """How long a request's body may take to arrive after its head (``ARENA_REQUEST_BODY_SECONDS``)."""
    api_redis_connections: int = 64
    """Connections to Redis one API process's store may hold (``ARENA_API_REDIS_CONNECTIONS``)."""
    limiter_connections: int = 16
    """Connections to Redis one API process's rate limits may hold (``ARENA_LIMITER_CONNECTIONS``)."""
    redis_wait_ms: int = 1000
    """How long an API request waits for a free connection to Redis (``ARENA_REDIS_WAIT_MS``)."""
    limits_fail_open: bool = False
    """Whether a request the rate limits cannot count is served uncounted (``ARENA_LIMITS_ON_ERROR``
    ``open``) or answered 503 (``closed``, the default)."""
    max_attempts: int = 3
    max_worker_deaths: int = 10
    """Runs of one match its workers' deaths may end before it is aborted (``ARENA_MAX_WORKER_DEATHS``)."""
    worker_concurrency: int = 500
    worker_pool: str = "gevent"
    worker_processes: int = 1
    """Celery worker processes one ``arena worker`` runs (``ARENA_WORKER_PROCESSES``)."""
    max_tournament_matches: int = 5000
    sweep_interval_s: int = 30
    registration_limit: str = "20 per minute; 200 per day"
    challenge_limit: str = "30 per minute; 500 per day"
    ping_limit: str = "10 per minute; 100 per day"
    """Requests that may ping one bot's owner may make with its token (``ARENA_PING_LIMIT``)."""
    ping_host_limit: str = "30 per minute; 300 per day"
    """Pings one target address may be sent for requests (``ARENA_PING_HOST_LIMIT``)."""
    max_pings: int = 10
    """Pings one API process may have waiting at once (``ARENA_MAX_PINGS``)."""
    trusted_proxies: int = 0
    """Reverse proxies in front of the API whose ``X-Forwarded-For`` it believes
    (``ARENA_TRUSTED_PROXIES``)."""
    replay_store: str | None = None
    """Where replays and archived matches go (``ARENA_REPLAY_URL`` or ``ARENA_REPLAY_DIR``)."""
    s3_endpoint: str | None = None
    archive_after_days: int = 30
    ping_timeout_s: float = PING_TIMEOUT_S
    """How long a bot has to answer the ping of a registration, a new secret or a new endpoint (not
    read from the environment: the protocol promises bots this much)."""
    matchmaking_tick_s: int = 10
    """How often the continuous ladders' scheduler makes matches (``ARENA_MATCHMAKING_SECONDS``)."""
    history_points: int = HISTORY_POINTS
    """Rating points kept per bot and ladder, the newest (``ARENA_HISTORY_POINTS``)."""
    house_bots: bool | None = None
    """Whether the platform registers every game's reference bots as house bots when it starts
    (``ARENA_HOUSE_BOTS``); None: its default, :attr:`registers_house_bots` says which."""
    max_move_ms: int = 60_000
    """The largest ``time.move_ms`` a match may ask for (``ARENA_MAX_MOVE_MS``)."""
    max_bank_ms: int = 300_000
    """The largest ``time.bank_ms`` a match may ask for (``ARENA_MAX_BANK_MS``)."""
    max_faults: int = 20
    """The largest ``max_faults`` a match may ask for (``ARENA_MAX_FAULTS``)."""
    max_match_s: int = 3600
    """How long one run of a match may play before the runner ends it (``ARENA_MAX_MATCH_SECONDS``)."""
    secrets_key: str | None = field(default=None, repr=False)
    """The key bots' secrets are encrypted with in the store (``ARENA_SECRETS_KEY``); None: kept as
    they are. Never in a repr, so never in a log."""
    metrics_token: str = ""
    """The bearer token ``GET /metrics`` of the API asks for (``ARENA_METRICS_TOKEN``); empty: the
    API serves no ``/metrics``."""

    @property
    def embedded(self) -> bool:
        """True when no ``REDIS_URL`` is given: in-memory Redis, worker in the same process."""
        return not self.redis_url

    @property
    def registers_house_bots(self) -> bool:
        """``ARENA_HOUSE_BOTS`` when set, else the default: yes on the embedded platform (a newcomer's
        bot has opponents at once), no on Redis (a public deployment has none unless asked)."""
        return self.embedded if self.house_bots is None else self.house_bots

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read the environment.

        - ``REDIS_URL``: the Redis holding the store and serving as the Celery broker
          (``redis://host:6379/0``); unset means the embedded default.
        - ``ARENA_ADMIN_TOKEN``: the organizer token for creating matches and tournaments.
        - ``ARENA_KEY_PREFIX``: prefix of every store key (default ``arena:``).
        - ``ARENA_QUEUE``: the Celery queue matches go to (default ``arena.matches``).
        - ``ARENA_ENDPOINT_ALLOWLIST``: CIDRs of non-public networks bot endpoints may use.
        - ``ARENA_VISIBILITY_TIMEOUT``: seconds before the broker hands an unacknowledged match to
          another worker (default 60): a killed worker's matches that it had taken but not started
          come back after it. A match still being played is handed out again too, and dropped at
          once: its live lease shows it is being played.
        - ``ARENA_LEASE_SECONDS``: how long a running match's lease lives without a heartbeat
          (default 30); a redelivered match waits for it to lapse before running again.
        - ``ARENA_REDIS_TIMEOUT_SECONDS``: how long a Redis command (or a new connection to Redis)
          may wait before it fails (default 10): a Redis that stops answering without closing the
          connection (a network partition) fails the command instead of holding it for good.
        - ``ARENA_REQUEST_BODY_SECONDS``: how long the API waits for a request's body once its head
          has arrived (default 10); a body not whole by then is answered 408 and its connection
          closed (:mod:`arena.api.body_deadline`). The head has gunicorn's ``keepalive`` (5 s).
        - ``ARENA_API_REDIS_CONNECTIONS``: connections to Redis one API process's store may hold
          (default 64); ``ARENA_LIMITER_CONNECTIONS``: those its rate limits may hold (default 16).
          A request that finds them all in use waits ``ARENA_REDIS_WAIT_MS`` (default 1000) for one,
          then is answered 503 with ``Retry-After: 1``: back-pressure for that request alone, never
          taken for Redis being unreachable.
        - ``ARENA_LIMITS_ON_ERROR``: what a request the rate limits cannot count (Redis unreachable,
          or no connection free in time) gets: ``closed`` (default), 503 with ``Retry-After``;
          ``open``, served as if within its limits (logged). Never a 500.
        - ``ARENA_MAX_ATTEMPTS``: runs of one match that may fail (the store failing under them)
          before it is aborted (default 3).
        - ``ARENA_MAX_WORKER_DEATHS``: runs of one match that may end with their worker's death
          (killed, out of memory) before it is aborted (default 10): more than the failures, as a
          crash storm kills matches that did nothing wrong, but bounded, as a match that kills
          every worker playing it must end.
        - ``ARENA_WORKER_POOL``: ``gevent`` (default: each match a greenlet on an event loop, for
          hundreds of matches at once) or ``threads`` (a thread per match).
        - ``ARENA_WORKER_CONCURRENCY``: matches one worker process plays at once (default 500 on
          gevent, 16 on threads); each of ``ARENA_WORKER_PROCESSES`` plays that many.
        - ``ARENA_WORKER_PROCESSES``: Celery worker processes one ``arena worker`` runs, each on a
          core of its own (default 1; ``auto``: one per core this process may use).
        - ``ARENA_REGISTRATION_LIMIT``: bot registrations, and the other requests that may ping a bot
          (``PATCH``, a new secret, a ping on demand) without that bot's token, one client address
          (an IPv6 client's /64) may make, in flask-limiter's notation (default ``20 per minute; 200
          per day``).
        - ``ARENA_CHALLENGE_LIMIT``: unrated matches one bot's owner may request with its token
          (default ``30 per minute; 500 per day``).
        - ``ARENA_PING_LIMIT``: requests that ping a bot (``PATCH``, a new secret, a ping on demand)
          one bot's owner may make with its token, and pings sent on its behalf, per bot (default
          ``10 per minute; 100 per day``).
        - ``ARENA_PING_HOST_LIMIT``: pings the API may send to one address (an IPv6 /64), whoever
          asks, registrations included, a bot's owner's only where the bot never passed a ping
          (default ``30 per minute; 300 per day``).
        - ``ARENA_MAX_PINGS``: pings one API process may have waiting at once (default 10); a
          request past them is answered 503 with ``Retry-After`` instead of waiting.
        - ``ARENA_TRUSTED_PROXIES``: how many reverse proxies stand in front of the API, each
          adding the address it got the request from to ``X-Forwarded-For`` (default 0: the header
          is ignored, the client is the socket's peer). With N, the API's per-client limits count
          the address the N-th proxy from the API saw (werkzeug's ``ProxyFix``, ``x_for=N``); the
          API's port must then be reachable through those proxies only.
        - ``ARENA_SWEEP_SECONDS``: how often a worker looks for matches left running by a worker
          that is gone, and queues them again (default 30).
        - ``ARENA_REPLAY_URL``: where replays and archived matches are kept: ``s3://bucket/prefix``
          on any S3-compatible store (credentials and region from the usual ``AWS_*`` variables),
          or a directory (``file:///path``). ``ARENA_REPLAY_DIR``: a directory, when no URL is set.
          Unset: ``var/store`` in a deployment, a temporary directory when embedded.
        - ``ARENA_S3_ENDPOINT``: the S3 server's URL when it is not AWS (MinIO, Ceph...).
        - ``ARENA_ARCHIVE_AFTER_DAYS``: ended matches older than this many days move out of Redis
          into the replay store (default 30; 0 archives every ended match).
        - ``ARENA_MATCHMAKING_SECONDS``: how often the scheduler of the continuous ladders (Celery
          beat, or a thread of the embedded platform) makes their matches (default 10).
        - ``ARENA_HISTORY_POINTS``: how many rating points each bot's history keeps per ladder, the
          newest (default 500); each counted match of a rated variant adds one.
        - ``ARENA_HOUSE_BOTS``: ``1`` or ``0`` (``true``/``false``, ``yes``/``no``, ``on``/``off``):
          whether every way the platform starts (``arena serve``, ``arena demo --serve``, the API
          under gunicorn) registers every game's reference bots as house bots (default: yes on the
          embedded default, no with ``REDIS_URL``).
        - ``ARENA_MAX_MOVE_MS``, ``ARENA_MAX_BANK_MS``, ``ARENA_MAX_FAULTS``: the largest
          ``time.move_ms`` (default 60000), ``time.bank_ms`` (default 300000; 0 allows no bank)
          and ``max_faults`` (default 20) a match may ask for: a challenge, an organizer's match, a
          tournament or a continuous ladder, all alike (422 naming the field and the bound).
        - ``ARENA_MAX_MATCH_SECONDS``: how long one run of a match may play (default 3600): the
          runner ends it there, with the moves so far, and the match is aborted (unrated, counted
          for nobody), however its time control adds up.
        - ``ARENA_SECRETS_KEY``: the Fernet key bots' signing secrets are encrypted with in the
          store (:mod:`arena.storage.secret_box`); for the API and the workers only. Unset: they are
          stored as they are (a deployment on Redis warns at start).
        - ``ARENA_METRICS_TOKEN``: the token Prometheus sends (``Authorization: Bearer TOKEN``) to
          read the API's ``/metrics``; unset, the API serves no ``/metrics`` (a worker's own metrics
          server, ``ARENA_METRICS_PORT``, is for the internal network only).
        """
        env = os.environ if env is None else env
        pool = _choice(env, "ARENA_WORKER_POOL", ("gevent", "threads"), "gevent")
        try:
            policy = EndpointPolicy.from_text(env.get(ALLOWLIST_ENV))
        except ValueError as error:
            raise SettingsError(str(error)) from None
        try:
            processes = processes_from_env(env)
        except ValueError as error:
            raise SettingsError(str(error)) from None
        replay_store = (
            env.get("ARENA_REPLAY_URL", "").strip() or env.get("ARENA_REPLAY_DIR", "").strip() or None
        )
        try:
            replay_store = None if replay_store is None else check_location(replay_store)
        except ValueError as error:
            raise SettingsError(f"ARENA_REPLAY_URL: {error}") from None
        return cls(
            redis_url=env.get("REDIS_URL", "").strip() or None,
            admin_token=env.get("ARENA_ADMIN_TOKEN", "").strip(),
            key_prefix=env.get("ARENA_KEY_PREFIX", "arena:"),
            queue=env.get("ARENA_QUEUE", "").strip() or "arena.matches",
            policy=policy,
            visibility_timeout_s=_int(env, "ARENA_VISIBILITY_TIMEOUT", 60),
            lease_s=_int(env, "ARENA_LEASE_SECONDS", 30),
            redis_timeout_s=_int(env, "ARENA_REDIS_TIMEOUT_SECONDS", 10),
            request_body_s=_int(env, "ARENA_REQUEST_BODY_SECONDS", 10),
            api_redis_connections=_int(env, "ARENA_API_REDIS_CONNECTIONS", 64),
            limiter_connections=_int(env, "ARENA_LIMITER_CONNECTIONS", 16),
            redis_wait_ms=_int(env, "ARENA_REDIS_WAIT_MS", 1000, minimum=0),
            limits_fail_open=_choice(env, "ARENA_LIMITS_ON_ERROR", ("closed", "open"), "closed") == "open",
            max_attempts=_int(env, "ARENA_MAX_ATTEMPTS", 3),
            max_worker_deaths=_int(env, "ARENA_MAX_WORKER_DEATHS", 10),
            worker_pool=pool,
            worker_concurrency=_int(env, "ARENA_WORKER_CONCURRENCY", 500 if pool == "gevent" else 16),
            worker_processes=processes,
            sweep_interval_s=_int(env, "ARENA_SWEEP_SECONDS", 30),
            registration_limit=_limit(env, "ARENA_REGISTRATION_LIMIT", "20 per minute; 200 per day"),
            challenge_limit=_limit(env, "ARENA_CHALLENGE_LIMIT", "30 per minute; 500 per day"),
            ping_limit=_limit(env, "ARENA_PING_LIMIT", "10 per minute; 100 per day"),
            ping_host_limit=_limit(env, "ARENA_PING_HOST_LIMIT", "30 per minute; 300 per day"),
            max_pings=_int(env, "ARENA_MAX_PINGS", 10),
            trusted_proxies=_int(env, "ARENA_TRUSTED_PROXIES", 0, minimum=0),
            replay_store=replay_store,
            s3_endpoint=env.get("ARENA_S3_ENDPOINT", "").strip() or None,
            archive_after_days=_int(env, "ARENA_ARCHIVE_AFTER_DAYS", 30, minimum=0),
            matchmaking_tick_s=_int(env, "ARENA_MATCHMAKING_SECONDS", 10),
            history_points=_int(env, "ARENA_HISTORY_POINTS", HISTORY_POINTS),
            house_bots=_flag(env, "ARENA_HOUSE_BOTS"),
            max_move_ms=_int(env, "ARENA_MAX_MOVE_MS", 60_000),
            max_bank_ms=_int(env, "ARENA_MAX_BANK_MS", 300_000, minimum=0),
            max_faults=_int(env, "ARENA_MAX_FAULTS", 20),
            max_match_s=_int(env, "ARENA_MAX_MATCH_SECONDS", 3600),
            secrets_key=_secrets_key(env),
            metrics_token=env.get("ARENA_METRICS_TOKEN", "").strip(),
        )

    def secret_box(self) -> SecretBox:
        """What seals bots' secrets in the store: with ``ARENA_SECRETS_KEY``, or none without it."""
        return SecretBox(self.secrets_key)

    def file_store(self) -> FileStore:
        """The replay store of a deployment (``var/store`` when none is set)."""
        return open_file_store(self.replay_store or DEPLOYMENT_DIR, self.s3_endpoint)

    def with_admin_token(self) -> tuple[Settings, bool]:
        """These settings with an organizer token, generating one when none is set.

        Returns the settings and whether the token was generated (the caller then shows it).
        """
        if self.admin_token:
            return self, False
        return replace(self, admin_token=secrets.token_urlsafe(24)), True
