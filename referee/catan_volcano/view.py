"""What a seat sees: the whole table except the other seats' cards.

Open to all: the board and its geometry, buildings, roads, the robber, the bank, the number of cards
left in the development deck, each seat's card counts, played development cards, pieces left, road
length, awards and points showing, the phase and the pending decision, and the event log. Private
to the seat: its resource cards, its development cards (victory points included) and its full
points. Secret parts of events (the card stolen, the card bought) are shown only to the seats
concerned (:func:`referee.catan_volcano.events.visible`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from referee.catan_volcano import awards, geometry, trading
from referee.catan_volcano.board import BoardTables, Layout
from referee.catan_volcano.edition import DEV_CARDS, EDITION
from referee.catan_volcano.events import visible
from referee.catan_volcano.geometry import HEX_NODES, NODE_COUNT, corner_node

if TYPE_CHECKING:
    from referee.catan_volcano.state import CatanState

RESOURCES = EDITION.resources
LEVELS = {1: "settlement", 2: "city"}


@lru_cache(maxsize=256)
def board_view(layout: Layout, tables: BoardTables, variable_lava: bool) -> dict[str, Any]:
    """The board as JSON (the same object for every observation of a game: do not change it)."""
    produce = tables.production
    hexes = [
        {
            "hex": h,
            "terrain": terrain,
            "resource": RESOURCES[produce[h]]
            if 0 <= produce[h] < 5
            else ("gold" if produce[h] == 5 else None),
            "number": number,
            "nodes": list(HEX_NODES[h]),
        }
        for h, (terrain, number) in enumerate(zip(layout.terrains, layout.numbers, strict=True))
    ]
    harbours = [
        {"kind": kind, "nodes": [corner_node(hex_id, first), corner_node(hex_id, second)]}
        for (hex_id, first, second), kind in zip(EDITION.harbour_slots, layout.harbours, strict=True)
    ]
    volcanoes = []
    for h in layout.volcanoes:
        number = layout.numbers[h]
        assert number is not None
        rule = EDITION.lava_rule(variable_lava, number)
        volcanoes.append(
            {
                "hex": h,
                "number": number,
                "corners": list(HEX_NODES[h]),
                "lava": {"gate": rule.gate, "dice": rule.dice},
                "gold": produce[h] == 5,
            }
        )
    return {"hexes": hexes, "harbours": harbours, "volcanoes": volcanoes, **geometry.describe()}


def _counts(values: list[int], names: tuple[str, ...]) -> dict[str, int]:
    return dict(zip(names, values, strict=True))


def player_view(state: CatanState, seat: int) -> dict[str, Any]:
    pieces = state.pieces[seat]
    return {
        "seat": seat,
        "resource_cards": sum(state.hands[seat]),
        "development_cards": sum(state.devs[seat]),
        "played": _counts(state.played[seat], DEV_CARDS),
        "pieces_left": {"roads": pieces[0], "settlements": pieces[1], "cities": pieces[2]},
        "road_length": state.road_length[seat],
        "longest_road": state.longest_road == seat,
        "largest_army": state.largest_army == seat,
        "points_showing": awards.visible_points(state, seat),
    }


def pending_view(state: CatanState) -> dict[str, Any]:
    """The decisions under way: discards and gold owed, free roads, the trade offer."""
    pending: dict[str, Any] = {}
    if state.phase == "discard":
        pending["discards"] = list(state.discard_owed)
    if state.phase == "gold":
        pending["gold"] = list(state.gold_owed)
    if state.phase == "road_building":
        pending["free_roads"] = state.free_roads
    if state.offer is not None:
        pending["offer"] = {key: value for key, value in state.offer.items()}
    if state.phase in ("robber", "road_building"):
        pending["then"] = state.resume
    return pending


def observation(state: CatanState, seat: int) -> dict[str, Any]:
    owner, level = state.node_owner, state.node_level
    over = state.phase == "over"
    return {
        "seat": seat,
        "seats": state.seats,
        "variant": state.variant,
        "options": dict(state.options),
        "board": board_view(state.layout, state.tables, state.rules.variable_lava),
        "robber": state.robber,
        "buildings": [
            {"node": node, "seat": owner[node], "kind": LEVELS[level[node]]}
            for node in range(NODE_COUNT)
            if owner[node] >= 0
        ],
        "roads": [{"edge": edge, "seat": who} for edge, who in enumerate(state.edge_owner) if who >= 0],
        "bank": _counts(state.bank, RESOURCES),
        "development_cards_left": sum(state.deck),
        "players": [player_view(state, other) for other in range(state.seats)],
        "you": {
            "hand": _counts(state.hands[seat], RESOURCES),
            "development_cards": _counts(state.devs[seat], DEV_CARDS),
            "bought_this_turn": _counts(state.new_devs[seat], DEV_CARDS),
            "points": awards.points(state, seat),
            "trade_rates": _counts(trading.rates(state, seat), RESOURCES),
        },
        "turn": state.turn,
        "turn_seat": state.turn_seat,
        "phase": state.phase,
        "to_move": None if over else state.current,
        "dice": None if state.dice is None else list(state.dice),
        "development_card_played": state.dev_played,
        "offers_made": state.offers_made,
        "pending": pending_view(state),
        "events": [visible(event, seat) for event in state.events],
    }
