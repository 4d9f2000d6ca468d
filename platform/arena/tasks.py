"""The match task: thin, idempotent, keyed by the match id; the work is :func:`arena.execution.execute`.

Declared with ``acks_late`` and ``reject_on_worker_lost``: the broker keeps the message until the
match has been stored, so a worker killed mid-match loses nothing; the match is delivered again
(after the broker's visibility timeout) and its result still counts once. When the store fails
under a run (a Redis restart, a network cut), the task is retried after ``ARENA_LEASE_SECONDS``
instead of failing, which would leave the match ``running`` for ever; the match's attempts bound
how often it is played again.
"""

from __future__ import annotations

import logging

from celery import Celery, Task
from redis.exceptions import RedisError

from arena.execution import RunOutcome, execute
from arena.runtime import Runtime

TASK_NAME = "arena.run_match"
log = logging.getLogger(__name__)


def runtime_of(app: Celery) -> Runtime:
    """The runtime the app's tasks use: set by the embedded platform, else built from the settings."""
    runtime = getattr(app, "arena_runtime", None)
    if runtime is None:
        from arena.wiring import redis_runtime

        runtime = app.arena_runtime = redis_runtime(app.arena_settings, app)
    return runtime


def register(app: Celery) -> Task:
    @app.task(
        name=TASK_NAME,
        shared=False,
        bind=True,
        acks_late=True,
        reject_on_worker_lost=True,
        ignore_result=True,
    )
    def run_match(self: Task, match_id: str) -> str:
        runtime = runtime_of(self.app)
        try:
            outcome = execute(runtime, match_id)
        except RedisError as error:
            delay = runtime.settings.lease_s
            log.warning("match %s: the store failed (%s); running it again in %s s", match_id, error, delay)
            raise self.retry(exc=error, countdown=delay, max_retries=None) from None
        if outcome is RunOutcome.BUSY:
            raise self.retry(countdown=runtime.settings.lease_s, max_retries=None)
        return outcome.value

    return run_match


class CeleryQueue:
    """Matches go to the Celery queue named in the settings."""

    def __init__(self, app: Celery, queue: str) -> None:
        self.app = app
        self.queue = queue

    def enqueue(self, match_id: str) -> None:
        self.app.tasks[TASK_NAME].apply_async(args=[match_id], queue=self.queue)

    def __repr__(self) -> str:
        return f"CeleryQueue({self.queue!r})"
