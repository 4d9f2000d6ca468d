"""The settings read from the environment: house bots (whose default depends on other settings) and
the bounds of a match's time control and length."""

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


def test_the_match_bounds_have_defaults_every_test_and_the_demo_fit_in() -> None:
    settings = Settings.from_env({})
    assert (settings.max_move_ms, settings.max_bank_ms, settings.max_faults) == (60_000, 300_000, 20)
    assert settings.max_match_s == 3600


def test_the_match_bounds_are_read_from_the_environment() -> None:
    settings = Settings.from_env(
        {
            "ARENA_MAX_MOVE_MS": "10000",
            "ARENA_MAX_BANK_MS": "0",
            "ARENA_MAX_FAULTS": "5",
            "ARENA_MAX_MATCH_SECONDS": "900",
        }
    )
    assert (settings.max_move_ms, settings.max_bank_ms, settings.max_faults) == (10_000, 0, 5)
    assert settings.max_match_s == 900


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("ARENA_MAX_MOVE_MS", "0", "ARENA_MAX_MOVE_MS must be at least 1, not 0"),
        ("ARENA_MAX_BANK_MS", "-1", "ARENA_MAX_BANK_MS must be at least 0, not -1"),
        ("ARENA_MAX_FAULTS", "many", "ARENA_MAX_FAULTS must be an integer, not 'many'"),
        ("ARENA_MAX_MATCH_SECONDS", "0", "ARENA_MAX_MATCH_SECONDS must be at least 1, not 0"),
    ],
)
def test_a_bound_the_platform_cannot_use_is_refused_by_name(name: str, value: str, message: str) -> None:
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({name: value})
    assert str(refused.value) == message


def test_the_api_connection_pools_and_the_limits_failure_mode_are_read_from_the_environment() -> None:
    pools = Settings.from_env({})
    assert (pools.api_redis_connections, pools.limiter_connections, pools.redis_wait_ms) == (64, 16, 1000)
    assert pools.limits_fail_open is False
    env = {
        "ARENA_API_REDIS_CONNECTIONS": "200",
        "ARENA_LIMITER_CONNECTIONS": "40",
        "ARENA_REDIS_WAIT_MS": "0",
        "ARENA_LIMITS_ON_ERROR": "open",
    }
    read = Settings.from_env(env)
    assert (read.api_redis_connections, read.limiter_connections, read.redis_wait_ms) == (200, 40, 0)
    assert read.limits_fail_open is True
    with pytest.raises(SettingsError, match="ARENA_LIMITS_ON_ERROR"):
        Settings.from_env({"ARENA_LIMITS_ON_ERROR": "maybe"})
    with pytest.raises(SettingsError, match="ARENA_LIMITER_CONNECTIONS"):
        Settings.from_env({"ARENA_LIMITER_CONNECTIONS": "0"})
