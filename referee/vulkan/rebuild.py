"""A flight-phase position rebuilt from an observation the quick way: checked in bulk, on the
match's whole layout.

A bot of protocol version 2 rebuilds a position for every move request
(:func:`referee.vulkan.game.state_from_observation`), which must refuse exactly what an explicit
setup refuses. Checked through :func:`referee.vulkan.setup.parse_setup`, field by field with a
message ready for every mistake, the checks cost more than the rest of the rebuild together.
:func:`quick_state` checks the same facts a column at a time (every tile's ``at``, then every
``value``...) with ``map``, sets and ``min``/``max``, which run in C. At the first doubt, anything it
does not expect and not only what is wrong, it gives up (None) and the full check runs, which
names the problem in its own words; so whatever it accepts the full check accepts too, and the
legal moves are the same, in the same order (``tests/referee/vulkan/test_rebuild.py``).

The board is the match's whole layout: the tiles on the table, and as gaps the cells of those
that left it (awarded or removed, both in the observation). A cell without a tile is a gap to
every rule, as a cell outside the layout is, so that changes no move; but every position of a
match then has the same layout, whose path table (:mod:`referee.vulkan.paths`) is built once per
match (once per process for the classic layout), where the layout of the tiles left would be a new
one, with a new table, every time a tile goes out. The first move (no volcano yet) is left to the
full check: it comes once a match.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import chain, compress, product
from operator import ge, itemgetter, le
from typing import Any

from referee.memo import Memo
from referee.rng import Rng, derive_seed
from referee.vulkan.edition import EDITION
from referee.vulkan.hexes import NO_CELL, Coord, Layout
from referee.vulkan.position import COLOUR_NAMES, COLOURS
from referee.vulkan.rules import group_of
from referee.vulkan.setup import COORD_LIMIT, Award, StartPosition
from referee.vulkan.state import VulkanState
from referee.vulkan.variants import VARIANTS

_FIELDS = itemgetter("variant", "to_move", "tiles", "volcano", "seats")
_TILE = itemgetter("at", "value", "spaces", "loads")
_SEAT = itemgetter("supply", "awarded")
_AWARD = itemgetter("at", "value")
_AWARD_KEYS = frozenset(("at", "value"))
_LIST, _INT, _PAIR, _DICT, _FOUR = {list}, {int}, {2}, {dict}, {4}

LOW_VALUE, HIGH_VALUE = min(EDITION.tile_values), max(EDITION.tile_values)
PILES: dict[tuple[str, ...], tuple[int, ...]] = {
    names: tuple(EDITION.colour_index(name) for name in names)
    for size in range(EDITION.max_spaces + 1)
    for names in product(COLOURS, repeat=size)
}
"""Every pile of loads a tile can hold, by its colour names: the colour indices."""
HELD = {seats: tuple(frozenset(names) for names in per_seat) for seats, per_seat in COLOUR_NAMES.items()}
"""Per seat count and seat, the colour names the seat may hold in its supply."""
OPTIONS = {name: spec.resolve_options(None) for name, spec in VARIANTS.items()}
"""A rebuilt game's options, as the full check's ``GAME.start`` gives them: the defaults."""
RNG_STATE = Rng(derive_seed(0, "vulkan", "deal")).state
"""The deal's RNG state of a game started with seed 0, as the full check starts it (an explicit
setup draws nothing from it)."""


def quick_state(observation: Mapping[str, Any]) -> VulkanState | None:
    """The flight-phase position ``observation`` shows, on the match's whole layout; None when it
    is not an observation this checks (the first move's, a finished game's, one with anything
    unexpected or wrong): :func:`referee.vulkan.game.state_from_observation` then checks it in full.
    """
    if type(observation) is not dict:
        return None
    try:
        variant, to_move, tiles, volcano, seat_entries = _FIELDS(observation)
    except KeyError:
        return None
    spec = VARIANTS.get(variant) if type(variant) is str else None
    if spec is None or type(seat_entries) is not list or len(seat_entries) not in spec.seats:
        return None
    seats = len(seat_entries)
    if type(to_move) is not int or not 0 <= to_move < seats:
        return None
    columns = _tile_columns(tiles)
    seat_facts = _seats(seat_entries, HELD[seats])
    removed = observation.get("removed", [])
    if columns is None or seat_facts is None or type(removed) is not list or not _pairs(removed):
        return None
    ats, values, spaces, piles = columns
    supply, awarded, award_ats = seat_facts
    table = _table(ats, values, spaces, award_ats + removed)
    if table is None:
        return None
    loads = _loads(piles, spaces)
    volcano_at = _cell(volcano)
    if loads is None or volcano_at is None:
        return None
    volcano_tile = table.tile_at.get(volcano_at)
    if volcano_tile is None or loads[volcano_tile]:
        return None
    if any(compress(table.exposed, map(ge, map(len, loads), spaces))):
        return None  # a full tile that would have gone out at the end of the last turn
    if not _in_play_at_most(loads, supply, EDITION.loads_per_colour):
        return None
    if table.where is not None:  # tiles gone: spread the loads over the whole layout
        spread: list[tuple[int, ...]] = list(table.no_loads)
        for cell, pile in zip(table.where, loads, strict=True):
            spread[cell] = pile
        loads = spread
    cells = table.layout.cells
    start = StartPosition(
        cells, table.values, table.spaces, loads, volcano_at, supply, awarded, to_move, table.present
    )
    state = VulkanState(variant, seats, dict(OPTIONS[variant]), RNG_STATE, start)
    state.begin()
    return state


TILE_LIMIT = EDITION.tile_count
"""At most the game's tiles make the layout: more (only a made-up observation has them) is left to
the full check."""


@dataclass(frozen=True)
class Table:
    """What the tiles' cells, values and spaces and the cells of the tiles gone fix, checked and
    spread over the layout once for every position that shows the same (every position of a match
    from one tile going out to the next): per layout cell, ``values``, ``spaces`` and ``present``
    (gaps hold no tile, their value and spaces 0); per tile in the observation's order, ``where``
    it lies (None: tile ``i`` on cell ``i``, no gaps) and whether it is ``exposed``, with two free
    edges next to each other (full, it would have gone out); ``tile_at`` finds a tile by cell."""

    layout: Layout
    where: tuple[int, ...] | None
    values: list[int]
    spaces: list[int]
    present: list[bool] | None
    no_loads: tuple[tuple[int, ...], ...]
    exposed: tuple[bool, ...]
    tile_at: dict[Coord, int]


_TABLES = Memo[tuple[tuple[int, ...], tuple[int, ...]], Table | None]("vulkan.rebuild_tables", limit=512)
"""Tables by every number of the tiles' ``at``, ``value`` and ``spaces``, and of the cells gone (all
``int``, checked first, so that equal keys are the same JSON): None for those the full check must
see. A bot playing many matches at once keeps a few dozen."""


def _table(
    ats: tuple[Any, ...], values: tuple[Any, ...], spaces: tuple[Any, ...], gone: list[Any]
) -> Table | None:
    """The table of these columns (each ``at`` and each cell gone already a list of two items),
    from the cache when it holds it; None when the full check must see them."""
    numbers = (*chain.from_iterable(ats), *values, *spaces)
    gone_numbers = tuple(chain.from_iterable(gone))
    if set(map(type, numbers)) != _INT or (gone_numbers and set(map(type, gone_numbers)) != _INT):
        return None
    key = (numbers, gone_numbers)
    table = _TABLES.table.get(key, _UNKNOWN)
    if table is _UNKNOWN:
        table = _TABLES.keep(
            key, _checked_table(list(map(tuple, ats)), list(values), list(spaces), list(map(tuple, gone)))
        )
    return table  # type: ignore[return-value]  # _UNKNOWN was replaced


_UNKNOWN = object()


def _checked_table(
    cells: list[Coord], values: list[int], spaces: list[int], gone: list[Coord]
) -> Table | None:
    """What :func:`referee.vulkan.setup.parse_setup` asks of the tiles' cells, values and spaces
    and of the awarded cells: coordinates in range, no cell twice, values and spaces the edition's,
    every tile connected to the others (to the volcano, one of them), at most the game's tiles."""
    numbers = list(chain(chain.from_iterable(cells), chain.from_iterable(gone)))
    if not _within(numbers, -COORD_LIMIT, COORD_LIMIT):
        return None
    if not _within(values, LOW_VALUE, HIGH_VALUE) or not _within(spaces, 1, EDITION.max_spaces):
        return None
    everything = set(cells).union(gone)
    if len(everything) != len(cells) + len(gone) or len(everything) > TILE_LIMIT:
        return None
    layout = Layout.of(sorted(everything))
    size = len(layout)
    where = tuple(map(layout.index.__getitem__, cells))
    on = sum(layout.bits[cell] for cell in where)
    if not _connected(layout, on, where[0]):
        return None
    if size == len(cells) and layout.cells == cells:
        table_values, table_spaces, present, spread = values, spaces, None, None
    else:
        table_values, table_spaces, present = [0] * size, [0] * size, [False] * size
        for tile, cell in enumerate(where):
            table_values[cell], table_spaces[cell], present[cell] = values[tile], spaces[tile], True
        spread = where
    exposed = tuple(_exposed(layout, on, cell) for cell in where)
    tile_at = {cell: tile for tile, cell in enumerate(cells)}
    return Table(layout, spread, table_values, table_spaces, present, ((),) * size, exposed, tile_at)


def _within(numbers: list[int], low: int, high: int) -> bool:
    return low <= min(numbers) and max(numbers) <= high


def _connected(layout: Layout, on: int, start: int) -> bool:
    """Whether the cells of mask ``on`` form one group through shared edges."""
    return group_of(layout.near, on, start) == on


def _exposed(layout: Layout, on: int, cell: int) -> bool:
    """Whether ``cell`` has two free edges (no tile of mask ``on`` beyond) next to each other."""
    for a, b in layout.corners[cell]:
        if (a == NO_CELL or not on >> a & 1) and (b == NO_CELL or not on >> b & 1):
            return True
    return False


def _ints_within(numbers: Iterable[Any], low: int, high: int) -> bool:
    """Whether every item is an ``int`` (not a ``bool``) from ``low`` to ``high``; none is fine."""
    numbers = list(numbers)
    if not numbers:
        return True
    return set(map(type, numbers)) == _INT and low <= min(numbers) and max(numbers) <= high


def _cell(value: Any) -> Coord | None:
    if type(value) is not list or len(value) != 2 or not _ints_within(value, -COORD_LIMIT, COORD_LIMIT):
        return None
    return value[0], value[1]


def _pairs(values: tuple[Any, ...] | list[Any]) -> bool:
    """Whether every item is a list of two items (the items are checked later)."""
    return not values or (set(map(type, values)) == _LIST and set(map(len, values)) == _PAIR)


def _tile_columns(tiles: Any) -> tuple[tuple[Any, ...], ...] | None:
    """The tiles' ``at``, ``value``, ``spaces`` and ``loads``, column by column; None unless every
    tile is an object with exactly those keys, every ``at`` a list of two items."""
    if type(tiles) is not list or not 0 < len(tiles) <= TILE_LIMIT:
        return None
    if set(map(type, tiles)) != _DICT or set(map(len, tiles)) != _FOUR:
        return None
    try:  # four keys, and these four among them: exactly these
        columns = tuple(zip(*map(_TILE, tiles), strict=True))
    except KeyError:
        return None
    return columns if _pairs(columns[0]) else None


def _loads(piles: tuple[Any, ...], spaces: tuple[int, ...]) -> list[tuple[int, ...]] | None:
    """Every tile's loads as colour indices; None unless each is a list of colour names that fits
    its tile's spaces (checked before: ``int``, 1 to the edition's most)."""
    if set(map(type, piles)) != _LIST or not all(map(le, map(len, piles), spaces)):
        return None
    try:
        loads = list(map(PILES.get, map(tuple, piles)))
    except TypeError:  # a load that is not even hashable
        return None
    return None if None in loads else loads  # type: ignore[return-value]  # no None left


def _seats(
    entries: list[Any], held: tuple[frozenset[str], ...]
) -> tuple[list[list[int]], list[list[Award]], list[Any]] | None:
    """Every seat's supply (by colour index) and awards, and the awarded tiles' cells (lists of two
    items, checked with the tiles); None unless each seat's ``supply`` holds counts of its own
    colours only and each award is ``{"at": [q, r], "value": v}`` (an award without its cell is
    left to the full check)."""
    supply: list[list[int]] = []
    awarded: list[list[Award]] = []
    award_ats: list[Any] = []
    for seat, entry in enumerate(entries):
        if type(entry) is not dict:
            return None
        try:
            given, awards = _SEAT(entry)
        except KeyError:
            return None
        if type(given) is not dict or not held[seat].issuperset(given):
            return None
        if not _ints_within(given.values(), 0, EDITION.loads_per_colour):
            return None
        supply.append([given.get(name, 0) for name in COLOURS])
        if type(awards) is not list:
            return None
        if not awards:
            awarded.append([])
            continue
        if set(map(type, awards)) != _DICT or not all(map(_AWARD_KEYS.issuperset, awards)):
            return None
        try:
            ats, values = zip(*map(_AWARD, awards), strict=True)
        except KeyError:
            return None
        if not _pairs(ats) or not _ints_within(values, LOW_VALUE, HIGH_VALUE):
            return None
        awarded.append(list(zip(map(tuple, ats), values, strict=True)))
        award_ats += ats
    return supply, awarded, award_ats


def _in_play_at_most(loads: list[tuple[int, ...]], supply: list[list[int]], limit: int) -> bool:
    """Whether no colour has more than ``limit`` loads on the table and in the supplies together."""
    on_table = list(chain.from_iterable(loads))
    in_supplies = [sum(column) for column in zip(*supply, strict=True)]
    return all(on_table.count(colour) + held <= limit for colour, held in enumerate(in_supplies))
