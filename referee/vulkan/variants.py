"""The variants of Vulkan! and their one option, declared once."""

from __future__ import annotations

from referee.game import OptionSpec, VariantSpec
from referee.vulkan.edition import EDITION
from referee.vulkan.setup import LAYOUT_KINDS

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
    ),
    "solitaire": VariantSpec(
        "solitaire",
        seats=(1,),
        description="one pilot with all 48 loads: won by gathering every tile but the volcano",
        options=(LAYOUT,),
        rated=False,
        team=True,
    ),
    "cooperative": VariantSpec(
        "cooperative",
        seats=tuple(n for n in EDITION.seat_counts if n >= 2),
        description="2 to 4 pilots under the normal rules with the solitaire goal, won or lost together",
        options=(LAYOUT,),
        rated=False,
        team=True,
    ),
}
DEFAULT_VARIANT = "competitive"
