"""The facts of Fiesta Caldera and the platform's choices where the rule text is silent, declared once.

Facts (the rule text, Looney Labs' Volcano page and the Icehouse wiki agree): a 5x5 board with an
empty Caldera in the centre, three nests of each of eight colours, a black cap on each red nest and a
white cap on each orange nest, the win by three single-colour trios or five trios of any colours.

Choices (``docs/games/volcano.md`` names them as the platform's edition): seat 0 moves first, each cap
step is one move, at most one Power Play a turn, a turn of ``step_limit`` steps without an eruption
ends as a pass, the game ends after ``turn_limit`` turns or when every seat passed in a row, and then
seats are ranked by trios, then by pieces captured.
"""

from __future__ import annotations

from referee.volcano.pieces import CapColour, Colour

BOARD_SIZE = 5
"""The board is BOARD_SIZE x BOARD_SIZE squares; ``[row, column]``, row 0 at the top (north)."""

CALDERA: tuple[int, int] = (2, 2)
"""The centre square, empty at the start."""

NESTS_PER_COLOUR = 3
"""Three nests of each colour, so three pieces of each colour and size: 8 x 3 x 3 = 72 pieces."""

CAP_ON_NEST: dict[Colour, CapColour] = {Colour.RED: CapColour.BLACK, Colour.ORANGE: CapColour.WHITE}
"""At the start a small cap sits on every nest of these colours."""

CAPS_PER_COLOUR = 3
"""Three black and three white caps in the set (one per red or orange nest)."""

SINGLE_COLOUR_TRIOS_TO_WIN = 3
TRIOS_TO_WIN = 5
"""A trio is one small, one medium and one large piece; single-colour trios count toward the five."""

FIRST_SEAT = 0
"""The rule text starts with whoever came closest to molten lava; the platform starts with seat 0
(tournaments rotate seats)."""

DEFAULT_STEP_LIMIT = 30
"""Cap steps a turn may take without an eruption before it ends as a pass."""

DEFAULT_TURN_LIMIT = 300
"""Turns (one seat's whole turn each) after which the game ends and seats are ranked."""
