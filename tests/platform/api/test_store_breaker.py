"""A frozen store costs one waiting request every few seconds, not every request: once a request
found it unreachable, the others get their 503 at once until one probe finds it back."""

from __future__ import annotations

from typing import Any

import pytest
from redis.exceptions import TimeoutError as RedisTimeoutError

from arena.api import BREAKER
from arena.api.store_breaker import OPEN_S, StoreBreaker
from tests.platform.conftest import Arena
from tests.platform.manual_clock import ManualClock


class FrozenRedis:
    """Stands in for Redis' commands: each one counted, and failing as a frozen Redis' do (after
    the timeout) while ``frozen``."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.frozen = True
        self.commands = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.commands += 1
        if self.frozen:
            raise RedisTimeoutError("Timeout reading from socket")
        return self.real(*args, **kwargs)


@pytest.fixture
def frozen(arena: Arena, monkeypatch: pytest.MonkeyPatch) -> tuple[Arena, FrozenRedis, ManualClock]:
    clock = ManualClock()
    arena.client.application.extensions[BREAKER] = StoreBreaker(clock)
    redis = FrozenRedis(arena.runtime.store.redis.execute_command)
    monkeypatch.setattr(arena.runtime.store.redis, "execute_command", redis)
    return arena, redis, clock


def test_after_one_request_finds_the_store_frozen_the_next_are_refused_without_trying_it(
    frozen: tuple[Arena, FrozenRedis, ManualClock],
) -> None:
    arena, redis, _clock = frozen
    first = arena.client.get("/api/v1/matches")
    assert first.status_code == 503 and redis.commands >= 1
    tried = redis.commands
    for path in ("/api/v1/matches", "/api/v1/health", "/matches", "/api/v1/bots"):
        answer = arena.client.get(path)
        assert answer.status_code == 503 and answer.headers["Retry-After"] == "5"
    assert redis.commands == tried  # none of them waited on the store


def test_files_on_disk_are_served_while_the_breaker_is_open(
    frozen: tuple[Arena, FrozenRedis, ManualClock],
) -> None:
    arena, _redis, _clock = frozen
    assert arena.client.get("/api/v1/matches").status_code == 503
    assert arena.client.get("/static/web/arena.css").status_code == 200


def test_one_probe_after_the_pause_reopens_it_while_frozen_and_closes_it_once_back(
    frozen: tuple[Arena, FrozenRedis, ManualClock],
) -> None:
    arena, redis, clock = frozen
    assert arena.client.get("/api/v1/matches").status_code == 503
    clock.advance(OPEN_S)
    tried = redis.commands
    assert arena.client.get("/api/v1/matches").status_code == 503  # the probe: tries, fails
    assert redis.commands == tried + 1
    assert arena.client.get("/api/v1/matches").status_code == 503  # open again: not tried
    assert redis.commands == tried + 1
    redis.frozen = False
    assert arena.client.get("/api/v1/matches").status_code == 503  # still within the pause
    clock.advance(OPEN_S)
    assert arena.client.get("/api/v1/matches").status_code == 200  # the probe finds it back
    assert arena.client.get("/api/v1/health").status_code == 200


def test_while_a_probe_is_out_the_others_are_refused() -> None:
    clock = ManualClock()
    breaker = StoreBreaker(clock)
    assert breaker.admit() == "try"
    breaker.failed()
    clock.advance(OPEN_S - 0.01)
    assert breaker.admit() == "refuse"
    clock.advance(0.01)
    assert [breaker.admit() for _ in range(3)] == ["probe", "refuse", "refuse"]
    breaker.failed()
    assert breaker.admit() == "refuse"
    clock.advance(OPEN_S)
    assert breaker.admit() == "probe"
    breaker.succeeded()
    assert [breaker.admit() for _ in range(2)] == ["try", "try"]
