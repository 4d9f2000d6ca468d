"""How a game of Vulkan! ends, per variant: who placed where, and why the game stopped."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from referee.game import Outcome, places_from_keys
from referee.vulkan.variants import VulkanEnd

if TYPE_CHECKING:
    from referee.vulkan.position import Position

NO_FLIGHTS_LEFT = VulkanEnd.NO_FLIGHTS_LEFT.value
EMPTY_TILE_ISOLATED = VulkanEnd.EMPTY_TILE_ISOLATED.value
ALL_TILES_GATHERED = VulkanEnd.ALL_TILES_GATHERED.value


def _competitive_outcome(state: Position) -> Outcome:
    """Most fire value wins; a tie goes to the fewest own loads left on the table, then is shared."""
    scores = [state.score(seat) for seat in range(state.seats)]
    left = [state.own_loads_on_table(seat) for seat in range(state.seats)]
    places = places_from_keys([(score, -loads) for score, loads in zip(scores, left, strict=True)])
    return Outcome(
        places=places,
        scores=tuple(float(score) for score in scores),
        reason=NO_FLIGHTS_LEFT,
        details={"loads_on_table": left, "tie_break_used": len(set(scores)) < len(scores)},
    )


def _team_outcome(state: Position) -> Outcome:
    """The solitaire goal: every forest tile but the volcano went to the team (to any of its seats).

    Lost at once when a tile is isolated without loads; also lost when nobody can fly any more
    with forest tiles still on the table. Every seat shares the team's place and score (the sum of
    all the values the team gathered); ``details`` keeps each seat's own sum.
    """
    tiles_left = len(state.board.forest())
    values = [state.score(seat) for seat in range(state.seats)]
    won = state.ended is None and tiles_left == 0 and not state.removed
    reason = state.ended or (ALL_TILES_GATHERED if won else NO_FLIGHTS_LEFT)
    return Outcome(
        places=(1,) * state.seats,
        scores=(float(sum(values)),) * state.seats,
        reason=reason,
        team_won=won,
        details={"seat_values": values, "tiles_left": tiles_left},
    )


GOALS: dict[str, Callable[[Position], Outcome]] = {
    "competitive": _competitive_outcome,
    "solitaire": _team_outcome,
    "cooperative": _team_outcome,
}
