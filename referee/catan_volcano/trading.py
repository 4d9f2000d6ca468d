"""Trade with the bank (4:1, 3:1 or 2:1 at harbours) and between seats, after the roll.

Trades between seats (option ``trades``): the turn's seat offers a small fixed shape (one card for
one, or two of a kind for one: ``seat_trades`` in ``edition.json``) to one seat or to all. The seats
addressed answer in seat order; a seat that cannot pay declines without being asked (it has one
choice). If any accepted, the offering seat confirms one of them or cancels. A turn allows a few
offers only, so the legal-move lists stay small.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.catan_volcano import changes, flow
from referee.catan_volcano import move_table as table
from referee.catan_volcano.derived import Derived
from referee.catan_volcano.edition import EDITION
from referee.catan_volcano.events import record
from referee.catan_volcano.placed import derived
from referee.game import Move

if TYPE_CHECKING:
    from referee.catan_volcano.placed import Placed

RESOURCES = EDITION.resources
RESOURCE_INDEX = {name: index for index, name in enumerate(RESOURCES)}
OFFER_FIELDS = ("to", "give", "give_count", "get", "get_count")


def maritime_moves(state: Placed, seat: int, placed: Derived) -> tuple[Move, ...]:
    """Every bank trade the seat can pay for and the bank can give (``placed``: :func:`derived` of
    the state), as a shared tuple (read-only) for the main phase's list to extend with. The caller
    skips the call for a hand with no more than one card of any resource (no rate is below 2)."""
    hand, bank = state.hands[seat], state.bank
    wood, brick, sheep, wheat, ore = placed.rates(state, seat)
    gives = (
        (hand[0] >= wood)
        | (hand[1] >= brick) << 1
        | (hand[2] >= sheep) << 2
        | (hand[3] >= wheat) << 3
        | (hand[4] >= ore) << 4
    )
    if not gives:
        return ()
    if all(bank):  # the bank has every resource (nearly always): one C call for the five tests
        return _MARITIME_LISTS[gives << 5 | 31]
    gets = (
        (bank[0] != 0) | (bank[1] != 0) << 1 | (bank[2] != 0) << 2 | (bank[3] != 0) << 3 | (bank[4] != 0) << 4
    )
    return _MARITIME_LISTS[gives << 5 | gets]


def _maritime_list(gives: int, gets: int) -> tuple[Move, ...]:
    maritime = table.MARITIME
    return tuple(
        maritime[give][get]
        for give in range(5)
        if gives >> give & 1
        for get in range(5)
        if get != give and gets >> get & 1
    )


_MARITIME_LISTS: tuple[tuple[Move, ...], ...] = tuple(
    _maritime_list(key >> 5, key & 31) for key in range(1 << 10)
)
"""The bank trades for each set of resources the seat can give (high five bits) and the bank can
give (low five), in the order the rules list them: give, then get, in resource order."""


def maritime_trade(state: Placed, move: Move) -> None:
    seat, given, got = state.current, move["give"], move["get"]
    give, get = RESOURCE_INDEX[given], RESOURCE_INDEX[got]
    count = derived(state).rates(state, seat)[give]
    changes.to_bank(state, seat, give, count)
    changes.from_bank(state, seat, get, 1)
    record(state, {"type": "maritime_trade", "seat": seat, "give": given, "count": count, "get": got})


def offer_moves(state: Placed, seat: int) -> list[Move]:
    if not state.options["trades"] or state.offers_made >= EDITION.max_offers_per_turn:
        return []
    hand = state.hands[seat]
    targets: list[Any] = ["all", *(other for other in range(state.seats) if other != seat)]
    return [
        {
            "type": "offer_trade",
            "to": to,
            "give": RESOURCES[give],
            "give_count": give_count,
            "get": RESOURCES[get],
            "get_count": get_count,
        }
        for give_count, get_count in EDITION.offer_shapes
        for give in range(5)
        if hand[give] >= give_count
        for get in range(5)
        if get != give
        for to in targets
    ]


def offer_trade(state: Placed, move: Move) -> None:
    seat = state.current
    fields = {field: move[field] for field in OFFER_FIELDS}
    to = fields["to"]
    addressed = [(seat + k) % state.seats for k in range(1, state.seats)] if to == "all" else [to]
    state.offer = {"seat": seat, **fields, "waiting": addressed, "accepted": []}
    state.offers_made += 1
    record(state, {"type": "offer_trade", "seat": seat, **fields})
    state.phase = "trade_answer"
    state.current = addressed[0]


def answer_moves(state: Placed) -> list[Move]:
    offer = state.offer
    assert offer is not None
    if state.hands[state.current][RESOURCE_INDEX[offer["get"]]] >= offer["get_count"]:
        return [{"type": "accept_trade"}, {"type": "decline_trade"}]
    return [{"type": "decline_trade"}]


def _answered(state: Placed, accepted: bool) -> None:
    offer = state.offer
    assert offer is not None
    seat = offer["waiting"].pop(0)
    if accepted:
        offer["accepted"].append(seat)
    record(state, {"type": "accept_trade" if accepted else "decline_trade", "seat": seat})
    if offer["waiting"]:
        state.current = offer["waiting"][0]
    elif offer["accepted"]:
        state.phase = "trade_confirm"
        state.current = offer["seat"]
    else:
        state.offer = None
        flow.enter_main(state)


def accept_trade(state: Placed, move: Move) -> None:
    _answered(state, True)


def decline_trade(state: Placed, move: Move) -> None:
    _answered(state, False)


def confirm_moves(state: Placed) -> list[Move]:
    offer = state.offer
    assert offer is not None
    moves: list[Move] = [{"type": "confirm_trade", "seat": seat} for seat in offer["accepted"]]
    moves.append({"type": "cancel_trade"})
    return moves


def confirm_trade(state: Placed, move: Move) -> None:
    offer = state.offer
    assert offer is not None
    seat, partner = offer["seat"], move["seat"]
    give, get = RESOURCE_INDEX[offer["give"]], RESOURCE_INDEX[offer["get"]]
    changes.move_cards(state, seat, partner, give, offer["give_count"])
    changes.move_cards(state, partner, seat, get, offer["get_count"])
    record(state, {"type": "trade", "seat": seat, "partner": partner})
    state.offer = None
    flow.enter_main(state)


def cancel_trade(state: Placed, move: Move) -> None:
    record(state, {"type": "cancel_trade", "seat": state.current})
    state.offer = None
    flow.enter_main(state)
