"""The API as gunicorn builds it (``arena.wsgi``): house bots only when ``ARENA_HOUSE_BOTS`` asks, each
registered once however many gunicorn processes start together."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from arena import wsgi
from arena.settings import Settings
from arena.storage import Store
from bots.registry import bots_for
from referee.registry import game_ids
from tests.platform.conftest import ADMIN
from tests.platform.own_redis import own_redis_server

HOUSE_BOTS = sum(len(bots_for(game_id)) for game_id in game_ids())


@pytest.fixture
def shared_store(monkeypatch: pytest.MonkeyPatch) -> Store:
    """Every store the API connects to is this one in-memory Redis (fakeredis)."""
    store = Store.in_memory("wsgi:")

    def connect(cls: type[Store], url: str, prefix: str, *args: Any, **kwargs: Any) -> Store:
        assert prefix == "wsgi:"
        return store

    monkeypatch.setattr(Store, "connect", classmethod(connect))
    return store


def _environment(**more: str) -> Settings:
    env = {"REDIS_URL": "redis://127.0.0.1:1/0", "ARENA_ADMIN_TOKEN": ADMIN, "ARENA_KEY_PREFIX": "wsgi:"}
    return Settings.from_env({**env, **more})


def test_a_deployment_has_no_house_bots_unless_asked(shared_store: Store) -> None:
    app = wsgi.build(_environment())
    assert shared_store.bots.list_all() == []
    assert app.test_client().get("/api/v1/bots").get_json() == []
    wsgi.build(_environment(ARENA_HOUSE_BOTS="0"))
    assert shared_store.bots.list_all() == []


def test_the_organizer_asks_for_house_bots_and_gets_each_once(shared_store: Store) -> None:
    app = wsgi.build(_environment(ARENA_HOUSE_BOTS="1"))
    wsgi.build(_environment(ARENA_HOUSE_BOTS="1"))  # a second gunicorn process, or a restart
    listed = app.test_client().get("/api/v1/bots?page_size=100").get_json()
    assert len(listed) == HOUSE_BOTS and all(bot["house"] for bot in listed)
    assert len(shared_store.bots.list_all()) == HOUSE_BOTS


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with own_redis_server("wsgi-test") as url:
        yield url


@pytest.mark.integration
def test_gunicorn_processes_starting_at_once_register_each_house_bot_once(redis_url: str) -> None:
    settings = Settings(redis_url=redis_url, admin_token=ADMIN, key_prefix=f"wsgi-{uuid.uuid4().hex[:8]}:")
    asked = replace(settings, house_bots=True)
    starting = 6
    ready = threading.Barrier(starting)
    failures: list[BaseException] = []

    def start() -> None:
        ready.wait()
        try:
            wsgi.build(asked)
        except BaseException as error:  # shown by the assertion below
            failures.append(error)

    threads = [threading.Thread(target=start) for _ in range(starting)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == []
    store = Store.connect(redis_url, settings.key_prefix)
    endpoints = [bot.endpoint for bot in store.bots.list_all()]
    assert len(endpoints) == len(set(endpoints)) == HOUSE_BOTS
    games = {game_id: len(store.bots.ids_of_game(game_id)) for game_id in game_ids()}
    assert games == {game_id: len(bots_for(game_id)) for game_id in game_ids()}


@pytest.mark.integration
def test_on_redis_a_deployment_registers_none_by_default(redis_url: str) -> None:
    settings = Settings(redis_url=redis_url, admin_token=ADMIN, key_prefix=f"wsgi-{uuid.uuid4().hex[:8]}:")
    wsgi.build(settings)
    assert Store.connect(redis_url, settings.key_prefix).bots.list_all() == []
