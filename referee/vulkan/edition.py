"""The platform's edition of Vulkan!: every number and default choice, read once from ``edition.json``.

The rule text leaves several facts open (spaces per value, layout, who holds which colours); the
choices live in the JSON file next to this module so that the rules code never hard-codes them.

>>> EDITION.colours
('red', 'yellow', 'green', 'blue')
>>> EDITION.spaces_for(6)
3
>>> EDITION.owners(3)  # in the 3-seat game blue is shared, so it belongs to nobody
(0, 1, 2, None)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class Edition:
    """The facts of the edition. Colours are referred to by index into :attr:`colours`."""

    title: str
    name: str
    colours: tuple[str, ...]
    loads_per_colour: int
    tile_values: tuple[int, ...]
    tiles_per_value: int
    spaces_by_value: dict[int, int]
    allotments: dict[int, tuple[tuple[int, ...], ...]]
    """Per seat count, per seat, the loads of each colour (by colour index) the seat starts with."""
    layouts: dict[str, dict[str, Any]]

    @property
    def seat_counts(self) -> tuple[int, ...]:
        return tuple(sorted(self.allotments))

    @property
    def tile_count(self) -> int:
        """How many tiles the game has (the volcano is one of them): no table can hold more."""
        return len(self.tile_values) * self.tiles_per_value

    @property
    def max_spaces(self) -> int:
        return max(self.spaces_by_value.values())

    def spaces_for(self, value: int) -> int:
        """How many loads a tile of this fire value holds."""
        return self.spaces_by_value[value]

    def colour_index(self, name: str) -> int:
        """Index of a colour name; ValueError for an unknown one."""
        return self.colours.index(name)

    def seat_colours(self, seats: int) -> tuple[tuple[int, ...], ...]:
        """Per seat, the colours it may fly (those it holds loads of), in colour order."""
        return tuple(
            tuple(c for c, count in enumerate(allotment) if count) for allotment in self.allotments[seats]
        )

    def owners(self, seats: int) -> tuple[int | None, ...]:
        """Per colour, the one seat holding it, or None when shared or held by nobody.

        A tile whose majority is an owner-less colour goes to the current flyer (the 3-seat rule for the
        fourth colour).
        """
        holders: list[list[int]] = [[] for _ in self.colours]
        for seat, colours in enumerate(self.seat_colours(seats)):
            for colour in colours:
                holders[colour].append(seat)
        return tuple(seats_[0] if len(seats_) == 1 else None for seats_ in holders)

    def tile_deck(self) -> list[int]:
        """The fire values of every forest tile, in value order (shuffled when dealt)."""
        return [value for value in self.tile_values for _ in range(self.tiles_per_value)]


def _load() -> Edition:
    raw = json.loads(resources.files(__package__).joinpath("edition.json").read_text())
    colours = tuple(raw["colours"])
    allotments = {
        int(seats): tuple(tuple(per_seat.get(colour, 0) for colour in colours) for per_seat in table)
        for seats, table in raw["allotments"].items()
    }
    return Edition(
        title=raw["title"],
        name=raw["edition"],
        colours=colours,
        loads_per_colour=raw["loads_per_colour"],
        tile_values=tuple(raw["tile_values"]),
        tiles_per_value=raw["tiles_per_value"],
        spaces_by_value={int(value): spaces for value, spaces in raw["spaces_by_value"].items()},
        allotments=allotments,
        layouts=raw["layouts"],
    )


EDITION = _load()
