"""Only an outage is an outage: a command error is that request's 500, a busy connection pool that
request's 503; neither opens the breaker, so neither changes what other clients get."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import DataError, ResponseError, WatchError

from arena.api import BREAKER, create_app
from arena.api.store_breaker import OPEN_S, StoreBreaker
from arena.runtime import Runtime
from arena.storage.pools import PoolExhausted
from tests.platform.conftest import ListQueue, make_runtime
from tests.platform.manual_clock import ManualClock

SECURITY_HEADERS = ("Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy")


class FailingOnce:
    """Stands in for the store's commands: the next ``failures`` raise ``error``, the rest go on."""

    def __init__(self, real: Callable[..., Any], error: Exception, failures: int = 1) -> None:
        self.real = real
        self.error = error
        self.failures = failures

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.failures > 0:
            self.failures -= 1
            raise self.error
        return self.real(*args, **kwargs)


@pytest.fixture
def api() -> tuple[FlaskClient, Runtime, ManualClock]:
    runtime = make_runtime(ListQueue())
    app = create_app(runtime)
    clock = ManualClock()
    app.extensions[BREAKER] = StoreBreaker(clock)
    return app.test_client(), runtime, clock


def fail_next(runtime: Runtime, monkeypatch: pytest.MonkeyPatch, error: Exception, failures: int = 1) -> None:
    redis = runtime.store.redis
    monkeypatch.setattr(redis, "execute_command", FailingOnce(redis.execute_command, error, failures))


def others_answered(client: FlaskClient) -> None:
    """Another client, at once: the health check and the home page answer 200."""
    assert client.get("/api/v1/health").status_code == 200
    assert client.get("/", headers={"Accept": "text/html"}).status_code == 200
    assert client.get("/api/v1/matches").status_code == 200


def test_the_request_of_the_report_is_refused_and_changes_nothing_for_the_others(
    api: tuple[FlaskClient, Runtime, ManualClock],
) -> None:
    client, _runtime, _clock = api
    answer = client.get("/api/v1/ladders/vulkan?page=5976355040509708288")
    assert answer.status_code == 422
    assert "page" in answer.get_json()["errors"]
    others_answered(client)


@pytest.mark.parametrize(
    "error",
    [
        ResponseError("value is not an integer or out of range"),
        ResponseError("WRONGTYPE Operation against a key holding the wrong kind of value"),
        ResponseError("ERR Error running script"),
        DataError("Invalid input of type: 'NoneType'"),
        WatchError("Watched variable changed"),
    ],
    ids=["out-of-range", "wrong-type", "script", "data", "watch"],
)
def test_a_command_error_is_that_requests_500_logged_with_its_trace_and_the_breaker_stays_closed(
    api: tuple[FlaskClient, Runtime, ManualClock],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    error: Exception,
) -> None:
    client, runtime, _clock = api
    fail_next(runtime, monkeypatch, error)
    with caplog.at_level(logging.ERROR, logger="arena.api"):
        answer = client.get("/api/v1/matches")
    assert answer.status_code == 500
    assert answer.get_json()["code"] == 500 and "Retry-After" not in answer.headers
    assert all(name in answer.headers for name in SECURITY_HEADERS)
    logged = [record for record in caplog.records if record.exc_info]
    assert logged and logged[0].exc_info is not None and logged[0].exc_info[1] is error
    others_answered(client)


def test_a_page_request_meeting_a_command_error_is_that_pages_500_alone(
    api: tuple[FlaskClient, Runtime, ManualClock], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, runtime, _clock = api
    fail_next(runtime, monkeypatch, ResponseError("value is not an integer or out of range"))
    answer = client.get("/matches", headers={"Accept": "text/html"})
    assert answer.status_code == 500
    assert all(name in answer.headers for name in SECURITY_HEADERS)
    others_answered(client)


def test_a_busy_pool_is_that_requests_503_with_a_short_retry_after_and_the_breaker_stays_closed(
    api: tuple[FlaskClient, Runtime, ManualClock], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, runtime, _clock = api
    fail_next(runtime, monkeypatch, PoolExhausted("all 50 connections to Redis stayed in use for 1.0 s"))
    answer = client.get("/api/v1/matches")
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
    assert all(name in answer.headers for name in SECURITY_HEADERS)
    assert "busy" in answer.get_json()["message"]
    others_answered(client)


def test_an_unreachable_store_still_opens_the_breaker(
    api: tuple[FlaskClient, Runtime, ManualClock], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, runtime, _clock = api
    refused = RedisConnectionError("Error 111 connecting to redis:6379. Connection refused.")
    fail_next(runtime, monkeypatch, refused)
    assert client.get("/api/v1/matches").status_code == 503
    answer = client.get("/api/v1/health")  # the store answers again, but the breaker holds it off
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "5"


@pytest.mark.parametrize(
    "error",
    [ResponseError("WRONGTYPE Operation against a wrong kind of value"), PoolExhausted("all 50 in use")],
    ids=["command-error", "busy"],
)
def test_a_probe_that_fails_otherwise_than_by_an_outage_leaves_the_next_request_to_probe(
    api: tuple[FlaskClient, Runtime, ManualClock], monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    client, runtime, clock = api
    fail_next(runtime, monkeypatch, RedisConnectionError("Connection refused."))
    assert client.get("/api/v1/matches").status_code == 503  # the breaker opens
    clock.advance(OPEN_S)
    fail_next(runtime, monkeypatch, error)
    assert client.get("/api/v1/matches").status_code in (500, 503)  # the probe, failing so
    assert client.get("/api/v1/matches").status_code == 200  # the next one probes and finds it back
    others_answered(client)
