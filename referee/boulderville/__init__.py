"""Volcano! (Boulderville): scientists race the lava to talk a sceptical town into leaving.

The package exposes :data:`GAME`. Modules, each with one job: :mod:`.edition` (the platform's
edition, read from ``data/*.json``), :mod:`.table` (the state's data), :mod:`.deal` (seeded and
explicit set-up), :mod:`.turn` (the stages of a turn), :mod:`.eruption` (phase 2), :mod:`.science`
and :mod:`.actions` (phase 3), :mod:`.renown`, :mod:`.townsfolk` (phases 4 to 6),
:mod:`.attributes` (belief, willingness and speed as they stand), :mod:`.hazards` (lava, rubble,
deaths), :mod:`.view` (observations) and :mod:`.game` (the interface). ``docs/games/boulderville.md``
describes the game.
"""

from referee.boulderville.game import GAME, BouldervilleGame, BouldervilleState

__all__ = ["GAME", "BouldervilleGame", "BouldervilleState"]
