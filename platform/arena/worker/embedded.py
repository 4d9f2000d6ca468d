"""The embedded default: the whole platform in one process, no Redis server, no worker process.

The store is an in-memory Redis (fakeredis), its replays in a temporary directory (or the one
``ARENA_REPLAY_DIR``/``ARENA_REPLAY_URL`` names); matches go through the very same Celery task and queue
path as in a deployment, on Celery's in-process memory broker, to a Celery worker (threads pool)
running in a thread of this process; the continuous ladders' scheduler is a thread too
(a :class:`arena.worker.periodic.Periodic` calling :func:`arena.ladders.matchmaking.tick_all`, where a
deployment runs Celery beat), and so is the one that starts scheduled tournaments
(:func:`arena.tournaments.scheduled.start_due`). What is stored is lost when the process ends,
unless a data directory is given: then the store is read from it at the start and written to it at
:meth:`EmbeddedPlatform.close` (:mod:`arena.storage.snapshot`), the replays kept in its ``replays``
folder. House bots (:mod:`arena.worker.house`) are played in-process.
"""

from __future__ import annotations

import logging
import tempfile
import threading
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

from celery import Celery
from celery.worker import WorkController

from arena.clock import SYSTEM_CLOCK, Clock
from arena.ladders.matchmaking import tick_all
from arena.runtime import Runtime
from arena.settings import Settings
from arena.storage import Store, snapshot
from arena.storage.files import DirectoryStore, FileStore
from arena.tournaments.scheduled import start_due
from arena.worker.celery_app import START_EVERY_S, CeleryQueue, make_celery, runtime_of
from arena.worker.house import house_agents
from arena.worker.periodic import Periodic

log = logging.getLogger(__name__)


class _Worker(WorkController):
    """A worker that says when its consumer is ready, so the platform starts only then."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.ready = threading.Event()
        super().__init__(*args, **kwargs)

    def on_consumer_ready(self, consumer: object) -> None:
        self.ready.set()


class EmbeddedPlatform:
    """An in-memory store, a memory broker and a worker thread; :meth:`close` stops the worker.

    Usable as a context manager. Each instance has its own queue name; still, only one should run
    in a process at a time, as the worker's threads find their Celery app as the process default.
    The matchmaking ticks and the leases keep ``clock`` (a test steps its own).
    """

    def __init__(
        self,
        settings: Settings | None = None,
        concurrency: int | None = None,
        data: Path | None = None,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        settings = settings or Settings.from_env()
        settings = replace(settings, redis_url=None, queue=f"{settings.queue}.{uuid.uuid4().hex[:8]}")
        # a thread per match here, so not the hundreds a gevent worker plays at once
        settings = replace(
            settings,
            worker_pool="threads",
            worker_concurrency=concurrency
            if concurrency is not None
            else min(settings.worker_concurrency, 32),
        )
        self._replay_dir: tempfile.TemporaryDirectory[str] | None = None
        self.data = data
        files: FileStore
        if data is not None:
            files = DirectoryStore(str(data / "replays"))
        elif settings.replay_store:
            files = settings.file_store()
        else:  # gone with the process, like the in-memory Redis that points into it
            self._replay_dir = tempfile.TemporaryDirectory(prefix="arena-replays-")
            files = DirectoryStore(self._replay_dir.name)
        store = Store.in_memory(settings.key_prefix, files, settings.secret_box())
        if data is not None and self.saved_store.exists():
            snapshot.load(store.redis, self.saved_store)
            # a saved store's secrets: the key they were sealed with, or sealed now
            store.bots.prepare_secrets()

        def build_runtime(app: Celery) -> Runtime:
            return Runtime(
                settings, store, CeleryQueue(app, settings.queue), house_agents(settings), clock=clock
            )

        self.celery = make_celery(settings, build_runtime)
        self.runtime = runtime_of(self.celery)
        # a worker's pool threads find their app as Celery's default app
        self.celery.set_default()
        self.worker = _Worker(
            app=self.celery,
            hostname=f"embedded-{uuid.uuid4().hex[:8]}@localhost",
            pool="threads",
            concurrency=settings.worker_concurrency,
            loglevel="WARNING",
            without_heartbeat=True,
            without_mingle=True,
            without_gossip=True,
            queues=[settings.queue],
        )
        self.thread = threading.Thread(target=self.worker.start, name="arena-embedded-worker", daemon=True)
        self.thread.start()
        if not self.worker.ready.wait(30):
            raise RuntimeError("the embedded match worker did not start within 30 s")
        self.ticker = Periodic(
            "matchmaking",
            lambda: tick_all(self.runtime),
            self.runtime.settings.matchmaking_tick_s,
            clock=self.runtime.clock,
        ).start()
        self.starter = Periodic(
            "tournaments",
            lambda: start_due(self.runtime),
            START_EVERY_S,
            clock=self.runtime.clock,
        ).start()

    @property
    def settings(self) -> Settings:
        return self.runtime.settings

    @property
    def saved_store(self) -> Path:
        """Where the store is kept when the platform has a data directory."""
        return (self.data or Path(".")) / "store.json"

    def close(self) -> None:
        """Stop making and taking matches, let running ones end, and stop the worker thread."""
        self.ticker.stop()
        self.starter.stop()
        self.worker.stop(in_sighandler=False)
        self.thread.join(30)
        if self.thread.is_alive():
            log.warning("the embedded worker did not stop within 30 s")
        elif self._replay_dir is not None:
            self._replay_dir.cleanup()
        if self.data is not None:
            snapshot.save(self.runtime.store.redis, self.settings.key_prefix, self.saved_store)

    def __enter__(self) -> EmbeddedPlatform:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
