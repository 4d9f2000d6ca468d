"""What lies on the island: terrains, number tokens, harbours, volcanoes; and how a board is made.

A :class:`Layout` is the board's JSON-able truth (what a setup gives and the state stores). Its
:class:`BoardTables` are the flat lookup tables the rules code reads on every roll and every build,
derived once per layout and cached.

Boards come from the rulebook's beginner layout, a seeded random layout, or an explicit setup; each
volcano variant then places its volcanoes by its own procedure (:data:`VOLCANO_PLACEMENTS`).

>>> layout = beginner_layout()
>>> layout.terrains[9], layout.numbers[9], layout.robber_start()
('desert', None, 9)
>>> tables = layout.tables(gold=False)
>>> tables.hexes_by_number[6]  # the hills and fields on 6
(4, 17)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, permutations
from typing import Any

from referee.catan_volcano.edition import EDITION, GOLD, NOTHING
from referee.catan_volcano.geometry import (
    HEX_COUNT,
    HEX_NEIGHBOURS,
    HEX_NODES,
    NODE_COUNT,
    NODE_HEXES,
    corner_node,
)
from referee.game import SetupError
from referee.rng import Rng

DESERT = "desert"
VOLCANO = "volcano"
GENERIC_HARBOUR = "3:1"
HARBOUR_KINDS: tuple[str, ...] = (*EDITION.resources, GENERIC_HARBOUR)
"""Harbour kinds by index: a resource's index for its 2:1 harbour, 5 for the 3:1 harbour."""
GENERIC_HARBOUR_INDEX = len(EDITION.resources)
NUMBERS: tuple[int, ...] = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)


@dataclass(frozen=True)
class BoardTables:
    """Flat tables derived from a layout, indexed by hex or node id."""

    production: tuple[int, ...]
    """Per hex: the resource index it yields, :data:`GOLD`, or :data:`NOTHING`."""
    hexes_by_number: tuple[tuple[int, ...], ...]
    """Per dice total 0..12: the hexes carrying that number (volcanoes included)."""
    volcanoes_by_number: tuple[tuple[int, ...], ...]
    """Per dice total 0..12: the volcanoes that erupt on it."""
    node_harbour: tuple[int, ...]
    """Per node: the harbour kind index there (see :data:`HARBOUR_KINDS`), or -1."""
    harbour_nodes: tuple[tuple[int, int], ...]
    """The (node, harbour kind index) pairs of the 18 harbour nodes."""
    volcano_nodes: frozenset[int]
    """Nodes on a volcano's corner (the ``no_start_on_volcano`` twist keeps first settlements off)."""


@dataclass(frozen=True)
class Layout:
    """The board: per hex its terrain and number (None for none), per harbour slot its kind."""

    terrains: tuple[str, ...]
    numbers: tuple[int | None, ...]
    harbours: tuple[str, ...]

    @property
    def volcanoes(self) -> tuple[int, ...]:
        return tuple(h for h, terrain in enumerate(self.terrains) if terrain == VOLCANO)

    def robber_start(self) -> int:
        """The desert if there is one, else the (first) volcano, as the seed rules."""
        if DESERT in self.terrains:
            return self.terrains.index(DESERT)
        return self.volcanoes[0] if self.volcanoes else 0

    def tables(self, gold: bool) -> BoardTables:
        """The lookup tables, built once per distinct layout and gold rule."""
        return _tables(self.terrains, self.numbers, self.harbours, gold)

    def to_json(self) -> dict[str, Any]:
        return {
            "hexes": [
                {"terrain": terrain, "number": number}
                for terrain, number in zip(self.terrains, self.numbers, strict=True)
            ],
            "harbours": list(self.harbours),
        }

    @classmethod
    def from_json(cls, data: Any, where: str = "setup.board") -> Layout:
        """A layout from its JSON, checked field by field (:class:`SetupError` names the field)."""
        if not isinstance(data, Mapping) or set(data) - _BOARD_KEYS:
            raise SetupError(f"{where} must be an object with hexes and harbours only", where)
        hexes = data.get("hexes")
        if not isinstance(hexes, list) or len(hexes) != HEX_COUNT:
            raise SetupError(f"{where}.hexes must list {HEX_COUNT} hexes", f"{where}.hexes")
        terrains: list[str] = []
        numbers: list[int | None] = []
        for h, item in enumerate(hexes):
            here = f"{where}.hexes[{h}]"
            if not isinstance(item, Mapping) or set(item) - _HEX_KEYS:
                raise SetupError(f"{here} must be an object with terrain and number only", here)
            terrain, number = item.get("terrain"), item.get("number")
            if type(terrain) is not str or terrain not in EDITION.terrain_resource:
                allowed = ", ".join(EDITION.terrain_resource)
                raise SetupError(f"{here}.terrain must be one of {allowed}", f"{here}.terrain")
            if terrain == DESERT:
                if number is not None:
                    raise SetupError(f"{here}.number must be null on the desert", f"{here}.number")
            elif type(number) is not int or number not in NUMBERS:
                raise SetupError(f"{here}.number must be one of 2-6, 8-12", f"{here}.number")
            terrains.append(terrain)
            numbers.append(number)
        harbours = data.get("harbours", list(EDITION.beginner_harbours))
        slots = len(EDITION.harbour_slots)
        if not isinstance(harbours, list) or len(harbours) != slots:
            raise SetupError(f"{where}.harbours must list {slots} harbour kinds", f"{where}.harbours")
        for i, kind in enumerate(harbours):
            if kind not in HARBOUR_KINDS:
                allowed = ", ".join(HARBOUR_KINDS)
                raise SetupError(f"{where}.harbours[{i}] must be one of {allowed}", f"{where}.harbours")
        return cls(tuple(terrains), tuple(numbers), tuple(harbours))


_BOARD_KEYS = frozenset({"hexes", "harbours"})
_HEX_KEYS = frozenset({"terrain", "number"})


@lru_cache(maxsize=256)
def _tables(
    terrains: tuple[str, ...], numbers: tuple[int | None, ...], harbours: tuple[str, ...], gold: bool
) -> BoardTables:
    production = tuple(
        (GOLD if gold else NOTHING) if terrain == VOLCANO else EDITION.terrain_resource[terrain]
        for terrain in terrains
    )
    by_number: list[list[int]] = [[] for _ in range(13)]
    volcanoes: list[list[int]] = [[] for _ in range(13)]
    for h, number in enumerate(numbers):
        if number is not None:
            by_number[number].append(h)
            if terrains[h] == VOLCANO:
                volcanoes[number].append(h)
    node_harbour = [-1] * NODE_COUNT
    for (hex_id, first, second), kind in zip(EDITION.harbour_slots, harbours, strict=True):
        for corner in (first, second):
            node_harbour[corner_node(hex_id, corner)] = HARBOUR_KINDS.index(kind)
    volcano_nodes = frozenset(n for h, t in enumerate(terrains) if t == VOLCANO for n in HEX_NODES[h])
    return BoardTables(
        production=production,
        hexes_by_number=tuple(tuple(hexes) for hexes in by_number),
        volcanoes_by_number=tuple(tuple(hexes) for hexes in volcanoes),
        node_harbour=tuple(node_harbour),
        harbour_nodes=tuple((node, kind) for node, kind in enumerate(node_harbour) if kind >= 0),
        volcano_nodes=volcano_nodes,
    )


def beginner_layout() -> Layout:
    """The rulebook's fixed "starting set-up for beginners" board (without volcanoes)."""
    return Layout(
        terrains=tuple(terrain for terrain, _ in EDITION.beginner_hexes),
        numbers=tuple(number for _, number in EDITION.beginner_hexes),
        harbours=EDITION.beginner_harbours,
    )


_RED_NUMBERS = tuple(sorted(EDITION.red_numbers))
_NEIGHBOUR_BITS = tuple(sum(1 << other for other in HEX_NEIGHBOURS[h]) for h in range(HEX_COUNT))
"""Per hex, its neighbours as a bit mask (bit ``hex``)."""


def _apart(hexes: Sequence[int]) -> bool:
    """No two of ``hexes`` touch (one bit mask of them, then each hex's neighbours against it)."""
    mask = 0
    for h in hexes:
        mask |= 1 << h
    return not any(_NEIGHBOUR_BITS[h] & mask for h in hexes)


def _reds_apart(numbers: Sequence[int | None]) -> bool:
    """No two hexes with a red number (6, 8) touch (checked where a volcano takes or swaps a token;
    a random board's deal keeps the rule by its making, :func:`deal_tokens`)."""
    reds: list[int] = []
    for red in _RED_NUMBERS:
        at = -1
        for _ in range(numbers.count(red)):
            at = numbers.index(red, at + 1)
            reds.append(at)
    return _apart(reds)


_RED_TOKENS: tuple[int, ...] = tuple(sorted(t for t in EDITION.number_tokens if t in EDITION.red_numbers))
_OTHER_TOKENS: tuple[int, ...] = tuple(t for t in EDITION.number_tokens if t not in EDITION.red_numbers)
_RED_ORDERS: tuple[tuple[int, ...], ...] = tuple(sorted(set(permutations(_RED_TOKENS))))
"""The distinct orders of the red tokens (6, 6, 8, 8: six of them)."""


@lru_cache(maxsize=1)
def _red_spots_anywhere() -> tuple[tuple[int, ...], ...]:
    """Every set of hexes of the island, as many as the red tokens, none next to another (532
    of the 3,876 sets of four), in order: looked for once, on the first random board."""
    return tuple(spots for spots in combinations(range(HEX_COUNT), len(_RED_TOKENS)) if _apart(spots))


@lru_cache(maxsize=64)
def red_spots(numbered: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every set of hexes among ``numbered`` that the red tokens may take (none next to another),
    in order: those of :func:`_red_spots_anywhere` on numbered hexes only, kept per set of numbered
    hexes (a random board has one per place of the desert, 19)."""
    allowed = frozenset(numbered)
    return tuple(spots for spots in _red_spots_anywhere() if allowed.issuperset(spots))


def deal_tokens(rng: Rng, numbered: tuple[int, ...]) -> list[int | None]:
    """The number tokens dealt onto ``numbered`` (the other hexes None), no 6 or 8 touching.

    Every deal that keeps the rule is as likely as any other, as if all the tokens were shuffled
    and dealt again until the rule held, but from two draws and no retries: the red tokens' set
    of hexes is drawn from :func:`red_spots` (each deal keeping the rule has one, and every set has
    as many deals as any other), with one of the red tokens' orders on it, then the other tokens
    are shuffled onto the hexes left (a random board would otherwise deal some ten times)."""
    spots = red_spots(numbered)
    if not spots:
        raise SetupError("no way to place the red number tokens apart on these hexes")
    pick = rng.below(len(spots) * len(_RED_ORDERS))
    reds = spots[pick // len(_RED_ORDERS)]
    others = list(_OTHER_TOKENS)
    rng.shuffle_in_one_draw(others)
    numbers: list[int | None] = [None] * HEX_COUNT
    for h, token in zip(reds, _RED_ORDERS[pick % len(_RED_ORDERS)], strict=True):
        numbers[h] = token
    for h, token in zip([h for h in numbered if h not in reds], others, strict=True):
        numbers[h] = token
    return numbers


def random_layout(rng: Rng) -> Layout:
    """The variable set-up: tiles and harbours shuffled, tokens dealt so that no 6 or 8 touch.

    The red-number rule is the one the current rulebook gives for a random board
    (:func:`deal_tokens`); each shuffle is made from a single draw
    (:meth:`~referee.rng.Rng.shuffle_in_one_draw`: every order as likely as with a draw per swap), so
    the board is a pure function of the seed, made from four draws.
    """
    terrains = [terrain for terrain, count in EDITION.tiles.items() for _ in range(count)]
    rng.shuffle_in_one_draw(terrains)
    numbers = deal_tokens(rng, tuple(h for h, terrain in enumerate(terrains) if terrain != DESERT))
    harbours = list(EDITION.harbours)
    rng.shuffle_in_one_draw(harbours)
    return Layout(tuple(terrains), tuple(numbers), tuple(harbours))


def _replaced(layout: Layout, changes: Mapping[int, int | None]) -> Layout:
    terrains = list(layout.terrains)
    numbers = list(layout.numbers)
    for h, number in changes.items():
        terrains[h] = VOLCANO
        numbers[h] = number
    return Layout(tuple(terrains), tuple(numbers), layout.harbours)


def no_volcano(layout: Layout, rng: Rng) -> Layout:
    """The base game: the board as it is."""
    return layout


def volcano_on_desert(layout: Layout, rng: Rng) -> Layout:
    """Lost Desert: the volcano takes the desert's place with a token drawn from 4, 5, 9 and 10."""
    desert = layout.terrains.index(DESERT)
    return _replaced(layout, {desert: rng.choice(EDITION.lost_desert_numbers)})


def volcano_on_random_hex(layout: Layout, rng: Rng) -> Layout:
    """Gold Volcano: one hex drawn at random (the desert too) becomes the volcano.

    The volcano keeps the token of the hex it replaces; the desert has none, so a volcano on the
    desert's place draws one from a second set of tokens (the platform's choice), again until it
    puts no 6 or 8 next to another: the seed mixes the volcano in with the other tiles, so its
    token follows the board's rule.
    """
    hex_id = rng.below(HEX_COUNT)
    number = layout.numbers[hex_id]
    if number is not None:
        return _replaced(layout, {hex_id: number})
    numbers = list(layout.numbers)
    while True:  # ends: the pool holds numbers that are not red
        numbers[hex_id] = rng.choice(EDITION.replaced_desert_number_pool)
        if _reds_apart(numbers):
            return _replaced(layout, {hex_id: numbers[hex_id]})


MEETING_TRIES = 200
"""Draws of a meeting point for Vulkan-issimo before the red-number rule is let go: the rule holds
within a few draws on the boards measured, the bound only makes the loop visibly finite."""


def volcano_meeting_points(terrains: Sequence[str]) -> list[int]:
    """Inland intersections with no desert around: where Vulkan-issimo's three volcanoes may meet."""
    return [
        node
        for node, hexes in enumerate(NODE_HEXES)
        if len(hexes) == 3 and all(terrains[h] != DESERT for h in hexes)
    ]


def _tokens_to_cluster(numbers: Sequence[int | None], cluster: Sequence[int], rng: Rng) -> list[int | None]:
    """Give ``cluster[i]`` the i-th Vulkan-issimo number by swapping tokens with a hex carrying it, so
    the token set stays the base game's."""
    dealt = list(numbers)
    for placed, (hex_id, number) in enumerate(zip(cluster, EDITION.vulkan_issimo_numbers, strict=True)):
        if dealt[hex_id] == number:
            continue
        donors = [h for h, token in enumerate(dealt) if token == number and h not in cluster[:placed]]
        donor = rng.choice(donors)  # the base game has two tokens of each, one at most already placed
        dealt[donor], dealt[hex_id] = dealt[hex_id], number
    return dealt


def volcanoes_around_one_intersection(layout: Layout, rng: Rng) -> Layout:
    """Vulkan-issimo: three volcanoes numbered 4, 5 and 6 around one intersection.

    The seed speaks of intersections "with two or three bordering volcanic fields", so the three are
    laid around an inland intersection drawn at random (the desert stays, for the robber); which of
    them carries 4, 5 or 6 is drawn too. Each takes its token from a hex carrying it, which gets the
    volcano hex's old token in exchange, so the token set stays the base game's; the draw is repeated
    until no 6 and 8 touch. All volcano tiles are laid with corner 1 at the top, which keeps the
    corner numbers meeting at an intersection different (they are always 1, 3, 5 or 2, 4, 6).
    """
    points = volcano_meeting_points(layout.terrains)  # never empty: one desert touches 6 of 24
    for _ in range(MEETING_TRIES):
        cluster = list(NODE_HEXES[rng.choice(points)])
        rng.shuffle_in_one_draw(cluster)
        numbers = _tokens_to_cluster(layout.numbers, cluster, rng)
        if _reds_apart(numbers):
            break
    moved = Layout(layout.terrains, tuple(numbers), layout.harbours)
    return _replaced(moved, {h: numbers[h] for h in cluster})


def _robber_has_a_start(layout: Layout, where: str) -> None:
    if DESERT not in layout.terrains and not layout.volcanoes:
        message = f"{where}.hexes needs a desert (or a volcano) for the robber to start on"
        raise SetupError(message, f"{where}.hexes")


def any_volcano_number(layout: Layout, where: str) -> None:
    """The base game and the gold volcanoes: any token will do (only the robber needs a start)."""
    _robber_has_a_start(layout, where)


def volcano_in_the_deserts_place(layout: Layout, where: str) -> None:
    """Lost Desert: the volcano is where the desert was, so none is left, and it carries one of the
    four tokens the seed sets aside (4, 5, 9, 10); the robber then starts on it, as the seed says."""
    if DESERT in layout.terrains:
        message = f"{where}.hexes: in lost-desert the volcano takes the desert's place, so no desert is left"
        raise SetupError(message, f"{where}.hexes")
    allowed = EDITION.lost_desert_numbers
    for h in layout.volcanoes:
        if layout.numbers[h] not in allowed:
            here = f"{where}.hexes[{h}].number"
            shown = ", ".join(map(str, allowed))
            raise SetupError(f"{here} must be one of {shown} on a lost-desert volcano", here)


def volcanoes_numbered_four_five_six(layout: Layout, where: str) -> None:
    """Vulkan-issimo: the three volcanic fields carry 4, 5 and 6, one each, around one intersection."""
    numbers = sorted(layout.numbers[h] or 0 for h in layout.volcanoes)
    wanted = sorted(EDITION.vulkan_issimo_numbers)
    if numbers != wanted:
        shown = ", ".join(map(str, wanted))
        raise SetupError(f"{where}.hexes: the vulkan-issimo volcanoes are numbered {shown}", f"{where}.hexes")
    if set(layout.volcanoes) not in [set(hexes) for hexes in NODE_HEXES]:
        message = f"{where}.hexes: the vulkan-issimo volcanoes meet at one intersection"
        raise SetupError(message, f"{where}.hexes")
    _robber_has_a_start(layout, where)


EXPLICIT_BOARD_RULES: dict[str, Callable[[Layout, str], None]] = {
    "none": any_volcano_number,
    "desert": volcano_in_the_deserts_place,
    "random_hex": any_volcano_number,
    "four_five_six": volcanoes_numbered_four_five_six,
}
"""What an explicit board of each placement must hold beyond the volcano count, so that a given
board obeys the same variant rules as a seeded one (a SetupError names the field otherwise)."""

VOLCANO_PLACEMENTS: dict[str, Callable[[Layout, Rng], Layout]] = {
    "none": no_volcano,
    "desert": volcano_on_desert,
    "random_hex": volcano_on_random_hex,
    "four_five_six": volcanoes_around_one_intersection,
}
"""How each variant puts its volcanoes on a beginner or random board, by placement name."""

BOARD_MAKERS: dict[str, Callable[[Rng], Layout]] = {
    "beginner": lambda rng: beginner_layout(),
    "random": random_layout,
}
"""The ``board`` option's values."""
