"""Where a game starts: the seeded deal, or an explicit position checked field by field.

An explicit ``setup`` (the match's setup JSON) sets up any position, such as one of the rule
text's examples::

    {
      "tiles": [{"at": [0, 0], "value": 5, "spaces": 3, "loads": ["red"]}, ...],
      "volcano": [1, 0],                       # optional: a cell of "tiles"; else seat 0 chooses it
      "seats": [{"supply": {"red": 11, "yellow": 12}, "awarded": [{"at": [4, 4], "value": 2}]}, ...],
      "to_move": 1                             # optional
    }

``spaces`` defaults to the edition's spaces for the value, ``loads`` to none; loads need the
volcano (it is turned over before the first flight), and a table holds at most the game's 36 tiles.
A seat's ``supply``, when given, is its whole supply (colours left out hold 0); when left out it is
the standard allotment less the loads of the seat's own colours already on the table. ``awarded``
entries are ``{"at": [q, r], "value": v}`` or just a value. Every mistake is a :class:`SetupError`
naming the field, such as ``setup.tiles[3].spaces``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from referee.game import JSON, SetupError
from referee.rng import Rng
from referee.vulkan.edition import EDITION, Edition
from referee.vulkan.hexes import (
    Coord,
    classic_cells,
    enclosed,
    is_connected,
    neighbours_of,
    random_cells,
    touching,
)

COORD_LIMIT = 64
"""Coordinates are kept small: a setup naming cell (10**9, 0) is a mistake, not a position."""

Award = tuple[Coord | None, int]
"""A tile a seat has won: where it lay (None when a setup did not say) and its fire value."""


@dataclass
class StartPosition:
    """Everything a new state needs, already checked."""

    cells: list[Coord]
    values: list[int]
    spaces: list[int]
    loads: Sequence[Sequence[int]]
    volcano: Coord | None
    supply: list[list[int]]
    awarded: list[list[Award]]
    to_move: int
    present: list[bool] | None = None
    """Per cell, whether a tile lies on it; None: on every cell. A cell without one (a tile that
    left the table, with no loads, ``values`` and ``spaces`` unread) is a gap, as a cell outside
    the layout is: a position rebuilt from an observation keeps the match's whole layout so."""


def dealt_position(layout_kind: str, seats: int, rng: Rng, edition: Edition = EDITION) -> StartPosition:
    """The standard start: the layout of the chosen kind, tiles shuffled onto it by the seed, no
    volcano yet (seat 0 chooses it), every seat with its full allotment."""
    cells = LAYOUT_KINDS[layout_kind](rng, edition)
    deck = edition.tile_deck()
    rng.shuffle(deck)
    return StartPosition(
        cells=cells,
        values=deck,
        spaces=[edition.spaces_for(value) for value in deck],
        loads=[[] for _ in cells],
        volcano=None,
        supply=[list(allotment) for allotment in edition.allotments[seats]],
        awarded=[[] for _ in range(seats)],
        to_move=0,
    )


def _classic(rng: Rng, edition: Edition) -> list[Coord]:
    spec = edition.layouts["classic"]
    return list(_classic_cells(spec["radius"], tuple(spec["missing_corner"])))


@lru_cache(maxsize=8)
def _classic_cells(radius: int, missing_corner: Coord) -> tuple[Coord, ...]:
    """The classic cells never change: worked out once (every classic deal starts from them)."""
    return tuple(classic_cells(radius, missing_corner))


def _random(rng: Rng, edition: Edition) -> list[Coord]:
    spec = edition.layouts["random"]
    return random_cells(rng, spec["cells"], spec["min_neighbours"], spec["attempts"])


LAYOUT_KINDS = {"classic": _classic, "random": _random}
"""The ``layout`` option's values, each a function drawing the cells."""


# ---------------------------------------------------------------------------- explicit setups


def _fail(field: str, message: str) -> SetupError:
    return SetupError(f"{field} {message}", field)


def _int(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(field, "must be an integer")
    if not low <= value <= high:
        raise _fail(field, f"must be {low} to {high}")
    return value


def _coord(value: Any, field: str) -> Coord:
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 2:
        raise _fail(field, "must be a cell [q, r]")
    q = _int(value[0], f"{field}[0]", -COORD_LIMIT, COORD_LIMIT)
    r = _int(value[1], f"{field}[1]", -COORD_LIMIT, COORD_LIMIT)
    return q, r


def _object(
    value: Any, field: str, allowed: set[str], required: frozenset[str] | set[str] = frozenset()
) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(field, "must be an object")
    unknown = sorted(set(value) - allowed)
    if unknown:
        allowed_list = ", ".join(sorted(allowed))
        raise _fail(field, f"has unknown key(s): {', '.join(unknown)} (allowed: {allowed_list})")
    missing = sorted(required - set(value))
    if missing:
        raise _fail(field, f"lacks {', '.join(missing)}")
    return value


def _list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise _fail(field, "must be a list")
    return list(value)


def _colour(value: Any, field: str, edition: Edition) -> int:
    if value not in edition.colours:
        raise _fail(field, f"must be one of {', '.join(edition.colours)}")
    return edition.colour_index(value)


def parse_setup(setup: Mapping[str, JSON], seats: int, edition: Edition = EDITION) -> StartPosition:
    """Check an explicit setup and turn it into a :class:`StartPosition`."""
    _object(setup, "setup", {"tiles", "volcano", "seats", "to_move"}, {"tiles"})
    cells, values, spaces, loads = _parse_tiles(setup["tiles"], edition)
    volcano = None
    if setup.get("volcano") is not None:
        volcano = _coord(setup["volcano"], "setup.volcano")
        if volcano not in cells:
            raise _fail("setup.volcano", f"{list(volcano)} is not one of setup.tiles")
        if loads[cells.index(volcano)]:
            raise _fail("setup.volcano", "lies on a tile with loads")
    else:
        _check_no_loads_yet(loads)
    _check_shape(cells, volcano, edition)
    _check_nothing_pending(cells, spaces, loads)
    supply, awarded = _parse_seats(setup.get("seats"), seats, cells, loads, edition)
    to_move = 0 if volcano is None else 1 % seats
    if setup.get("to_move") is not None:
        to_move = _int(setup["to_move"], "setup.to_move", 0, seats - 1)
    return StartPosition(cells, values, spaces, loads, volcano, supply, awarded, to_move)


def _parse_tiles(raw: Any, edition: Edition) -> tuple[list[Coord], list[int], list[int], list[list[int]]]:
    entries = _list(raw, "setup.tiles")
    if not entries:
        raise _fail("setup.tiles", "must not be empty")
    if len(entries) > edition.tile_count:
        # Beyond the game's own material, and a huge table would make the list of flights huge.
        raise _fail(
            "setup.tiles", f"must be at most {edition.tile_count} (the game's tiles, volcano included)"
        )
    cells: list[Coord] = []
    values, spaces, loads = [], [], []
    seen: dict[Coord, int] = {}
    low, high = min(edition.tile_values), max(edition.tile_values)
    for i, entry in enumerate(entries):
        where = f"setup.tiles[{i}]"
        _object(entry, where, {"at", "value", "spaces", "loads"}, {"at", "value"})
        cell = _coord(entry["at"], f"{where}.at")
        if cell in seen:
            raise _fail(f"{where}.at", f"{list(cell)} is also setup.tiles[{seen[cell]}]")
        seen[cell] = i
        value = _int(entry["value"], f"{where}.value", low, high)
        room = edition.spaces_for(value)
        if "spaces" in entry:
            room = _int(entry["spaces"], f"{where}.spaces", 1, edition.max_spaces)
        pile = [
            _colour(colour, f"{where}.loads[{j}]", edition)
            for j, colour in enumerate(_list(entry.get("loads", []), f"{where}.loads"))
        ]
        if len(pile) > room:
            raise _fail(f"{where}.loads", f"holds {len(pile)} loads but the tile has {room} space(s)")
        cells.append(cell)
        values.append(value)
        spaces.append(room)
        loads.append(pile)
    return cells, values, spaces, loads


def _check_no_loads_yet(loads: list[list[int]]) -> None:
    """The volcano is turned over before the first flight, so a table without it holds no loads
    (and the first move can never put the volcano on one)."""
    for i, pile in enumerate(loads):
        if pile:
            raise _fail(
                f"setup.tiles[{i}].loads", "must be empty before the volcano is placed (give setup.volcano)"
            )


def _check_shape(cells: list[Coord], volcano: Coord | None, edition: Edition) -> None:
    """Before the volcano: the rule text's lay-out (one group, every tile touching two others, a
    tile enclosed on all six edges). After it: every tile still connected to the volcano."""
    group = set(cells)
    if volcano is not None:
        if not is_connected(group):
            raise _fail("setup.tiles", "must all be connected to the volcano (isolated tiles leave the game)")
        return
    if not is_connected(group):
        raise _fail("setup.tiles", "must form one connected group")
    for i, cell in enumerate(cells):
        if touching(cell, group) < 2:
            raise _fail(f"setup.tiles[{i}].at", f"{list(cell)} must touch at least two other tiles")
    if not enclosed(group):
        raise _fail("setup.tiles", "need a tile enclosed on all six edges, where the volcano can go")


def _check_nothing_pending(cells: list[Coord], spaces: list[int], loads: list[list[int]]) -> None:
    """A full tile with two adjacent free edges would have gone out at the end of the last turn,
    so no position between turns holds one."""
    group = set(cells)
    for i, cell in enumerate(cells):
        if len(loads[i]) < spaces[i]:
            continue
        free = [other not in group for other in neighbours_of(cell)]
        if any(free[d] and free[(d + 1) % 6] for d in range(6)):
            raise _fail(
                f"setup.tiles[{i}]",
                "is full and has two free edges next to each other: it would already have gone out",
            )


def _parse_seats(
    raw: Any, seats: int, cells: list[Coord], loads: list[list[int]], edition: Edition
) -> tuple[list[list[int]], list[list[Award]]]:
    allotments = edition.allotments[seats]
    owners = edition.owners(seats)
    on_table = [0] * len(edition.colours)
    for pile in loads:
        for colour in pile:
            on_table[colour] += 1
    entries = [{}] * seats if raw is None else _list(raw, "setup.seats")
    if len(entries) != seats:
        raise _fail("setup.seats", f"must list {seats} seat(s), not {len(entries)}")
    supply: list[list[int]] = []
    awarded: list[list[Award]] = []
    awarded_at: dict[Coord, str] = {}
    for seat, entry in enumerate(entries):
        where = f"setup.seats[{seat}]"
        _object(entry, where, {"supply", "awarded"})
        held = allotments[seat]
        if "supply" in entry:
            given = _object(entry["supply"], f"{where}.supply", set(edition.colours))
            row = [0] * len(edition.colours)
            for name, count in given.items():
                colour = edition.colour_index(name)
                if not held[colour]:
                    flies = ", ".join(edition.colours[c] for c, n in enumerate(held) if n)
                    message = f"is not a colour of seat {seat} (it flies {flies})"
                    raise _fail(f"{where}.supply.{name}", message)
                row[colour] = _int(count, f"{where}.supply.{name}", 0, edition.loads_per_colour)
        else:
            row = [max(0, n - on_table[c]) if owners[c] == seat else n for c, n in enumerate(held)]
        supply.append(row)
        awards = _parse_awards(entry.get("awarded", []), f"{where}.awarded", cells, awarded_at, edition)
        awarded.append(awards)
    for colour, name in enumerate(edition.colours):
        in_play = on_table[colour] + sum(row[colour] for row in supply)
        if in_play > edition.loads_per_colour:
            raise _fail(
                "setup.seats",
                f"put {in_play} {name} loads in play (table and supplies); there are "
                f"{edition.loads_per_colour} (give each seat's supply explicitly)",
            )
    return supply, awarded


def _parse_awards(
    raw: Any, where: str, cells: list[Coord], awarded_at: dict[Coord, str], edition: Edition
) -> list[Award]:
    low, high = min(edition.tile_values), max(edition.tile_values)
    awards: list[Award] = []
    for j, item in enumerate(_list(raw, where)):
        field = f"{where}[{j}]"
        if isinstance(item, Mapping):
            _object(item, field, {"at", "value"}, {"value"})
            value = _int(item["value"], f"{field}.value", low, high)
            cell = None if item.get("at") is None else _coord(item["at"], f"{field}.at")
        else:
            value, cell = _int(item, field, low, high), None
        if cell is not None:
            if cell in cells:
                raise _fail(f"{field}.at", f"{list(cell)} is a tile still on the table")
            if cell in awarded_at:
                raise _fail(f"{field}.at", f"{list(cell)} was already awarded in {awarded_at[cell]}")
            awarded_at[cell] = field
        awards.append((cell, value))
    return awards
