"""The background loop behind the sweeper and the embedded matchmaking: a failing call never ends it,
and the calls come an interval apart on the clock it is given."""

from __future__ import annotations

from redis.exceptions import ConnectionError as RedisConnectionError

from arena.worker.periodic import Periodic
from tests.platform.manual_clock import ManualClock


def test_a_loop_keeps_calling_after_failures_of_either_kind_and_stops_when_asked() -> None:
    calls: list[int] = []
    failures = [RedisConnectionError("the store is away"), ValueError("a bug in one pass")]

    def job() -> None:
        calls.append(len(calls))
        if failures:
            raise failures.pop(0)

    clock = ManualClock()
    loop = Periodic("test", job, 10, at_once=True, clock=clock).start()
    try:
        for interval in range(3):
            clock.until_asleep("arena-test")
            assert calls == list(range(interval + 1)), "one call an interval, after a failure as before"
            clock.advance(10)
        clock.until_asleep("arena-test")
    finally:
        loop.stop()
    assert not loop.thread.is_alive()
    assert calls == [0, 1, 2, 3]


def test_a_loop_without_at_once_waits_one_interval_and_a_stop_before_it_means_no_call() -> None:
    calls: list[float] = []
    clock = ManualClock()
    loop = Periodic("test", lambda: calls.append(clock.time()), 60, clock=clock).start()
    clock.until_asleep("arena-test")
    clock.advance(59)
    clock.until_asleep("arena-test")
    assert calls == []
    clock.advance(1)
    clock.until_asleep("arena-test")
    assert len(calls) == 1
    loop.stop()
    assert not loop.thread.is_alive()

    idle = Periodic("test", lambda: calls.append(clock.time()), 60, clock=clock).start()
    idle.stop()
    assert not idle.thread.is_alive()
    assert len(calls) == 1
