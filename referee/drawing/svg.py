"""A small SVG writer shared by the board pictures: shapes, escaped text, a standalone document.

Every picture is self-contained (no external font, image or script) and carries a ``viewBox`` so it
scales to whatever box a page gives it. Shapes take a ``cls`` so that tests (and style sheets) can
find, say, every piece of one kind on a board.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape, quoteattr

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
"""Generic families only: the picture names no font file, a viewer uses what it has."""

SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
"""Seat colours for games whose pieces have no colour of their own: far apart in hue."""

Point = tuple[float, float]


def _number(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _attributes(attrs: dict[str, object]) -> str:
    parts = []
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        if isinstance(value, float):
            value = _number(value)
        parts.append(f"{name.rstrip('_').replace('_', '-')}={quoteattr(str(value))}")
    return " ".join(parts)


class Svg:
    """The elements of one picture, in drawing order (later ones on top)."""

    def __init__(self, width: float, height: float, background: str = "#fbf8f3") -> None:
        self.width = width
        self.height = height
        """May grow after drawing (a legend longer than the board): the document uses the last value."""
        self.background = background
        self.parts: list[str] = []

    def element(self, tag: str, content: str | None = None, /, **attrs: object) -> None:
        if "cls" in attrs:
            attrs["class"] = attrs.pop("cls")
        attributes = _attributes(attrs)
        if content is None:
            self.parts.append(f"<{tag} {attributes}/>")
        else:
            self.parts.append(f"<{tag} {attributes}>{content}</{tag}>")

    def rect(self, x: float, y: float, w: float, h: float, **attrs: object) -> None:
        self.element("rect", x=float(x), y=float(y), width=float(w), height=float(h), **attrs)

    def circle(self, x: float, y: float, r: float, **attrs: object) -> None:
        self.element("circle", cx=float(x), cy=float(y), r=float(r), **attrs)

    def line(self, a: Point, b: Point, **attrs: object) -> None:
        self.element("line", x1=float(a[0]), y1=float(a[1]), x2=float(b[0]), y2=float(b[1]), **attrs)

    def polygon(self, points: Iterable[Point], **attrs: object) -> None:
        self.element("polygon", points=" ".join(f"{_number(x)},{_number(y)}" for x, y in points), **attrs)

    def text(self, x: float, y: float, content: str, size: float = 14, **attrs: object) -> None:
        attrs.setdefault("font_family", FONT)
        self.element("text", escape(content), x=float(x), y=float(y), font_size=float(size), **attrs)

    def title(self, content: str) -> None:
        """A tooltip for the element drawn last's group (SVG ``<title>``)."""
        self.parts.append(f"<title>{escape(content)}</title>")

    def open_group(self, **attrs: object) -> None:
        if "cls" in attrs:
            attrs["class"] = attrs.pop("cls")
        self.parts.append(f"<g {_attributes(attrs)}>" if attrs else "<g>")

    def close_group(self) -> None:
        self.parts.append("</g>")

    def document(self, label: str) -> str:
        """The standalone SVG: ``label`` becomes its title (what screen readers and tabs show).

        Its size is its ``viewBox`` and ``width="100%"``, no pixels: the picture fills the width of
        whatever shows it (a page's box, a browser tab of its own) and keeps its proportions."""
        w, h = _number(self.width), _number(self.height)
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="100%" '
            f'role="img" font-family="{FONT}">'
        )
        background = f'<rect x="0" y="0" width="{w}" height="{h}" fill="{self.background}"/>'
        return "\n".join([head, f"<title>{escape(label)}</title>", background, *self.parts, "</svg>"]) + "\n"


def swatch_row(svg: Svg, x: float, y: float, items: Sequence[tuple[str, str]], size: float = 14) -> float:
    """Coloured squares with labels in one row (a legend line); returns the x after the last label."""
    for colour, label in items:
        svg.rect(x, y - size + 3, size, size, fill=colour, stroke="#333", stroke_width=1)
        svg.text(x + size + 4, y, label, size=size - 1)
        x += size + 10 + 0.6 * (size - 1) * len(label)
    return x


def wrapped(
    svg: Svg, x: float, y: float, content: str, chars: int, size: float = 13, **attrs: object
) -> float:
    """``content`` in lines of at most ``chars`` characters (the later ones indented), one under
    another from ``y``, so that a line of a legend never runs off the picture; returns the y under
    the last."""
    for line in textwrap.wrap(content, chars, subsequent_indent="  ") or [""]:
        svg.text(x, y, line, size, **attrs)
        y += round(size * 1.35)
    return y


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_colours(seats: int) -> list[str]:
    """The palette's colours of seats ``0`` to ``seats - 1``: for a game whose pieces have none."""
    return [seat_colour(seat) for seat in range(seats)]
