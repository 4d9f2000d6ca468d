"""Every move of the game, declared once: its fields and the stage function that plays it; and the
legal moves of each phase.

A move is a flat JSON object: ``type`` and the fields of :data:`MOVES` in that order, each an
integer, a string or null, e.g. ``{"type": "build_road", "edge": 17}``. The state finds a move sent
to it in the legal list by equality (the engine's own object at once, by identity), and its stage
function is given that object of the engine's, whose fields it reads by name; a move's key (the
tuple of its values in field order, :func:`key_of`) vets the shape of a move sent from outside.

After each move the engine plays on by itself while the seat to decide has a single choice that
the whole table can see is forced (:data:`FORCED_IN_PUBLIC`): the roll of a seat holding no
development card, the turn of a seat holding no card at all, a trade answer from a seat holding
fewer cards than asked, a gold pick when the bank has one kind left, a setup road with one place.

>>> MOVES["move_robber"].fields
('hex', 'victim')
>>> key_of({"victim": None, "type": "move_robber", "hex": 4})
('move_robber', 4, None)
>>> key_of({"type": "build_road", "edge": True}) is None  # booleans are not integers here
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from referee.catan_volcano import building, cards, flow, production, robber, trading
from referee.catan_volcano import move_table as table
from referee.catan_volcano.building import CITY_COST, ROAD_COST, SETTLEMENT_COST, can_pay
from referee.catan_volcano.changes import CITIES, ROADS, SETTLEMENTS
from referee.catan_volcano.edition import EDITION
from referee.catan_volcano.placed import derived
from referee.game import Move

if TYPE_CHECKING:
    from referee.catan_volcano.placed import Placed

Key = tuple[Any, ...]

_BEST_RATE = EDITION.resource_harbour_rate
"""The fewest cards a bank trade takes: a hand with no more of any resource lists none."""


@dataclass(frozen=True)
class MoveKind:
    fields: tuple[str, ...]
    play: Callable[[Placed, Move], None]
    """The stage function that plays it, given the engine's own move object (its fields read by name)."""


MOVES: dict[str, MoveKind] = {
    "place_settlement": MoveKind(("node",), building.place_settlement),
    "place_road": MoveKind(("edge",), building.place_road),
    "roll": MoveKind((), production.roll),
    "discard": MoveKind(("resource",), robber.discard),
    "move_robber": MoveKind(("hex", "victim"), robber.move_robber),
    "choose_gold": MoveKind(("resource",), production.choose_gold),
    "build_road": MoveKind(("edge",), building.build_road),
    "build_settlement": MoveKind(("node",), building.build_settlement),
    "build_city": MoveKind(("node",), building.build_city),
    "buy_development_card": MoveKind((), cards.buy),
    "play_knight": MoveKind((), cards.play_knight),
    "play_road_building": MoveKind((), cards.play_road_building),
    "play_year_of_plenty": MoveKind(("first", "second"), cards.play_year_of_plenty),
    "play_monopoly": MoveKind(("resource",), cards.play_monopoly),
    "maritime_trade": MoveKind(("give", "get"), trading.maritime_trade),
    "offer_trade": MoveKind(trading.OFFER_FIELDS, trading.offer_trade),
    "accept_trade": MoveKind((), trading.accept_trade),
    "decline_trade": MoveKind((), trading.decline_trade),
    "confirm_trade": MoveKind(("seat",), trading.confirm_trade),
    "cancel_trade": MoveKind((), trading.cancel_trade),
    "end_turn": MoveKind((), flow.end_turn),
}

PLAYS: dict[str, Callable[[Placed, Move], None]] = {name: kind.play for name, kind in MOVES.items()}
"""Each move type's stage function, looked up by ``apply`` and :func:`settle` on every move."""

_SCALARS = (int, str, type(None))


def key_of(move: Any) -> Key | None:
    """The move's key if it has the shape of a move of this game (legal or not), else None."""
    if type(move) is not dict:
        return None
    name = move.get("type")
    kind = MOVES.get(name) if type(name) is str else None
    if kind is None or len(move) != len(kind.fields) + 1:
        return None
    key = [name]
    for field in kind.fields:
        value = move.get(field, move)  # a missing field reads as the move itself: not a scalar
        if type(value) not in _SCALARS:
            return None
        key.append(value)
    return tuple(key)


def roll_phase_moves(state: Placed) -> list[Move]:
    """Before the roll: roll, or play a development card first."""
    return [table.ROLL, *cards.play_moves(state, state.current)]


def main_moves(state: Placed) -> list[Move]:
    """After the roll: end the turn, build, buy, play a card, trade."""
    seat = state.current
    hand, pieces = state.hands[seat], state.pieces[seat]
    moves: list[Move] = [table.END_TURN]
    can_road, can_trade = can_pay(hand, ROAD_COST), max(hand) >= _BEST_RATE
    can_city = can_pay(hand, CITY_COST)
    if can_road or can_city or can_trade:
        placed = derived(state)
        if can_road and pieces[ROADS]:
            moves.extend(placed.road_moves(state, seat))
        if can_road and pieces[SETTLEMENTS] and can_pay(hand, SETTLEMENT_COST):
            moves.extend(placed.settlement_moves(state, seat))
        if can_city and pieces[CITIES]:
            moves.extend(placed.city_moves(state, seat))
    if can_pay(hand, cards.CARD_COST) and any(state.deck):
        moves.append(table.BUY_CARD)
    moves.extend(cards.play_moves(state, seat))
    if can_trade:  # (placed is made above whenever can_trade)
        moves.extend(trading.maritime_moves(state, seat, placed))
    if state.options["trades"]:
        moves.extend(trading.offer_moves(state, seat))
    return moves


PHASES: dict[str, Callable[[Placed], list[Move]]] = {
    "place_settlement": lambda state: [
        table.SETUP_SETTLEMENT[node] for node in building.setup_settlement_spots(state)
    ],
    "place_road": lambda state: [table.FREE_ROAD[edge] for edge in building.setup_road_spots(state)],
    "roll": roll_phase_moves,
    "discard": robber.discard_moves,
    "robber": robber.robber_moves,
    "gold": production.gold_moves,
    "main": main_moves,
    "road_building": cards.road_building_moves,
    "trade_answer": trading.answer_moves,
    "trade_confirm": trading.confirm_moves,
    "over": lambda state: [],
}
"""The legal moves of each phase (see :mod:`.flow` for who decides in each)."""


def generate(state: Placed) -> list[Move]:
    return PHASES[state.phase](state)


def _always(state: Placed) -> bool:
    return True


def _holds_no_cards(state: Placed) -> bool:
    seat = state.current
    return not any(state.hands[seat]) and not any(state.devs[seat])


def _holds_no_development_cards(state: Placed) -> bool:
    return not any(state.devs[state.current])


def _cannot_pay_by_count(state: Placed) -> bool:
    offer = state.offer
    return offer is not None and sum(state.hands[state.current]) < offer["get_count"]


FORCED_IN_PUBLIC: dict[str, Callable[[Placed], bool]] = {
    "place_settlement": _always,
    "place_road": _always,
    "roll": _holds_no_development_cards,
    "discard": lambda state: False,
    "robber": _always,
    "gold": _always,
    "main": _holds_no_cards,
    "road_building": _always,
    "trade_answer": _cannot_pay_by_count,
    "trade_confirm": _always,
}
"""When a single-choice decision may be played by the engine: only when the table can tell it is
forced from what it sees (card counts, the board, the bank). Otherwise the seat is asked even for
its one move, so that how often a seat is asked never tells the others about its hidden cards
(a roll played by the engine would show that the seat had no card to play first)."""


def settle(state: Placed) -> list[Move]:
    """Check the win, then play decisions that are forced in public view until a seat must be asked."""
    while True:
        flow.check_win(state)
        phase = state.phase
        legal = PHASES[phase](state)
        if len(legal) != 1 or not FORCED_IN_PUBLIC[phase](state):
            return legal
        only = legal[0]
        PLAYS[only["type"]](state, only)
