"""Volcano! (Boulderville) as a picture: the town map with its named places and the lines between
them, lava, rubble and ruin, the townspeople by status with their rescue value, the scientists in
their seat's colour, and the tracks: the eruption counter, the rescue track, the eruption deck,
each scientist's renown tokens and cashed renown, and who was saved or lost.

The state names spaces but has no coordinates. The map's layout is the edition's own grid (each
space's ``at``, column and row of the map printed on the game's page, read from
:data:`referee.boulderville.edition.EDITION`), so the picture and the rules can never disagree on
which spaces are joined.

With ``reveal`` each scientist's hand is listed (from that seat's own observation); without it,
only hand sizes, as every seat sees them.

The tracks, the scientists and the key stand in three columns under the map, not beside it: the
map is wide already, and a picture as wide as both would be shrunk on a page until its words were
a few pixels high.
"""

from __future__ import annotations

from typing import Any

from referee.boulderville.edition import EDITION
from referee.drawing.svg import Svg, seat_colour, wrapped
from referee.game import State

CELL_W, CELL_H = 168.0, 74.0
BOX_W, BOX_H = 148.0, 54.0
LEFT, TOP = 24.0, 60.0
PANEL_COLUMN = 336.0
"""The width of each of the three columns under the map (two map columns)."""
PANEL_CHARS = 42
"""Characters of a line of the panel's 13-unit text that fit in a column (wrapped there)."""
INDENT = 26.0
"""A scientist's lines, right of its swatch: three characters fewer to a line."""
LOCATION_FILL = {
    "crater": "#f3c6b8",
    "upper_observation": "#d9cdf0",
    "hot_springs": "#c7ebe8",
    "science_station": "#c9dcf5",
    "town_hall": "#f7e3a1",
    "housing_estate": "#f1ece2",
    "freeway": "#dcdcdc",
    "country_road": "#e6dcc8",
    None: "#e3efd5",
}
"""Fill of a space by its location (slopes and streets without one are pale green)."""
STATUS_FILL = {"unconvinced": "#bdbdbd", "believer": "#ffd54f", "mover": "#43a047"}
TERRAIN_FILL = {"lava": "#ff5a1f", "rubble": "#8d6e63", "rubble_turned": "#a1887f", "ruin": "#263238"}


def _box(space_id: str) -> tuple[float, float]:
    column, row = EDITION.board.space(space_id).at
    return LEFT + column * CELL_W, TOP + row * CELL_H


def _views(state: State, reveal: bool) -> tuple[dict[str, Any], list[list[str]] | None]:
    table = state.observation(0)
    if not reveal:
        return table, None
    hands = [table["hand"]] + [state.observation(seat)["hand"] for seat in range(1, len(table["scientists"]))]
    return table, hands


def svg(state: State, reveal: bool = True) -> str:
    view, hands = _views(state, reveal)
    board = EDITION.board
    columns = 1 + max(space.at[0] for space in board.spaces)
    rows = 1 + max(space.at[1] for space in board.spaces)
    map_w = LEFT + columns * CELL_W
    map_bottom = TOP + rows * CELL_H + 20
    picture = Svg(map_w + 10, map_bottom)
    picture.text(
        14, 30, f"Volcano! (Boulderville), turn {view['turn']}, {_status(view)}", 18, font_weight="bold"
    )
    for space_id, neighbours in board.adjacent.items():
        for other in neighbours:
            if space_id < other:
                a, b = _box(space_id), _box(other)
                picture.line(
                    (a[0] + BOX_W / 2, a[1] + BOX_H / 2),
                    (b[0] + BOX_W / 2, b[1] + BOX_H / 2),
                    stroke="#7a6a55",
                    stroke_width=3,
                    cls="map-line",
                )
    for gate, label in (
        (board.exits["freeway"], "exit: the Freeway"),
        (board.exits["country_road"], "exit: Small Country Road"),
    ):
        x, y = _box(gate)
        picture.line(
            (x + BOX_W / 2, y + BOX_H), (x + BOX_W / 2, y + BOX_H + 16), stroke="#2e7d32", stroke_width=4
        )
        picture.text(x + BOX_W / 2 + 6, y + BOX_H + 17, label, 11, fill="#2e7d32", font_weight="bold")
    people = {p["space"]: p for p in view["townspeople"] if p.get("space") and p["status"] in STATUS_FILL}
    scientists = {s["space"]: s for s in view["scientists"] if s.get("space")}
    for space in board.spaces:
        _space(
            picture,
            space.id,
            space.name,
            space.location,
            view["terrain"].get(space.id),
            people.get(space.id),
            scientists.get(space.id),
        )
    if not view["bridge_standing"]:
        x, y = _box(board.bridge)
        picture.text(
            x + BOX_W / 2,
            y + BOX_H + 17,
            "bridge gone",
            11,
            text_anchor="middle",
            fill="#b71c1c",
            font_weight="bold",
        )
    bottom = _panel(picture, LEFT, map_bottom + 24, view, hands)
    picture.height = max(picture.height, bottom + 10)
    return picture.document(f"Boulderville board, turn {view['turn']}")


def _space(
    picture: Svg,
    space_id: str,
    name: str,
    location: str | None,
    terrain: str | None,
    person: dict[str, Any] | None,
    scientist: dict[str, Any] | None,
) -> None:
    x, y = _box(space_id)
    picture.open_group(cls="space", data_space=space_id)
    picture.rect(
        x,
        y,
        BOX_W,
        BOX_H,
        rx=6,
        fill=LOCATION_FILL.get(location, "#e3efd5"),
        stroke="#4e3d2a",
        stroke_width=1.5,
    )
    if terrain:
        picture.rect(
            x + 2,
            y + 2,
            BOX_W - 4,
            BOX_H - 4,
            rx=5,
            fill=TERRAIN_FILL.get(terrain, "#999"),
            opacity=0.85,
            cls=f"terrain {terrain}",
        )
        picture.text(
            x + BOX_W - 6,
            y + BOX_H - 6,
            terrain.replace("_", " ").upper(),
            9,
            text_anchor="end",
            fill="#fff",
            font_weight="bold",
        )
    dark = terrain in ("lava", "rubble", "ruin")
    picture.text(x + 6, y + 14, name, 11, fill="#fff" if dark else "#222", font_weight="bold")
    picture.close_group()
    if person is not None:
        px, py = x + 22, y + 36
        picture.circle(
            px,
            py,
            13,
            fill=STATUS_FILL[person["status"]],
            stroke="#222",
            stroke_width=1.5,
            cls=f"townsperson {person['status']}",
            data_id=person["id"],
        )
        picture.text(px, py + 5, str(person["value"]), 13, text_anchor="middle", font_weight="bold")
        picture.title(f"{person['name']} ({person['status']}, value {person['value']})")
        short = person["name"].split(",")[0]
        room = 11 if scientist is not None else 16
        picture.text(px + 17, py + 4, short[:room], 10, fill="#fff" if dark else "#222")
    if scientist is not None:
        sx, sy = x + BOX_W - 24, y + 36
        picture.polygon(
            [(sx, sy - 15), (sx + 15, sy), (sx, sy + 15), (sx - 15, sy)],
            fill=seat_colour(scientist["seat"]),
            stroke="#111",
            stroke_width=2,
            cls="scientist",
            data_seat=scientist["seat"],
        )
        picture.text(
            sx, sy + 5, f"S{scientist['seat']}", 11, text_anchor="middle", fill="#fff", font_weight="bold"
        )


def _status(view: dict[str, Any]) -> str:
    if view["over"] is not None:
        return "game over"
    return (
        f"{view['stage']} stage, seat {view['to_move']} to move"
        if view["to_move"] is not None
        else view["stage"]
    )


def _track(
    picture: Svg, x: float, y: float, label: str, low: int, high: int, value: int, colour: str, cls: str
) -> None:
    picture.text(x, y, f"{label}: {value}", 14, font_weight="bold")
    y += 10
    steps = high - low
    width = PANEL_COLUMN - 30
    for k in range(steps + 1):
        tick = x + k * width / steps
        picture.line((tick, y), (tick, y + (10 if (low + k) % 5 == 0 else 5)), stroke="#555")
        if (low + k) % 5 == 0:
            picture.text(tick, y + 24, str(low + k), 11, text_anchor="middle", fill="#555")
    shown = min(max(value, low), high)
    picture.line((x, y), (x + width, y), stroke="#555")
    picture.circle(
        x + (shown - low) * width / steps, y, 7, fill=colour, stroke="#111", cls=cls, data_value=value
    )


def _panel(picture: Svg, x: float, top: float, view: dict[str, Any], hands: list[list[str]] | None) -> float:
    """The tracks, the scientists and the key, in three columns from ``top`` under the map;
    returns where the longest ends."""
    y = top
    picture.text(x, y, "Tracks", 17, font_weight="bold")
    y += 26
    _track(picture, x, y, "eruption counter", 0, 25, view["eruption"], "#ff5a1f", "eruption-track")
    y += 56
    bound = max(15, abs(view["rescue"]))
    _track(picture, x, y, "rescue track", -bound, bound, view["rescue"], "#43a047", "rescue-track")
    y += 54
    revealed = view["revealed"]
    y = wrapped(
        picture,
        x,
        y,
        f"eruption cards turned {len(revealed)}, left {view['eruption_cards_left']}",
        PANEL_CHARS,
    )
    if "eruption" in revealed:
        y = wrapped(
            picture, x, y, "THE ERUPTION has happened", PANEL_CHARS, font_weight="bold", fill="#b71c1c"
        )
    y = wrapped(
        picture, x, y, f"last card: {revealed[-1].replace('_', ' ') if revealed else 'none'}", PANEL_CHARS
    )
    y = wrapped(picture, x, y, f"bridge {'standing' if view['bridge_standing'] else 'gone'}", PANEL_CHARS)
    cash_at = view["cash_at"].replace("_", " ") if view["cash_at"] else "nowhere"
    y = wrapped(picture, x, y, f"renown cashed at the {cash_at}", PANEL_CHARS)
    y = wrapped(
        picture,
        x,
        y,
        f"action cards left {view['action_cards_left']}, discards {view['discards']}",
        PANEL_CHARS,
    )
    bottom = y

    x += PANEL_COLUMN
    y = top
    picture.text(
        x, y, "Scientists" + ("" if hands is not None else " (hands hidden)"), 17, font_weight="bold"
    )
    y += 26
    for scientist in view["scientists"]:
        seat = scientist["seat"]
        marker = "▶ " if seat == view["to_move"] else ""
        lead = " (lead)" if seat == view["lead"] else ""
        picture.rect(x, y - 14, 18, 18, fill=seat_colour(seat), stroke="#222", cls="seat-swatch")
        picture.text(x + INDENT, y, f"{marker}S{seat} {scientist['id']}{lead}", 15, font_weight="bold")
        y += 19
        where = "at " + scientist["space"].replace("_", " ") if scientist["space"] else "off the board"
        chars = PANEL_CHARS - 4
        tokens = f"tokens {scientist['tokens']}, renown {scientist['renown']}; {where}"
        y = wrapped(picture, x + INDENT, y, tokens, chars)
        if hands is None:
            hand_size = f"{scientist['hand_size']} cards in hand"
            y = wrapped(picture, x + INDENT, y, hand_size, chars, cls="hand-count")
        else:
            cards = ", ".join(card.replace("_", " ") for card in hands[seat]) or "no cards"
            y = wrapped(picture, x + INDENT, y, f"hand: {cards}", chars, cls="hand-card", data_seat=seat)
        y += 8
    bottom = max(bottom, y)

    x += PANEL_COLUMN
    y = top
    saved = [p for p in view["townspeople"] if p["status"] == "saved"]
    dead = [p for p in view["townspeople"] if p["status"] == "dead"]
    picture.text(x, y, "Townspeople", 17, font_weight="bold")
    y += 24
    for group, label in ((saved, "saved"), (dead, "lost")):
        names = ", ".join(p["name"].split(",")[0] for p in group) or "nobody"
        value = sum(p["value"] for p in group)
        y = wrapped(
            picture, x, y, f"{label} {len(group)} (value {value}): {names}", PANEL_CHARS, cls=f"{label}-list"
        )
    y += 12
    picture.text(x, y, "Key", 17, font_weight="bold")
    y += 22
    for status, fill in STATUS_FILL.items():
        picture.circle(x + 8, y - 5, 8, fill=fill, stroke="#222")
        picture.text(x + 22, y, f"{status} (number: rescue value)", 13)
        y += 18
    picture.polygon(
        [(x + 8, y - 14), (x + 17, y - 5), (x + 8, y + 4), (x - 1, y - 5)], fill=seat_colour(0), stroke="#111"
    )
    picture.text(x + 22, y, "scientist of seat 0 (S0)", 13)
    y += 20
    for terrain, fill in TERRAIN_FILL.items():
        picture.rect(x, y - 12, 16, 14, fill=fill)
        picture.text(x + 22, y, terrain.replace("_", " "), 13)
        y += 17
    y += 6
    for location, name in EDITION.board.locations.items():
        picture.rect(x, y - 12, 16, 14, fill=LOCATION_FILL.get(location, "#ccc"), stroke="#4e3d2a")
        picture.text(x + 22, y, name, 13, cls="location-name")
        y += 17
    return max(bottom, y)


def text(state: State, reveal: bool = True) -> str:
    view, hands = _views(state, reveal)
    lines = [
        f"Volcano! (Boulderville), turn {view['turn']}, {_status(view)}",
        f"eruption counter {view['eruption']}, rescue track {view['rescue']}, eruption cards turned "
        f"{len(view['revealed'])} (left {view['eruption_cards_left']}), bridge "
        f"{'standing' if view['bridge_standing'] else 'gone'}",
        "",
    ]
    people = {p["space"]: p for p in view["townspeople"] if p.get("space") and p["status"] in STATUS_FILL}
    scientists = {s["space"]: s for s in view["scientists"] if s.get("space")}
    lines.append("space                 terrain        townsperson (status, value)           scientist")
    for space in EDITION.board.spaces:
        person = people.get(space.id)
        scientist = scientists.get(space.id)
        terrain = view["terrain"].get(space.id, "")
        if not (person or scientist or terrain):
            continue
        who = f"{person['name'][:26]} ({person['status']}, {person['value']})" if person else ""
        sci = f"S{scientist['seat']} {scientist['id']}" if scientist else ""
        lines.append(f"{space.name[:21]:<21} {terrain:<14} {who:<37} {sci}".rstrip())
    lines.append("")
    for scientist in view["scientists"]:
        seat = scientist["seat"]
        marker = "*" if seat == view["to_move"] else " "
        hand = f"{scientist['hand_size']} cards" if hands is None else ", ".join(hands[seat]) or "no cards"
        lead = " (lead)" if seat == view["lead"] else ""
        lines.append(
            f"{marker}S{seat} {scientist['id']}{lead}: tokens {scientist['tokens']}, renown "
            f"{scientist['renown']}, at {scientist['space'] or 'off the board'}; hand {hand}"
        )
    saved = [p["name"] for p in view["townspeople"] if p["status"] == "saved"]
    dead = [p["name"] for p in view["townspeople"] if p["status"] == "dead"]
    lines.append(f" saved: {'; '.join(saved) or 'none'}")
    lines.append(f" lost: {'; '.join(dead) or 'none'}")
    return "\n".join(lines) + "\n"
