"""Where the platform finds games: the entry-point group ``volcano_arena.games``, nothing else.

A game is a package that declares its :class:`referee.game.Game` instance in its own
``pyproject.toml``::

    [project.entry-points."volcano_arena.games"]
    connect-four = "connect_four:GAME"

The entry's name is the game's id. The project's own four games register the same way, so
installing a game's package (``pip install ./examples/connect_four``) is all it takes to list it,
play it, draw it and rate it. The entries are read once (:func:`declared`); a game's module is
imported on first use only, so that a broken or slow game never slows the start of the others. An
entry whose object is not a game, or whose id disagrees with its name, or that fails to import, is
reported (:class:`GameLoadError`, and a warning in the log for :func:`all_games`) and leaves every
other game playable.

:data:`EXTRA` holds games added at run time (a test's toy game): id to ``"module:attribute"``, or
to a module name, whose ``GAME`` is taken.
"""

from __future__ import annotations

import importlib
import logging
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from referee.game import Game, SetupError

GROUP = "volcano_arena.games"
"""The entry-point group games declare themselves under."""

EXTRA: dict[str, str] = {}
"""Games registered at run time, beside the installed ones (tests' toy games): clear
:func:`get_game`'s cache after changing it."""

log = logging.getLogger(__name__)


class GameLoadError(RuntimeError):
    """A declared game that cannot be used: its module fails to import, or what it names is not a
    game of that id. The message names the entry and the cause."""


@cache
def declared() -> dict[str, str]:
    """Every installed game's id and the object its entry names (``"package.module:GAME"``), read
    from the installed packages' metadata once per process."""
    found: dict[str, str] = {}
    for entry in entry_points(group=GROUP):
        if entry.name in found and found[entry.name] != entry.value:
            log.warning(
                "game %s is declared twice (%s and %s): the first kept",
                entry.name,
                found[entry.name],
                entry.value,
            )
            continue
        found[entry.name] = entry.value
    return found


def _targets() -> dict[str, str]:
    return {**declared(), **EXTRA}


def game_ids() -> list[str]:
    """The ids of every declared game, sorted, without importing any of them."""
    return sorted(_targets())


def _load(game_id: str, target: str) -> Game[Any]:
    module_name, _, attribute = target.partition(":")
    try:
        found: object = importlib.import_module(module_name)
        for part in (attribute or "GAME").split("."):
            found = getattr(found, part)
    except Exception as error:  # any failure of someone else's package is reported, not raised as is
        raise GameLoadError(
            f"game {game_id!r} ({GROUP} entry {target!r}) does not load: {error!r}"
        ) from error
    if not isinstance(found, Game):
        raise GameLoadError(
            f"game {game_id!r}: {target} is a {type(found).__name__}, not a referee.game.Game"
        )
    if found.id != game_id:
        raise GameLoadError(
            f"game {game_id!r}: {target} has id {found.id!r}; the entry's name must be its id"
        )
    return found


@cache
def get_game(game_id: str) -> Game[Any]:
    """The declared game with this id: :class:`SetupError` (field ``game``) if there is none,
    :class:`GameLoadError` if it is declared but cannot be used."""
    targets = _targets()
    if not isinstance(game_id, str) or game_id not in targets:
        known = ", ".join(sorted(targets))
        raise SetupError(f"unknown game {game_id!r} (games: {known})", "game")
    return _load(game_id, targets[game_id])


def all_games() -> list[Game[Any]]:
    """Every declared game that loads, in id order; one that does not is logged and left out."""
    games = []
    for game_id in game_ids():
        try:
            games.append(get_game(game_id))
        except GameLoadError as error:
            log.warning("%s", error)
    return games
