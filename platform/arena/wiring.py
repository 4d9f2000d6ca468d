"""Building a runtime on a real Redis (``REDIS_URL``): the store and the broker in the same server."""

from __future__ import annotations

from celery import Celery
from redis import Redis

from arena.runtime import Runtime
from arena.settings import Settings
from arena.store import Store
from arena.tasks import CeleryQueue


def redis_runtime(settings: Settings, celery: Celery | None = None) -> Runtime:
    """Store on ``settings.redis_url``, matches queued through Celery on the same Redis."""
    if not settings.redis_url:
        raise ValueError("redis_runtime needs REDIS_URL; without it use arena.embedded")
    if celery is None:
        from arena.celery_app import make_celery

        celery = make_celery(settings)
    redis = Redis.from_url(settings.redis_url, health_check_interval=30)
    runtime = Runtime(settings, Store(redis, settings.key_prefix), CeleryQueue(celery, settings.queue))
    celery.arena_runtime = runtime
    return runtime
