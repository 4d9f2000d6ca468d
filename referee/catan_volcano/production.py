"""The roll and what follows it: production with the bank's limits, gold choices, eruptions, a 7.

Order after a roll other than 7: every producing hex with the number pays (unless the robber is on
it), then the seats owed gold pick their resources one by one, then the volcanoes on that number
erupt. A resource the bank cannot pay to everyone is paid to no one; with the option
``bank_shortage`` set to ``single_takes_rest`` (the rulebook's exception), a single seat owed it
takes what is left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.catan_volcano import changes, flow, robber, volcano
from referee.catan_volcano import move_table as table
from referee.catan_volcano.edition import EDITION
from referee.catan_volcano.events import record
from referee.catan_volcano.placed import derived
from referee.game import Move

if TYPE_CHECKING:
    from referee.catan_volcano.placed import Placed

RESOURCES = EDITION.resources


ROLLS_PER_DRAW = 12
"""How many rolls one draw of the seeded generator gives: ``36 ** 12`` (about 4.7e18) is under
``2 ** 64``."""
_ROLLS_DRAWN = 36**ROLLS_PER_DRAW
_DICE: tuple[tuple[int, int], ...] = tuple((1 + index // 6, 1 + index % 6) for index in range(36))
"""Both dice of each of the 36 outcomes: the first die the sixes, the second the rest."""


def next_dice(state: Placed) -> tuple[int, int]:
    """The two dice of the next roll.

    Rolls are drawn twelve at a time: a number below ``36 ** 12`` is drawn, and its digits in base
    36, lowest first, are the next twelve rolls (each digit an outcome of two dice, see
    :data:`_DICE`), kept in the state (``rolls_ahead``, the digits not yet rolled, and
    ``rolls_left``). The digits of a uniform draw are uniform and independent, so every roll has
    the 36 equally likely outcomes of two dice, for one draw in twelve rolls rather than one a roll
    (a draw is some twenty operations on 64-bit integers, which Python makes as objects: counted on
    the clock, about 2% of the referee's path). A position rebuilt from an observation (a search
    bot's) starts with none ahead, so it never holds the game's own coming rolls.

    >>> from referee.catan_volcano import GAME
    >>> state = GAME.start("base", 3, seed=1)
    >>> first = next_dice(state)
    >>> state.rolls_left
    11
    """
    left = state.rolls_left
    if left:
        ahead, index = divmod(state.rolls_ahead, 36)
        state.rolls_left = left - 1
    else:
        ahead, index = divmod(state.rng.below(_ROLLS_DRAWN), 36)
        state.rolls_left = ROLLS_PER_DRAW - 1
    state.rolls_ahead = ahead
    return _DICE[index]


def roll(state: Placed, move: Move) -> None:
    dice = next_dice(state)
    total = dice[0] + dice[1]
    state.dice = dice
    record(state, {"type": "roll", "seat": state.turn_seat, "dice": list(dice)})
    if total == 7:
        robber.seven(state)
        return
    produce(state, total)
    erupting = state.tables.volcanoes_by_number[total]
    if not erupting and not any(state.gold_owed):  # most rolls: nothing erupts, no gold to pick
        if state.eruptions:
            state.eruptions = []
        flow.enter_main(state)  # (what next_gold comes to)
        return
    state.eruptions = []
    for hex_id in erupting:
        if volcano.stopped_by_robber(state, hex_id):
            record(state, {"type": "eruption_stopped", "hex": hex_id})
        else:
            state.eruptions.append(hex_id)
    next_gold(state)


def produce(state: Placed, number: int) -> None:
    """Pay every building on the hexes carrying ``number``; count the gold owed."""
    plan = derived(state).plan(state, number, state.robber)
    bank = state.bank
    short: list[str] = []
    gains: list[dict[str, int]] | None = None
    for resource, name, takers, total in plan.shares:
        if total > bank[resource]:
            short.append(name)
            if gains is None:
                gains = [dict(shown) for shown in plan.gains]  # the plan's are shared: copied
            single_takes_rest = state.option("bank_shortage") == "single_takes_rest"
            if single_takes_rest and len(takers) == 1 and bank[resource]:
                seat = takers[0][0]  # the one seat owed it takes what is left
                gains[seat][name] = bank[resource]
                changes.from_bank(state, seat, resource, bank[resource])
            else:
                for seat, _ in takers:
                    del gains[seat][name]  # paid to no one
            continue
        changes.bank_pays(state, resource, takers, total)
    state.gold_owed = list(plan.gold)
    record(
        state,
        {
            "type": "production",
            "number": number,
            "gains": plan.gains if gains is None else gains,
            "bank_short": short,
            "gold": list(plan.gold),
        },
    )


def next_gold(state: Placed) -> None:
    """The next seat to pick gold, or (none left) the eruptions and the main phase."""
    if any(state.gold_owed):  # (most rolls pay no gold: then neither call is made)
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


def gold_moves(state: Placed) -> list[Move]:
    bank = state.bank
    return [table.GOLD[r] for r in range(5) if bank[r]]


def choose_gold(state: Placed, move: Move) -> None:
    seat, resource = state.current, RESOURCES.index(move["resource"])
    changes.from_bank(state, seat, resource, 1)
    state.gold_owed[seat] -= 1
    record(state, {"type": "gold", "seat": seat, "resource": move["resource"]})
    next_gold(state)
