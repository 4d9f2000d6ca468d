"""Connect Four as a Volcano Arena game: a package of its own, found by the platform through its
entry point (``pyproject.toml``, group ``volcano_arena.games``).

Modules, each with one job: :mod:`.grid` (the board as data: columns, drops, lines of four),
:mod:`.state` (turns, moves, the end), :mod:`.game` (the variant and the factory, the one object the
platform speaks to), :mod:`.notation` (moves in words), :mod:`.drawing` (SVG and text pictures) and
:mod:`.bots` (the reference bots). ``rules.md`` is its rules page, ``schemas/`` the JSON Schemas of
its observations and moves.
"""

from connect_four.game import GAME, ConnectFourGame
from connect_four.state import ConnectFourState

__all__ = ["GAME", "ConnectFourGame", "ConnectFourState"]
