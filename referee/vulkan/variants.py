"""The variants of Vulkan! and their one option, declared once."""

from __future__ import annotations

from enum import StrEnum

from referee.game import OptionSpec, VariantSpec
from referee.vulkan.edition import EDITION
from referee.vulkan.setup import LAYOUT_KINDS


class VulkanEnd(StrEnum):
    """How a Vulkan! game ends: the :attr:`Outcome.reason` values of every variant."""

    NO_FLIGHTS_LEFT = "no_flights_left"
    """Nobody can fly any more (competitive: most fire value wins; team: lost if tiles remain)."""
    EMPTY_TILE_ISOLATED = "empty_tile_isolated"
    """Solitaire and cooperative: a tile without loads was cut off, so the team lost at once."""
    ALL_TILES_GATHERED = "all_tiles_gathered"
    """Solitaire and cooperative: every forest tile went to the team, which won."""


COMPETITIVE_ENDS = frozenset({VulkanEnd.NO_FLIGHTS_LEFT.value})
TEAM_ENDS = frozenset(end.value for end in VulkanEnd)
MAX_MOVES = 1_000
"""The runner's cap, far above any game: random games end within about 30 moves (the volcano's
placement, then flights until nobody can fly)."""

LAYOUT = OptionSpec(
    "layout",
    "choice",
    "classic",
    "how the 36 forest tiles lie: 'classic' (a hexagon of radius 3 less one corner) or 'random' "
    "(a seeded compact cluster); values are dealt onto the cells by the match seed either way",
    choices=tuple(LAYOUT_KINDS),
)

VARIANTS: dict[str, VariantSpec] = {
    "competitive": VariantSpec(
        "competitive",
        seats=tuple(n for n in EDITION.seat_counts if n >= 2),
        description="2 to 4 pilots; the most fire value gathered wins (2- and 3-seat rules by seat count)",
        options=(LAYOUT,),
        rated=True,
        end_reasons=COMPETITIVE_ENDS,
        max_moves=MAX_MOVES,
    ),
    "solitaire": VariantSpec(
        "solitaire",
        seats=(1,),
        description="one pilot with all 48 loads: won by gathering every tile but the volcano",
        options=(LAYOUT,),
        rated=False,
        team=True,
        end_reasons=TEAM_ENDS,
        max_moves=MAX_MOVES,
    ),
    "cooperative": VariantSpec(
        "cooperative",
        seats=tuple(n for n in EDITION.seat_counts if n >= 2),
        description="2 to 4 pilots under the normal rules with the solitaire goal, won or lost together",
        options=(LAYOUT,),
        rated=False,
        team=True,
        end_reasons=TEAM_ENDS,
        max_moves=MAX_MOVES,
    ),
}
DEFAULT_VARIANT = "competitive"
