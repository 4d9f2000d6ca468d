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
_SETTLEMENTS = EDITION.pieces["settlements"]
_CITIES = EDITION.pieces["cities"]
_LONGEST_POINTS = EDITION.longest_road_points
_ARMY_POINTS = EDITION.largest_army_points


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


_SHARED_COUNTS: dict[tuple[int, ...], dict[str, int]] = {}
"""Per-kind counts of development cards as JSON, shared between observations: few distinct
values occur (a seat's played cards change a handful of times a game)."""


def _dev_counts(values: list[int]) -> dict[str, int]:
    key = tuple(values)
    shown = _SHARED_COUNTS.get(key)
    if shown is None:
        if len(_SHARED_COUNTS) > 4096:
            _SHARED_COUNTS.clear()
        shown = _SHARED_COUNTS[key] = dict(zip(DEV_CARDS, key, strict=True))
    return shown


_SHARED_PIECES: dict[tuple[int, ...], dict[str, int]] = {}


def _pieces_left(pieces: list[int]) -> dict[str, int]:
    key = tuple(pieces)
    shown = _SHARED_PIECES.get(key)
    if shown is None:
        shown = _SHARED_PIECES[key] = {"roads": key[0], "settlements": key[1], "cities": key[2]}
    return shown


def player_view(state: CatanState, seat: int) -> dict[str, Any]:
    return {
        "seat": seat,
        "resource_cards": sum(state.hands[seat]),
        "development_cards": sum(state.devs[seat]),
        "played": _dev_counts(state.played[seat]),
        "pieces_left": _pieces_left(state.pieces[seat]),
        "road_length": state.road_length[seat],
        "longest_road": state.longest_road == seat,
        "largest_army": state.largest_army == seat,
        "points_showing": awards.visible_points(state, seat),
    }


def players_view(state: CatanState) -> list[dict[str, Any]]:
    """Every seat's :func:`player_view`, in one pass (built on every move: kept free of calls)."""
    hands, devs, played, pieces = state.hands, state.devs, state.played, state.pieces
    lengths, longest, largest = state.road_length, state.longest_road, state.largest_army
    shared_played, shared_pieces = _SHARED_COUNTS, _SHARED_PIECES
    views = []
    for seat in range(state.seats):
        mine = pieces[seat]
        showing = (_SETTLEMENTS - mine[1]) + 2 * (_CITIES - mine[2])
        if longest == seat:
            showing += _LONGEST_POINTS
        if largest == seat:
            showing += _ARMY_POINTS
        cards = tuple(played[seat])
        views.append(
            {
                "seat": seat,
                "resource_cards": sum(hands[seat]),
                "development_cards": sum(devs[seat]),
                "played": shared_played.get(cards) or _dev_counts(played[seat]),
                "pieces_left": shared_pieces.get(tuple(mine)) or _pieces_left(mine),
                "road_length": lengths[seat],
                "longest_road": longest == seat,
                "largest_army": largest == seat,
                "points_showing": showing,
            }
        )
    return views


def pending_view(state: CatanState) -> dict[str, Any]:
    """The decisions under way: discards and gold owed, free roads, the trade offer."""
    pending: dict[str, Any] = {}
    phase = state.phase
    if phase == "discard":
        pending["discards"] = list(state.discard_owed)
    elif phase == "gold":
        pending["gold"] = list(state.gold_owed)
    elif phase == "road_building":
        pending["free_roads"] = state.free_roads
    if state.offer is not None:
        pending["offer"] = {
            key: list(value) if type(value) is list else value for key, value in state.offer.items()
        }
    if phase in ("robber", "road_building"):
        pending["then"] = state.resume
    return pending


class PieceViews:
    """The buildings, roads and bank trade rates as JSON, rebuilt only when a piece moved.

    A state keeps one and hands it on to its copies (a refresh makes a new one, never changes one in
    use); it remembers the ownership lists it was built from and compares them whole, so however
    they were changed (a move, lava, a test setting up a position) a stale view is never shown.
    """

    __slots__ = ("owner", "level", "edges", "buildings", "roads", "rates")

    def __init__(self) -> None:
        self.owner: list[int] | None = None
        self.level: list[int] = []
        self.edges: list[int] = []
        self.buildings: list[dict[str, Any]] = []
        self.roads: list[dict[str, Any]] = []
        self.rates: list[dict[str, int]] = []

    def refresh(self, state: CatanState) -> PieceViews:
        owner, level, edges = state.node_owner, state.node_level, state.edge_owner
        if owner == self.owner and level == self.level and edges == self.edges:
            return self
        fresh = PieceViews()
        fresh.owner, fresh.level, fresh.edges = list(owner), list(level), list(edges)
        fresh.buildings = [
            {"node": node, "seat": owner[node], "kind": LEVELS[level[node]]}
            for node in range(NODE_COUNT)
            if owner[node] >= 0
        ]
        fresh.roads = [{"edge": edge, "seat": who} for edge, who in enumerate(edges) if who >= 0]
        fresh.rates = [_counts(trading.rates(state, seat), RESOURCES) for seat in range(state.seats)]
        return fresh


def public_view(state: CatanState) -> tuple[dict[str, Any], dict[str, Any]]:
    """Everything every seat sees alike, in two parts (before and after the viewer's own ``you``);
    the events aside, whose secrets depend on the viewer."""
    pieces = state.piece_views = state.piece_views.refresh(state)
    head = {
        "seats": state.seats,
        "variant": state.variant,
        "options": state.options_view,
        "board": board_view(state.layout, state.tables, state.rules.variable_lava),
        "robber": state.robber,
        "buildings": pieces.buildings,
        "roads": pieces.roads,
        "bank": _counts(state.bank, RESOURCES),
        "development_cards_left": sum(state.deck),
        "players": players_view(state),
    }
    tail = {
        "turn": state.turn,
        "turn_seat": state.turn_seat,
        "phase": state.phase,
        "to_move": None if state.phase == "over" else state.current,
        "dice": None if state.dice is None else list(state.dice),
        "development_card_played": state.dev_played,
        "offers_made": state.offers_made,
        "pending": pending_view(state),
    }
    return head, tail


def observation(
    state: CatanState, seat: int, public: tuple[dict[str, Any], dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Seat ``seat``'s view; ``public`` is :func:`public_view` of the same state if already built.

    Parts that do not change between moves (the board, the options, the buildings and roads while
    no piece moves, recorded events) are shared between observations rather than copied: an
    observation is read-only (the runner sends bots a JSON copy).
    """
    head, tail = public_view(state) if public is None else public
    return {
        "seat": seat,
        **head,
        "you": {
            "hand": _counts(state.hands[seat], RESOURCES),
            "development_cards": _counts(state.devs[seat], DEV_CARDS),
            "bought_this_turn": _counts(state.new_devs[seat], DEV_CARDS),
            "points": awards.points(state, seat),
            "trade_rates": state.piece_views.rates[seat],
        },
        **tail,
        "events": [event if "secret" not in event else visible(event, seat) for event in state.events],
    }
