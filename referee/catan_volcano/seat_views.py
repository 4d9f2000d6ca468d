"""The seats' public views in an observation (``players``): what the table sees of each seat.

Per seat: its count of resource cards and of development cards, its played development cards, its
pieces left, its road length, the awards it holds and the points it shows (buildings and awards,
not victory point cards in hand). :class:`PlayerViews` keeps them from one position to the next.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.catan_volcano import awards, changes
from referee.catan_volcano.edition import DEV_CARDS
from referee.memo import Memo

if TYPE_CHECKING:
    from referee.catan_volcano.position import Position

_SHARED_COUNTS = Memo[tuple[int, ...], dict[str, int]]("catan.development_counts", limit=4096)
"""Per-kind counts of development cards as JSON, shared between observations: few distinct
values occur (a seat's played cards change a handful of times a game)."""


def dev_counts(values: list[int]) -> dict[str, int]:
    """Per-kind counts of development cards as JSON, shared (read-only)."""
    key = tuple(values)
    shown = _SHARED_COUNTS.table.get(key)
    if shown is None:
        shown = _SHARED_COUNTS.keep(key, dict(zip(DEV_CARDS, key, strict=True)))
    return shown


_SHARED_PIECES = Memo[tuple[int, ...], dict[str, int]]("catan.pieces_left", limit=4096)


def _pieces_left(pieces: list[int]) -> dict[str, int]:
    key = tuple(pieces)
    shown = _SHARED_PIECES.table.get(key)
    if shown is None:
        shown = _SHARED_PIECES.keep(key, {"roads": key[0], "settlements": key[1], "cities": key[2]})
    return shown


def player_view(state: Position, seat: int) -> dict[str, Any]:
    """What the table sees of ``seat``, made from scratch."""
    return {
        "seat": seat,
        "resource_cards": sum(state.hands[seat]),
        "development_cards": sum(state.devs[seat]),
        "played": dev_counts(state.played[seat]),
        "pieces_left": _pieces_left(state.pieces[seat]),
        "road_length": state.road_length[seat],
        "longest_road": state.longest_road == seat,
        "largest_army": state.largest_army == seat,
        "points_showing": awards.visible_points(state, seat),
    }


def players_view(state: Position) -> list[dict[str, Any]]:
    """Every seat's :func:`player_view`, made from scratch (:class:`PlayerViews` keeps them)."""
    return [player_view(state, seat) for seat in range(state.seats)]


_SEATS_IN: tuple[tuple[int, ...], ...] = tuple(
    tuple(seat for seat in range(8) if mask >> seat & 1) for mask in range(1 << 8)
)
"""``_SEATS_IN[mask]``: the seats of a bit mask (bit ``seat``), in seat order."""


class PlayerViews:
    """The seats' public views (:func:`players_view`), kept from one position to the next.

    The engine marks the seats whose cards it changes and counts its changes to the board (see
    :mod:`referee.catan_volcano.changes`: ``cards_moved``, ``devs_moved``, ``board_moves``); the
    board alone moves pieces, road lengths and the longest road, and a position changed by hand
    starts a new :class:`PlayerViews` (``remember_legal``). So most moves, which change only cards
    in hand (a roll, a trade, a discard, a build), look at the marked seats only, and at their count
    of cards in hand only. A seat whose count moved gets a copy of its view with the count written
    (``dict.copy`` clones the key table; counted, this beats keeping views by their counts and
    making a missing one with ``**``); a card bought or played, or any other change, makes the
    seat's view anew. The list handed out is new whenever a view in it changed, and shared
    (read-only) when none did.
    """

    __slots__ = ("views", "pieces", "lengths", "longest", "largest", "board_at")

    def __init__(self) -> None:
        self.views: list[dict[str, Any]] = []
        self.pieces: list[list[int]] = []
        self.lengths: list[int] = []
        self.longest = -1
        self.largest = -1
        self.board_at = -1
        """``state.board_moves`` when pieces, lengths and the longest road were last compared (-1
        before the first look, which so goes to :meth:`_compared` and makes every view)."""

    def current(self, state: Position) -> list[dict[str, Any]]:
        # (the longest road moves only with the board: a road built, a road cut, lava)
        if state.board_moves != self.board_at or state.largest_army != self.largest:
            return self._compared(state)
        views = self.views
        if not state.cards_moved:
            return views
        moved, remade = changes.take_card_marks(state)
        hands = state.hands
        fresh = None
        for seat in _SEATS_IN[moved]:
            if remade >> seat & 1:  # a development card bought or played: the view made anew
                if fresh is None:
                    fresh = list(views)
                fresh[seat] = self._made(state, seat)
                continue
            a, b, c, d, e = hands[seat]
            count = a + b + c + d + e
            shown = views[seat]
            if shown["resource_cards"] == count:
                continue
            shown = shown.copy()
            shown["resource_cards"] = count
            if fresh is None:
                fresh = list(views)
            fresh[seat] = shown
        if fresh is None:
            return views
        self.views = fresh
        return fresh

    def _made(self, state: Position, seat: int) -> dict[str, Any]:
        """The seat's view made anew, its copies of the facts taken."""
        shown = player_view(state, seat)
        self.pieces[seat] = list(state.pieces[seat])
        return shown

    def _rebuilt(self, state: Position) -> list[dict[str, Any]]:
        """Every seat's view made anew (the first look)."""
        n = state.seats
        self.pieces = [[]] * n
        self.views = [self._made(state, seat) for seat in range(n)]
        self.lengths = list(state.road_length)
        self.longest = state.longest_road
        self.largest = state.largest_army
        self.board_at = state.board_moves
        changes.take_card_marks(state)
        return self.views

    def _compared(self, state: Position) -> list[dict[str, Any]]:
        """After the board or an award moved: every seat's facts compared with the copies."""
        if len(self.views) != state.seats:
            return self._rebuilt(state)
        moved, _ = changes.take_card_marks(state)
        pieces, lengths = state.pieces, state.road_length
        longest, largest = state.longest_road, state.largest_army
        old_longest, old_largest = self.longest, self.largest
        fresh = list(self.views)
        for seat in range(state.seats):
            if (
                moved >> seat & 1  # (cards in hand, development or played cards: marked by the rules)
                or pieces[seat] != self.pieces[seat]
                or lengths[seat] != self.lengths[seat]
                or (longest == seat) != (old_longest == seat)
                or (largest == seat) != (old_largest == seat)
            ):
                fresh[seat] = self._made(state, seat)
        self.lengths = list(lengths)
        self.longest = longest
        self.largest = largest
        self.board_at = state.board_moves
        self.views = fresh
        return fresh
