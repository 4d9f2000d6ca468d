"""Every error answer carries the security headers, whichever part of the app makes it: routing
(404, 405), the body limit (413), the rate limits (429, and their 503), the store's failures (500,
503) and the breaker's 503."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_limiter import Limiter
from limits.errors import StorageError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

from arena.api import MAX_BODY_BYTES, create_app
from arena.api.context import EXTENSION
from arena.storage.pools import PoolExhausted
from tests.platform.conftest import ListQueue, make_runtime

SECURITY_HEADERS = ("Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy")


@pytest.fixture
def app() -> Flask:
    return create_app(make_runtime(ListQueue(), registration_limit="1 per minute"))


def failing_store(app: Flask, monkeypatch: pytest.MonkeyPatch, error: Exception) -> None:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise error

    monkeypatch.setattr(app.extensions[EXTENSION].store.redis, "execute_command", fail)


def carries_them(answer: Any, status: int) -> None:
    assert answer.status_code == status
    missing = [name for name in SECURITY_HEADERS if name not in answer.headers]
    assert missing == [], (status, missing)


def test_routing_body_and_rate_limit_errors(app: Flask) -> None:
    client: FlaskClient = app.test_client()
    carries_them(client.get("/api/v1/nothing-here"), 404)
    carries_them(client.get("/nothing-here", headers={"Accept": "text/html"}), 404)
    carries_them(client.delete("/api/v1/games"), 405)
    too_large = b"x" * (MAX_BODY_BYTES + 1)
    carries_them(client.post("/api/v1/bots", data=too_large, content_type="application/json"), 413)
    client.post("/api/v1/bots", json={"name": "x"})
    carries_them(client.post("/api/v1/bots", json={"name": "x"}), 429)


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (ResponseError("value is not an integer or out of range"), 500),
        (PoolExhausted("all in use"), 503),
        (RedisConnectionError("refused"), 503),
    ],
    ids=["command-error", "busy", "unreachable"],
)
def test_the_stores_failures_and_the_breakers_503(
    app: Flask, monkeypatch: pytest.MonkeyPatch, error: Exception, status: int
) -> None:
    failing_store(app, monkeypatch, error)
    client = app.test_client()
    carries_them(client.get("/api/v1/matches"), status)
    carries_them(client.get("/matches", headers={"Accept": "text/html"}), status)
    carries_them(client.get("/api/v1/health"), status)


def test_the_rate_limits_503(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    limiter: Limiter = next(iter(app.extensions["limiter"]))

    def fail(*args: Any, **kwargs: Any) -> Any:
        raise StorageError(PoolExhausted("all in use"))

    monkeypatch.setattr(limiter.storage, "acquire_entry", fail)
    carries_them(app.test_client().post("/api/v1/bots", json={"name": "x"}), 503)
