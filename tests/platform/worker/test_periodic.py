"""The background loop behind the sweeper and the embedded matchmaking: a failing call never ends it."""

from __future__ import annotations

import threading

from redis.exceptions import ConnectionError as RedisConnectionError

from arena.worker.periodic import Periodic


def test_a_loop_keeps_calling_after_failures_of_either_kind_and_stops_when_asked() -> None:
    calls: list[int] = []
    third = threading.Event()

    def job() -> None:
        calls.append(len(calls))
        if len(calls) == 1:
            raise RedisConnectionError("the store is away")
        if len(calls) == 2:
            raise ValueError("a bug in one pass")
        third.set()

    loop = Periodic("test", job, 0.01, at_once=True).start()
    try:
        assert third.wait(10), "the loop died after a failing call"
    finally:
        loop.stop()
    assert not loop.thread.is_alive()
    assert calls[:3] == [0, 1, 2]


def test_a_loop_without_at_once_waits_one_interval_and_a_stop_before_it_means_no_call() -> None:
    called = threading.Event()
    loop = Periodic("test", called.set, 60).start()
    loop.stop()
    assert not loop.thread.is_alive()
    assert not called.is_set()
