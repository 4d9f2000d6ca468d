"""What a process keeps up for the matches it plays, on one thread each: their leases
(:class:`LeaseKeeper`) and their live progress for spectators (:class:`LiveWriter`).

The runtime owns one of each (:attr:`arena.runtime.Runtime.lease_keeper`,
:attr:`arena.runtime.Runtime.live_writer`), made on first use; a match's run holds its lease
through the keeper and reports its moves to the writer (:mod:`arena.worker.execution`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from redis.exceptions import RedisError

from arena.clock import Clock
from arena.storage import Store
from referee.replay import MoveRecord

log = logging.getLogger(__name__)

PROGRESS_EVERY_S = 0.5
"""How often the live writer writes the moves reported since its last write."""


class LeaseKeeper:
    """Renews the leases of every match a process plays, on one thread, every third of a lease's
    life while matches run (bots may think for long); a renewal that fails is logged and the next
    one tries again.

    A thread of its own per match cost each match a thread start and an event, and a worker playing
    500 matches 500 sleeping threads (OS threads in the threaded pool); one for all of them costs
    that once, and renews them all in two round trips (:meth:`arena.storage.leases.Leases.renew`). A
    renewal extends only a lease still held by its owner, so one that lands after a match released
    its lease changes nothing, and dropping a match need not wait for a round of renewals under
    way. The thread stops when no match is left. It waits on the runtime's clock, which a test steps.
    """

    def __init__(self, store: Store, lease_s: float, clock: Clock) -> None:
        self.store = store
        self.lease_s = lease_s
        self.clock = clock
        self.lock = threading.Lock()
        self.owners: dict[str, str] = {}  # match id -> the run that holds its lease
        self.running = False

    def hold(self, match_id: str, owner: str) -> None:
        with self.lock:
            self.owners[match_id] = owner
            if not self.running:
                self.running = True
                threading.Thread(target=self._run, name="arena-leases", daemon=True).start()

    def drop(self, match_id: str) -> None:
        with self.lock:
            self.owners.pop(match_id, None)

    @contextmanager
    def holding(self, match_id: str, owner: str) -> Iterator[None]:
        self.hold(match_id, owner)
        try:
            yield
        finally:
            self.drop(match_id)

    def _run(self) -> None:
        while True:
            self.clock.wait(self.lease_s / 3)
            with self.lock:
                if not self.owners:
                    self.running = False
                    return
                held = dict(self.owners)
            try:
                lost = self.store.leases.renew(held, self.lease_s)
            except RedisError as error:
                log.warning("could not renew the leases of %d matches: %s", len(held), error)
                continue
            except Exception:
                log.exception("unexpected failure renewing the leases of %d matches", len(held))
                continue
            with self.lock:
                for match_id in lost:
                    if match_id in self.owners:  # not a match that ended meanwhile
                        log.warning("match %s: lease lost while running", match_id)


class LiveWriter:
    """Writes the progress of every match a process plays, for spectators, all in one pipeline every
    :data:`PROGRESS_EVERY_S`.

    A pipeline of its own per match every half second cost a worker playing 500 matches nearly a
    third of its CPU (redis-py takes and checks a pooled connection for each); one for all of them
    costs that once. Each match's moves are written in order. A match that ends is forgotten before
    its end is stored, and forgetting waits for a write under way, so no progress is written after
    the end cleared it. The writing thread runs while matches report and stops when none is left.
    """

    def __init__(self, store: Store, every_s: float = PROGRESS_EVERY_S) -> None:
        self.store = store
        self.every_s = every_s
        self.lock = threading.Lock()  # the pending moves and the set of matches
        self.writing = threading.Lock()  # held through a write; forgetting a match waits for it
        self.pending: dict[str, tuple[list[MoveRecord], int]] = {}
        self.matches: set[str] = set()
        self.running = False

    def start(self, match_id: str) -> None:
        with self.lock:
            self.matches.add(match_id)
            if not self.running:
                self.running = True
                threading.Thread(target=self._run, name="live-progress", daemon=True).start()

    def add(self, match_id: str, record: MoveRecord, played: int) -> None:
        with self.lock:
            if match_id not in self.matches:
                return
            moves = self.pending[match_id][0] if match_id in self.pending else []
            moves.append(record)
            self.pending[match_id] = (moves, played)

    def forget(self, match_id: str) -> None:
        """The match ended: drop what it has not written, after any write under way."""
        with self.writing, self.lock:
            self.matches.discard(match_id)
            self.pending.pop(match_id, None)

    def _run(self) -> None:
        while True:
            time.sleep(self.every_s)
            with self.lock:
                if not self.matches:
                    self.running = False
                    return
            self.flush()

    def flush(self) -> None:
        """Write what the matches reported since the last write; on a store failure keep it for
        the next (progress is only shown: the matches go on)."""
        with self.writing:
            with self.lock:
                batch, self.pending = self.pending, {}
            if not batch:
                return
            try:
                encoded = {match: ([m.to_json() for m in moves], n) for match, (moves, n) in batch.items()}
                self.store.progress.append_live(encoded)
            except RedisError as error:
                log.warning("could not report the progress of %d matches: %s", len(batch), error)
                with self.lock:
                    for match_id, (moves, played) in batch.items():
                        if match_id in self.matches:
                            newer, latest = self.pending.get(match_id, ([], played))
                            self.pending[match_id] = (moves + newer, latest)
