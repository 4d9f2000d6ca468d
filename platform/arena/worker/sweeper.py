"""Finds matches left ``running`` by a worker that is gone and queues them again.

A match is ``running`` from the moment a worker starts it until its end is stored, and a worker
holds its lease (renewed every third of ``ARENA_LEASE_SECONDS``) all that time. A running match
without a lease was abandoned: its worker was killed, or the store or the broker went away under it
(a task cannot even retry while the broker is down, so its message is gone). The sweeper puts such
a match back to ``queued`` and queues it again; the runs its workers' deaths ended still bound how
often it is played (:func:`arena.worker.execution.give_up_reason`), and its end still counts once.

Every worker runs a sweeper thread (started when the worker is ready): it sweeps at once, then every
``ARENA_SWEEP_SECONDS`` (default 30), taking a short Redis lock so that only one worker sweeps at a
time. With the default lease of 30 s, a killed worker's matches are queued again within about a
minute.

About once an hour (``ARCHIVE_EVERY_S``, under its own lock) the sweeper also archives the ended
matches older than ``ARENA_ARCHIVE_AFTER_DAYS`` (:mod:`arena.matches.archive`).

"Now" and the intervals come from the runtime's clock (:attr:`arena.runtime.Runtime.clock`); the leases
and the locks are Redis keys that lapse on Redis's clock.
"""

from __future__ import annotations

import logging
import uuid

from arena.matches import archive
from arena.runtime import Runtime
from arena.worker.periodic import Periodic

log = logging.getLogger(__name__)
ARCHIVE_EVERY_S = 3600
ARCHIVE_PER_PASS = 10_000
"""Matches one hourly pass archives at most, so that a backlog (a first pass after an upgrade) does not
hold up the sweeps; the next pass goes on from there, or ``arena archive`` takes it at once."""


def sweep(runtime: Runtime) -> list[str]:
    """Queue again the matches no worker will play any more; returns their ids.

    Those left ``running`` without a lease (see the module), and those left ``queued`` whose message
    is gone: a task that failed before it could mark its match running (the store went away) and
    then could not even retry (the broker is the same Redis) leaves its match ``queued`` with nothing
    in the queue. Such a match is taken for lost once the queue is empty and it has waited longer
    than the visibility timeout, two leases and a sweep; queueing it twice by mistake costs nothing,
    as the second run finds the match played or being played.
    """
    return [*_requeue_abandoned(runtime), *_requeue_lost(runtime)]


def _requeue_lost(runtime: Runtime) -> list[str]:
    settings = runtime.settings
    patience = settings.visibility_timeout_s + 2 * settings.lease_s + settings.sweep_interval_s
    moment = runtime.clock.time() - patience
    lost = runtime.store.queue.queued_before(moment)
    if not lost or runtime.queue.waiting() > 0:  # a waiting backlog may still hold their messages
        return []
    requeued = []
    for match_id in lost:
        try:
            runtime.queue.enqueue(match_id)
        except Exception:
            log.exception("match %s: could not be queued again; the next sweep retries", match_id)
            continue
        runtime.store.queue.requeued_now(match_id)
        log.warning("match %s was queued but its message was lost: queued again", match_id)
        requeued.append(match_id)
    return requeued


def _requeue_abandoned(runtime: Runtime) -> list[str]:
    store = runtime.store
    requeued = []
    for match_id in store.queue.running_ids():
        if not store.queue.requeue_if_stranded(match_id):
            continue
        try:
            runtime.queue.enqueue(match_id)
        except Exception:
            log.exception("match %s: could not be queued again; the next sweep retries", match_id)
            store.queue.back_to_running(match_id)
            continue
        log.warning("match %s was left running without a worker: queued again", match_id)
        requeued.append(match_id)
    return requeued


class Sweeper:
    """A daemon thread that sweeps now and then, one worker at a time (see the module)."""

    def __init__(self, runtime: Runtime, interval_s: float) -> None:
        self.runtime = runtime
        self.interval_s = interval_s
        self.owner = uuid.uuid4().hex
        self.loop = Periodic("sweeper", self.pass_once, interval_s, at_once=True, clock=runtime.clock)

    def start(self) -> Sweeper:
        self.loop.start()
        return self

    def stop(self) -> None:
        self.loop.stop()

    def sweep_once(self) -> list[str]:
        """One sweep if no other worker swept within the interval."""
        if not self.runtime.store.queue.take_sweeper_lock(self.owner, self.interval_s * 0.9):
            return []
        return sweep(self.runtime)

    def archive_once(self) -> archive.ArchiveReport | None:
        """Archive old ended matches if no worker did within the hour."""
        store = self.runtime.store
        if not store.archive.take_lock(self.owner, ARCHIVE_EVERY_S):
            return None
        return archive.archive_ended(
            store, self.runtime.settings.archive_after_days, self.runtime.clock.time(), ARCHIVE_PER_PASS
        )

    def pass_once(self) -> None:
        """One pass of the thread: a sweep, then archiving, each if no other worker did it lately."""
        self.sweep_once()
        self.archive_once()
