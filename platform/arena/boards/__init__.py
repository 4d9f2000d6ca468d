"""Board pictures of any game: SVG for the pages, plain text for the terminal.

``render_svg(game_id, state)`` and ``render_text(game_id, state)`` draw a position; with
``reveal=False`` cards in hands are shown as counts only, for spectators of a match in play.
``seat_colours(game_id, seats)`` gives the colour each seat has in those pictures, for the pages
to mark seats with. ``position_after(replay, n)`` and :class:`Positions` re-play a replay document
through the engine to get the position to draw. The drawing itself is the game's
(:meth:`referee.game.Game.render_svg` and its neighbours): a new game brings its own picture and
nothing here changes.
"""

from __future__ import annotations

from typing import Any

from arena.boards.positions import Positions, ReplayPositionError, position_after
from referee.game import Game, State
from referee.registry import get_game


class NoBoardDrawing(LookupError):
    """A game that is not drawn (or not known)."""


def _drawn(game_id: str) -> Game[Any]:
    try:
        game = get_game(game_id)
    except Exception as error:  # unknown or failing to load: either way there is nothing to draw
        raise NoBoardDrawing(f"no board drawing for game {game_id!r}: {error}") from None
    if game.drawing is None:
        raise NoBoardDrawing(f"game {game_id!r} has no board drawing")
    return game


def render_svg(game_id: str, state: State, *, reveal: bool = True) -> str:
    """A standalone SVG document of the position (a ``viewBox``, no external resources, a legend)."""
    return _drawn(game_id).render_svg(state, reveal=reveal)


def seat_colours(game_id: str, seats: int) -> list[str]:
    """The CSS colour of each of ``seats`` seats in the game's pictures (a seat drawn red is red on
    the page's move list too).

    >>> from referee.registry import game_ids
    >>> len(seat_colours(game_ids()[0], 3))
    3
    """
    return _drawn(game_id).seat_colours(seats)


def render_text(game_id: str, state: State, *, reveal: bool = True) -> str:
    """The position as plain text for a terminal (what ``arena replay show`` prints)."""
    return _drawn(game_id).render_text(state, reveal=reveal)


__all__ = [
    "NoBoardDrawing",
    "Positions",
    "ReplayPositionError",
    "position_after",
    "render_svg",
    "render_text",
    "seat_colours",
]
