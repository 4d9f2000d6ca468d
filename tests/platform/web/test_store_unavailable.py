"""While the store is unreachable a browser's page request gets a small HTML 503 page, the API its
JSON 503; both say when to try again."""

from __future__ import annotations

from typing import Any

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from tests.platform.conftest import Arena

ERROR_KEYS = {"code", "status", "message", "errors"}


@pytest.fixture(params=[RedisConnectionError("connection refused"), RedisTimeoutError("Timeout reading")])
def store_down(arena: Arena, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Arena:
    """Redis down (refusing connections) or frozen (a command's answer never comes in time)."""

    def fail(*args: Any, **kwargs: Any) -> None:
        raise request.param

    monkeypatch.setattr(arena.runtime.store.redis, "execute_command", fail)
    return arena


@pytest.mark.parametrize("path", ["/", "/matches", "/bots", "/tournaments", "/matches/m-0000000000000000"])
def test_a_page_is_an_html_503_that_says_when_to_try_again(store_down: Arena, path: str) -> None:
    answer = store_down.client.get(path)
    assert answer.status_code == 503
    assert answer.mimetype == "text/html" and answer.headers["Retry-After"] == "5"
    page = answer.get_data(as_text=True)
    assert "503" in page and "the store is unreachable; try again later" in page
    assert page.lstrip().startswith("<!doctype html>")


def test_a_page_asked_for_as_json_is_still_a_page(store_down: Arena) -> None:
    answer = store_down.client.get("/matches", headers={"Accept": "application/json"})
    assert answer.status_code == 503 and answer.mimetype == "text/html"


def test_the_viewers_json_route_answers_json_but_a_browser_gets_a_page(store_down: Arena) -> None:
    url = "/matches/m-0000000000000000/live.json"
    polled = store_down.client.get(url, headers={"Accept": "application/json"})
    assert polled.status_code == 503 and set(polled.get_json()) == ERROR_KEYS
    opened = store_down.client.get(url, headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert opened.status_code == 503 and opened.mimetype == "text/html"
    assert opened.headers["Retry-After"] == "5"


@pytest.mark.parametrize("accept", ["application/json", "text/html,application/xhtml+xml,*/*;q=0.8", "*/*"])
def test_the_api_keeps_its_json_503_whatever_the_client_accepts(store_down: Arena, accept: str) -> None:
    for url in ("/api/v1/matches", "/api/v1/health"):
        answer = store_down.client.get(url, headers={"Accept": accept})
        assert answer.status_code == 503 and answer.headers["Retry-After"] == "5"
        assert set(answer.get_json()) == ERROR_KEYS
        assert answer.get_json()["message"] == "the store is unreachable; try again later"
