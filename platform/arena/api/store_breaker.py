"""While the store is down, answer 503 at once instead of letting every request wait for it.

A frozen Redis (stopped, or a partition that drops packets) does not refuse connections: each
command waits ``ARENA_REDIS_TIMEOUT_SECONDS`` (10 s by default) before it fails, so without this every
request of the API held its client that long before its 503. Once a request has found the store
unreachable, the breaker is open for :data:`OPEN_S` seconds: requests that would read the store are
answered 503 (with ``Retry-After``) without trying it. Then one request, alone, tries the store
again (half open); the others keep getting the 503 until it succeeds (closed) or fails (open again).
So a frozen store costs one waiting request every few seconds per API process, not every request.
Only an outage opens it: a command error or a busy connection pool is that request's own answer
(:mod:`arena.api.store_errors`).

The state is per process (each gunicorn worker finds out for itself); time comes from the runtime's
clock, so tests step it.
"""

from __future__ import annotations

import threading
from typing import Literal

from arena.clock import Clock

Admission = Literal["try", "probe", "refuse"]

OPEN_S = 5.0
"""How long the breaker stays open after the store failed a request, before one request tries again."""
BREAKER = "arena.store_breaker"
"""Where the app keeps its :class:`StoreBreaker` (``app.extensions``)."""


class StoreBreaker:
    """Whether a request may try the store now, told when the store failed one or answered a probe.

    >>> class Stopped:
    ...     now = 100.0
    ...     def time(self) -> float: return self.now
    ...     def wait(self, seconds, until=None) -> bool: return False
    >>> clock = Stopped()
    >>> breaker = StoreBreaker(clock, open_s=5.0)
    >>> breaker.admit(), breaker.failed(), breaker.admit()
    ('try', None, 'refuse')
    >>> clock.now = 105.0
    >>> breaker.admit(), breaker.admit()
    ('probe', 'refuse')
    >>> breaker.succeeded(), breaker.admit()
    (None, 'try')
    """

    def __init__(self, clock: Clock, open_s: float = OPEN_S) -> None:
        self._clock = clock
        self._open_s = open_s
        self._lock = threading.Lock()
        self._open_until: float | None = None  # None: closed
        self._probing = False

    def admit(self) -> Admission:
        """What this request may do: ``try`` the store while closed; once open, ``refuse`` until
        ``open_s`` has passed, then ``probe`` for the first to ask (it checks the store before
        anything else and reports) and ``refuse`` for the others until it has."""
        with self._lock:
            if self._open_until is None:
                return "try"
            if self._probing or self._clock.time() < self._open_until:
                return "refuse"
            self._probing = True
            return "probe"

    def failed(self) -> None:
        """The store failed this request: open (again) for :attr:`open_s` seconds."""
        with self._lock:
            self._open_until = self._clock.time() + self._open_s
            self._probing = False

    def probe_ended(self) -> None:
        """The probe ended without telling (the store answered it with a command error, or no
        connection was free): still open, and the next request after the pause probes again."""
        with self._lock:
            self._probing = False

    def succeeded(self) -> None:
        """The probe found the store answering: closed."""
        with self._lock:
            self._open_until = None
            self._probing = False
