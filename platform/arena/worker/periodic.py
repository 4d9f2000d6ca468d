"""A daemon thread that calls one function every few seconds until stopped.

The embedded platform's matchmaking ticker and every worker's sweeper are such threads; a failure
of one call is logged and the next call comes on time, so the thread never dies quietly. The
intervals are waited on the :class:`arena.clock.Clock` given (the machine's unless told), so a test
steps them.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from redis.exceptions import RedisError

from arena.clock import SYSTEM_CLOCK, Clock

log = logging.getLogger(__name__)


class Periodic:
    """Calls ``job`` every ``interval_s`` seconds on a daemon thread named ``name``.

    ``at_once`` makes the first call right at :meth:`start` instead of one interval later. A
    :class:`RedisError` is logged as a warning (the store is away; the next call retries), any
    other exception with its traceback.
    """

    def __init__(
        self,
        name: str,
        job: Callable[[], object],
        interval_s: float,
        *,
        at_once: bool = False,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self.name = name
        self.job = job
        self.interval_s = interval_s
        self.at_once = at_once
        self.clock = clock
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name=f"arena-{name}", daemon=True)

    def start(self) -> Periodic:
        self.thread.start()
        return self

    def __enter__(self) -> Periodic:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        """Ask the thread to end and wait for it a little (a call under way finishes first)."""
        self.stopped.set()
        if self.thread.is_alive():
            self.thread.join(5)

    def _run(self) -> None:
        if not self.at_once and self.clock.wait(self.interval_s, self.stopped):
            return
        while not self.stopped.is_set():
            try:
                self.job()
            except RedisError as error:
                log.warning("%s: the store failed: %s", self.name, error)
            except Exception:
                log.exception("%s: unexpected failure", self.name)
            self.clock.wait(self.interval_s, self.stopped)
