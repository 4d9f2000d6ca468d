"""Trios and the win: how many sets a seat's captured pieces make at best.

A trio is one small, one medium and one large piece. Captured pieces may be regrouped freely, so the
best grouping is a count, not a search: the most trios of any colours is the scarcest size, and the
most single-colour trios is, colour by colour, that colour's scarcest size. Both maxima are reached
by one grouping at once (build every single-colour trio, then mix the rest), which is why a
single-colour trio also counts toward the five.

>>> from referee.volcano.pieces import Colour, nest
>>> held = nest(Colour.RED) + nest(Colour.BLUE) + [Piece(Colour.GREEN, 1), Piece(Colour.CLEAR, 2)]
>>> count_trios(held)
Trios(single_colour=2, any_colour=2)
>>> winning_reason(count_trios(held)) is None
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import NamedTuple

from referee.volcano.edition import SINGLE_COLOUR_TRIOS_TO_WIN, TRIOS_TO_WIN
from referee.volcano.ends import VolcanoEnd
from referee.volcano.pieces import SIZES, Colour, Piece


class Trios(NamedTuple):
    """The best grouping's counts: single-colour trios, and trios of any colours (those included)."""

    single_colour: int
    any_colour: int

    def to_json(self) -> dict[str, int]:
        return {"single_colour": self.single_colour, "any_colour": self.any_colour}


_NESTS: tuple[tuple[Piece, ...], ...] = tuple(
    tuple(Piece(colour, size) for size in SIZES) for colour in Colour
)


def count_trios(pieces: Iterable[Piece]) -> Trios:
    held = Counter(pieces)
    get = held.get
    single = sum(min(get(small, 0), get(medium, 0), get(large, 0)) for small, medium, large in _NESTS)
    by_size = dict.fromkeys(SIZES, 0)
    for piece, count in held.items():
        by_size[piece.size] += count
    return Trios(single, min(by_size.values()))


WIN_CONDITIONS: tuple[tuple[str, Callable[[Trios], bool]], ...] = (
    (VolcanoEnd.THREE_SINGLE_COLOUR_TRIOS, lambda trios: trios.single_colour >= SINGLE_COLOUR_TRIOS_TO_WIN),
    (VolcanoEnd.FIVE_TRIOS, lambda trios: trios.any_colour >= TRIOS_TO_WIN),
)
"""The ways to win, checked in this order; the first that holds names the outcome's reason."""


def winning_reason(trios: Trios) -> str | None:
    """The outcome reason if these trios win, else None."""
    return next((reason for reason, holds in WIN_CONDITIONS if holds(trios)), None)
