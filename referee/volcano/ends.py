"""How a Volcano game ends: every :attr:`referee.game.Outcome.reason` the engine gives."""

from __future__ import annotations

from enum import StrEnum


class VolcanoEnd(StrEnum):
    THREE_SINGLE_COLOUR_TRIOS = "three_single_colour_trios"
    """The seat to move holds three trios of one colour each: it wins."""
    FIVE_TRIOS = "five_trios"
    """The seat to move holds five trios of any colours: it wins."""
    ALL_PASSED = "all_passed"
    """Every seat passed in a row: ranked by trios, then pieces captured."""
    TURN_LIMIT = "turn_limit"
    """The ``turn_limit`` option's turns were played: ranked as for ``all_passed``."""


MAX_MOVES = 40_000
"""The runner's cap: a turn is at most ``step_limit`` cap steps (30 by default) plus a Power Play and
an eruption's answers, over ``turn_limit`` turns (300 by default); random games take about 840."""
