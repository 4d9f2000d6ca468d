"""Development cards: buying one, and the four kinds that are played.

Timing (the official rules): at most one development card played per turn, before or after the
roll; never a card bought this turn; victory point cards are never played, they count in hand. A
card is drawn uniformly from what is left of the deck when bought, so the deck's order is never in
the state for anyone to read; only the buyer learns the card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.catan_volcano import awards, changes, robber
from referee.catan_volcano import move_table as table
from referee.catan_volcano.changes import ROADS
from referee.catan_volcano.edition import (
    DEV_CARDS,
    EDITION,
    KNIGHT,
    MONOPOLY,
    ROAD_BUILDING,
    YEAR_OF_PLENTY,
)
from referee.catan_volcano.events import named, record
from referee.catan_volcano.placed import derived
from referee.game import Move

if TYPE_CHECKING:
    from referee.catan_volcano.placed import Placed

RESOURCES = EDITION.resources
CARD_COST = EDITION.costs["development_card"]


def buy(state: Placed, move: Move) -> None:
    seat = state.current
    changes.pay_bank(state, seat, CARD_COST)
    deck = state.deck
    pick = state.rng.below(sum(deck))
    kind = 0
    while pick >= deck[kind]:
        pick -= deck[kind]
        kind += 1
    changes.draw_development_card(state, seat, kind)
    record(
        state,
        {"type": "buy_development_card", "seat": seat},
        secret={"card": DEV_CARDS[kind]},
        shown_to=(seat,),
    )


def play_moves(state: Placed, seat: int) -> list[Move]:
    """The development cards the seat may play now (before or after the roll): one a turn, and
    of each kind only the cards held from before this turn (``new_devs``: bought this turn)."""
    devs, new = state.devs[seat], state.new_devs[seat]
    if state.dev_played or devs == new:  # (most often: no card but those bought this turn)
        return []
    moves: list[Move] = []
    if devs[KNIGHT] > new[KNIGHT]:
        moves.append(table.PLAY_KNIGHT)
    if (
        devs[ROAD_BUILDING] > new[ROAD_BUILDING]
        and state.pieces[seat][ROADS]
        and derived(state).road_spots(state, seat)
    ):
        moves.append(table.PLAY_ROAD_BUILDING)
    if devs[YEAR_OF_PLENTY] > new[YEAR_OF_PLENTY]:
        bank = state.bank
        moves.extend(
            move for a, b, move in table.YEAR_OF_PLENTY if bank[a] >= (2 if a == b else 1) and bank[b]
        )
    if devs[MONOPOLY] > new[MONOPOLY]:
        moves.extend(table.MONOPOLY)
    return moves


def play_knight(state: Placed, move: Move) -> None:
    seat = state.current
    changes.play_development_card(state, seat, KNIGHT)
    record(state, {"type": "play_knight", "seat": seat})
    awards.update_largest_army(state, seat)
    robber.start(state, state.phase)


def play_road_building(state: Placed, move: Move) -> None:
    seat = state.current
    changes.play_development_card(state, seat, ROAD_BUILDING)
    record(state, {"type": "play_road_building", "seat": seat})
    state.free_roads = min(2, state.pieces[seat][ROADS])
    state.resume = state.phase
    state.phase = "road_building"


def road_building_moves(state: Placed) -> list[Move]:
    seat = state.current
    free_road = table.FREE_ROAD
    return [free_road[edge] for edge in derived(state).road_spots(state, seat)]


def play_year_of_plenty(state: Placed, move: Move) -> None:
    seat = state.current
    changes.play_development_card(state, seat, YEAR_OF_PLENTY)
    taken = [0] * 5
    for name in (move["first"], move["second"]):
        resource = RESOURCES.index(name)
        changes.from_bank(state, seat, resource, 1)
        taken[resource] += 1
    record(state, {"type": "play_year_of_plenty", "seat": seat, "resources": named(taken)})


def play_monopoly(state: Placed, move: Move) -> None:
    seat = state.current
    changes.play_development_card(state, seat, MONOPOLY)
    resource = RESOURCES.index(move["resource"])
    taken = [0] * state.seats
    for other, hand in enumerate(state.hands):
        if other != seat and hand[resource]:
            taken[other] = hand[resource]
            changes.move_cards(state, other, seat, resource, hand[resource])
    record(state, {"type": "play_monopoly", "seat": seat, "resource": move["resource"], "taken": taken})
