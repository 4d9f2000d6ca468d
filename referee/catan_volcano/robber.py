"""A 7 and the knight: discards, moving the robber, the steal.

On a 7 every seat holding more than seven resource cards discards half of them, rounded down, one
card per move, in seat order from the roller. Then the roller moves the robber to another hex and
steals one card, drawn at random, from a seat with a building on that hex (one move names both the
hex and the victim). The thief and the victim learn which card moved; the other seats do not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.catan_volcano import changes, flow
from referee.catan_volcano import move_table as table
from referee.catan_volcano.edition import EDITION
from referee.catan_volcano.events import record
from referee.catan_volcano.placed import derived
from referee.game import Move

if TYPE_CHECKING:
    from referee.catan_volcano.placed import Placed

RESOURCES = EDITION.resources


def seven(state: Placed) -> None:
    """A 7 was rolled: no production; discards first, then the robber."""
    limit = EDITION.discard_above
    owed = [sum(hand) // 2 if sum(hand) > limit else 0 for hand in state.hands]
    state.discard_owed = owed
    if any(owed):
        record(state, {"type": "discards_due", "counts": list(owed)})
    next_discard(state)


def next_discard(state: Placed) -> None:
    seat = flow.next_owed(state, state.discard_owed)
    if seat >= 0:
        state.phase = "discard"
        state.current = seat
    else:
        start(state, "main")


def discard_moves(state: Placed) -> list[Move]:
    hand = state.hands[state.current]
    held = (
        (hand[0] != 0) | (hand[1] != 0) << 1 | (hand[2] != 0) << 2 | (hand[3] != 0) << 3 | (hand[4] != 0) << 4
    )
    return list(_DISCARD_LISTS[held])


_DISCARD_LISTS: tuple[tuple[Move, ...], ...] = tuple(
    tuple(table.DISCARD[r] for r in range(5) if held >> r & 1) for held in range(32)
)
"""The discards for each set of resources held (bit ``resource``), in resource order."""


def discard(state: Placed, move: Move) -> None:
    seat, resource = state.current, RESOURCES.index(move["resource"])
    changes.to_bank(state, seat, resource, 1)
    state.discard_owed[seat] -= 1
    record(state, {"type": "discard", "seat": seat, "resource": move["resource"]})
    next_discard(state)


def start(state: Placed, resume: str) -> None:
    """The turn's seat must move the robber, then play goes back to ``resume``."""
    state.phase = "robber"
    state.resume = resume
    state.current = state.turn_seat


def robber_moves(state: Placed) -> list[Move]:
    """Every hex but the robber's, with each other seat holding a card that has a building there
    (in seat order), or with no victim if none."""
    has_cards = 0
    for seat, hand in enumerate(state.hands):
        if any(hand):
            has_cards |= 1 << seat
    return derived(state).robber_moves(state.robber, state.current, has_cards)


def move_robber(state: Placed, move: Move) -> None:
    thief, hex_id, victim = state.current, move["hex"], move["victim"]
    state.robber = hex_id
    record(state, {"type": "move_robber", "seat": thief, "hex": hex_id, "victim": victim})
    if victim is not None:
        hand = state.hands[victim]
        pick = state.rng.below(sum(hand))
        resource = 0
        while pick >= hand[resource]:
            pick -= hand[resource]
            resource += 1
        changes.move_cards(state, victim, thief, resource, 1)
        record(
            state,
            {"type": "steal", "seat": thief, "victim": victim},
            secret={"resource": RESOURCES[resource]},
            shown_to=(thief, victim),
        )
    flow.resume(state)
