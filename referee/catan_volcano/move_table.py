"""Every move object the engine lists, made once and shared by every legal-move list.

A legal-move list is rebuilt on nearly every move, and most of its entries are the same few dozen
objects (a road on edge 17, bank trade wood for ore, the end of the turn): making them once saves
the allocations. Like an observation, a listed move is read-only: the runner records the engine's
own object in the replay and sends bots a JSON copy; tests copy one before changing it.

>>> ROAD[17] is ROAD[17], ROAD[17]
(True, {'type': 'build_road', 'edge': 17})
"""

from __future__ import annotations

from referee.catan_volcano.edition import EDITION
from referee.catan_volcano.geometry import EDGE_COUNT, HEX_COUNT, NODE_COUNT
from referee.game import Move

RESOURCES = EDITION.resources

END_TURN: Move = {"type": "end_turn"}
ROLL: Move = {"type": "roll"}
BUY_CARD: Move = {"type": "buy_development_card"}
PLAY_KNIGHT: Move = {"type": "play_knight"}
PLAY_ROAD_BUILDING: Move = {"type": "play_road_building"}

ROAD: tuple[Move, ...] = tuple({"type": "build_road", "edge": edge} for edge in range(EDGE_COUNT))
FREE_ROAD: tuple[Move, ...] = tuple({"type": "place_road", "edge": edge} for edge in range(EDGE_COUNT))
SETTLEMENT: tuple[Move, ...] = tuple({"type": "build_settlement", "node": node} for node in range(NODE_COUNT))
SETUP_SETTLEMENT: tuple[Move, ...] = tuple(
    {"type": "place_settlement", "node": node} for node in range(NODE_COUNT)
)
CITY: tuple[Move, ...] = tuple({"type": "build_city", "node": node} for node in range(NODE_COUNT))
MARITIME: tuple[tuple[Move, ...], ...] = tuple(
    tuple({"type": "maritime_trade", "give": RESOURCES[give], "get": RESOURCES[get]} for get in range(5))
    for give in range(5)
)
"""``MARITIME[give][get]`` (the entries with give == get are never listed)."""
DISCARD: tuple[Move, ...] = tuple({"type": "discard", "resource": name} for name in RESOURCES)
GOLD: tuple[Move, ...] = tuple({"type": "choose_gold", "resource": name} for name in RESOURCES)
MONOPOLY: tuple[Move, ...] = tuple({"type": "play_monopoly", "resource": name} for name in RESOURCES)
YEAR_OF_PLENTY: tuple[tuple[int, int, Move], ...] = tuple(
    (a, b, {"type": "play_year_of_plenty", "first": RESOURCES[a], "second": RESOURCES[b]})
    for a in range(5)
    for b in range(a, 5)
)
"""``(first, second, move)`` for each pair of resources (first <= second, by index), in that order."""
ROBBER: dict[tuple[int, int | None], Move] = {
    (hex_id, victim): {"type": "move_robber", "hex": hex_id, "victim": victim}
    for hex_id in range(HEX_COUNT)
    for victim in (None, *range(8))
}
"""``ROBBER[(hex, victim)]``, the victim a seat or None."""
ROBBER_BY_VICTIMS: tuple[tuple[tuple[Move, ...], ...], ...] = tuple(
    tuple(
        tuple(ROBBER[(hex_id, seat)] for seat in range(8) if victims >> seat & 1) or (ROBBER[(hex_id, None)],)
        for victims in range(1 << 8)
    )
    for hex_id in range(HEX_COUNT)
)
"""``ROBBER_BY_VICTIMS[hex][victims]``: the robber's moves to ``hex`` for a bit mask of the seats
there that may be robbed (bit ``seat``), in seat order; with no victim if the mask is empty."""
