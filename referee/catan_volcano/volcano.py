"""Eruptions: the lava dice, which corners they hit, and what lava does to a building.

The seed's rules: when a volcano's number is rolled (after production) it erupts; a die picks the
corner the lava flows to (corners numbered 1..6 clockwise from the top). A settlement there is
removed; a city is reduced to a settlement (removed as well if its owner has no settlement piece to
put in its place). Variable Risk Gold rolls a number of lava dice that depends on the volcano's
number, behind a gate for 3, 11, 2 and 12 (:data:`GATES`); a building is hit at most once per
eruption. The robber on the volcano stops the eruption unless the ``robber_stops_eruption`` option
is off.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from referee.catan_volcano import awards, changes
from referee.catan_volcano.changes import SETTLEMENTS
from referee.catan_volcano.edition import EDITION
from referee.catan_volcano.events import record
from referee.catan_volcano.geometry import HEX_NODES
from referee.rng import Rng

if TYPE_CHECKING:
    from referee.catan_volcano.position import Position

LavaRoll = tuple[dict[str, Any], set[int]]
"""The dice an eruption rolled (for the event) and the corners the lava reaches."""


def _dice(rng: Rng, count: int) -> list[int]:
    return [rng.randint(1, 6) for _ in range(count)]


def no_gate(rng: Rng, dice: int) -> LavaRoll:
    """Roll the lava dice; every corner rolled is hit."""
    rolled = _dice(rng, dice)
    return {"lava_dice": rolled}, set(rolled)


def same_parity(rng: Rng, dice: int) -> LavaRoll:
    """3 or 11: a first die says whether even or odd corners are at risk, then the direction die.

    >>> rolls, corners = same_parity(Rng(1), 1)
    >>> all(corner % 2 == rolls["parity_die"] % 2 for corner in corners)
    True
    """
    parity = rng.randint(1, 6)
    rolled = _dice(rng, dice)
    return {"parity_die": parity, "lava_dice": rolled}, {d for d in rolled if d % 2 == parity % 2}


def odd_erupts(rng: Rng, dice: int) -> LavaRoll:
    """2 or 12: a first die even means no eruption after all; odd, then the direction die."""
    gate = rng.randint(1, 6)
    if gate % 2 == 0:
        return {"gate_die": gate, "lava_dice": []}, set()
    rolled = _dice(rng, dice)
    return {"gate_die": gate, "lava_dice": rolled}, set(rolled)


GATES: dict[str, Callable[[Rng, int], LavaRoll]] = {
    "none": no_gate,
    "same_parity": same_parity,
    "odd_erupts": odd_erupts,
}


def stopped_by_robber(state: Position, hex_id: int) -> bool:
    return state.robber == hex_id and bool(state.option("robber_stops_eruption"))


def lava_hits(state: Position, node: int) -> dict[str, Any]:
    """Lava reaches a building: a settlement is removed, a city becomes a settlement."""
    seat = state.node_owner[node]
    was = "city" if state.node_level[node] == 2 else "settlement"
    if was == "city" and state.pieces[seat][SETTLEMENTS] > 0:
        changes.reduce_city(state, node)
        now = "settlement"
    else:
        changes.remove_building(state, node)
        now = None
    return {"node": node, "seat": seat, "was": was, "now": now}


def erupt(state: Position, hex_id: int) -> None:
    """One eruption of the volcano on ``hex_id`` (the robber check is the caller's)."""
    number = state.layout.numbers[hex_id]
    assert number is not None, "a volcano always carries a number"
    rule = EDITION.lava_rule(state.rules.variable_lava, number)
    rolls, corners = GATES[rule.gate](state.rng, rule.dice)
    damage = []
    for corner in sorted(corners):
        node = HEX_NODES[hex_id][corner - 1]
        if state.node_owner[node] >= 0:
            damage.append(lava_hits(state, node))
    record(state, {"type": "eruption", "hex": hex_id, **rolls, "corners": sorted(corners), "damage": damage})
    if damage:
        awards.update_longest_road(state, range(state.seats))
