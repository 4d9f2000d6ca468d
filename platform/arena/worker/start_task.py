"""Starting scheduled tournaments in a deployment: beat's ``arena.start_tournaments`` task, and a
thread in every worker doing the same every :data:`arena.worker.celery_app.START_EVERY_S`.

Either may come first, and several workers and beats may run: each start takes the tournament's start
mark (:func:`arena.tournaments.scheduled.start`), so each tournament starts once. The Celery app
loads this module by name when a worker starts (its ``include``), so that the match path, which
imports nothing of the request side, does not import it.
"""

from __future__ import annotations

import threading
from typing import Any

from celery import Celery, Task, shared_task
from celery.signals import worker_ready, worker_shutdown

from arena.tournaments import scheduled
from arena.worker.celery_app import START_EVERY_S, START_TASK_NAME, runtime_of
from arena.worker.periodic import Periodic

_loops: dict[int, Periodic] = {}
_guard = threading.Lock()


@shared_task(name=START_TASK_NAME, bind=True, ignore_result=True)
def start_tournaments(self: Task[[], int]) -> int:
    """Start the scheduled tournaments whose time has come; how many this call started."""
    return len(scheduled.start_due(runtime_of(self.app)))


def _app_of(sender: Any) -> Celery | None:
    app = getattr(sender, "app", None)
    return app if isinstance(app, Celery) and START_TASK_NAME in app.tasks else None


@worker_ready.connect(weak=False)
def _start_loop(sender: Any = None, **kwargs: Any) -> None:
    app = _app_of(sender)
    if app is None:
        return
    runtime = runtime_of(app)
    loop = Periodic("tournaments", lambda: scheduled.start_due(runtime), START_EVERY_S, clock=runtime.clock)
    with _guard:
        _loops[id(app)] = loop.start()


@worker_shutdown.connect(weak=False)
def _stop_loop(sender: Any = None, **kwargs: Any) -> None:
    app = getattr(sender, "app", None)
    with _guard:
        loop = _loops.pop(id(app), None)
    if loop is not None:
        loop.stop()
