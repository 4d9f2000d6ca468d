"""Catan with the volcano variants: the base game and Lost Desert, Gold Volcano, Variable Risk Gold
Volcano and Vulkan-issimo.

The package exposes :data:`GAME`. Modules, each with one job: :mod:`.edition` (the numbers and the
platform's choices, from ``edition.json``), :mod:`.geometry` (hex, node and edge ids and adjacency),
:mod:`.board` (layouts and volcano placement), :mod:`.variants` (what each variant changes, its
options), :mod:`.state` (the record of a game), :mod:`.flow` (phases and turns), :mod:`.building`
(setup and building), :mod:`.production` (the roll, the bank, gold), :mod:`.volcano` (eruptions),
:mod:`.robber` (the 7 and the knight), :mod:`.cards` (development cards), :mod:`.trading` (bank and
seat trades), :mod:`.awards` (points, longest road, largest army), :mod:`.events` (the log),
:mod:`.view` (observations), :mod:`.moves` (the move table). ``docs/games/catan-volcano.md``
describes the game.
"""

from referee.catan_volcano.game import GAME, CatanVolcanoGame
from referee.catan_volcano.state import CatanState

__all__ = ["GAME", "CatanState", "CatanVolcanoGame"]
