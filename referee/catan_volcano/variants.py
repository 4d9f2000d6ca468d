"""The five variants' rule switches and the options every variant accepts, declared once.

The :class:`VariantRules` say what the engine does differently per variant; the
:class:`referee.game.VariantSpec` built from them say what the platform shows and accepts.

>>> RULES["variable-risk-gold"]
VariantRules(name='variable-risk-gold', placement='random_hex', gold=True, variable_lava=True, volcanoes=1)
>>> [option.name for option in SPECS["gold"].options]
['board', 'trades', 'bank_shortage', 'turn_limit', 'robber_stops_eruption', 'no_start_on_volcano']
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from referee.catan_volcano.edition import EDITION
from referee.game import OptionSpec, VariantSpec

SEATS = (3, 4)


class CatanEnd(StrEnum):
    """How a game ends, in every variant: the :attr:`referee.game.Outcome.reason` values."""

    POINTS = "points"
    """A seat reached the points to win on its own turn."""
    TURN_LIMIT = "turn_limit"
    """The ``turn_limit`` option's turns were played: ranked by points."""


MAX_MOVES = 200_000
"""The runner's cap: ``turn_limit`` turns (1,000 by default) of a roll, builds, trades and discards;
random games take about 1,060 moves on average and up to about 7,500."""


@dataclass(frozen=True)
class VariantRules:
    """What a variant changes: how volcanoes are placed, whether they yield gold, the lava dice."""

    name: str
    placement: str
    """A key of :data:`referee.catan_volcano.board.VOLCANO_PLACEMENTS`."""
    gold: bool
    variable_lava: bool
    volcanoes: int
    """How many volcano hexes the board has (an explicit board must have as many)."""


RULES: dict[str, VariantRules] = {
    rules.name: rules
    for rules in (
        VariantRules("base", "none", gold=False, variable_lava=False, volcanoes=0),
        VariantRules("lost-desert", "desert", gold=False, variable_lava=False, volcanoes=1),
        VariantRules("gold", "random_hex", gold=True, variable_lava=False, volcanoes=1),
        VariantRules("variable-risk-gold", "random_hex", gold=True, variable_lava=True, volcanoes=1),
        VariantRules("vulkan-issimo", "four_five_six", gold=True, variable_lava=False, volcanoes=3),
    )
}

DESCRIPTIONS: dict[str, str] = {
    "base": "the base game on the beginner or a random board, no volcano",
    "lost-desert": "the volcano replaces the desert, numbered 4, 5, 9 or 10; it yields nothing",
    "gold": "a random hex becomes a gold volcano: its corners yield a resource of the owner's choice",
    "variable-risk-gold": "gold volcano whose lava dice follow its number (three dice on 6 or 8 ...)",
    "vulkan-issimo": "three gold volcanoes numbered 4, 5 and 6",
}

COMMON_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "board",
        "choice",
        "random",
        "beginner: the rulebook's fixed layout; random: tiles, tokens and harbours shuffled from the seed",
        choices=("beginner", "random"),
    ),
    OptionSpec("trades", "bool", True, "trade offers between seats (one-for-one or two-for-one)"),
    OptionSpec(
        "bank_shortage",
        "choice",
        EDITION.bank_shortage,
        "a resource the bank cannot pay to every seat owed it: no_one gets it; single_takes_rest: as no_one, "
        "but a single seat owed it takes what is left (the rulebook's exception)",
        choices=("no_one", "single_takes_rest"),
    ),
    OptionSpec(
        "turn_limit",
        "int",
        EDITION.default_turn_limit,
        "turns (one seat's turn each) after which the game ends and seats are ranked by points",
        minimum=1,
        maximum=100_000,
    ),
)

VOLCANO_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("robber_stops_eruption", "bool", True, "the robber on a volcano keeps it from erupting"),
    OptionSpec("no_start_on_volcano", "bool", False, "no first or second settlement on a volcano's corner"),
)

SPECS: dict[str, VariantSpec] = {
    name: VariantSpec(
        name,
        seats=SEATS,
        description=DESCRIPTIONS[name],
        options=COMMON_OPTIONS + (VOLCANO_OPTIONS if rules.volcanoes else ()),
        end_reasons=frozenset(CatanEnd),
        max_moves=MAX_MOVES,
    )
    for name, rules in RULES.items()
}
