"""One game of Catan in progress: the common State interface on top of the engine's layers.

The facts are :class:`referee.catan_volcano.position.Position` (declared once in
:data:`~referee.catan_volcano.position.FIELDS`), with what the pieces imply kept by
:class:`referee.catan_volcano.placed.Placed` and the observations' parts kept by
:class:`referee.catan_volcano.view.Viewed`; the rules modules read and change them, and this class,
on top, builds a game, lists and plays its moves, shows it to a seat, copies and saves it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.catan_volcano import changes, flow, view
from referee.catan_volcano.board import Layout
from referee.catan_volcano.edition import EDITION
from referee.catan_volcano.events import index_secrets
from referee.catan_volcano.geometry import EDGE_COUNT, NODE_COUNT
from referee.catan_volcano.moves import PLAYS, generate, key_of, settle
from referee.catan_volcano.position import FIELDS
from referee.catan_volcano.seat_views import PlayerViews
from referee.catan_volcano.variants import RULES
from referee.catan_volcano.view import Viewed
from referee.catan_volcano.view import observation as observe
from referee.game import JSON, IllegalMove, Move, Outcome, SetupError, State
from referee.rng import Rng


class CatanState(Viewed, State):
    """A game in progress. The rules modules change its lists in place; see
    :data:`~referee.catan_volcano.position.FIELDS`."""

    __slots__ = ("_legal", "_public", "_observed")

    def __init__(self, variant: str, seats: int, options: Mapping[str, JSON], layout: Layout) -> None:
        super().__init__(variant, seats, options, layout)
        self.board_view = view.board_view(layout, self.tables, self.rules.variable_lava)
        self.frame = view.frame(self)
        self.placed = None
        self.placed_at = -1
        changes.start_marks(self)  # what moved: see the attributes' declarations in Position
        self.player_views = PlayerViews()
        self.kept = view.Kept(seats, self.frame)
        self.current_seat = None
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
