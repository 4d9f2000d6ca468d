"""Games are found under the entry-point group ``volcano_arena.games``; a broken entry is reported
by name and leaves every other game playable."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from importlib.metadata import EntryPoint

import pytest

from referee import registry
from referee.game import SetupError
from referee.registry import GROUP, GameLoadError, all_games, declared, game_ids, get_game


@pytest.fixture
def entries(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[EntryPoint]]:
    """The installed entry points, replaced by a list the test fills in."""
    found: list[EntryPoint] = []

    def fake_entry_points(*, group: str) -> list[EntryPoint]:
        return found if group == GROUP else []

    monkeypatch.setattr(registry, "entry_points", fake_entry_points)
    declared.cache_clear()
    get_game.cache_clear()
    try:
        yield found
    finally:
        monkeypatch.undo()
        declared.cache_clear()
        get_game.cache_clear()


def test_the_projects_own_games_are_declared_as_entry_points() -> None:
    assert {"vulkan", "volcano", "boulderville", "catan-volcano"} <= set(declared())
    assert all(get_game(game_id).id == game_id for game_id in declared())


def test_a_game_is_found_by_its_entry_alone(entries: list[EntryPoint]) -> None:
    entries.append(EntryPoint("nim", "tests.referee.toy_game:GAME", GROUP))
    assert game_ids() == ["nim"]
    assert get_game("nim").id == "nim"


def test_an_entry_whose_id_disagrees_or_that_fails_to_load_is_reported_and_the_others_play(
    entries: list[EntryPoint], caplog: pytest.LogCaptureFixture
) -> None:
    entries.extend(
        [
            EntryPoint("nim", "tests.referee.toy_game:GAME", GROUP),
            EntryPoint("chess", "tests.referee.toy_game:GAME", GROUP),
            EntryPoint("go", "no_such_package.game:GAME", GROUP),
            EntryPoint("checkers", "tests.referee.toy_game:NimState", GROUP),
        ]
    )
    with pytest.raises(GameLoadError, match="game 'chess': tests.referee.toy_game:GAME has id 'nim'"):
        get_game("chess")
    with pytest.raises(GameLoadError, match="game 'go' .*'no_such_package.game:GAME'.* does not load"):
        get_game("go")
    with pytest.raises(GameLoadError, match="game 'checkers'.* not a referee.game.Game"):
        get_game("checkers")
    with caplog.at_level(logging.WARNING, logger="referee.registry"):
        assert [game.id for game in all_games()] == ["nim"]
    assert sum("does not load" in record.getMessage() for record in caplog.records) == 1
    assert len(caplog.records) == 3


def test_an_unknown_game_is_a_setup_error_naming_the_known_ones(entries: list[EntryPoint]) -> None:
    entries.append(EntryPoint("nim", "tests.referee.toy_game:GAME", GROUP))
    with pytest.raises(SetupError, match=r"unknown game 'chess' \(games: nim\)") as error:
        get_game("chess")
    assert error.value.field_name == "game"
