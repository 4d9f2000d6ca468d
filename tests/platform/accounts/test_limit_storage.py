"""The rate limits' failures are the limits' own: a count that fails is that request's 503 (or, with
``ARENA_LIMITS_ON_ERROR=open``, the request served uncounted), headers that cannot be read are left
out; never a 500, never the store's breaker, and the security headers always."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_limiter import Limiter
from limits.errors import StorageError
from redis.exceptions import ConnectionError as RedisConnectionError

from arena.accounts.limit_storage import storage_options
from arena.api import create_app
from arena.settings import Settings
from arena.storage.pools import PoolExhausted, waiting_pool
from tests.platform.conftest import ListQueue, make_runtime

SECURITY_HEADERS = ("Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy")
BAD_BOT = {"name": "x"}  # a registration the view refuses (422): it reaches the view only if counted


def limiter_of(app: Flask) -> Limiter:
    limiter: Limiter = next(iter(app.extensions["limiter"]))
    return limiter


def failing(error: Exception) -> Any:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise StorageError(error)  # as the limits' storage raises with wrap_exceptions

    return fail


def app_with(**settings: Any) -> Flask:
    return create_app(make_runtime(ListQueue(), **settings))


def others_answered(client: FlaskClient) -> None:
    assert client.get("/api/v1/health").status_code == 200
    assert client.get("/api/v1/bots").status_code == 200


@pytest.mark.parametrize(
    ("error", "retry_after"),
    [
        (PoolExhausted("all 16 connections stayed in use for 1.0 s"), "1"),
        (RedisConnectionError("refused"), "5"),
    ],
    ids=["busy", "unreachable"],
)
def test_a_count_that_fails_is_that_requests_503_by_default(
    monkeypatch: pytest.MonkeyPatch, error: Exception, retry_after: str
) -> None:
    app = app_with()
    monkeypatch.setattr(limiter_of(app).storage, "acquire_entry", failing(error))
    client = app.test_client()
    answer = client.post("/api/v1/bots", json=BAD_BOT)
    assert answer.status_code == 503 and answer.headers["Retry-After"] == retry_after
    assert answer.get_json()["message"] == "the rate limits cannot be counted now; try again shortly"
    assert all(name in answer.headers for name in SECURITY_HEADERS)
    others_answered(client)


def test_with_limits_open_on_error_a_request_that_cannot_be_counted_is_served(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = app_with(limits_fail_open=True)
    monkeypatch.setattr(limiter_of(app).storage, "acquire_entry", failing(PoolExhausted("all in use")))
    client = app.test_client()
    answer = client.post("/api/v1/bots", json=BAD_BOT)
    assert answer.status_code == 422 and "endpoint" in answer.get_json()["errors"]  # the view's own answer
    others_answered(client)


@pytest.mark.parametrize("fail_open", [False, True], ids=["closed", "open"])
def test_rate_limit_headers_that_cannot_be_read_are_left_out_the_answer_kept(
    monkeypatch: pytest.MonkeyPatch, fail_open: bool
) -> None:
    app = app_with(limits_fail_open=fail_open)
    monkeypatch.setattr(limiter_of(app).storage, "get_moving_window", failing(PoolExhausted("all in use")))
    client = app.test_client()
    answer = client.post("/api/v1/bots", json=BAD_BOT)
    assert answer.status_code == 422 and "endpoint" in answer.get_json()["errors"]
    assert all(name in answer.headers for name in SECURITY_HEADERS)
    assert "X-RateLimit-Limit" not in answer.headers
    others_answered(client)


def test_the_headers_are_there_when_the_counts_can_be_read() -> None:
    answer = app_with().test_client().post("/api/v1/bots", json=BAD_BOT)
    assert answer.status_code == 422 and answer.headers["X-RateLimit-Limit"] == "10000"


def test_on_redis_the_limits_count_through_a_bounded_waiting_pool() -> None:
    settings = Settings(redis_url="redis://127.0.0.1:1/0", limiter_connections=7, redis_wait_ms=250)
    options = storage_options(settings)
    pool = options["connection_pool"]
    assert options["wrap_exceptions"] is True
    assert pool.max_connections == 7 and pool.timeout == 0.25
    assert storage_options(Settings()) == {"wrap_exceptions": True}


def test_a_pool_whose_connections_stay_in_use_raises_pool_exhausted_after_its_wait() -> None:
    pool = waiting_pool("redis://127.0.0.1:1/0", connections=1, wait_s=0.0, timeout_s=1.0)
    held = pool.pool.get(block=False)  # the one connection slot, taken (never connected)
    with pytest.raises(PoolExhausted):
        pool.get_connection()
    pool.pool.put_nowait(held)
