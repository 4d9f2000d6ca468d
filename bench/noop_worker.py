"""The queue benchmark's baseline worker: Celery on the same broker, pool and settings as ``arena
worker``, running a task that only counts itself in Redis. Not a benchmark itself.

``python -m bench.noop_worker`` with ``REDIS_URL``, ``ARENA_QUEUE`` and ``ARENA_WORKER_POOL`` set.
"""

from __future__ import annotations

import os
import sys

if __name__ == "__main__" and os.environ.get("ARENA_WORKER_POOL", "gevent") == "gevent":
    from gevent import monkey  # patched first, as arena.cli.gevent_worker does

    monkey.patch_all()

from celery import Celery  # noqa: E402
from redis import Redis  # noqa: E402

from arena.settings import Settings  # noqa: E402
from arena.worker.celery_app import make_celery  # noqa: E402

NOOP = "bench.noop"


def app(settings: Settings) -> Celery:
    """The arena's Celery app (same broker settings) with the counting no-op task added."""
    celery = make_celery(settings, lambda app: None)  # type: ignore[arg-type, return-value]
    counter = Redis.from_url(settings.redis_url or "")

    @celery.task(name=NOOP, shared=False, acks_late=True, ignore_result=True)
    def noop(key: str) -> None:
        counter.incr(key)

    return celery


if __name__ == "__main__":
    settings = Settings.from_env()
    app(settings).worker_main(
        [
            "worker",
            f"--pool={settings.worker_pool}",
            f"--concurrency={settings.worker_concurrency}",
            f"--queues={settings.queue}",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
        ]
    )
    sys.exit(0)
