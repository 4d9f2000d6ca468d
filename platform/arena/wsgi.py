"""The API as a WSGI app for gunicorn: ``gunicorn -c deploy/gunicorn.conf.py arena.wsgi:app``.

A deployment needs ``REDIS_URL`` (every gunicorn worker must see the same store) and
``ARENA_ADMIN_TOKEN`` (a generated token would differ between workers); both are checked here so a
misconfigured server fails at start, not at the first request. ``/metrics`` is served only with
``ARENA_METRICS_TOKEN`` set, and only to requests bearing it (:func:`arena.metrics.expose`).
"""

from __future__ import annotations

from flask import Flask
from redis import Redis

from arena import metrics
from arena.api import create_app
from arena.settings import Settings, SettingsError
from arena.worker.celery_app import redis_runtime


def build(settings: Settings | None = None) -> Flask:
    settings = settings or Settings.from_env()
    if settings.embedded:
        raise SettingsError(
            "arena.wsgi needs REDIS_URL; for a single process without Redis use `arena serve`"
        )
    if not settings.admin_token:
        raise SettingsError("arena.wsgi needs ARENA_ADMIN_TOKEN (the organizer token)")
    app = create_app(redis_runtime(settings))
    probe = Redis.from_url(settings.redis_url or "", socket_timeout=2, socket_connect_timeout=2)
    metrics.expose(app, metrics.api_registry(probe, [settings.queue]), token=settings.metrics_token)
    return app


def __getattr__(name: str) -> Flask:
    """``arena.wsgi:app`` is built on first access, so importing this module has no side effects."""
    if name == "app":
        app = build()
        globals()["app"] = app
        return app
    raise AttributeError(name)
