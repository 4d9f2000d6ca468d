"""Fixtures for the platform's tests: test games, an API on an in-memory Redis, loopback bots."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask.testing import FlaskClient

from arena.api import create_app
from arena.runtime import Runtime
from arena.settings import Settings
from arena.storage import Store
from arena.worker.execution import RunOutcome, execute
from referee import registry
from referee.protocol import new_secret
from referee.transport.endpoints import EndpointPolicy
from tests.platform import bot_server

ADMIN = "organizer-secret-token"
LOOPBACK = EndpointPolicy.from_text("127.0.0.0/8")


@pytest.fixture
def toy_games(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register the Nim and Party test games for one test."""
    monkeypatch.setitem(registry.EXTRA, "nim", "tests.referee.toy_game")
    monkeypatch.setitem(registry.EXTRA, "party", "tests.platform.party_game")
    registry.get_game.cache_clear()
    yield
    registry.get_game.cache_clear()


@dataclass
class BotServer:
    base: str
    secrets: dict[str, str]

    def url(self, path: str) -> str:
        return self.base + path


@pytest.fixture(scope="session")
def bots() -> Iterator[BotServer]:
    secrets: dict[str, str] = {}
    server, base = bot_server.start(secrets)
    yield BotServer(base, secrets)
    server.shutdown()


def register_bot(
    client: FlaskClient, bots: BotServer, name: str, path: str, games: list[str]
) -> dict[str, Any]:
    """Register the loopback bot at ``path`` with a fresh secret, given to the bot server first."""
    bots.secrets[path] = secret = new_secret()
    body = {"name": name, "endpoint": bots.url(path), "games": games, "secret": secret}
    answer = client.post("/api/v1/bots", json=body)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


@dataclass
class ListQueue:
    """A queue that only remembers: the test decides when the worker side runs."""

    ids: list[str] = field(default_factory=list)

    def enqueue(self, match_id: str) -> None:
        self.ids.append(match_id)

    def waiting(self) -> int:
        return len(self.ids)


@dataclass
class Arena:
    """The API through Flask's test client, with the worker side run by hand."""

    client: FlaskClient
    runtime: Runtime
    queue: ListQueue
    bots: BotServer

    def admin(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {ADMIN}"}

    def register(self, name: str, path: str, games: list[str]) -> dict[str, Any]:
        """Register a loopback bot at ``path``: the bot server learns a fresh secret first, then the
        registration sends it (and pings the bot with it). The secret is in ``bots.secrets[path]``."""
        return register_bot(self.client, self.bots, name, path, games)

    def match(self, **request: Any) -> dict[str, Any]:
        answer = self.client.post("/api/v1/matches", json=request, headers=self.admin())
        assert answer.status_code == 202, answer.get_json()
        return answer.get_json()

    def run_queue(self) -> list[RunOutcome]:
        """Run every queued match, as workers would, in queue order."""
        outcomes = [execute(self.runtime, match_id) for match_id in self.queue.ids]
        self.queue.ids.clear()
        return outcomes

    def get(self, url: str) -> dict[str, Any]:
        answer = self.client.get(url)
        assert answer.status_code == 200, answer.get_json()
        return answer.get_json()


def make_runtime(queue: ListQueue, **settings: Any) -> Runtime:
    defaults = {
        "admin_token": ADMIN,
        "policy": LOOPBACK,
        "key_prefix": "test:",
        "registration_limit": "10000 per second",  # the limits' own tests set theirs
        "challenge_limit": "10000 per second",
        "ping_limit": "10000 per second",
        "ping_host_limit": "10000 per second",  # every loopback bot is on one address
    }
    config = Settings(**{**defaults, **settings})
    return Runtime(config, Store.in_memory(config.key_prefix, secrets=config.secret_box()), queue)


@pytest.fixture
def arena(toy_games: None, bots: BotServer) -> Arena:
    queue = ListQueue()
    runtime = make_runtime(queue)
    return Arena(create_app(runtime).test_client(), runtime, queue, bots)
