"""The settings read from the environment: here those whose default depends on other settings."""

from __future__ import annotations

import pytest

from arena.settings import Settings, SettingsError

REDIS = {"REDIS_URL": "redis://127.0.0.1:6379/0"}


def test_house_bots_are_on_for_the_embedded_platform_and_off_on_redis_by_default() -> None:
    assert Settings.from_env({}).registers_house_bots is True
    assert Settings.from_env(REDIS).registers_house_bots is False
    assert Settings.from_env({**REDIS, "ARENA_HOUSE_BOTS": " "}).registers_house_bots is False
    assert Settings().registers_house_bots and not Settings(redis_url="redis://x").registers_house_bots


@pytest.mark.parametrize("word", ["1", "true", "True", "YES", "on"])
def test_house_bots_asked_for_are_on_everywhere(word: str) -> None:
    assert Settings.from_env({**REDIS, "ARENA_HOUSE_BOTS": word}).registers_house_bots is True
    assert Settings.from_env({"ARENA_HOUSE_BOTS": word}).registers_house_bots is True


@pytest.mark.parametrize("word", ["0", "false", "No", "OFF", " off "])
def test_house_bots_refused_are_off_everywhere(word: str) -> None:
    assert Settings.from_env({"ARENA_HOUSE_BOTS": word}).registers_house_bots is False
    assert Settings.from_env({**REDIS, "ARENA_HOUSE_BOTS": word}).registers_house_bots is False


@pytest.mark.parametrize("word", ["maybe", "2", "y", "enabled"])
def test_a_bad_house_bots_value_is_an_error_naming_the_variable(word: str) -> None:
    with pytest.raises(SettingsError, match=f"ARENA_HOUSE_BOTS must be 1 or 0 .*not '{word}'"):
        Settings.from_env({"ARENA_HOUSE_BOTS": word})
