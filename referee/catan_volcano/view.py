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
from typing import Any

from referee.catan_volcano import awards, geometry
from referee.catan_volcano.board import BoardTables, Layout
from referee.catan_volcano.derived import Derived
from referee.catan_volcano.edition import EDITION
from referee.catan_volcano.events import index_secrets, visible
from referee.catan_volcano.geometry import HEX_NODES, corner_node
from referee.catan_volcano.placed import Placed, derived
from referee.catan_volcano.seat_views import PlayerViews, dev_counts
from referee.memo import Memo

RESOURCES = EDITION.resources


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
    return {"hexes": hexes, "harbours": harbours, "volcanoes": volcanoes, **_GEOMETRY}


_GEOMETRY = geometry.describe()
"""The static geometry as JSON, made once: every board's view shares its lists (read-only)."""


def pending_view(state: Viewed) -> dict[str, Any]:
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


def events_for(state: Viewed, seat: int) -> list[dict[str, Any]]:
    """The event log as ``seat`` sees it, a new list (an observation keeps what it showed).

    Most events are the same for every seat; only those with a secret (a steal, a development card
    bought) differ, and the state knows where they are (``state.secret_events``, kept by
    :func:`referee.catan_volcano.events.record` and :func:`~referee.catan_volcano.events.forget_before`,
    found afresh by :func:`~referee.catan_volcano.events.index_secrets` after a load or a change by
    hand). So a seat's view is a copy of the log with those few replaced by what the seat may see of
    them (made once per seat and event: events are never changed once recorded). Each secret event
    is checked to stand where it is said to, so a log replaced by hand is indexed again.
    """
    events = state.events
    shown = events.copy()
    secrets = state.secret_events
    if secrets:
        base = state.forgotten
        count = len(events)
        for place, event, views in secrets:
            index = place - base
            if index >= count or events[index] is not event:
                index_secrets(state)
                return events_for(state, seat)
            seen = views.get(seat)
            if seen is None:
                seen = views[seat] = visible(event, seat)
            shown[index] = seen
    return shown


_UNSEEN: Any = object()
"""A value no fact of a position takes: what :class:`Kept` starts with, so the first observation
writes every part."""


class Kept:
    """The parts of observations kept from one position to the next, per state (a copy of the
    state, or a position set up by hand, starts afresh: see ``remember_legal``).

    Each observation (but one copying another seat's of the same position) starts as a copy of the
    last one handed out (:attr:`shown`; at first the game's :func:`frame`), and only the parts that
    differ from what that one showed are written into it: writing a key into a dict costs about as
    much as three comparisons, and most parts stand over most moves. So each part is kept with what
    it was made from, compared with the state's fact when next needed: the bank, the development
    cards left and the buildings and roads with a copy of the list they came from (a list of five
    ints compares for far less than a dict is made) or the
    :class:`~referee.catan_volcano.derived.Derived` they came from, the rest with the fact itself.
    Per seat, its development cards and those bought this turn are kept the same way. Parts handed
    out are shared and read-only, as every observation is, and :attr:`shown` is never changed.
    """

    __slots__ = (
        "shown",
        "bank",
        "deck",
        "placed",
        "logged",
        "robber",
        "turn",
        "turn_seat",
        "dice",
        "dev_played",
        "offers_made",
        "pending",
        "devs",
    )

    def __init__(self, seats: int, frame: dict[str, Any]) -> None:
        self.shown = frame
        """The last observation built (not copied from another seat's), or the frame at first."""
        self.bank: list[int] = []
        self.deck: list[int] = []
        self.placed: Derived | None = None
        """What the pieces implied when :attr:`shown` was built, its buildings and roads shown."""
        self.logged = 0
        """Events recorded before :attr:`shown` was built, counted from the first (see :func:`_roads`)."""
        # what :attr:`shown` shows (compared with the state's facts, never written into it)
        self.robber: Any = _UNSEEN
        self.turn: Any = _UNSEEN
        self.turn_seat: Any = _UNSEEN
        self.dice: Any = _UNSEEN
        """The state's ``dice`` as last shown, compared by identity (the view is the shared list)."""
        self.dev_played: Any = _UNSEEN
        self.offers_made: Any = _UNSEEN
        self.pending: Any = _UNSEEN
        self.devs: list[tuple[list[int], dict[str, int], list[int], dict[str, int]] | None] = [None] * seats
        """Per seat: its development cards, as shown; those bought this turn, as shown."""


class Viewed(Placed):
    """A position that keeps the parts of its observations from one position to the next: the
    layer above :class:`~referee.catan_volcano.placed.Placed` that :func:`observation` takes."""

    __slots__ = ("player_views", "kept")

    player_views: PlayerViews
    """The seats' public views, kept (:class:`referee.catan_volcano.seat_views.PlayerViews`)."""
    kept: Kept
    """Parts of observations kept from one position to the next (:class:`Kept`)."""


_NOTHING_PENDING: dict[str, Any] = {}
"""The pending decisions of a position with none, shared (read-only like every observation)."""

_DICE = Memo[tuple[int, int], list[int]]("catan.dice", limit=64)
"""Each roll as observations show it, shared (36 rolls: the bound is never reached)."""


def _dice_view(dice: tuple[int, int] | None) -> list[int] | None:
    if dice is None:
        return None
    shown = _DICE.table.get(dice)
    if shown is None:
        shown = _DICE.keep(dice, list(dice))
    return shown


assert RESOURCES == ("wood", "brick", "sheep", "wheat", "ore"), RESOURCES
# Per-resource counts (the bank, a hand) are written out in place as dicts with these five names
# spelled out: they take too many values to be worth keeping, the engine's lists always hold the
# five in this order, and a dict display with constant keys costs some 200 instructions less than
# one whose keys are looked up by name.


_NO_PENDING_PHASES = frozenset({"place_settlement", "place_road", "roll", "main", "over"})
"""Phases whose pending decisions are empty when no trade offer is open (see :func:`pending_view`)."""


_ROAD_EVENTS = frozenset({"build_road", "place_road"})
"""The events that record a road put on the board (the only way a road moves: none is removed)."""


def _roads(state: Viewed, kept: Kept, pieces: Derived) -> list[dict[str, Any]]:
    """The roads as JSON for ``pieces``: those ``pieces`` carried over (after one road or one
    building), or from those last shown and the roads the event log recorded since (each road
    built is recorded), which ``pieces`` checks against its edges and otherwise makes the list
    anew (:meth:`~referee.catan_volcano.derived.Derived.roads_after`)."""
    events, forgotten, older = state.events, state.forgotten, kept.placed
    shown = pieces._roads
    if shown is None:
        if older is None:
            shown = pieces.roads()
        else:
            built = [
                (event["edge"], event["seat"])
                for event in events[max(kept.logged - forgotten, 0) :]
                if event["type"] in _ROAD_EVENTS
            ]
            shown = pieces.roads_after(older, built)
    kept.logged = forgotten + len(events)
    return shown


def frame(state: Viewed) -> dict[str, Any]:
    """The observation's keys in order, with the parts that never change during a game filled in
    (the others None): a state's first observation starts as a copy of it (later ones copy the
    last one, see :class:`Kept`), which costs far less than building a dict of twenty-one keys (one
    made once per game, read-only)."""
    return {
        "seat": None,
        "seats": state.seats,
        "variant": state.variant,
        "options": state.options_view,
        "board": state.board_view,
        "robber": None,
        "buildings": None,
        "roads": None,
        "bank": None,
        "development_cards_left": None,
        "players": None,
        "you": None,
        "turn": None,
        "turn_seat": None,
        "phase": None,
        "to_move": None,
        "dice": None,
        "development_card_played": None,
        "offers_made": None,
        "pending": None,
        "events": None,
    }


def observation(state: Viewed, seat: int, public: dict[str, Any] | None = None) -> dict[str, Any]:
    """Seat ``seat``'s view; ``public`` is another seat's observation of the same state, if already
    built (the viewer's own parts are replaced in a copy).

    Parts that do not change between moves (the board, the options, the buildings and roads while
    no piece moves, recorded events, counts seen before) are shared between observations rather
    than copied: an observation is read-only (the runner sends bots a JSON copy). It starts as a
    copy of the last one built (:class:`Kept`) and writes only the parts whose facts moved since.
    """
    kept = state.kept
    pieces = derived(state)
    devs = state.devs[seat]
    bought = state.new_devs[seat]
    cards = kept.devs[seat]
    if cards is None or devs != cards[0] or bought != cards[2]:
        cards = kept.devs[seat] = (list(devs), dev_counts(devs), list(bought), dev_counts(bought))
    wood, brick, sheep, wheat, ore = state.hands[seat]
    you = {
        "hand": {"wood": wood, "brick": brick, "sheep": sheep, "wheat": wheat, "ore": ore},
        "development_cards": cards[1],
        "bought_this_turn": cards[3],
        "points": awards.points(state, seat),
        "trade_rates": pieces.rate_view(state, seat),
    }
    events = events_for(state, seat)
    if public is not None:
        seen = public.copy()
        seen["seat"] = seat
        seen["you"] = you
        seen["events"] = events
        return seen
    seen = kept.shown.copy()
    seen["you"] = you
    seen["events"] = events
    # parts that differ from the last observation's on about half the moves or more: written
    seen["seat"] = seat
    seen["players"] = state.player_views.current(state)
    if pieces is not kept.placed:
        seen["buildings"] = pieces.buildings()
        seen["roads"] = _roads(state, kept, pieces)
        kept.placed = pieces
    bank = state.bank
    if bank != kept.bank:
        wood, brick, sheep, wheat, ore = bank
        seen["bank"] = {"wood": wood, "brick": brick, "sheep": sheep, "wheat": wheat, "ore": ore}
        kept.bank = list(bank)
    deck = state.deck
    if deck != kept.deck:
        seen["development_cards_left"] = sum(deck)
        kept.deck = list(deck)
    if state.robber != kept.robber:
        seen["robber"] = kept.robber = state.robber
    if state.turn != kept.turn:
        seen["turn"] = kept.turn = state.turn
    if state.turn_seat != kept.turn_seat:
        seen["turn_seat"] = kept.turn_seat = state.turn_seat
    seen["phase"] = phase = state.phase
    seen["to_move"] = state.current_seat
    dice = state.dice
    if dice is not kept.dice:
        kept.dice = dice
        seen["dice"] = None if dice is None else (_DICE.table.get(dice) or _dice_view(dice))
    if state.dev_played is not kept.dev_played:
        seen["development_card_played"] = kept.dev_played = state.dev_played
    if state.offers_made != kept.offers_made:
        seen["offers_made"] = kept.offers_made = state.offers_made
    pending = _NOTHING_PENDING if state.offer is None and phase in _NO_PENDING_PHASES else pending_view(state)
    if pending is not kept.pending:
        seen["pending"] = kept.pending = pending
    kept.shown = seen
    return seen
