"""Vulkan! as a picture: the forest tiles on their hex grid with fire values and the loads on them
by colour, the volcano, the tiles already won (faint, in their winner's colour) and removed (crossed
out) where they lay, and each seat's colours, supply and score.

Everything in Vulkan! is open, so ``reveal`` changes nothing. Read from ``state.observation(0)``
(which every seat sees alike); the text form is the engine's own :func:`referee.vulkan.render.render`.
"""

from __future__ import annotations

import math
from typing import Any

from referee.drawing.svg import Svg, swatch_row, wrapped
from referee.game import State
from referee.vulkan.render import render as engine_text
from referee.vulkan.state import COLOUR_NAMES

LOAD_COLOURS = {"red": "#d62728", "yellow": "#f2c100", "green": "#2ca02c", "blue": "#1f77b4"}
FIRE = {1: "#fde9b6", 2: "#fcd08a", 3: "#f9ac62", 4: "#f2804a", 5: "#e0533a", 6: "#c02a2a"}
"""Tile fill by fire value, pale (1) to deep red (6)."""
SIZE = 44.0
"""Hex radius in picture units."""
PANEL = 330.0
LEGEND_CHARS = 42
"""Characters of a line of the legend's 12-unit text that fit in the panel (wrapped there)."""


def _centre(q: int, r: int) -> tuple[float, float]:
    return SIZE * math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r


def _corners(x: float, y: float, radius: float = SIZE) -> list[tuple[float, float]]:
    return [
        (x + radius * math.cos(math.radians(60 * k - 30)), y + radius * math.sin(math.radians(60 * k - 30)))
        for k in range(6)
    ]


def _seat_label(seat: int, colours: list[str]) -> str:
    return f"seat {seat} ({'+'.join(colours)})"


def seat_colours(seats: int) -> list[str]:
    """Each seat's colour: that of its first load colour (a seat's colours come with the seat count).

    >>> seat_colours(2)  # red and yellow, green and blue
    ['#d62728', '#2ca02c']
    """
    return [LOAD_COLOURS[names[0]] for names in COLOUR_NAMES[seats]]


def svg(state: State, reveal: bool = True) -> str:
    view = state.observation(0)
    seats = view["seats"]
    owner_colour = dict(enumerate(seat_colours(len(seats))))
    cells: list[tuple[int, int]] = [tuple(tile["at"]) for tile in view["tiles"]]
    awarded = [
        (seat, award) for seat, info in enumerate(seats) for award in info["awarded"] if award.get("at")
    ]
    cells += [tuple(award["at"]) for _, award in awarded] + [tuple(cell) for cell in view["removed"]]
    if not cells:
        cells = [(0, 0)]
    xs = [_centre(q, r)[0] for q, r in cells]
    ys = [_centre(q, r)[1] for q, r in cells]
    margin = SIZE + 16
    left, top = min(xs) - margin, min(ys) - margin - 40
    board_w = max(xs) - min(xs) + 2 * margin
    picture = Svg(board_w + PANEL, max(ys) - min(ys) + 2 * margin + 40)

    def at(q: int, r: int) -> tuple[float, float]:
        x, y = _centre(q, r)
        return x - left, y - top

    picture.text(
        14,
        28,
        f"Vulkan! ({view['variant']}), move {view['turn']}, {_phase_text(view)}",
        18,
        font_weight="bold",
    )
    for seat, award in awarded:
        x, y = at(*award["at"])
        picture.polygon(
            _corners(x, y, SIZE - 2),
            fill="#ffffff",
            stroke=owner_colour[seat],
            stroke_width=3,
            stroke_dasharray="6 4",
            cls="awarded-tile",
            opacity=0.9,
        )
        picture.text(
            x,
            y + 2,
            str(award["value"]),
            20,
            text_anchor="middle",
            fill=owner_colour[seat],
            font_weight="bold",
        )
        picture.text(x, y + 20, f"to seat {seat}", 10, text_anchor="middle", fill="#333")
    for cell in view["removed"]:
        x, y = at(*cell)
        picture.polygon(
            _corners(x, y, SIZE - 2),
            fill="#eeeeee",
            stroke="#999",
            stroke_dasharray="4 4",
            cls="removed-tile",
        )
        picture.line((x - 14, y - 14), (x + 14, y + 14), stroke="#999", stroke_width=3)
        picture.line((x - 14, y + 14), (x + 14, y - 14), stroke="#999", stroke_width=3)
        picture.text(x, y + 30, "removed", 9, text_anchor="middle", fill="#666")
    volcano = tuple(view["volcano"]) if view["volcano"] else None
    for tile in view["tiles"]:
        q, r = tile["at"]
        x, y = at(q, r)
        if (q, r) == volcano:
            picture.polygon(
                _corners(x, y, SIZE - 1), fill="#3b2a24", stroke="#1a1a1a", stroke_width=2, cls="volcano"
            )
            picture.polygon(
                [(x - 22, y + 14), (x - 7, y - 14), (x + 7, y - 14), (x + 22, y + 14)],
                fill="#6b4a3a",
                stroke="#ff7b00",
                stroke_width=2,
            )
            picture.polygon([(x - 7, y - 14), (x, y - 26), (x + 7, y - 14)], fill="#ff5a00")
            picture.text(x, y + 30, "VOLCANO", 9, text_anchor="middle", fill="#ffd28a", font_weight="bold")
            continue
        picture.open_group(cls="tile", data_value=tile["value"])
        picture.polygon(
            _corners(x, y, SIZE - 1), fill=FIRE.get(tile["value"], "#ddd"), stroke="#5a3b1a", stroke_width=2
        )
        picture.text(
            x,
            y - 4,
            str(tile["value"]),
            24,
            text_anchor="middle",
            font_weight="bold",
            fill="#2b1a0a",
            cls="tile-value",
        )
        spaces, loads = tile["spaces"], tile["loads"]
        picture.rect(
            x - 8.5 * spaces - 3,
            y + 8,
            17 * spaces + 6,
            20,
            rx=10,
            fill="#fff8ee",
            stroke="#5a3b1a",
            stroke_width=1,
        )
        for k in range(spaces):
            cx = x + (k - (spaces - 1) / 2) * 17
            colour = LOAD_COLOURS.get(loads[k], "#888") if k < len(loads) else "#ffffff"
            picture.circle(
                cx,
                y + 18,
                7,
                fill=colour,
                stroke="#222",
                stroke_width=1.5,
                cls="load" if k < len(loads) else "space",
            )
        picture.title(
            f"[{q}, {r}] fire {tile['value']}, {len(loads)}/{spaces} loads: {', '.join(loads) or 'none'}"
        )
        picture.close_group()
    bottom = _legend(picture, board_w + 10, view, owner_colour)
    picture.height = max(picture.height, bottom + 20)
    return picture.document(f"Vulkan! board after move {view['turn']}")


def _phase_text(view: dict[str, Any]) -> str:
    if view["phase"] == "over":
        return "game over"
    if view["phase"] == "volcano":
        return f"seat {view['to_move']} to place the volcano"
    return f"seat {view['to_move']} to fly"


def _legend(picture: Svg, x: float, view: dict[str, Any], owner_colour: dict[int, str]) -> float:
    """The seats and the key, from the top right; returns where they end."""
    y = 64.0
    picture.text(x, y, "Seats", 16, font_weight="bold")
    y += 26
    for seat, info in enumerate(view["seats"]):
        marker = "▶ " if seat == view["to_move"] else ""
        picture.rect(x, y - 14, 18, 18, fill=owner_colour[seat], stroke="#222", cls="seat-swatch")
        picture.text(x + 26, y, f"{marker}{_seat_label(seat, info['colours'])}", 14, font_weight="bold")
        y += 20
        supply = ", ".join(f"{colour} {count}" for colour, count in info["supply"].items())
        picture.text(x + 26, y, f"loads left: {supply}", 12)
        y += 18
        values = " + ".join(str(a["value"]) for a in info["awarded"]) or "none"
        y = wrapped(picture, x + 26, y, f"score {info['score']} (tiles {values})", LEGEND_CHARS - 4, 12) + 2
        picture.text(x + 26, y, f"own loads on table: {info['loads_on_table']}", 12)
        y += 26
    picture.text(x, y, "Key", 16, font_weight="bold")
    y += 22
    swatch_row(picture, x, y, [(FIRE[1], "fire 1"), (FIRE[3], "fire 3"), (FIRE[6], "fire 6")])
    y += 22
    picture.circle(x + 7, y - 5, 7, fill="#ffffff", stroke="#222")
    picture.text(x + 20, y, "free space; filled dots are loads", 12)
    y += 20
    picture.text(x, y, "dashed outline: tile won (winner's colour)", 12)
    y += 18
    picture.text(x, y, f"removed tiles: {len(view['removed'])}", 12)
    y += 18
    out = ", ".join(f"{c} {n}" for c, n in view["loads_out"].items() if n)
    return wrapped(picture, x, y, f"loads out of the game: {out or 'none'}", LEGEND_CHARS, 12)


def text(state: State, reveal: bool = True) -> str:
    view = state.observation(0)
    lines = [f"Vulkan! ({view['variant']}), move {view['turn']}, {_phase_text(view)}", ""]
    lines.append(engine_text(state))  # type: ignore[arg-type]  # a VulkanState, by the registry
    lines.append("")
    lines.append("tiles: fire value, a letter per load (r y g b), a dot per free space; VV the volcano")
    for seat, info in enumerate(view["seats"]):
        marker = "*" if seat == view["to_move"] else " "
        supply = ", ".join(f"{colour} {count}" for colour, count in info["supply"].items())
        won = " ".join(str(a["value"]) for a in info["awarded"]) or "-"
        lines.append(
            f"{marker}{_seat_label(seat, info['colours'])}: score {info['score']}, tiles won {won}, "
            f"loads left {supply}, own loads on table {info['loads_on_table']}"
        )
    removed = ", ".join(str(cell) for cell in view["removed"]) or "none"
    lines.append(f" removed tiles: {removed}")
    return "\n".join(lines) + "\n"
