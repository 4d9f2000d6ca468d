"""Catan with the volcano variants as a picture: the hexes with their terrain and number tokens, the
harbours, roads, settlements and cities in their seat's colour, the robber, the volcanoes with their
lava corners (1 to 6) and the hits of the eruptions still in the event log, and a panel per seat.

The observation carries the island's ids and adjacency but no coordinates; the picture places the
hexes from the documented id order (rows of 3, 4, 5, 4, 3 from the top, left to right, pointy-top)
and each node at its hex corner (``hex_nodes`` lists corners clockwise from the top). Lava hits are
the ``eruption`` events of the observation, which keeps the current turn and the previous
``seats`` turns: older hits are not in the state, so they are not drawn.

With ``reveal`` (a finished match) each seat's cards are shown, read from that seat's own
observation; without it, only what the table sees: how many cards each seat holds.
"""

from __future__ import annotations

import math
from typing import Any

from referee.drawing.svg import Svg, seat_colour
from referee.game import State

SIZE = 62.0
ROWS = (3, 4, 5, 4, 3)
TERRAIN = {
    "forest": "#2e7d32",
    "hills": "#c8643b",
    "pasture": "#9ccc65",
    "fields": "#f2c94c",
    "mountains": "#8d99a6",
    "desert": "#e8d8a8",
    "volcano": "#4a2c2a",
}
RESOURCE = {"wood": "#2e7d32", "brick": "#c8643b", "sheep": "#9ccc65", "wheat": "#f2c94c", "ore": "#8d99a6"}
SEATS = ("#d62728", "#1f77b4", "#f5f5f5", "#ff7f0e")
"""The box's piece colours: red, blue, white, orange."""
PANEL = 400.0
ORIGIN = (SIZE * 5.2, SIZE * 2.4)
"""Where the top row's middle sits in the picture."""


def _seat(seat: int) -> str:
    return SEATS[seat] if seat < len(SEATS) else seat_colour(seat)


def seat_colours(seats: int) -> list[str]:
    """Each seat's colour, as its pieces are drawn."""
    return [_seat(seat) for seat in range(seats)]


def _hex_centre(hex_id: int) -> tuple[float, float]:
    first = 0
    for row, count in enumerate(ROWS):
        if hex_id < first + count:
            column = hex_id - first
            x = ORIGIN[0] + (column - (count - 1) / 2) * SIZE * math.sqrt(3)
            return x, ORIGIN[1] + row * SIZE * 1.5
        first += count
    raise ValueError(f"hex {hex_id} is not on the island")


def _corner(centre: tuple[float, float], corner: int, radius: float = SIZE) -> tuple[float, float]:
    """Corner 0 is the top, then clockwise (the doc's corners 1..6)."""
    angle = math.radians(-90 + 60 * corner)
    return centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle)


def node_points(board: dict[str, Any]) -> dict[int, tuple[float, float]]:
    points: dict[int, tuple[float, float]] = {}
    for hex_id, nodes in enumerate(board["hex_nodes"]):
        centre = _hex_centre(hex_id)
        for corner, node in enumerate(nodes):
            points.setdefault(node, _corner(centre, corner))
    return points


def _pips(number: int) -> int:
    return 6 - abs(7 - number)


def _views(state: State, reveal: bool) -> tuple[dict[str, Any], list[dict[str, Any]] | None]:
    """The table's view, and with ``reveal`` each seat's own ``you`` part."""
    table = state.observation(0)
    if not reveal:
        return table, None
    return table, [table["you"]] + [state.observation(seat)["you"] for seat in range(1, table["seats"])]


def svg(state: State, reveal: bool = True) -> str:
    view, private = _views(state, reveal)
    board = view["board"]
    points = node_points(board)
    picture = Svg(ORIGIN[0] * 2 + PANEL, ORIGIN[1] + 4 * SIZE * 1.5 + SIZE * 2.2, background="#cfe8f7")
    picture.text(
        14, 30, f"Catan ({view['variant']}), turn {view['turn']}, {_status(view)}", 18, font_weight="bold"
    )
    volcanoes = {v["hex"]: v for v in board["volcanoes"]}
    for info in board["hexes"]:
        _hex(picture, info, volcanoes.get(info["hex"]), view["robber"] == info["hex"])
    for harbour in board["harbours"]:
        _harbour(picture, harbour, points)
    for road in view["roads"]:
        a, b = board["edge_nodes"][road["edge"]]
        picture.line(points[a], points[b], stroke="#222", stroke_width=11, stroke_linecap="round")
        picture.line(
            points[a],
            points[b],
            stroke=_seat(road["seat"]),
            stroke_width=7,
            stroke_linecap="round",
            cls="road",
            data_seat=road["seat"],
        )
    for hit in _lava_hits(view):
        x, y = points[hit["node"]]
        star = [
            (
                x + (17 if k % 2 == 0 else 7) * math.cos(math.radians(k * 36 - 90)),
                y + (17 if k % 2 == 0 else 7) * math.sin(math.radians(k * 36 - 90)),
            )
            for k in range(10)
        ]
        picture.polygon(star, fill="#ff6a00", stroke="#8b0000", stroke_width=1.5, opacity=0.9, cls="lava-hit")
        picture.title(f"lava hit, turn {hit['turn']}" + (f": {hit['damage']}" if hit.get("damage") else ""))
    for building in view["buildings"]:
        _building(picture, points[building["node"]], building)
    bottom = _panel(picture, ORIGIN[0] * 2, view, private)
    picture.height = max(picture.height, bottom + 20)
    return picture.document(f"Catan board, turn {view['turn']}")


def _hex(picture: Svg, info: dict[str, Any], volcano: dict[str, Any] | None, robber: bool) -> None:
    centre = _hex_centre(info["hex"])
    x, y = centre
    terrain = info["terrain"]
    picture.polygon(
        [_corner(centre, k, SIZE - 1) for k in range(6)],
        fill=TERRAIN.get(terrain, "#ccc"),
        stroke="#f4ead2",
        stroke_width=3,
        cls="hex",
        data_terrain=terrain,
    )
    label = terrain if volcano is None else ("gold volcano" if volcano.get("gold") else "volcano")
    picture.text(
        x,
        y - SIZE * 0.45,
        label,
        11,
        text_anchor="middle",
        fill="#fff" if terrain in ("forest", "volcano") else "#222",
    )
    if volcano is not None:
        picture.polygon(
            [(x - 22, y + 30), (x - 8, y + 8), (x + 8, y + 8), (x + 22, y + 30)],
            fill="#7a4a3a",
            stroke="#ff7b00",
            stroke_width=2,
            cls="volcano",
        )
        for corner in range(6):
            cx, cy = _corner(centre, corner, SIZE - 14)
            picture.text(
                cx, cy + 4, str(corner + 1), 10, text_anchor="middle", fill="#ffb060", font_weight="bold"
            )
    number = info["number"]
    if number is not None:
        red = number in (6, 8)
        picture.circle(x, y - 2, 17, fill="#fbf3dc", stroke="#5a4a2a", stroke_width=1.5, cls="token")
        picture.text(
            x,
            y + 4,
            str(number),
            16,
            text_anchor="middle",
            font_weight="bold",
            fill="#c0392b" if red else "#222",
        )
        pips = _pips(number)
        for k in range(pips):
            picture.circle(x + (k - (pips - 1) / 2) * 4.5, y + 10, 1.5, fill="#c0392b" if red else "#222")
    if robber:
        picture.circle(x + 26, y + 14, 11, fill="#333", stroke="#fff", stroke_width=2, cls="robber")
        picture.circle(x + 26, y + 1, 7, fill="#333", stroke="#fff", stroke_width=2)
        picture.text(x + 26, y + 18, "R", 10, text_anchor="middle", fill="#fff", font_weight="bold")


def _harbour(picture: Svg, harbour: dict[str, Any], points: dict[int, tuple[float, float]]) -> None:
    a, b = (points[node] for node in harbour["nodes"])
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    centre = _hex_centre(9)
    dx, dy = mx - centre[0], my - centre[1]
    length = math.hypot(dx, dy) or 1.0
    hx, hy = mx + dx / length * SIZE * 0.62, my + dy / length * SIZE * 0.62
    for end in (a, b):
        picture.line(end, (hx, hy), stroke="#8b6b3a", stroke_width=4)
    kind = harbour["kind"]
    picture.circle(
        hx,
        hy,
        19,
        fill=RESOURCE.get(kind, "#ffffff"),
        stroke="#5a4a2a",
        stroke_width=2,
        cls="harbour",
        data_kind=kind,
    )
    picture.text(
        hx,
        hy + (0 if kind != "3:1" else 5),
        "3:1" if kind == "3:1" else "2:1",
        12,
        text_anchor="middle",
        font_weight="bold",
    )
    if kind != "3:1":
        picture.text(hx, hy + 12, kind, 9, text_anchor="middle")


def _building(picture: Svg, point: tuple[float, float], building: dict[str, Any]) -> None:
    x, y = point
    colour = _seat(building["seat"])
    if building["kind"] == "city":
        shape = [
            (x - 14, y + 10),
            (x - 14, y - 4),
            (x - 4, y - 4),
            (x - 4, y - 12),
            (x + 4, y - 18),
            (x + 12, y - 12),
            (x + 12, y + 10),
        ]
    else:
        shape = [(x - 9, y + 8), (x - 9, y - 3), (x, y - 12), (x + 9, y - 3), (x + 9, y + 8)]
    picture.polygon(
        shape, fill=colour, stroke="#111", stroke_width=2, cls=building["kind"], data_seat=building["seat"]
    )


def _lava_hits(view: dict[str, Any]) -> list[dict[str, Any]]:
    corners = {v["hex"]: v["corners"] for v in view["board"]["volcanoes"]}
    hits = []
    for event in view["events"]:
        if event.get("type") != "eruption" or event.get("hex") not in corners:
            continue
        damage = {d["node"]: d for d in event.get("damage", [])}
        for corner in event.get("corners", []):
            node = corners[event["hex"]][corner - 1]
            hurt = damage.get(node)
            what = "" if hurt is None else f"seat {hurt['seat']}'s {hurt['was']} -> {hurt['now'] or 'gone'}"
            hits.append({"node": node, "turn": event.get("turn"), "damage": what})
    return hits


def _status(view: dict[str, Any]) -> str:
    if view["to_move"] is None:
        return "game over"
    dice = "" if view["dice"] is None else f", dice {view['dice'][0]}+{view['dice'][1]}"
    return f"seat {view['to_move']} to move ({view['phase'].replace('_', ' ')}){dice}"


def _panel(picture: Svg, x: float, view: dict[str, Any], private: list[dict[str, Any]] | None) -> float:
    """The seats' panel and the key, from the top right; returns where it ends."""
    y = 66.0
    picture.text(x, y, "Seats" + ("" if private is not None else " (cards hidden)"), 16, font_weight="bold")
    y += 24
    for player in view["players"]:
        seat = player["seat"]
        marker = "▶ " if seat == view["to_move"] else ""
        picture.rect(x, y - 14, 18, 18, fill=_seat(seat), stroke="#222", cls="seat-swatch")
        points = player["points_showing"] if private is None else private[seat]["points"]
        awards = [
            name
            for name, held in (
                ("longest road", player["longest_road"]),
                ("largest army", player["largest_army"]),
            )
            if held
        ]
        picture.text(
            x + 26,
            y,
            f"{marker}seat {seat}: {points} points" + (" showing" if private is None else ""),
            14,
            font_weight="bold",
        )
        y += 19
        if private is None:
            picture.text(
                x + 26,
                y,
                f"{player['resource_cards']} resource cards, {player['development_cards']} development cards",
                12,
                cls="hand-count",
            )
            y += 18
        else:
            hand = private[seat]["hand"]
            cx = x + 26
            for resource, count in hand.items():
                picture.rect(cx, y - 12, 14, 16, fill=RESOURCE[resource], stroke="#333", rx=2)
                picture.text(cx + 17, y, f"{resource} {count}", 12, cls="hand-card")
                cx += 22 + 7 * len(f"{resource} {count}")
            y += 18
            devs = (
                ", ".join(
                    f"{kind.replace('_', ' ')} {n}"
                    for kind, n in private[seat]["development_cards"].items()
                    if n
                )
                or "none"
            )
            picture.text(x + 26, y, f"development cards: {devs}", 12, cls="hand-dev")
            y += 18
        played = player["played"]
        picture.text(x + 26, y, f"knights played {played['knight']}, road length {player['road_length']}", 12)
        y += 18
        pieces = player["pieces_left"]
        picture.text(
            x + 26,
            y,
            f"left: {pieces['roads']} roads, {pieces['settlements']} settlements, {pieces['cities']} cities",
            12,
        )
        y += 18
        if awards:
            picture.text(x + 26, y, "holds " + " and ".join(awards), 12, font_weight="bold")
            y += 18
        y += 12
    bank = ", ".join(f"{r} {n}" for r, n in view["bank"].items())
    picture.text(x, y, f"bank: {bank}", 12)
    y += 18
    picture.text(x, y, f"development cards left: {view['development_cards_left']}", 12)
    y += 24
    picture.text(x, y, "Key", 16, font_weight="bold")
    y += 20
    shapes = [(x + 8, y + 2), (x + 8, y - 8), (x + 14, y - 14), (x + 20, y - 8), (x + 20, y + 2)]
    picture.polygon(shapes, fill="#eee", stroke="#111")
    picture.text(x + 28, y, "settlement; the larger shape is a city", 12)
    y += 20
    picture.circle(x + 14, y - 4, 7, fill="#ff6a00", stroke="#8b0000")
    picture.text(x + 28, y, "lava hit (eruptions of the last turns)", 12)
    y += 20
    picture.circle(x + 14, y - 4, 7, fill="#333")
    picture.text(x + 28, y, "the robber; circles on the coast: harbours", 12)
    return y


CODES = {
    "forest": "fo",
    "hills": "hi",
    "pasture": "pa",
    "fields": "fi",
    "mountains": "mo",
    "desert": "de",
    "volcano": "VO",
}


def _island(view: dict[str, Any]) -> list[str]:
    """The hexes in their rows, as ``[terrain number]`` (``*`` marks the robber)."""
    hexes = view["board"]["hexes"]
    rows, first = [], 0
    for count in ROWS:
        cells = []
        for info in hexes[first : first + count]:
            number = "" if info["number"] is None else str(info["number"])
            robber = "*" if view["robber"] == info["hex"] else " "
            cells.append(f"[{CODES.get(info['terrain'], '??')}{number:>3}{robber}]")
        rows.append(" " * 4 * (max(ROWS) - count) + " ".join(cells))
        first += count
    legend = "fo forest, hi hills, pa pasture, fi fields, mo mountains, de desert, VO volcano; * robber"
    return [*rows, legend]


def text(state: State, reveal: bool = True) -> str:
    view, private = _views(state, reveal)
    board = view["board"]
    owners = {b["node"]: b for b in view["buildings"]}
    lines = [f"Catan ({view['variant']}), turn {view['turn']}, {_status(view)}", ""]
    lines.extend(_island(view))
    lines.append("")
    lines.append("hexes (id terrain number; buildings on its corners 1-6 as seat+s/c):")
    for info in board["hexes"]:
        number = "-" if info["number"] is None else str(info["number"])
        corners = []
        for corner, node in enumerate(info["nodes"]):
            if node in owners:
                building = owners[node]
                corners.append(f"{corner + 1}:{building['seat']}{building['kind'][0]}")
        robber = " ROBBER" if view["robber"] == info["hex"] else ""
        volcano = " VOLCANO" if any(v["hex"] == info["hex"] for v in board["volcanoes"]) else ""
        lines.append(
            f"  {info['hex']:>2} {info['terrain']:<10} {number:>2}{robber}{volcano}  {' '.join(corners)}"
        )
    harbours = ", ".join(f"{h['kind']} at nodes {h['nodes'][0]}-{h['nodes'][1]}" for h in board["harbours"])
    lines.append(f"harbours: {harbours}")
    for hit in _lava_hits(view):
        lines.append(f"lava hit node {hit['node']} (turn {hit['turn']}) {hit['damage']}".rstrip())
    for player in view["players"]:
        seat = player["seat"]
        marker = "*" if seat == view["to_move"] else " "
        settlements = sum(1 for b in view["buildings"] if b["seat"] == seat and b["kind"] == "settlement")
        cities = sum(1 for b in view["buildings"] if b["seat"] == seat and b["kind"] == "city")
        roads = sum(1 for r in view["roads"] if r["seat"] == seat)
        if private is None:
            cards = (
                f"{player['resource_cards']} resource cards, {player['development_cards']} development cards"
            )
            points = f"{player['points_showing']} points showing"
        else:
            hand = " ".join(f"{r} {n}" for r, n in private[seat]["hand"].items())
            devs = " ".join(f"{k} {n}" for k, n in private[seat]["development_cards"].items() if n) or "none"
            cards = f"hand {hand}; development cards {devs}"
            points = f"{private[seat]['points']} points"
        awards = "".join(
            text
            for text, held in (
                (", holds longest road", player["longest_road"]),
                (", holds largest army", player["largest_army"]),
            )
            if held
        )
        lines.append(
            f"{marker}seat {seat}: {points}, {settlements} settlements, {cities} cities, {roads} roads, "
            f"knights {player['played']['knight']}{awards}; {cards}"
        )
    lines.append(
        " bank: "
        + " ".join(f"{r} {n}" for r, n in view["bank"].items())
        + f"; development cards left {view['development_cards_left']}"
    )
    return "\n".join(lines) + "\n"
