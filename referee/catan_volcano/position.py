"""One game of Catan as it stands: every fact as flat lists of ints, declared once in :data:`FIELDS`;
the bottom layer of the engine.

:class:`Position` is a plain record and imports no rule: the rules modules (:mod:`.building`,
:mod:`.production`, :mod:`.robber`, :mod:`.cards`, :mod:`.trading`, :mod:`.flow`) read these lists
and change the pieces, the cards and the awards through the mutators of :mod:`.changes` (which
keep the caches' marks), and :mod:`.moves` ties moves to them. The answers kept from one position
to the next are added by the layers that keep them: :class:`referee.catan_volcano.placed.Placed`
(what the pieces imply), :class:`referee.catan_volcano.view.Viewed` (the observations' parts), and
:class:`referee.catan_volcano.state.CatanState` on top, the common State interface. So the
engine's imports run one way: position, rules, state. Serialising, loading and copying all walk
:data:`FIELDS`, so a new fact is declared in one place.

Indexing conventions: ``hands[seat][resource]``, ``devs[seat][kind]`` (see
:data:`referee.catan_volcano.edition.DEV_CARDS`), ``node_owner[node]`` (-1 when empty),
``node_level[node]`` (1 settlement, 2 city), ``edge_owner[edge]`` (-1 when empty),
``pieces[seat]`` = [roads, settlements, cities] still in the seat's supply.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from copy import deepcopy
from typing import Any

from referee.catan_volcano.board import BoardTables, Layout
from referee.catan_volcano.variants import RULES, VOLCANO_OPTIONS, VariantRules
from referee.game import JSON
from referee.rng import Rng


def _same(value: Any) -> Any:
    return value


def _table(rows: list[list[int]]) -> list[list[int]]:
    return [list(row) for row in rows]


def _events(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return list(items)  # events are never changed once recorded, so they may be shared


FIELDS: dict[str, Callable[[Any], Any]] = {
    "bank": list,
    "hands": _table,
    "devs": _table,
    "new_devs": _table,
    "played": _table,
    "deck": list,
    "node_owner": list,
    "node_level": list,
    "edge_owner": list,
    "pieces": _table,
    "road_length": list,
    "longest_road": _same,
    "largest_army": _same,
    "robber": _same,
    "phase": _same,
    "resume": _same,
    "turn": _same,
    "turn_seat": _same,
    "current": _same,
    "setup_step": _same,
    "dev_played": _same,
    "dice": _same,
    "rolls_ahead": _same,
    "rolls_left": _same,
    "discard_owed": list,
    "gold_owed": list,
    "eruptions": list,
    "free_roads": _same,
    "offer": deepcopy,
    "offers_made": _same,
    "winner": _same,
    "end_reason": _same,
    "events": _events,
}
"""Every changing fact of a game with how to copy it: the one list that serialising, loading and
copying walk. ``dice`` is a tuple or None, so it is shared safely. ``rolls_ahead`` and
``rolls_left`` are the rolls drawn but not yet made (:func:`referee.catan_volcano.production.next_dice`)."""


class Position:
    """A game's facts: the static ones (variant, seats, options, board) and :data:`FIELDS`, the
    changing ones, with the marks of what moved (:mod:`referee.catan_volcano.changes`) and where
    the event log's secrets are (:mod:`referee.catan_volcano.events`). The rules modules change its
    lists in place; :class:`referee.catan_volcano.state.CatanState` builds it."""

    __slots__ = (
        "variant",
        "seats",
        "options",
        "rules",
        "layout",
        "tables",
        "rng",
        "options_view",
        "board_view",
        "frame",
        "board_moves",
        "road_built",
        "built_at",
        "score_moves",
        "win_checked",
        "cards_moved",
        "devs_moved",
        "secret_events",
        "forgotten",
        "current_seat",
        *FIELDS,
    )

    variant: str
    seats: int
    options: dict[str, JSON]
    rules: VariantRules
    layout: Layout
    tables: BoardTables
    rng: Rng
    bank: list[int]
    hands: list[list[int]]
    devs: list[list[int]]
    new_devs: list[list[int]]
    played: list[list[int]]
    deck: list[int]
    node_owner: list[int]
    node_level: list[int]
    edge_owner: list[int]
    pieces: list[list[int]]
    road_length: list[int]
    longest_road: int
    largest_army: int
    robber: int
    phase: str
    resume: str
    turn: int
    turn_seat: int
    current: int
    setup_step: int
    dev_played: bool
    dice: tuple[int, int] | None
    rolls_ahead: int
    rolls_left: int
    discard_owed: list[int]
    gold_owed: list[int]
    eruptions: list[int]
    free_roads: int
    offer: dict[str, Any] | None
    offers_made: int
    winner: int
    end_reason: str | None
    events: list[dict[str, Any]]
    # The marks of what moved, kept by the mutators of :mod:`referee.catan_volcano.changes` alone
    # (which say what each is for) and read by the caches that rest on them.
    board_moves: int
    built_at: int
    road_built: int
    score_moves: int
    win_checked: list[int]
    cards_moved: int
    devs_moved: int
    options_view: dict[str, JSON]
    """The options as observations show them (shared by every observation: read-only)."""
    board_view: dict[str, Any]
    """The board as observations show it (the same object for every observation: read-only)."""
    frame: dict[str, Any]
    """What every observation of the game starts as a copy of (:func:`referee.catan_volcano.view.frame`)."""
    secret_events: list[tuple[int, dict[str, Any], dict[int, dict[str, Any]]]]
    """Where the log's secret events are (see :func:`referee.catan_volcano.events.index_secrets`)."""
    forgotten: int
    """How many events have been dropped from the log's start since it was last indexed."""
    current_seat: int | None
    """The seat to move, None once the game is over (the common interface's property, kept as a
    plain attribute: the referee reads it before every move, and a property costs a call). Set
    from ``phase`` and ``current`` after every move and by ``remember_legal``, which a position
    changed by hand must call."""

    def __init__(self, variant: str, seats: int, options: Mapping[str, JSON], layout: Layout) -> None:
        self.variant = variant
        self.seats = seats
        self.options = dict(options)
        self.rules = RULES[variant]
        self.layout = layout
        self.tables = layout.tables(self.rules.gold)
        self.options_view = dict(self.options)
        self.secret_events = []
        self.forgotten = 0

    def option(self, name: str) -> JSON:
        """An option's value, with the volcano twists' defaults for the base variant."""
        return self.options.get(name, _OPTION_FALLBACKS.get(name))


_OPTION_FALLBACKS: dict[str, JSON] = {spec.name: spec.default for spec in VOLCANO_OPTIONS}
"""The volcano twists' declared defaults, read where a variant (``base``) does not take them."""
