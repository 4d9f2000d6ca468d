"""The roll and what follows it: production with the bank's limits, gold choices, eruptions, a 7.

Order after a roll other than 7: every producing hex with the number pays (unless the robber is on
it), then the seats owed gold pick their resources one by one, then the volcanoes on that number
erupt. A resource the bank cannot pay to everyone is paid to no one; with the option
``bank_shortage`` set to ``single_takes_rest`` (the rulebook's exception), a single seat owed it
takes what is left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.catan_volcano import flow, robber, volcano
from referee.catan_volcano.derived import derived
from referee.catan_volcano.edition import EDITION, GOLD
from referee.catan_volcano.events import record
from referee.game import Move

if TYPE_CHECKING:
    from referee.catan_volcano.moves import Key
    from referee.catan_volcano.state import CatanState

RESOURCES = EDITION.resources


def roll(state: CatanState, key: Key) -> None:
    rng = state.rng
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    total = dice[0] + dice[1]
    state.dice = dice
    record(state, {"type": "roll", "seat": state.turn_seat, "dice": list(dice)})
    if total == 7:
        robber.seven(state)
        return
    produce(state, total)
    state.eruptions = []
    for hex_id in state.tables.volcanoes_by_number[total]:
        if volcano.stopped_by_robber(state, hex_id):
            record(state, {"type": "eruption_stopped", "hex": hex_id})
        else:
            state.eruptions.append(hex_id)
    next_gold(state)


def produce(state: CatanState, number: int) -> None:
    """Pay every building on the hexes carrying ``number``; count the gold owed."""
    n = state.seats
    owed = [[0] * 5 for _ in range(n)]
    gold = [0] * n
    robber = state.robber
    wanted = [False] * 5
    for hex_id, resource, paid in derived(state).payouts(state, number):
        if hex_id == robber or not paid:
            continue
        if resource == GOLD:
            for owner, cards in paid:
                gold[owner] += cards
        else:
            wanted[resource] = True
            for owner, cards in paid:
                owed[owner][resource] += cards
    bank, hands = state.bank, state.hands
    gains: list[dict[str, int]] = [{} for _ in range(n)]
    short: list[str] = []
    for resource in range(5):
        if not wanted[resource]:
            continue
        takers = [seat for seat in range(n) if owed[seat][resource]]
        total = sum(owed[seat][resource] for seat in takers)
        if total > bank[resource]:
            short.append(RESOURCES[resource])
            single_takes_rest = state.option("bank_shortage") == "single_takes_rest"
            if not (single_takes_rest and len(takers) == 1 and bank[resource]):
                continue
            owed[takers[0]][resource] = bank[resource]
        for seat in takers:
            amount = owed[seat][resource]
            bank[resource] -= amount
            hands[seat][resource] += amount
            gains[seat][RESOURCES[resource]] = amount
    state.gold_owed = gold
    record(
        state,
        {"type": "production", "number": number, "gains": gains, "bank_short": short, "gold": list(gold)},
    )


def next_gold(state: CatanState) -> None:
    """The next seat to pick gold, or (none left) the eruptions and the main phase."""
    if not any(state.bank):
        state.gold_owed = [0] * state.seats  # an empty bank pays no gold
    seat = flow.next_owed(state, state.gold_owed)
    if seat >= 0:
        state.phase = "gold"
        state.current = seat
        return
    for hex_id in state.eruptions:
        volcano.erupt(state, hex_id)
    state.eruptions = []
    flow.enter_main(state)


def gold_moves(state: CatanState) -> list[Move]:
    bank = state.bank
    return [{"type": "choose_gold", "resource": RESOURCES[r]} for r in range(5) if bank[r]]


def choose_gold(state: CatanState, key: Key) -> None:
    seat, resource = state.current, RESOURCES.index(key[1])
    state.bank[resource] -= 1
    state.hands[seat][resource] += 1
    state.gold_owed[seat] -= 1
    record(state, {"type": "gold", "seat": seat, "resource": key[1]})
    next_gold(state)
