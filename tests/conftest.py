"""Shared fixtures: a test game registered for the duration of a test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from referee import registry


@pytest.fixture
def nim_registered() -> Iterator[None]:
    """Register the Nim test game (tests/referee/toy_game.py) as game id ``nim``."""
    registry.GAME_MODULES["nim"] = "tests.referee.toy_game"
    registry.get_game.cache_clear()
    try:
        yield
    finally:
        del registry.GAME_MODULES["nim"]
        registry.get_game.cache_clear()
