"""The platform's edition of Catan with the volcano variants, read once from ``edition.json``.

Every number of the base game (tiles, tokens, costs, pieces, the deck) and every choice the rule
texts leave open (the first seat, the bank-shortage rule, the lava dice per volcano number, the
shapes of trade offers between seats) lives in the JSON file next to this module, so the rules code
never hard-codes them. Resources, terrains and development cards are referred to by their index
into the tuples below; moves and observations spell them as words.

>>> EDITION.resources
('wood', 'brick', 'sheep', 'wheat', 'ore')
>>> EDITION.costs["city"]  # two wheat and three ore, by resource index
(0, 0, 0, 2, 3)
>>> EDITION.lava_rule(True, 3)  # a volcano on 3 or 11: a parity die, then the direction die
LavaRule(gate='same_parity', dice=1)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources as _files
from typing import Any

DEV_CARDS: tuple[str, ...] = ("knight", "victory_point", "road_building", "year_of_plenty", "monopoly")
"""The development card kinds, in the order used by every per-kind count."""

KNIGHT, VICTORY_POINT, ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY = range(5)

GOLD = 5
"""The production index of a gold volcano (one past the five resources)."""
NOTHING = -1
"""The production index of a hex that yields nothing (the desert, a lost-desert volcano)."""


@dataclass(frozen=True)
class LavaRule:
    """How many direction dice an eruption rolls, behind which gate (see :mod:`.volcano`)."""

    gate: str
    dice: int


@dataclass(frozen=True)
class Edition:
    """The facts of the edition, as tuples of counts indexed like :attr:`resources`."""

    title: str
    name: str
    resources: tuple[str, ...]
    terrain_resource: dict[str, int]
    """Terrain name to the index of what it produces (:data:`NOTHING` for desert and volcano)."""
    tiles: dict[str, int]
    number_tokens: tuple[int, ...]
    red_numbers: frozenset[int]
    harbours: tuple[str, ...]
    harbour_slots: tuple[tuple[int, int, int], ...]
    """Per harbour slot: the hex and its two corners (numbered 1..6) on the coast."""
    beginner_hexes: tuple[tuple[str, int | None], ...]
    beginner_harbours: tuple[str, ...]
    bank_per_resource: int
    costs: dict[str, tuple[int, ...]]
    pieces: dict[str, int]
    deck: tuple[int, ...]
    """Development cards of each kind in the deck, indexed like :data:`DEV_CARDS`."""
    points_to_win: int
    longest_road_minimum: int
    longest_road_points: int
    largest_army_minimum: int
    largest_army_points: int
    discard_above: int
    bank_rate: int
    generic_harbour_rate: int
    resource_harbour_rate: int
    offer_shapes: tuple[tuple[int, int], ...]
    max_offers_per_turn: int
    bank_shortage: str
    first_seat: int
    default_turn_limit: int
    lost_desert_numbers: tuple[int, ...]
    vulkan_issimo_numbers: tuple[int, ...]
    replaced_desert_number_pool: tuple[int, ...]
    basic_lava: LavaRule
    variable_lava: dict[int, LavaRule]

    def lava_rule(self, variable: bool, number: int) -> LavaRule:
        """The lava dice for a volcano on ``number``: the seed's table when ``variable``, else one die."""
        return self.variable_lava[number] if variable else self.basic_lava


def _by_resource(resources: tuple[str, ...], counts: dict[str, int]) -> tuple[int, ...]:
    return tuple(counts.get(name, 0) for name in resources)


def _lava(raw: dict[str, Any]) -> LavaRule:
    return LavaRule(gate=raw["gate"], dice=raw["dice"])


def _load() -> Edition:
    raw = json.loads(_files.files(__package__).joinpath("edition.json").read_text())
    resources = tuple(raw["resources"])
    volcano = raw["volcano"]
    return Edition(
        title=raw["title"],
        name=raw["edition"],
        resources=resources,
        terrain_resource={
            terrain: NOTHING if produced is None else resources.index(produced)
            for terrain, produced in raw["terrains"].items()
        },
        tiles=dict(raw["tiles"]),
        number_tokens=tuple(raw["number_tokens"]),
        red_numbers=frozenset(raw["red_numbers"]),
        harbours=tuple(raw["harbours"]),
        harbour_slots=tuple(
            (slot["hex"], slot["corners"][0], slot["corners"][1]) for slot in raw["harbour_slots"]
        ),
        beginner_hexes=tuple((terrain, number) for terrain, number in raw["beginner_board"]["hexes"]),
        beginner_harbours=tuple(raw["beginner_board"]["harbours"]),
        bank_per_resource=raw["bank_per_resource"],
        costs={item: _by_resource(resources, cost) for item, cost in raw["costs"].items()},
        pieces=dict(raw["pieces"]),
        deck=tuple(raw["development_cards"][kind] for kind in DEV_CARDS),
        points_to_win=raw["points_to_win"],
        longest_road_minimum=raw["longest_road"]["minimum"],
        longest_road_points=raw["longest_road"]["points"],
        largest_army_minimum=raw["largest_army"]["minimum"],
        largest_army_points=raw["largest_army"]["points"],
        discard_above=raw["discard_above"],
        bank_rate=raw["maritime_rates"]["bank"],
        generic_harbour_rate=raw["maritime_rates"]["generic_harbour"],
        resource_harbour_rate=raw["maritime_rates"]["resource_harbour"],
        offer_shapes=tuple((give, get) for give, get in raw["seat_trades"]["shapes"]),
        max_offers_per_turn=raw["seat_trades"]["max_offers_per_turn"],
        bank_shortage=raw["bank_shortage"],
        first_seat=raw["first_seat"],
        default_turn_limit=raw["default_turn_limit"],
        lost_desert_numbers=tuple(volcano["lost_desert_numbers"]),
        vulkan_issimo_numbers=tuple(volcano["vulkan_issimo_numbers"]),
        replaced_desert_number_pool=tuple(volcano["replaced_desert_number_pool"]),
        basic_lava=_lava(volcano["basic_lava"]),
        variable_lava={int(number): _lava(rule) for number, rule in volcano["variable_lava"].items()},
    )


EDITION = _load()
