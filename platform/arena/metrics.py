"""Prometheus metrics: what the workers count while they play, and what the queue holds.

Two kinds of figures, served in two places:

- **Counted in the worker process** that plays matches (:func:`match_ended`, :func:`move_played`):
  matches by game and outcome, match duration, bots' think time, faults by kind. They live in the
  process's default registry and are served by :func:`start_worker_metrics` on
  ``ARENA_METRICS_PORT``. A worker plays its matches in a pool of threads inside one process, so one
  port per worker process holds all of its counts; Prometheus adds up the workers.
- **Read from Redis at scrape time** (:class:`QueueDepthCollector`): matches waiting in the broker's
  queue and messages delivered but not yet acknowledged. Any process can serve them and every one
  gives the same answer, so the API serves them at ``/metrics`` (:func:`expose`, with
  :func:`api_registry`) although gunicorn runs it in several processes. The API's port is public,
  so that ``/metrics`` answers only a request bearing ``ARENA_METRICS_TOKEN``; a worker's port is
  for the internal network only.

Label values are game ids, outcomes and fault kinds only: never bot or match ids, which would make a
new time series for every bot or match.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flask import Flask, Response, request
from kombu.transport.redis import PRIORITY_STEPS, Channel
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST, start_wsgi_server
from prometheus_client.metrics_core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from redis import Redis
from redis.exceptions import RedisError

from arena.accounts.auth import bearer_token, same_token
from arena.errors import Unauthorized
from arena.settings import Settings, SettingsError
from referee.protocol import Fault
from referee.registry import game_ids

if TYPE_CHECKING:
    from referee.replay import MoveRecord

log = logging.getLogger(__name__)

PORT_ENV = "ARENA_METRICS_PORT"
"""The port of a worker's metrics server; unset or empty means no server."""
ADDR_ENV = "ARENA_METRICS_ADDR"
"""The address that server listens on (default ``0.0.0.0``: a container's own interfaces)."""

MATCH_OUTCOMES = ("finished", "aborted", "cancelled")
"""How a run of a match can end, as far as these metrics count it (see :func:`match_ended`)."""

MATCHES = Counter(
    "arena_matches",
    "Runs of a match that reached an end on this worker: finished (result stored), aborted, or cancelled.",
    ["game", "outcome"],
)
MATCH_DURATION = Histogram(
    "arena_match_duration_seconds",
    "Wall-clock time of finished runs of a match on this worker, from the run's start to its stored end.",
    ["game"],
    buckets=(1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600),
)
MOVE_THINK = Histogram(
    "arena_move_think_seconds",
    "Time bots took to answer a move request (think time as the referee measured it, network included).",
    ["game"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
FAULTS = Counter(
    "arena_faults",
    "Move requests a bot failed, by kind (timeout, connection_error, illegal_move...).",
    ["game", "kind"],
)

# Every series of a known game starts at 0, so rate() sees the first match and dashboards show zeros.
for _game in game_ids():
    for _outcome in MATCH_OUTCOMES:
        MATCHES.labels(_game, _outcome)


# -- counting, called by the code that plays matches ---------------------------------------------


def match_ended(game: str, outcome: str, seconds: float | None = None) -> None:
    """Count one run of a match that ended: ``"finished"`` (its result stored), ``"aborted"`` or
    ``"cancelled"`` (stopped at a move).

    ``seconds``, the run's wall-clock time, goes to the duration histogram for finished runs only
    (an aborted run's time says nothing about games). Other outcomes (busy, already ended, missing)
    are not ends of a run and raise :class:`ValueError`, so a wrong call shows in tests.
    """
    if outcome not in MATCH_OUTCOMES:
        raise ValueError(f"a match run ends {' or '.join(MATCH_OUTCOMES)}, not {outcome!r}")
    MATCHES.labels(game, str(outcome)).inc()
    if outcome == "finished" and seconds is not None:
        MATCH_DURATION.labels(game).observe(seconds)


def move_played(game: str, record: MoveRecord, think: Histogram | None = None) -> None:
    """Count one move of a match: the bot's think time and, when it failed, the fault's kind.

    A move the referee played for a seat that had forfeited asked no bot, so it counts nothing.
    ``think``: the game's think-time histogram when the caller looked it up already.
    """
    fault = record.fault
    if fault is not None and fault.kind is Fault.FORFEITED:
        return
    (MOVE_THINK.labels(game) if think is None else think).observe(record.think_ms / 1000.0)
    if fault is not None:
        FAULTS.labels(game, fault.kind.value).inc()


def counting_moves(
    game: str, then: Callable[[MoveRecord], None] | None = None
) -> Callable[[MoveRecord], None]:
    """An ``on_move`` callback for :func:`referee.runner.run_match` that counts each move as
    :func:`move_played` does, then calls ``then`` (the caller's own callback, e.g. the progress
    reporter) if one is given.

    The game's think-time histogram is looked up once for the match rather than on every move
    (a lookup by label takes a lock and hashes the labels: a few microseconds each of the forty
    moves of a short match).
    """
    think = MOVE_THINK.labels(game)

    def on_move(record: MoveRecord) -> None:
        move_played(game, record, think)
        if then is not None:
            then(record)

    return on_move


# -- the queue, read from the broker's Redis on every scrape --------------------------------------


def kombu_queue_keys(queue: str) -> list[str]:
    """The Redis lists holding a queue's waiting messages: kombu keeps one list per priority step."""
    return [queue if step == 0 else f"{queue}{Channel.sep}{step}" for step in PRIORITY_STEPS]


class QueueDepthCollector(Collector):
    """Reads the match queue's length from the broker's Redis each time Prometheus scrapes.

    ``arena_queue_depth{queue}`` counts matches waiting for a worker. ``arena_queue_unacked`` counts
    messages handed to a worker and not yet acknowledged: matches being played, matches waiting for a
    retry, and the matches of a dead worker until the visibility timeout gives them to another. When
    Redis does not answer, ``arena_broker_up`` is 0 and the other two are left out (a scrape must
    not fail, or every other figure of the process would be lost with it).
    """

    def __init__(self, redis: Redis, queues: Sequence[str], unacked_key: str = "unacked") -> None:
        self.redis = redis
        self.queues = list(queues)
        self.unacked_key = unacked_key

    def describe(self) -> Iterable[Metric]:
        """The metric names, without reading Redis (a registry asks for them when this is registered)."""
        return list(self._families())

    def collect(self) -> Iterator[Metric]:
        depth, unacked, up = self._families()
        try:
            with self.redis.pipeline(transaction=False) as pipe:
                for queue in self.queues:
                    for key in kombu_queue_keys(queue):
                        pipe.llen(key)
                pipe.hlen(self.unacked_key)
                lengths = pipe.execute()
        except RedisError as error:
            log.warning("metrics: cannot read the queue from Redis: %s", error)
            up.add_metric([], 0)
            yield up
            return
        steps = len(PRIORITY_STEPS)
        for index, queue in enumerate(self.queues):
            depth.add_metric([queue], sum(lengths[index * steps : (index + 1) * steps]))
        unacked.add_metric([], lengths[-1])
        up.add_metric([], 1)
        yield from (depth, unacked, up)

    @staticmethod
    def _families() -> tuple[GaugeMetricFamily, GaugeMetricFamily, GaugeMetricFamily]:
        return (
            GaugeMetricFamily(
                "arena_queue_depth", "Matches waiting in the broker's queue for a worker.", labels=["queue"]
            ),
            GaugeMetricFamily(
                "arena_queue_unacked",
                "Messages delivered to a worker and not yet acknowledged (running, retrying, or lost "
                "with a dead worker until the visibility timeout).",
            ),
            GaugeMetricFamily("arena_broker_up", "1 when the broker's Redis answered this scrape, else 0."),
        )


def api_registry(redis: Redis, queues: Sequence[str]) -> CollectorRegistry:
    """What the API serves at ``/metrics``: only figures read from Redis, the same in every process."""
    registry = CollectorRegistry()
    registry.register(QueueDepthCollector(redis, queues))
    return registry


# -- serving ---------------------------------------------------------------------------------------


def expose_api(app: Flask, settings: Settings) -> None:
    """The API's ``/metrics`` as the settings have it: the in-process worker's figures when embedded,
    the queues' depth read from Redis on a deployment; only with ``ARENA_METRICS_TOKEN``, to requests
    bearing it (:func:`expose`)."""
    if settings.embedded:
        expose(app, token=settings.metrics_token)
        return
    probe = Redis.from_url(settings.redis_url or "", socket_timeout=2, socket_connect_timeout=2)
    expose(app, api_registry(probe, [settings.queue]), token=settings.metrics_token)


def expose(app: Flask, registry: CollectorRegistry = REGISTRY, *, token: str) -> None:
    """Serve ``registry`` in Prometheus' text format at ``GET /metrics`` of ``app``, to a request
    with the header ``Authorization: Bearer <token>`` only; without a token nothing is served.

    Outside ``/api/v1`` on purpose: it is for the monitoring system, not for API clients, and a
    reverse proxy that publishes ``/api/`` leaves it private. The token keeps it private where the
    API's port itself is published (docker-compose.yml publishes it on every interface): a request
    without it is refused with the API's error body (401), whatever its address, since behind a
    proxy or a published port every address may look internal.
    """
    if not token:
        log.info("ARENA_METRICS_TOKEN is not set: the API serves no /metrics")
        return

    def metrics() -> Response:
        if not same_token(bearer_token(request.headers.get("Authorization")), token):
            raise Unauthorized("/metrics needs the metrics token (header Authorization: Bearer TOKEN)")
        return Response(generate_latest(registry), headers={"Content-Type": CONTENT_TYPE_LATEST})

    app.add_url_rule("/metrics", endpoint="metrics", view_func=metrics, methods=["GET"])


def metrics_port(env: Mapping[str, str]) -> int | None:
    """The worker metrics port from ``ARENA_METRICS_PORT``: None when unset or empty (no server)."""
    raw = env.get(PORT_ENV, "").strip()
    if not raw:
        return None
    try:
        port = int(raw)
    except ValueError:
        raise SettingsError(f"{PORT_ENV} must be a port number, not {raw!r}") from None
    if not 1 <= port <= 65535:
        raise SettingsError(f"{PORT_ENV} must be 1 to 65535, not {port}")
    return port


@dataclass
class MetricsServer:
    """A running metrics HTTP server (a daemon thread); :meth:`close` stops it."""

    address: str
    port: int
    _stop: Callable[[], None]

    def close(self) -> None:
        self._stop()


def serve_metrics(
    port: int, address: str = "0.0.0.0", registry: CollectorRegistry = REGISTRY
) -> MetricsServer:
    """Serve ``registry`` over HTTP on ``address:port`` (0: any free port) from a daemon thread."""
    try:
        server, thread = start_wsgi_server(port, address, registry)
    except OSError as error:
        raise SettingsError(f"cannot serve metrics on {address}:{port}: {error.strerror or error}") from None

    def stop() -> None:
        server.shutdown()
        server.server_close()
        thread.join()

    return MetricsServer(address, server.server_port, stop)


_worker_server: MetricsServer | None = None


def start_worker_metrics(env: Mapping[str, str] | None = None) -> MetricsServer | None:
    """Start this process's metrics server if ``ARENA_METRICS_PORT`` is set; at most once per process.

    Called when a worker starts. Returns the server, or None when the variable is unset. A port that
    cannot be opened raises :class:`arena.settings.SettingsError` naming it.
    """
    global _worker_server
    if _worker_server is not None:
        return _worker_server
    env = os.environ if env is None else env
    port = metrics_port(env)
    if port is None:
        return None
    _worker_server = serve_metrics(port, env.get(ADDR_ENV, "").strip() or "0.0.0.0")
    log.info("metrics at http://%s:%s/metrics", _worker_server.address, _worker_server.port)
    return _worker_server
