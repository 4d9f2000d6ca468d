"""The Celery application: ``celery -A arena.celery_app worker`` (or ``arena worker``) runs it.

Matches spend most of their time waiting on bots over HTTP, so a worker plays many at once in a
pool of threads (``ARENA_WORKER_CONCURRENCY``, default 16) rather than one per process. The broker
is ``REDIS_URL``; without it the app uses an in-process memory broker, which only the embedded
platform (:mod:`arena.embedded`) can serve.
"""

from __future__ import annotations

from celery import Celery

from arena.settings import Settings
from arena.tasks import register


def restore_interval(visibility_timeout_s: int) -> int:
    """How often a worker looks for matches whose worker died: a quarter of the visibility timeout,
    between 1 s and 60 s."""
    return max(1, min(60, visibility_timeout_s // 4))


def make_celery(settings: Settings) -> Celery:
    app = Celery("arena", set_as_current=False)
    if settings.redis_url:
        broker = settings.redis_url
        transport = {
            "visibility_timeout": settings.visibility_timeout_s,
            "unacked_restore_interval": restore_interval(settings.visibility_timeout_s),
            "unacked_restore_throttle": 1,
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
        worker_pool="threads",
        worker_concurrency=settings.worker_concurrency,
        worker_prefetch_multiplier=1,
    )
    app.arena_settings = settings
    register(app)
    return app


app = make_celery(Settings.from_env())
