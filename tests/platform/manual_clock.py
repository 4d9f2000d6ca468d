"""A clock the test moves: the platform's background parts (:mod:`arena.clock`) wait on it until the
test steps it past their deadline, so a test goes through a lease's life or a minute of ticks at once
and knows when a step has been taken (:meth:`ManualClock.until_asleep`)."""

from __future__ import annotations

import threading
import time

SETTLE_S = 30.0
"""How long :meth:`ManualClock.until_asleep` waits for a thread before failing the test: only a
broken run comes near it."""

WAKE_POLL_S = 0.01
"""How often a thread waiting on an event as well checks the event (setting an event wakes only the
event's own waiters)."""


class ManualClock:
    """Starts at the machine's time, as the store writes its own timestamps with that, and moves only
    by :meth:`advance`."""

    def __init__(self, start: float | None = None) -> None:
        self.now = time.time() if start is None else start
        self.changed = threading.Condition(threading.RLock())
        self.sleepers: dict[object, tuple[str, float]] = {}  # each wait -> its thread's name, deadline

    def time(self) -> float:
        with self.changed:
            return self.now

    def wait(self, seconds: float, until: threading.Event | None = None) -> bool:
        """Blocks until :meth:`advance` reaches the deadline (or ``until`` is set); until then the
        thread counts as asleep."""
        with self.changed:
            deadline = self.now + seconds
            if deadline <= self.now:
                return until is not None and until.is_set()
            sleeper = object()
            self.sleepers[sleeper] = (threading.current_thread().name, deadline)
            self.changed.notify_all()
            try:
                while sleeper in self.sleepers and not (until is not None and until.is_set()):
                    self.changed.wait(WAKE_POLL_S if until is not None else None)
            finally:
                self.sleepers.pop(sleeper, None)
            return until is not None and until.is_set()

    def advance(self, seconds: float) -> None:
        """Move the time on by ``seconds`` (see :meth:`move_to`)."""
        with self.changed:
            self.move_to(self.now + seconds)

    def move_to(self, moment: float) -> None:
        """Move the time on to ``moment``; the threads whose deadline it reaches are awake when this
        returns (no longer asleep), though what they do next may not be done yet: see
        :meth:`until_asleep`."""
        with self.changed:
            if moment < self.now:
                raise ValueError(f"a clock does not go back: {moment} is before {self.now}")
            self.now = moment
            for sleeper, (_, deadline) in list(self.sleepers.items()):
                if deadline <= self.now:
                    del self.sleepers[sleeper]
            self.changed.notify_all()

    def until_asleep(self, thread_name: str) -> None:
        """Return once the thread named so waits on the clock: what it does between two waits is done."""
        with self.changed:
            if not self.changed.wait_for(
                lambda: any(name == thread_name for name, _ in self.sleepers.values()), SETTLE_S
            ):
                raise AssertionError(f"{thread_name} did not come to wait on the clock within {SETTLE_S} s")
