"""Volcano (Looney Pyramids) as a picture: the 5x5 board, each square's stack drawn bottom to top
with every piece in its colour and at its size (wider is larger), the caps on top, the Caldera, the
last eruption's step, and each seat's captures with its trios.

The pieces have colours of their own, so seats are told apart by the seat colours of the captures
panel. Everything is open in Volcano, so ``reveal`` changes nothing. Read from
``state.observation(0)``.
"""

from __future__ import annotations

from typing import Any

from referee.drawing.svg import Svg, seat_colour
from referee.game import State

PIECE_COLOURS = {
    "red": "#e0262b",
    "orange": "#ff8c1a",
    "yellow": "#ffe033",
    "green": "#2fa84f",
    "cyan": "#33d6e0",
    "blue": "#2f5fd0",
    "purple": "#8e44ad",
    "clear": "#f4f4f4",
}
LETTERS = {
    "red": "R",
    "orange": "O",
    "yellow": "Y",
    "green": "G",
    "cyan": "C",
    "blue": "B",
    "purple": "P",
    "clear": "L",
}
"""One letter per colour, as the game's page prints boards (``L`` for clear)."""
DARK_TEXT = {"yellow", "clear", "cyan", "orange"}
SQUARE = 124.0
TOP = 56.0
LEFT = 40.0
PANEL = 380.0
WIDTHS = {1: 40.0, 2: 66.0, 3: 92.0}


def svg(state: State, reveal: bool = True) -> str:
    view = state.observation(0)
    board = view["board"]
    size = len(board)
    caldera = tuple(view.get("caldera") or (size // 2, size // 2))
    picture = Svg(LEFT + size * SQUARE + 30 + PANEL, TOP + size * SQUARE + 20)
    picture.text(
        14, 30, f"Volcano (Looney Pyramids), turn {view['turn']}, {_to_move(view)}", 18, font_weight="bold"
    )
    for column in range(size):
        picture.text(
            LEFT + (column + 0.5) * SQUARE, TOP - 6, str(column), 12, text_anchor="middle", fill="#666"
        )
    for row_index, row in enumerate(board):
        picture.text(
            LEFT - 14, TOP + (row_index + 0.5) * SQUARE, str(row_index), 12, text_anchor="middle", fill="#666"
        )
        for column, square in enumerate(row):
            _square(picture, row_index, column, square, (row_index, column) == caldera)
    _last_eruption(picture, view.get("last_eruption"))
    bottom = _panel(picture, LEFT + size * SQUARE + 30, view)
    picture.height = max(picture.height, bottom + 20)
    return picture.document(f"Volcano board, turn {view['turn']}")


def _square(picture: Svg, row: int, column: int, square: dict[str, Any], is_caldera: bool) -> None:
    x, y = LEFT + column * SQUARE, TOP + row * SQUARE
    fill = "#5a3a2e" if is_caldera else ("#efe6d8" if (row + column) % 2 else "#e4d8c4")
    picture.rect(x, y, SQUARE, SQUARE, fill=fill, stroke="#8a7a66", stroke_width=1.5, cls="square")
    if is_caldera:
        picture.text(x + 6, y + 14, "Caldera", 11, fill="#ffcf99", font_weight="bold")
    stack = square["stack"]
    picture.open_group(cls="stack", data_square=f"{row},{column}", data_pieces=len(stack))
    picture.title(f"[{row}, {column}] bottom to top: {_stack_text(square)}")
    bar = min(17.0, (SQUARE - 34) / max(1, len(stack)))
    base = y + SQUARE - 8
    centre = x + SQUARE / 2
    for level, piece in enumerate(stack):
        width = WIDTHS.get(piece["size"], 40.0)
        top = base - (level + 1) * bar
        colour = piece["colour"]
        inset = min(6.0, bar / 2)
        picture.polygon(
            [
                (centre - width / 2, top + bar),
                (centre - width / 2 + inset, top),
                (centre + width / 2 - inset, top),
                (centre + width / 2, top + bar),
            ],
            fill=PIECE_COLOURS.get(colour, "#999"),
            stroke="#222",
            stroke_width=1,
            cls="piece",
            data_colour=colour,
            data_size=piece["size"],
        )
        if bar >= 10:
            picture.text(
                centre,
                top + bar - 2.5,
                f"{LETTERS.get(colour, '?')}{piece['size']}",
                min(12.0, bar - 1),
                text_anchor="middle",
                fill="#111" if colour in DARK_TEXT else "#fff",
            )
    picture.close_group()
    cap = square.get("cap")
    if cap:
        top = base - len(stack) * bar
        cx, cy = x + SQUARE - 20, y + 22
        picture.polygon(
            [(cx - 13, cy + 12), (cx, cy - 14), (cx + 13, cy + 12)],
            fill="#111" if cap == "black" else "#fff",
            stroke="#111" if cap == "white" else "#888",
            stroke_width=2,
            cls="cap",
            data_cap=cap,
        )
        picture.line(
            (cx, cy + 12), (centre, max(top, y + 30)), stroke="#555", stroke_width=1, stroke_dasharray="2 2"
        )


def _centre_of(square: list[int]) -> tuple[float, float]:
    return LEFT + (square[1] + 0.5) * SQUARE, TOP + (square[0] + 0.5) * SQUARE


def _last_eruption(picture: Svg, eruption: dict[str, Any] | None) -> None:
    if not eruption:
        return
    start, end = _centre_of(eruption["cap"]["from"]), _centre_of(eruption["cap"]["to"])
    picture.line(start, end, stroke="#ff3d00", stroke_width=4, opacity=0.7, cls="last-step")
    picture.circle(end[0], end[1], 6, fill="#ff3d00", opacity=0.7)
    for landing in eruption["flow"]:
        x, y = _centre_of(landing["to"])
        picture.circle(
            x - SQUARE / 2 + 14,
            y - SQUARE / 2 + 30,
            7,
            fill=seat_colour(eruption["seat"]) if landing["captured"] else "none",
            stroke="#ff3d00",
            stroke_width=2,
            cls="landing",
        )


def _to_move(view: dict[str, Any]) -> str:
    return "game over" if view["to_move"] is None else f"seat {view['to_move']} to move"


def _panel(picture: Svg, x: float, view: dict[str, Any]) -> float:
    """The captures and the key, from the top right; returns where they end."""
    y = TOP + 10
    picture.text(x, y, "Captures", 16, font_weight="bold")
    y += 26
    for seat, pieces in enumerate(view["captures"]):
        trios = view["trios"][seat]
        marker = "▶ " if seat == view["to_move"] else ""
        picture.rect(x, y - 14, 18, 18, fill=seat_colour(seat), stroke="#222", cls="seat-swatch")
        picture.text(x + 26, y, f"{marker}seat {seat}: {len(pieces)} captured", 14, font_weight="bold")
        y += 20
        picture.text(
            x + 26, y, f"trios: {trios['single_colour']} single-colour, {trios['any_colour']} any", 12
        )
        y += 10
        column = 0
        for piece in pieces:
            if column == 12:
                column, y = 0, y + 26
            px = x + 26 + column * 26
            width = 8 + 6 * piece["size"]
            picture.polygon(
                [
                    (px + 12 - width / 2, y + 22),
                    (px + 12, y + 22 - 6 - 5 * piece["size"]),
                    (px + 12 + width / 2, y + 22),
                ],
                fill=PIECE_COLOURS.get(piece["colour"], "#999"),
                stroke="#222",
                stroke_width=1,
                cls="captured",
                data_seat=seat,
            )
            column += 1
        y += 48
    picture.text(x, y, "Key", 16, font_weight="bold")
    y += 22
    picture.text(x, y, "stacks bottom to top; width = size (1 small, 3 large)", 12)
    y += 18
    picture.text(x, y, "letters: R O Y G C B P, L = clear", 12)
    y += 18
    picture.polygon([(x, y + 4), (x + 7, y - 10), (x + 14, y + 4)], fill="#111")
    picture.polygon([(x + 20, y + 4), (x + 27, y - 10), (x + 34, y + 4)], fill="#fff", stroke="#111")
    picture.text(x + 42, y, "caps (black, white) on a stack", 12)
    y += 18
    picture.line((x, y - 4), (x + 34, y - 4), stroke="#ff3d00", stroke_width=4, opacity=0.7)
    picture.text(x + 42, y, "last eruption's cap step; circles: landings", 12)
    y += 18
    picture.text(x, y, "(filled in the mover's colour: captured)", 12)
    y += 24
    picture.text(
        x, y, f"steps this turn: {view['steps_this_turn']}, passes in a row: {view['passes_in_row']}", 12
    )
    return y


def _stack_text(square: dict[str, Any]) -> str:
    pieces = "".join(f"{LETTERS.get(p['colour'], '?')}{p['size']}" for p in square["stack"]) or "."
    cap = square.get("cap")
    return pieces + ("" if not cap else f"+{cap[0]}")


def text(state: State, reveal: bool = True) -> str:
    view = state.observation(0)
    board = view["board"]
    cells = [[_stack_text(square) for square in row] for row in board]
    width = max(10, *(len(cell) + 2 for row in cells for cell in row))
    lines = [f"Volcano, turn {view['turn']}, {_to_move(view)}", ""]
    lines.append("   " + "".join(str(c).rjust(width) for c in range(len(board))))
    for index, row in enumerate(cells):
        lines.append(f"{index:>2} " + "".join(cell.rjust(width) for cell in row))
    lines.append("")
    lines.append(
        "stacks bottom to top: colour letter (R O Y G C B P, L clear) and size; +b/+w a cap; . empty"
    )
    for seat, pieces in enumerate(view["captures"]):
        marker = "*" if seat == view["to_move"] else " "
        trios = view["trios"][seat]
        held = " ".join(f"{LETTERS.get(p['colour'], '?')}{p['size']}" for p in pieces) or "-"
        lines.append(
            f"{marker}seat {seat}: captured {held}; trios {trios['single_colour']} single-colour, "
            f"{trios['any_colour']} any"
        )
    eruption = view.get("last_eruption")
    if eruption:
        cap = eruption["cap"]
        caught = sum(1 for landing in eruption["flow"] if landing["captured"])
        lines.append(
            f" last eruption: seat {eruption['seat']} stepped the {cap['colour']} cap {cap['from']} "
            f"{cap['dir']}; {len(eruption['flow'])} pieces flowed, {caught} captured"
        )
    return "\n".join(lines) + "\n"
