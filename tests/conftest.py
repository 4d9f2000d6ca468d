"""Shared fixtures: a test game registered for the duration of a test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from referee import registry


@pytest.fixture
def nim_registered() -> Iterator[None]:
    """Register the Nim test game (tests/referee/toy_game.py) as game id ``nim``."""
    registry.EXTRA["nim"] = "tests.referee.toy_game"
    registry.get_game.cache_clear()
    try:
        yield
    finally:
        del registry.EXTRA["nim"]
        registry.get_game.cache_clear()


SOCKET_FIXTURES = frozenset(
    {
        "bots",  # the loopback bot server (tests/platform/bot_server.py)
        "arena",  # the API with loopback bots
        "offline",
        "embedded",  # the embedded platform: a Celery worker thread and loopback bots
        "base_url",  # the misbehaving-bots server
        "https_bot",
        "misbehaving",
        "platform",  # real Redis, worker processes
        "gated",  # a bot endpoint holding its pings (tests/platform/accounts/conftest.py)
    }
)
"""Fixtures that open a socket, start a process or need Redis: a test using any is ``integration``."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that needs a socket, a process or Redis as ``integration`` by the fixtures it
    uses, so that no such test can be left unmarked (``make test-fast`` runs the others)."""
    for item in items:
        if SOCKET_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.integration)
