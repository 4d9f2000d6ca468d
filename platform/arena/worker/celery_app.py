"""The Celery application and the match task: ``celery -A arena.worker.celery_app worker`` (or
``arena worker``).

Matches spend most of their time waiting on bots over HTTP, so a worker plays many at once: on
gevent's event loop by default (``ARENA_WORKER_POOL=gevent``, 500 at once; see
:mod:`arena.cli.gevent_worker`), or in a pool of threads (``threads``, 16 at once), never one per
process. The broker
is ``REDIS_URL``; without it the app uses an in-process memory broker, which only the embedded
platform (:mod:`arena.worker.embedded`) can serve.

The match task is thin, idempotent and keyed by the match id; the work is
:func:`arena.worker.execution.execute`. The task reaches the platform's :class:`arena.runtime.Runtime`
through its base class, built once per worker on first use (Celery's documented pattern for
per-worker resources), from the function given to :func:`make_celery`.

Declared with ``acks_late`` and ``reject_on_worker_lost``: the broker keeps the message until the
match has been stored. A worker killed mid-match leaves its matches ``running`` without a live
lease; the sweeper (:mod:`arena.worker.sweeper`) queues them again. Every message it had taken and
not acknowledged (matches not started yet among them) is handed out again once the visibility timeout
(``ARENA_VISIBILITY_TIMEOUT``, 60 s by default) has passed: every worker looks for such messages
every quarter of it (:func:`restore_unacked`); a message it had taken off the queue and not yet
recorded as unacknowledged is found missing and its match queued again (:func:`give_back`,
:mod:`arena.worker.lost_messages`). A delivery of
a match another worker is playing is dropped (its lease shows it). When the store fails under a run
(a Redis restart, a network cut), the task waits for the store to answer again (up to the visibility
timeout: the retry and the acknowledgement go through the broker, and an acknowledgement that fails
keeps a prefetch slot taken) and is retried after ``ARENA_LEASE_SECONDS``; if even that cannot be
sent (the broker is the same Redis, away for longer), the sweeper queues the match once Redis is back. The
match's failed runs and the runs its workers' deaths ended bound how often it is played again, each
kind with its own bound (:func:`arena.worker.execution.give_up_reason`); its end counts once.

Scheduled tournaments start (:func:`arena.tournaments.scheduled.start_due`) from every worker's
own thread every few seconds and from beat's ``arena.start_tournaments`` task alike, whichever comes
first: each start takes the tournament's start mark, so one of them starts it. Starting one is making
a tournament's matches, the request side's work, so the task and the thread live in
:mod:`arena.worker.start_task`, which the app loads by name when a worker starts (Celery's
``include``): no module of the match path imports it.

The app also has the continuous ladders' tick (``arena.matchmaking_tick``,
:func:`arena.ladders.matchmaking.tick_all`) on a beat schedule every ``ARENA_MATCHMAKING_SECONDS``: run one
``celery -A arena.worker.celery_app beat`` process (two do no harm: each ladder's tick takes a per-period
key and a lock). A tick left waiting longer than its period expires unplayed: the next one does its
work.

Importing this module builds nothing: ``arena.worker.celery_app.app`` (what ``celery -A`` looks up) is made
from the environment on first access.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from celery import Celery, Task
from celery.signals import worker_ready, worker_shutdown
from kombu.exceptions import ChannelError
from redis.exceptions import RedisError

from arena.ladders import matchmaking
from arena.runtime import Runtime
from arena.settings import Settings
from arena.storage import Store
from arena.worker.execution import count_failed_attempt, execute
from arena.worker.house import house_agents
from arena.worker.lost_messages import requeue_lost
from arena.worker.periodic import Periodic
from arena.worker.sweeper import Sweeper

TASK_NAME = "arena.run_match"
TICK_TASK_NAME = "arena.matchmaking_tick"
START_TASK_NAME = "arena.start_tournaments"
START_EVERY_S = 5.0
"""How often each worker (and beat) looks for scheduled tournaments due to start: a tournament starts
within this of its time, inside the 10 s promised."""
log = logging.getLogger(__name__)

RuntimeFactory = Callable[[Celery], Runtime]
"""Builds the runtime a worker's tasks use, given the Celery app (for the queue)."""


class CeleryQueue:
    """Matches go to the Celery queue named in the settings."""

    def __init__(self, app: Celery, queue: str) -> None:
        self.app = app
        self.queue = queue

    def enqueue(self, match_id: str) -> None:
        self.app.tasks[TASK_NAME].apply_async(args=(match_id,), queue=self.queue)

    def waiting(self) -> int:
        with self.app.connection_for_read() as connection:
            try:
                channel: Any = connection.default_channel  # kombu's stubs lack queue_declare
                declared = channel.queue_declare(self.queue, passive=True)
            except ChannelError:  # no such queue yet: nothing was ever queued
                return 0
            return int(declared.message_count)

    def __repr__(self) -> str:
        return f"CeleryQueue({self.queue!r})"


def redis_runtime_factory(settings: Settings, for_api: bool = False) -> RuntimeFactory:
    """The runtime of a deployment: store on ``REDIS_URL``, matches queued through Celery there; house
    bots (when ``ARENA_HOUSE_BOTS`` had them registered) played in-process, every other bot over HTTP.

    A worker's store has a connection per match in flight (its heartbeat and progress) and some for
    the sweeper, and a command waits up to 20 s for one; an API process's has
    ``ARENA_API_REDIS_CONNECTIONS``, and a request waits ``ARENA_REDIS_WAIT_MS`` for one before it is
    answered 503 (:mod:`arena.api.store_errors`), so that a burst of requests is back-pressure for
    those requests, not a long queue for everyone."""
    if not settings.redis_url:
        raise ValueError("a Redis runtime needs REDIS_URL; without it use arena.worker.embedded")
    url = settings.redis_url

    def build(app: Celery) -> Runtime:
        if for_api:
            connections, wait_s = settings.api_redis_connections, settings.redis_wait_ms / 1000
        else:
            connections, wait_s = settings.worker_concurrency + 16, 20.0
        store = Store.connect(
            url,
            settings.key_prefix,
            settings.file_store(),
            connections=connections,
            timeout_s=settings.redis_timeout_s,
            secrets=settings.secret_box(),
            wait_s=wait_s,
        )
        prepare_secrets(store, settings)
        return Runtime(settings, store, CeleryQueue(app, settings.queue), house_agents(settings))

    return build


def prepare_secrets(store: Store, settings: Settings) -> None:
    """As the API or a worker starts on Redis: warn when bots' secrets are kept as they are, check
    the key against those stored encrypted (a wrong or missing key raises
    :class:`arena.storage.secret_box.SecretsKeyError` here, not at every bot read), and encrypt those
    stored before the key was set. A Redis that does not answer yet is left for later: the store
    reads and writes as usual once it does, and a wrong key shows then."""
    if not settings.secrets_key:
        log.warning(
            "ARENA_SECRETS_KEY is not set: bots' signing secrets are stored in Redis in plain text, "
            "readable by every process that can reach it (docs/deploy.md, Bots' secrets)"
        )
    try:
        sealed = store.bots.prepare_secrets()
    except RedisError as error:
        log.warning("could not check bots' secrets against ARENA_SECRETS_KEY yet: %s", error)
        return
    if sealed:
        log.info("encrypted %d bot secrets stored before ARENA_SECRETS_KEY was set", sealed)


def restore_interval(visibility_timeout_s: int) -> int:
    """How often a worker looks for messages whose worker died (:func:`restore_unacked`): a quarter
    of the visibility timeout, between 1 s and 60 s."""
    return max(1, min(60, visibility_timeout_s // 4))


def broker_connections(concurrency: int) -> int:
    """The most connections a process opens to the broker: one per match in flight, and a few more.

    Each match task acknowledges its message when it ends (``acks_late``), on a connection of the
    transport's pool; kombu's pool raises "Too many connections" past its limit (10 by default)
    rather than wait. Under gevent hundreds of matches end close together, and an acknowledgement
    that fails leaves the message to be handed out again after the visibility timeout and holds a
    prefetch slot meanwhile, so the worker takes fewer matches than its concurrency. Connections are
    opened only when needed; the limit only stops the pool from refusing."""
    return concurrency + 16


def make_celery(settings: Settings, build_runtime: RuntimeFactory | None = None) -> Celery:
    """The Celery app with the match task; ``build_runtime`` defaults to the Redis deployment's."""
    app = Celery("arena", set_as_current=False)
    if settings.redis_url:
        broker = settings.redis_url
        transport: dict[str, Any] = {
            "visibility_timeout": settings.visibility_timeout_s,
            "unacked_restore_interval": restore_interval(settings.visibility_timeout_s),
            "unacked_restore_throttle": 1,
            "max_connections": broker_connections(settings.worker_concurrency),
            # a broker that stops answering without closing its connections (a partition, a frozen
            # host) fails a publish or an acknowledgement after this long instead of holding it until
            # TCP gives up; the consumer's BRPOP asks for 1 s, well inside it
            "socket_timeout": settings.redis_timeout_s,
            "socket_connect_timeout": settings.redis_timeout_s,
        }
    else:
        broker = "memory://localhost/"
        transport = {"polling_interval": 0.02}
    app.conf.update(
        broker_url=broker,
        broker_transport_options=transport,
        broker_connection_retry_on_startup=True,
        task_default_queue=settings.queue,
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_ignore_result=True,
        task_serializer="json",
        accept_content=["json"],
        worker_pool=settings.worker_pool,
        worker_concurrency=settings.worker_concurrency,
        worker_prefetch_multiplier=1,
        include=["arena.worker.start_task"],
        beat_schedule={
            "continuous-ladders": {
                "task": TICK_TASK_NAME,
                "schedule": float(settings.matchmaking_tick_s),
                "options": {"queue": settings.queue, "expires": float(settings.matchmaking_tick_s)},
            },
            "scheduled-tournaments": {
                "task": START_TASK_NAME,
                "schedule": START_EVERY_S,
                "options": {"queue": settings.queue, "expires": START_EVERY_S},
            },
        },
    )
    factory = build_runtime or redis_runtime_factory(settings)

    class MatchTask(Task[[str], str]):
        """The match task's base: holds the worker's runtime, built once on first use."""

        _runtime: Runtime | None = None

        @property
        def runtime(self) -> Runtime:
            if MatchTask._runtime is None:
                MatchTask._runtime = factory(app)
            return MatchTask._runtime

    @app.task(
        name=TASK_NAME,
        base=MatchTask,
        shared=False,
        bind=True,
        acks_late=True,
        reject_on_worker_lost=True,
        ignore_result=True,
    )
    def run_match(self: MatchTask, match_id: str) -> str:
        runtime = self.runtime
        try:
            outcome = execute(runtime, match_id)
        except RedisError as error:
            delay = runtime.settings.lease_s
            log.warning("match %s: the store failed (%s); running it again in %s s", match_id, error, delay)
            # the retry and the acknowledgement go through the broker, usually the same Redis: sent
            # while it is away they fail, and a failed acknowledgement keeps the task's prefetch
            # slot taken for good (kombu), so a worker would stop taking matches after a short outage
            if wait_for_store(runtime, runtime.settings.visibility_timeout_s):
                count_failed_attempt(runtime, match_id)  # uncounted, it would pass for a death
            raise self.retry(exc=error, countdown=delay, max_retries=None) from None
        # BUSY: another worker is playing the match (a redelivery after the visibility timeout); it
        # holds the lease and will store the end, and the sweeper queues the match again if it dies
        return outcome.value

    @app.task(name=TICK_TASK_NAME, base=MatchTask, shared=False, bind=True, ignore_result=True)
    def matchmaking_tick(self: MatchTask) -> int:
        """Make the continuous ladders' matches of this tick; how many were made."""
        made = matchmaking.tick_all(self.runtime)
        return sum(len(ids) for ids in made.values())

    _sweep_while_working(app, settings)
    return app


def wait_for_store(
    runtime: Runtime, bound_s: float, every_s: float = 0.5, sleep: Callable[[float], object] | None = None
) -> bool:
    """Wait, up to ``bound_s`` seconds, until the store answers a ping; whether it did. Cooperative
    under gevent (its ``time.sleep``, looked up when called), so the worker's other matches go on
    meanwhile."""
    deadline = time.monotonic() + bound_s
    while True:
        try:
            if runtime.store.ping():
                return True
        except RedisError:
            pass
        if time.monotonic() >= deadline:
            log.warning("the store did not answer within %s s", bound_s)
            return False
        (sleep or time.sleep)(every_s)


def restore_unacked(app: Celery) -> None:
    """Put the messages that were taken longer than the visibility timeout ago and never
    acknowledged (a dead worker's) back in their queues, for another worker to take.

    kombu's Redis transport does it by itself only in the event-loop consumer (prefork pool): the
    consumer of the gevent and threads pools calls it only when a poll of the broker finds nothing
    at all to read, and the empty answer its own ``BRPOP`` gets every second counts as something,
    so a dead worker's messages stayed in ``unacked`` for good. kombu's mutex lets one worker at a
    time do it.
    """
    with app.connection_for_write() as connection:
        channel: Any = connection.default_channel  # kombu's stubs lack the Redis channel's qos
        channel.qos.restore_visible(num=channel.unacked_restore_limit, interval=1)


def give_back(app: Celery, settings: Settings) -> None:
    """One look of the redelivery thread: a dead worker's unacknowledged messages back in the queue
    (:func:`restore_unacked`), then the matches whose message a killed worker took with it before it
    was recorded as unacknowledged queued again (:func:`arena.worker.lost_messages.requeue_lost`)."""
    restore_unacked(app)
    with app.connection_for_write() as connection:
        channel: Any = connection.default_channel  # kombu's stubs lack the Redis channel's own names
        queue_keys = [channel._q_for_pri(settings.queue, pri) for pri in channel.priority_steps]
        with channel.conn_or_acquire() as client:
            requeue_lost(
                runtime_of(app),
                client,
                queue_keys,
                channel.unacked_key,
                TASK_NAME,
                restore_interval(settings.visibility_timeout_s),
            )


def _sweep_while_working(app: Celery, settings: Settings) -> None:
    """Run a :class:`arena.worker.sweeper.Sweeper` in every worker of ``app``, from ready to
    shutdown, and on a Redis broker a thread that gives back a dead worker's messages
    (:func:`give_back`) every quarter of the visibility timeout."""
    loops: list[Sweeper | Periodic] = []

    def start(sender: Any = None, **kwargs: Any) -> None:
        if getattr(sender, "app", None) is not app:
            return
        loops.append(Sweeper(runtime_of(app), settings.sweep_interval_s).start())
        if settings.redis_url:
            every_s = restore_interval(settings.visibility_timeout_s)
            loops.append(
                Periodic("redelivery", lambda: give_back(app, settings), every_s, at_once=True).start()
            )

    def stop(sender: Any = None, **kwargs: Any) -> None:
        if getattr(sender, "app", None) is not app:
            return
        while loops:
            loops.pop().stop()

    worker_ready.connect(start, weak=False)
    worker_shutdown.connect(stop, weak=False)


def runtime_of(app: Celery) -> Runtime:
    """The runtime the app's match task uses (built on first use)."""
    task = app.tasks[TASK_NAME]
    runtime: Runtime = task.runtime  # type: ignore[attr-defined]  # the MatchTask base gives it
    return runtime


def redis_runtime(settings: Settings) -> Runtime:
    """A deployment's runtime for the API: store on ``REDIS_URL``, matches queued to its workers."""
    return runtime_of(make_celery(settings, redis_runtime_factory(settings, for_api=True)))


def __getattr__(name: str) -> Celery:
    """``arena.worker.celery_app.app`` for ``celery -A``: built from the environment on first access."""
    if name in ("app", "celery"):
        built = make_celery(Settings.from_env())
        globals()["app"] = globals()["celery"] = built
        return built
    raise AttributeError(name)
