"""The API as a WSGI app for gunicorn: ``gunicorn -c deploy/gunicorn.conf.py arena.wsgi:app``.

A deployment needs ``REDIS_URL`` (every gunicorn worker must see the same store) and
``ARENA_ADMIN_TOKEN`` (a generated token would differ between workers); both are checked here so a
misconfigured server fails at start, not at the first request (a bad value of any setting, too).
``/metrics`` is served only with ``ARENA_METRICS_TOKEN`` set, and only to requests bearing it
(:func:`arena.metrics.expose`).

With ``ARENA_HOUSE_BOTS=1`` every gunicorn process registers the house bots as it starts
(:func:`arena.worker.house.register_house_bots`): those starting together add each one once.
"""

from __future__ import annotations

import logging

from flask import Flask

from arena import metrics
from arena.api import create_app
from arena.settings import Settings, SettingsError
from arena.worker.celery_app import redis_runtime
from arena.worker.house import register_house_bots

log = logging.getLogger(__name__)


def build(settings: Settings | None = None) -> Flask:
    settings = settings or Settings.from_env()
    if settings.embedded:
        raise SettingsError(
            "arena.wsgi needs REDIS_URL; for a single process without Redis use `arena serve`"
        )
    if not settings.admin_token:
        raise SettingsError("arena.wsgi needs ARENA_ADMIN_TOKEN (the organizer token)")
    runtime = redis_runtime(settings)
    if settings.registers_house_bots:
        added = register_house_bots(runtime.store)
        log.info("house bots: %d registered now (ARENA_HOUSE_BOTS)", len(added))
    app = create_app(runtime)
    metrics.expose_api(app, settings)
    return app


def __getattr__(name: str) -> Flask:
    """``arena.wsgi:app`` is built on first access, so importing this module has no side effects."""
    if name == "app":
        app = build()
        globals()["app"] = app
        return app
    raise AttributeError(name)
