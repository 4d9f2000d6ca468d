"""Every change to the pieces, the cards and the awards, made here, so that the caches follow.

Several answers are kept from one position to the next rather than worked out on every move, and
each rests on marks that say what moved since it was made:

``board_moves``
    counts the changes to the buildings and roads: :func:`referee.catan_volcano.placed.derived`
    (what the pieces imply) and the seats' public views look at the pieces again when it moved.
``built_at``, ``road_built``
    the node of the last building put, raised, lowered or removed, the edge of the last road
    (-1: none yet): hints for :func:`~referee.catan_volcano.placed.derived` to carry answers over,
    checked against the ownership lists before they are trusted.
``score_moves``
    counts the changes that may raise a seat's points (a settlement, a city, a development card
    drawn, an award moving): :func:`referee.catan_volcano.flow.check_win` looks at the points of
    the turn's seat only when it moved since that seat's last look (``win_checked``).
``cards_moved``, ``devs_moved``
    the seats whose cards in hand, development cards or played cards changed, as bit masks (bit
    ``seat``; ``devs_moved`` those whose development or played cards did): the seats' public views
    (:class:`referee.catan_volcano.seat_views.PlayerViews`) look at those seats alone, and take the
    marks with :func:`take_card_marks`.

A missed mark would leave a cache stale (a win unseen, a view showing old counts), so no rule
writes these lists and marks itself: each change goes through the mutator named for it below,
which makes the change and sets its marks. ``tests/referee/catan_volcano/test_caches.py`` compares
every cached answer with one worked out from scratch over random games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.catan_volcano.position import Position

ROADS, SETTLEMENTS, CITIES = 0, 1, 2
"""Indexes into ``state.pieces[seat]``."""


# -- the marks themselves ----------------------------------------------------------------------


def start_marks(state: Position) -> None:
    """A new state's marks: nothing seen yet, every cache to be made on first use."""
    state.board_moves = 0
    state.built_at = -1
    state.road_built = -1
    state.score_moves = 0
    state.win_checked = [-1] * state.seats
    state.cards_moved = 0
    state.devs_moved = 0


def copy_marks(clone: Position, original: Position) -> None:
    """A copy's marks: the board counted on from the original's (it shares what the pieces imply,
    :attr:`~referee.catan_volcano.placed.Placed.placed`), its own seats' views made afresh."""
    clone.board_moves = original.board_moves
    clone.built_at = original.built_at
    clone.road_built = original.road_built
    clone.score_moves = original.score_moves
    clone.win_checked = list(original.win_checked)
    clone.cards_moved = 0
    clone.devs_moved = 0


def mark_everything_moved(state: Position) -> None:
    """A position whose lists may have changed by hand: the pieces are looked at again and the
    win looked at again after the next move (the views are made afresh by the caller)."""
    state.board_moves += 1
    state.win_checked = [-1] * state.seats


def take_card_marks(state: Position) -> tuple[int, int]:
    """The seats whose cards moved since the last call (``cards_moved``, ``devs_moved``), the
    marks cleared: the seats' public views call it when they look."""
    marks = state.cards_moved, state.devs_moved
    state.cards_moved = state.devs_moved = 0
    return marks


# -- buildings and roads -----------------------------------------------------------------------


def put_settlement(state: Position, seat: int, node: int) -> None:
    """A settlement from the seat's supply goes on the empty ``node``."""
    state.node_owner[node] = seat
    state.node_level[node] = 1
    state.pieces[seat][SETTLEMENTS] -= 1
    state.board_moves += 1
    state.built_at = node
    state.score_moves += 1


def upgrade_city(state: Position, seat: int, node: int) -> None:
    """The seat's settlement on ``node`` becomes a city; the settlement goes back to its supply."""
    state.node_level[node] = 2
    pieces = state.pieces[seat]
    pieces[CITIES] -= 1
    pieces[SETTLEMENTS] += 1
    state.board_moves += 1
    state.built_at = node
    state.score_moves += 1


def reduce_city(state: Position, node: int) -> None:
    """The city on ``node`` becomes a settlement again (lava): a settlement from its owner's
    supply takes its place, the city goes back."""
    pieces = state.pieces[state.node_owner[node]]
    state.node_level[node] = 1
    pieces[CITIES] += 1
    pieces[SETTLEMENTS] -= 1
    state.board_moves += 1
    state.built_at = node


def remove_building(state: Position, node: int) -> None:
    """The building on ``node`` goes back to its owner's supply (lava)."""
    pieces = state.pieces[state.node_owner[node]]
    pieces[CITIES if state.node_level[node] == 2 else SETTLEMENTS] += 1
    state.node_owner[node] = -1
    state.node_level[node] = 0
    state.board_moves += 1
    state.built_at = node


def put_road(state: Position, seat: int, edge: int) -> None:
    """A road from the seat's supply goes on the empty ``edge``."""
    state.edge_owner[edge] = seat
    state.pieces[seat][ROADS] -= 1
    state.board_moves += 1
    state.road_built = edge


# -- resource cards ----------------------------------------------------------------------------


def pay_bank(state: Position, seat: int, cost: tuple[int, ...]) -> None:
    """Move ``cost`` (per resource) from the seat's hand to the bank."""
    hand, bank = state.hands[seat], state.bank
    state.cards_moved |= 1 << seat
    for resource, amount in enumerate(cost):
        if amount:
            hand[resource] -= amount
            bank[resource] += amount


def to_bank(state: Position, seat: int, resource: int, count: int) -> None:
    """``count`` cards of ``resource`` go from the seat's hand to the bank."""
    state.hands[seat][resource] -= count
    state.bank[resource] += count
    state.cards_moved |= 1 << seat


def from_bank(state: Position, seat: int, resource: int, count: int) -> None:
    """The bank gives the seat ``count`` cards of ``resource`` (the caller checked it has them)."""
    state.bank[resource] -= count
    state.hands[seat][resource] += count
    state.cards_moved |= 1 << seat


def bank_pays(state: Position, resource: int, takers: tuple[tuple[int, int], ...], total: int) -> None:
    """The bank pays ``resource`` to each (seat, cards) of ``takers``, ``total`` in all (a roll's
    production: the caller checked the bank holds it)."""
    state.bank[resource] -= total
    hands = state.hands
    moved = 0
    for seat, cards in takers:
        hands[seat][resource] += cards
        moved |= 1 << seat
    state.cards_moved |= moved


def move_cards(state: Position, giver: int, taker: int, resource: int, count: int) -> None:
    """``count`` cards of ``resource`` go from ``giver``'s hand to ``taker``'s."""
    state.hands[giver][resource] -= count
    state.hands[taker][resource] += count
    state.cards_moved |= 1 << giver | 1 << taker


# -- development cards -------------------------------------------------------------------------


def draw_development_card(state: Position, seat: int, kind: int) -> None:
    """A card of ``kind`` goes from the deck to the seat, bought this turn (a victory point card
    counts at once)."""
    state.deck[kind] -= 1
    state.devs[seat][kind] += 1
    state.new_devs[seat][kind] += 1
    state.cards_moved |= 1 << seat
    state.devs_moved |= 1 << seat
    state.score_moves += 1


def play_development_card(state: Position, seat: int, kind: int) -> None:
    """The seat plays a card of ``kind``: from its hand to its played cards, the turn's one play
    used."""
    state.devs[seat][kind] -= 1
    state.played[seat][kind] += 1
    state.dev_played = True
    state.cards_moved |= 1 << seat
    state.devs_moved |= 1 << seat


# -- awards ------------------------------------------------------------------------------------


def give_longest_road(state: Position, seat: int) -> None:
    """The longest road award goes to ``seat`` (-1: set aside)."""
    state.longest_road = seat
    state.score_moves += 1


def give_largest_army(state: Position, seat: int) -> None:
    """The largest army award goes to ``seat``."""
    state.largest_army = seat
    state.score_moves += 1
