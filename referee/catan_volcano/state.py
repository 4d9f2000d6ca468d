"""One game of Catan in progress: every fact as flat lists of ints, declared once in :data:`FIELDS`.

The state is a plain record: the rules live in the stage modules (:mod:`.building`,
:mod:`.production`, :mod:`.robber`, :mod:`.cards`, :mod:`.trading`, :mod:`.flow`), which read
these lists and change the pieces, the cards and the awards through the mutators of
:mod:`.changes` (which keep the caches' marks), and :mod:`.moves` ties moves to them.
Serialising, loading and copying all walk :data:`FIELDS`, so a new fact is declared in one place.

Indexing conventions: ``hands[seat][resource]``, ``devs[seat][kind]`` (see
:data:`referee.catan_volcano.edition.DEV_CARDS`), ``node_owner[node]`` (-1 when empty),
``node_level[node]`` (1 settlement, 2 city), ``edge_owner[edge]`` (-1 when empty),
``pieces[seat]`` = [roads, settlements, cities] still in the seat's supply.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from copy import deepcopy
from typing import Any

from referee.catan_volcano import changes, flow, view
from referee.catan_volcano.board import BoardTables, Layout
from referee.catan_volcano.derived import Derived
from referee.catan_volcano.edition import EDITION
from referee.catan_volcano.events import index_secrets
from referee.catan_volcano.geometry import EDGE_COUNT, NODE_COUNT
from referee.catan_volcano.moves import PLAYS, generate, key_of, settle
from referee.catan_volcano.seat_views import PlayerViews
from referee.catan_volcano.variants import RULES, VOLCANO_OPTIONS, VariantRules
from referee.catan_volcano.view import observation as observe
from referee.game import JSON, IllegalMove, Move, Outcome, SetupError, State
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


class CatanState(State):
    """A game in progress. The rules modules change its lists in place; see :data:`FIELDS`."""

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
        "placed",
        "board_moves",
        "placed_at",
        "road_built",
        "built_at",
        "score_moves",
        "win_checked",
        "secret_events",
        "forgotten",
        "player_views",
        "kept",
        "cards_moved",
        "devs_moved",
        "current_seat",
        "_legal",
        "_public",
        "_observed",
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

    def __init__(self, variant: str, seats: int, options: Mapping[str, JSON], layout: Layout) -> None:
        self.variant = variant
        self.seats = seats
        self.options = dict(options)
        self.rules = RULES[variant]
        self.layout = layout
        self.tables = layout.tables(self.rules.gold)
        self.options_view: dict[str, JSON] = dict(self.options)
        """The options as observations show them (shared by every observation: read-only)."""
        self.board_view = view.board_view(layout, self.tables, self.rules.variable_lava)
        """The board as observations show it (the same object for every observation: read-only)."""
        self.frame = view.frame(self)
        """What every observation of the game starts as a copy of (:func:`view.frame`)."""
        self.placed: Derived | None = None
        """What the pieces on the board imply (:func:`referee.catan_volcano.derived.derived`)."""
        self.placed_at = -1
        """``board_moves`` when :attr:`placed` was last found current (-1: never)."""
        changes.start_marks(self)  # what moved: see the attributes' declarations above
        self.secret_events: list[tuple[int, dict[str, Any], dict[int, dict[str, Any]]]] = []
        """Where the log's secret events are (see :func:`referee.catan_volcano.events.index_secrets`)."""
        self.forgotten = 0
        """How many events have been dropped from the log's start since it was last indexed."""
        self.player_views = PlayerViews()
        self.kept = view.Kept(seats, self.frame)
        """Parts of observations kept from one position to the next (:class:`view.Kept`)."""
        self.current_seat: int | None = None
        """The seat to move, None once the game is over (the common interface's property, kept as a
        plain attribute: the referee reads it before every move, and a property costs a call).
        Set from ``phase`` and ``current`` after every move and by :meth:`remember_legal`, which a
        position changed by hand must call."""
        self._legal: list[Move] | None = None
        self._public: dict[str, Any] | None = None
        """The first observation built of this position: served to its seat, and the public parts
        the other seats' observations copy."""
        self._observed: dict[int, tuple[dict[str, Any], dict[str, JSON]]] = {}

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def fresh(
        cls, variant: str, seats: int, options: Mapping[str, JSON], layout: Layout, rng: Rng
    ) -> CatanState:
        """The state before the first settlement: full bank and deck, empty board."""
        state = cls(variant, seats, options, layout)
        state.rng = rng
        pieces = EDITION.pieces
        values: dict[str, Any] = {
            "bank": [EDITION.bank_per_resource] * len(EDITION.resources),
            "hands": [[0] * 5 for _ in range(seats)],
            "devs": [[0] * 5 for _ in range(seats)],
            "new_devs": [[0] * 5 for _ in range(seats)],
            "played": [[0] * 5 for _ in range(seats)],
            "deck": list(EDITION.deck),
            "node_owner": [-1] * NODE_COUNT,
            "node_level": [0] * NODE_COUNT,
            "edge_owner": [-1] * EDGE_COUNT,
            "pieces": [[pieces["roads"], pieces["settlements"], pieces["cities"]] for _ in range(seats)],
            "road_length": [0] * seats,
            "longest_road": -1,
            "largest_army": -1,
            "robber": layout.robber_start(),
            "phase": "place_settlement",
            "resume": "main",
            "turn": 0,
            "turn_seat": EDITION.first_seat,
            "current": EDITION.first_seat,
            "setup_step": 0,
            "dev_played": False,
            "dice": None,
            "rolls_ahead": 0,
            "rolls_left": 0,
            "discard_owed": [0] * seats,
            "gold_owed": [0] * seats,
            "eruptions": [],
            "free_roads": 0,
            "offer": None,
            "offers_made": 0,
            "winner": -1,
            "end_reason": None,
            "events": [],
        }
        for name in FIELDS:
            setattr(state, name, values[name])
        return state

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {
            "variant": self.variant,
            "seats": self.seats,
            "options": dict(self.options),
            "layout": self.layout.to_json(),
            "rng": self.rng.state,
        }
        for name, copier in FIELDS.items():
            data[name] = copier(getattr(self, name))
        data["dice"] = None if self.dice is None else list(self.dice)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> CatanState:
        try:
            variant = data["variant"]
            if variant not in RULES:
                raise SetupError(f"state.variant {variant!r} is not a variant", "state.variant")
            state = cls(
                variant, int(data["seats"]), data["options"], Layout.from_json(data["layout"], "state.layout")
            )
            state.rng = Rng(int(data["rng"]))
            for name, copier in FIELDS.items():
                setattr(state, name, copier(data[name]))
        except KeyError as missing:
            raise SetupError(f"state lacks {missing.args[0]}", f"state.{missing.args[0]}") from None
        index_secrets(state)
        state.dice = None if data["dice"] is None else (data["dice"][0], data["dice"][1])
        state.current_seat = None if state.phase == "over" else state.current
        return state

    def copy(self) -> CatanState:
        """An independent copy (for search): lists copied, the static board shared."""
        clone = CatanState.__new__(CatanState)
        shared = (
            "variant",
            "seats",
            "options",
            "rules",
            "layout",
            "tables",
            "options_view",
            "board_view",
            "frame",
            "placed",
        )
        for name in shared:
            setattr(clone, name, getattr(self, name))
        clone.secret_events = list(self.secret_events)  # views by seat shared: the same events
        clone.forgotten = self.forgotten
        clone.player_views = PlayerViews()
        clone.kept = view.Kept(self.seats, self.frame)
        changes.copy_marks(clone, self)
        clone.current_seat = self.current_seat
        clone.placed_at = self.placed_at
        clone.rng = Rng(self.rng.state)
        clone._legal = self._legal
        clone._public = self._public
        clone._observed = dict(self._observed)
        for name, copier in FIELDS.items():
            setattr(clone, name, copier(getattr(self, name)))
        return clone

    # -- the common interface ----------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        if self._legal is None:
            self._legal = generate(self)
        return list(self._legal)

    def apply(self, move: Move) -> None:
        legal = self._legal
        if legal is None:
            legal = self._legal = generate(self)
        try:
            known = legal[legal.index(move)]  # dict equality: key order aside, as the protocol says
        except ValueError:
            known = None
        # equality also takes 1.0 or true for 1: unless the move is the engine's own object, its
        # fields' types are vetted too (key_of), so only the exact spelling of a legal move plays
        if known is None or (known is not move and key_of(move) is None):
            if key_of(move) is None:
                raise IllegalMove(f"not a move of this game: {move!r}"[:200])
            raise IllegalMove(f"not a legal move now: {move!r}"[:200])
        self._public = None  # (the other seats' observations are kept against it: see observation)
        PLAYS[known["type"]](self, known)
        self._legal = settle(self)  # the forced moves after it, and the next seat's legal moves
        self.current_seat = None if self.phase == "over" else self.current

    def remember_legal(self, legal: list[Move]) -> None:
        """Keep the legal moves just generated for the next :meth:`legal_moves` and :meth:`apply`.

        Every cache kept from one position to the next is dropped or marked to be checked: the
        buildings and roads are checked again, the seats' public views made again, the event log's
        secrets indexed again, the win looked at again after the next move. (A position changed by
        hand calls :meth:`changed_by_hand`, which generates ``legal`` from the position as it now
        stands.)"""
        self._legal = legal
        self.current_seat = None if self.phase == "over" else self.current
        self._public = None
        self._observed = {}
        changes.mark_everything_moved(self)
        self.player_views = PlayerViews()
        self.kept = view.Kept(self.seats, self.frame)
        index_secrets(self)

    def changed_by_hand(self) -> None:
        """What a position changed by hand (as the rule tests do) must call before it is played or
        observed: the legal moves generated afresh, then :meth:`remember_legal`.

        What the pieces imply is dropped first: the engine's own moves count their changes to the
        board, which tells the legal moves' generation when to look at the pieces again, but a
        change by hand is not counted until :meth:`remember_legal`, so moves generated before it
        could come from the pieces as they stood before the change (a road spot missed)."""
        self.placed = None
        self.remember_legal(generate(self))

    def observation(self, seat: int) -> dict[str, JSON]:
        """The seat's view, built once per position (until the next move): read-only, shared.

        The first one built is :attr:`_public` (the referee asks for one seat's only); other
        seats' observations copy its public parts and are kept in :attr:`_observed`, each with the
        :attr:`_public` it was made from (a move only drops :attr:`_public`, so that the referee's
        path, one observation a move, makes no dict to keep others in)."""
        public = self._public
        if public is None:
            public = self._public = observe(self, seat)
            return public
        if public["seat"] == seat:
            return public
        kept = self._observed.get(seat)
        if kept is not None and kept[0] is public:
            return kept[1]
        seen = observe(self, seat, public)
        self._observed[seat] = (public, seen)
        return seen

    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        return flow.outcome(self)

    # -- small shared facts ------------------------------------------------------------------

    def option(self, name: str) -> JSON:
        """An option's value, with the volcano twists' defaults for the base variant."""
        return self.options.get(name, _OPTION_FALLBACKS.get(name))


_OPTION_FALLBACKS: dict[str, JSON] = {spec.name: spec.default for spec in VOLCANO_OPTIONS}
"""The volcano twists' declared defaults, read where a variant (``base``) does not take them."""
