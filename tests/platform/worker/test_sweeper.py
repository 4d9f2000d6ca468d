"""Matches left running by a worker that is gone are queued again, once, and still count once."""

from __future__ import annotations

import pytest

from arena.records import MatchStatus
from arena.worker.execution import RunOutcome, execute
from arena.worker.sweeper import Sweeper, sweep
from tests.platform.conftest import Arena
from tests.platform.manual_clock import ManualClock


@pytest.fixture
def started(arena: Arena) -> str:
    """A match a worker started and then lost (its lease gone, as after a SIGKILL)."""
    a = arena.register("A", "/first/a", ["nim"])
    b = arena.register("B", "/first/b", ["nim"])
    match_id = arena.match(game="nim", bots=[a["id"], b["id"]])["id"]
    arena.queue.ids.clear()
    assert arena.runtime.store.matches.start(match_id) is not None
    return match_id


def test_a_running_match_without_a_lease_is_queued_again_and_then_finishes(
    arena: Arena, started: str
) -> None:
    store = arena.runtime.store
    assert store.queue.running_ids() == [started]
    assert sweep(arena.runtime) == [started]
    assert arena.queue.ids == [started]
    assert store.matches.get(started).status is MatchStatus.QUEUED
    assert store.queue.running_ids() == []
    assert sweep(arena.runtime) == [], "a match already queued again is not queued twice"
    assert execute(arena.runtime, started) is RunOutcome.FINISHED
    done = store.matches.get(started)
    assert done.status is MatchStatus.FINISHED and done.attempts == 2
    assert store.queue.running_ids() == []


def test_a_match_whose_worker_holds_its_lease_is_left_alone(arena: Arena, started: str) -> None:
    assert arena.runtime.store.leases.acquire(started, "a-live-worker", 30)
    assert sweep(arena.runtime) == []
    assert arena.queue.ids == []
    assert arena.runtime.store.matches.get(started).status is MatchStatus.RUNNING


def test_ended_matches_leave_the_running_set(arena: Arena, started: str) -> None:
    arena.runtime.store.matches.abort(started, "test")
    assert arena.runtime.store.queue.running_ids() == []
    assert sweep(arena.runtime) == []


def test_a_match_that_cannot_be_queued_is_tried_again_at_the_next_sweep(arena: Arena, started: str) -> None:
    def refuse(match_id: str) -> None:
        raise ConnectionError("broker down")

    working = arena.queue.enqueue
    arena.queue.enqueue = refuse  # type: ignore[method-assign]
    assert sweep(arena.runtime) == []
    assert arena.runtime.store.queue.running_ids() == [started]
    arena.queue.enqueue = working  # type: ignore[method-assign]
    assert sweep(arena.runtime) == [started]


def test_only_one_sweeper_sweeps_within_an_interval(arena: Arena, started: str) -> None:
    first, second = Sweeper(arena.runtime, 30), Sweeper(arena.runtime, 30)
    assert first.sweep_once() == [started]
    arena.runtime.store.matches.start(started)
    assert second.sweep_once() == [], "the lock of the first sweep still holds"


def test_a_sweeper_thread_sweeps_at_once_then_every_interval_of_its_clock(arena: Arena, started: str) -> None:
    store = arena.runtime.store
    arena.runtime.clock = clock = ManualClock()
    sweeper = Sweeper(arena.runtime, 30).start()
    try:
        clock.until_asleep("arena-sweeper")
        assert arena.queue.ids == [started], "swept at once"
        arena.queue.ids.clear()
        store.matches.start(started)  # taken by a worker that is gone again
        clock.advance(29)
        clock.until_asleep("arena-sweeper")
        assert arena.queue.ids == [], "not within the interval"
        store.redis.delete(store.key("sweeper"))  # its lock lapses with the interval, on Redis's clock
        clock.advance(1)
        clock.until_asleep("arena-sweeper")
        assert arena.queue.ids == [started]
    finally:
        sweeper.stop()
    assert not sweeper.loop.thread.is_alive()


def test_a_queued_match_whose_message_was_lost_is_queued_again_once_the_queue_is_empty(arena: Arena) -> None:
    from arena.worker import sweeper

    a = arena.register("A", "/first/a", ["nim"])
    b = arena.register("B", "/first/b", ["nim"])
    match_id = arena.match(game="nim", bots=[a["id"], b["id"]])["id"]
    arena.runtime.clock = clock = ManualClock()  # starts after the match was queued
    assert sweeper._requeue_lost(arena.runtime) == [], "a match just queued is not lost"
    patience = 60 + 2 * 30 + 30  # the visibility timeout, two leases and a sweep
    clock.advance(patience)
    assert sweeper._requeue_lost(arena.runtime) == [], "its message may still be in the queue"
    arena.queue.ids.clear()  # the message is gone (a failed retry dropped it)
    assert sweeper._requeue_lost(arena.runtime) == [match_id]
    assert arena.queue.ids == [match_id]
    arena.queue.ids.clear()
    assert sweeper._requeue_lost(arena.runtime) == [], "queued again: its wait starts over"
    assert execute(arena.runtime, match_id) is RunOutcome.FINISHED
    assert arena.runtime.store.queue.queued_before(clock.time() + patience) == []


def test_by_default_a_killed_workers_matches_come_back_within_two_minutes() -> None:
    """Running ones: the lease lapses, then a sweep; taken-but-not-started ones: the visibility timeout."""
    from arena.settings import Settings

    defaults = Settings.from_env({})
    assert defaults.lease_s + defaults.sweep_interval_s <= 120
    assert defaults.visibility_timeout_s <= 120


class ProcessDied(BaseException):
    """Stands for the API process dying: not an ``Exception``, so no handler of the API runs."""


def test_matches_stored_by_an_api_that_died_before_queueing_them_are_queued_by_a_sweep(
    arena: Arena, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.worker import sweeper

    bots = [arena.register(name, f"/first/{name}", ["party"])["id"] for name in ("a", "b", "c")]
    queued_before_the_death: list[str] = []

    def dies_after_two(match_id: str) -> None:
        if len(queued_before_the_death) == 2:
            raise ProcessDied
        queued_before_the_death.append(match_id)

    monkeypatch.setattr(arena.queue, "enqueue", dies_after_two)
    body = {"name": "cup", "game": "party", "format": "round_robin", "bots": bots, "seats_per_match": 2}
    with pytest.raises(ProcessDied):
        arena.client.post("/api/v1/tournaments", json=body, headers=arena.admin())
    monkeypatch.undo()
    arena.runtime.clock = clock = ManualClock()
    stored = arena.runtime.store.queue.queued_before(clock.time() + 1)
    never_sent = sorted(set(stored) - set(queued_before_the_death))
    assert len(queued_before_the_death) == 2 and len(never_sent) == len(stored) - 2 > 0

    arena.queue.ids[:] = queued_before_the_death  # the two messages the API did send
    clock.advance(60 + 2 * 30 + 30)  # the visibility timeout, two leases and a sweep
    assert sweeper._requeue_lost(arena.runtime) == [], "a backlog may still hold their messages"
    assert set(arena.run_queue()) == {RunOutcome.FINISHED}
    assert sorted(sweeper._requeue_lost(arena.runtime)) == never_sent
    assert set(arena.run_queue()) == {RunOutcome.FINISHED}
    assert arena.runtime.store.queue.queued_before(clock.time()) == []
