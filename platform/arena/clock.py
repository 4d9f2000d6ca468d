"""The time the platform's background parts keep: the lease keeper's renewals, the matchmaking ticks,
the sweeper's passes and what it takes for "now".

They take a :class:`Clock` (the runtime's, :attr:`arena.runtime.Runtime.clock`) instead of calling
:mod:`time` themselves, so a test steps a clock of its own through a minute of ticks or a lease's
life at once instead of sleeping through it. Key lifetimes in Redis (a lease, a lock) are kept by
Redis's own clock, not this one.
"""

from __future__ import annotations

import threading
import time
from typing import Protocol


class Clock(Protocol):
    def time(self) -> float:
        """Seconds since the epoch, as stored timestamps are written and compared across processes."""
        ...

    def wait(self, seconds: float, until: threading.Event | None = None) -> bool:
        """Block for ``seconds``, or less once ``until`` is set; whether ``until`` is set."""
        ...


class SystemClock:
    """The machine's clock. Under gevent the calls it makes (``time.sleep``, an event's wait) are
    the patched ones, as they are looked up when called."""

    def time(self) -> float:
        return time.time()

    def wait(self, seconds: float, until: threading.Event | None = None) -> bool:
        if until is None:
            time.sleep(seconds)
            return False
        return until.wait(seconds)


SYSTEM_CLOCK = SystemClock()
