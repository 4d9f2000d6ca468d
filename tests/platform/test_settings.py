"""The settings read from the environment: the bounds of a match's time control and length."""

from __future__ import annotations

import pytest

from arena.settings import Settings, SettingsError


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
