"""Volcano (Kristin Looney's Fiesta Caldera for Looney Pyramids): caps, eruptions, captures, trios.

The package exposes :data:`GAME`. Modules, each with one job: :mod:`.pieces` (what a piece and a cap
are), :mod:`.edition` (the facts and the platform's choices, declared once), :mod:`.board` (squares,
directions, stacks), :mod:`.eruption` (a cap step and its flow), :mod:`.trios` (grouping captures and
the win), :mod:`.setup` (seeded and explicit positions), :mod:`.state` (turns, moves, the end) and
:mod:`.game` (variant, options, the factory). ``docs/games/volcano.md`` describes the game.
"""

from referee.volcano.game import GAME, VolcanoGame, state_from_observation
from referee.volcano.state import VolcanoState

__all__ = ["GAME", "VolcanoGame", "VolcanoState", "state_from_observation"]
