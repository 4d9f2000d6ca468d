"""What sits on a Volcano board: translucent pieces (a colour and a size) and the opaque caps.

A piece is named by its colour and its size, 1 small, 2 medium, 3 large; the engine never calls a
piece by anything else. Caps are their own kind: small opaque black or white pyramids that trigger
eruptions and that nothing may land on. Black and white caps act the same; the colour is kept only so
that a board reads like the table.

>>> Piece(Colour.RED, 3).to_json()
{'colour': 'red', 'size': 3}
>>> Piece.from_json({"colour": "clear", "size": 1})
Piece(colour=<Colour.CLEAR: 'clear'>, size=1)
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple


class Colour(StrEnum):
    """The eight translucent colours, three nests of each, in the order the engine lists them."""

    RED = "red"
    ORANGE = "orange"
    YELLOW = "yellow"
    GREEN = "green"
    CYAN = "cyan"
    BLUE = "blue"
    PURPLE = "purple"
    CLEAR = "clear"


class CapColour(StrEnum):
    """The two cap colours. They play the same; black starts on red nests, white on orange."""

    BLACK = "black"
    WHITE = "white"


SIZES: tuple[int, ...] = (1, 2, 3)
"""Piece sizes, small to large. A nest stacks them in this order, the large one on top."""

SIZE_NAMES: dict[int, str] = {1: "small", 2: "medium", 3: "large"}

COLOUR_ORDER: dict[Colour, int] = {colour: index for index, colour in enumerate(Colour)}
_COLOUR_NAMES = frozenset(colour.value for colour in Colour)
_CAP_NAMES = frozenset(cap.value for cap in CapColour)


class PieceError(ValueError):
    """A JSON value that does not name a piece; the caller says where it was."""


class Piece(NamedTuple):
    """One translucent pyramid. Tuples compare and hash by value, so equal pieces are interchangeable."""

    colour: Colour
    size: int

    def to_json(self) -> dict[str, Any]:
        return {"colour": self.colour.value, "size": self.size}

    @classmethod
    def from_json(cls, data: Any) -> Piece:
        """Read ``{"colour": ..., "size": ...}`` exactly; anything else raises :class:`PieceError`.

        >>> Piece.from_json({"colour": "red", "size": 2.0})
        Traceback (most recent call last):
        ...
        referee.volcano.pieces.PieceError: size must be 1, 2 or 3, not 2.0
        """
        if type(data) is dict and len(data) == 2:  # the usual case: a piece as the referee spells it
            colour, size = data.get("colour"), data.get("size")
            if type(colour) is str and type(size) is int:  # exactly: 2.0 and True are refused below
                known = _PIECES.get((colour, size))
                if known is not None:
                    return known
        if not isinstance(data, dict) or set(data) != {"colour", "size"}:
            raise PieceError('a piece is {"colour": <colour>, "size": 1, 2 or 3}')
        colour, size = data["colour"], data["size"]
        if not isinstance(colour, str) or colour not in _COLOUR_NAMES:
            allowed = ", ".join(c.value for c in Colour)
            raise PieceError(f"colour must be one of {allowed}, not {colour!r}")
        # exactly an int: 2.0 == 2 would pass a membership test, then spell the piece "2.0" in every
        # document after it, so a move the engine never listed would be taken; True is an int too
        if type(size) is not int or size not in SIZES:
            raise PieceError(f"size must be 1, 2 or 3, not {size!r}")
        return cls(Colour(colour), size)

    def sort_key(self) -> tuple[int, int]:
        """Colour in the declared order, then size: how captures and move lists are ordered."""
        return COLOUR_ORDER[self.colour], self.size


_PIECES: dict[tuple[str, int], Piece] = {
    (colour.value, size): Piece(colour, size) for colour in Colour for size in SIZES
}
"""Every piece by its JSON's colour and size: a board of a request holds dozens of pieces, each
read with one lookup (pieces are tuples, equal ones interchangeable)."""


def nest(colour: Colour) -> list[Piece]:
    """A monochrome nest, bottom to top: small, medium, large.

    >>> [piece.size for piece in nest(Colour.BLUE)]
    [1, 2, 3]
    """
    return [Piece(colour, size) for size in SIZES]


def parse_cap(data: Any) -> CapColour | None:
    """A square's cap as JSON: null, "black" or "white"."""
    if data is None:
        return None
    if not isinstance(data, str) or data not in _CAP_NAMES:
        raise PieceError(f'cap must be null, "black" or "white", not {data!r}')
    return CapColour(data)
