"""Board pictures of the four games: SVG for the pages, plain text for the terminal.

``render_svg(game_id, state)`` and ``render_text(game_id, state)`` draw a position; with
``reveal=False`` cards in hands are shown as counts only, for spectators of a match in play.
``seat_colours(game_id, seats)`` gives the colour each seat has in those pictures, for the pages
to mark seats with. ``position_after(replay, n)`` and :class:`Positions` re-play a replay document
through the engine to get the position to draw. One module per game, named in
:data:`BOARD_MODULES` (as the referee's registry names the engines): a new game's picture is one
module and one line here.
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType

from arena.boards import svg as palette
from arena.boards.positions import Positions, ReplayPositionError, position_after
from referee.game import State

BOARD_MODULES: dict[str, str] = {
    "vulkan": "arena.boards.vulkan",
    "volcano": "arena.boards.volcano",
    "boulderville": "arena.boards.boulderville",
    "catan-volcano": "arena.boards.catan",
}
"""Game id to the module drawing it; each has ``svg(state, reveal)`` and ``text(state, reveal)``, and
``seat_colours(seats)`` where its pieces have colours of their own (else the common palette)."""


class NoBoardDrawing(LookupError):
    """A game without a board module."""


@cache
def board_module(game_id: str) -> ModuleType:
    try:
        return importlib.import_module(BOARD_MODULES[game_id])
    except KeyError:
        known = ", ".join(sorted(BOARD_MODULES))
        raise NoBoardDrawing(f"no board drawing for game {game_id!r} (drawn: {known})") from None


def render_svg(game_id: str, state: State, *, reveal: bool = True) -> str:
    """A standalone SVG document of the position (a ``viewBox``, no external resources, a legend)."""
    text: str = board_module(game_id).svg(state, reveal)
    return text


def seat_colours(game_id: str, seats: int) -> list[str]:
    """The CSS colour of each of ``seats`` seats in the game's pictures (a seat drawn red is red on
    the page's move list too).

    >>> seat_colours("catan-volcano", 3)
    ['#d62728', '#1f77b4', '#f5f5f5']
    """
    colours: list[str] = getattr(board_module(game_id), "seat_colours", palette.seat_colours)(seats)
    return colours


def render_text(game_id: str, state: State, *, reveal: bool = True) -> str:
    """The position as plain text for a terminal (what ``arena replay show`` prints)."""
    text: str = board_module(game_id).text(state, reveal)
    return text


__all__ = [
    "BOARD_MODULES",
    "NoBoardDrawing",
    "Positions",
    "ReplayPositionError",
    "position_after",
    "render_svg",
    "render_text",
    "seat_colours",
]
