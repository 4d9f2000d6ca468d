"""Catan's moves in words, by the board's own numbers: nodes (corners), edges and hexes as the
move gives them, resources by the engine's names, seats by number.

Setup placements (and the free roads of road building) read "place", building after the roll
reads "build", so a replay shows which was which:

>>> describe_move({"type": "place_settlement", "node": 19})
'place settlement at 19'
>>> describe_move({"type": "build_road", "edge": 23})
'build road at 23'
>>> describe_move({"type": "move_robber", "hex": 5, "victim": 2})
'robber to hex 5, rob seat 2'
>>> offer = {"type": "offer_trade", "to": 2, "give": "sheep", "give_count": 2, "get": "ore", "get_count": 1}
>>> describe_move(offer)
'offer 2 sheep for 1 ore to seat 2'

A bank trade's rate is the seat's best at the time, which the move does not carry, so its words
give the resources only:

>>> describe_move({"type": "maritime_trade", "give": "wood", "get": "ore"})
'trade wood for ore with the bank'

Anything not shaped like a move of the game (here a ``true`` for a number) reads as JSON:

>>> describe_move({"type": "build_road", "edge": True})
'{"type":"build_road","edge":true}'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.catan_volcano.edition import EDITION
from referee.catan_volcano.geometry import EDGE_COUNT, HEX_COUNT, NODE_COUNT
from referee.catan_volcano.variants import SEATS
from referee.notation import Wording, describe, is_int

_LAST_SEAT = max(SEATS) - 1
_MOST_CARDS = EDITION.bank_per_resource
"""No trade can move more cards of one resource than the bank holds of it."""


def _resource(value: object) -> str | None:
    return value if isinstance(value, str) and value in EDITION.resources else None


def _seat(value: object) -> str | None:
    return f"seat {value}" if is_int(value, 0, _LAST_SEAT) else None


def _fixed(words: str) -> Wording:
    """A move without fields: always the same words."""
    return Wording((), lambda move: words)


def _at(field: str, count: int, words: str) -> Wording:
    """A move naming one place of the board by number: ``words`` then the number."""
    return Wording(
        (field,), lambda move: f"{words} {move[field]}" if is_int(move[field], 0, count - 1) else None
    )


def _of_resource(words: str) -> Wording:
    """A move naming one resource, where ``{}`` stands in ``words``."""

    def read(move: Mapping[str, Any]) -> str | None:
        resource = _resource(move["resource"])
        return None if resource is None else words.format(resource)

    return Wording(("resource",), read)


def _robber(move: Mapping[str, Any]) -> str | None:
    victim = "nobody" if move["victim"] is None else _seat(move["victim"])
    if not is_int(move["hex"], 0, HEX_COUNT - 1) or victim is None:
        return None
    return f"robber to hex {move['hex']}, rob {victim}"


def _year_of_plenty(move: Mapping[str, Any]) -> str | None:
    first, second = _resource(move["first"]), _resource(move["second"])
    return None if first is None or second is None else f"play year of plenty: {first} and {second}"


def _maritime(move: Mapping[str, Any]) -> str | None:
    give, get = _resource(move["give"]), _resource(move["get"])
    return None if give is None or get is None else f"trade {give} for {get} with the bank"


def _offer(move: Mapping[str, Any]) -> str | None:
    to = "all" if move["to"] == "all" else _seat(move["to"])
    give, get = _resource(move["give"]), _resource(move["get"])
    give_count, get_count = move["give_count"], move["get_count"]
    if to is None or give is None or get is None:
        return None
    if not is_int(give_count, 1, _MOST_CARDS) or not is_int(get_count, 1, _MOST_CARDS):
        return None
    return f"offer {give_count} {give} for {get_count} {get} to {to}"


def _confirm(move: Mapping[str, Any]) -> str | None:
    seat = _seat(move["seat"])
    return None if seat is None else f"confirm trade with {seat}"


WORDINGS = {
    "place_settlement": _at("node", NODE_COUNT, "place settlement at"),
    "place_road": _at("edge", EDGE_COUNT, "place road at"),
    "roll": _fixed("roll"),
    "discard": _of_resource("discard {}"),
    "move_robber": Wording(("hex", "victim"), _robber),
    "choose_gold": _of_resource("take {} for gold"),
    "build_road": _at("edge", EDGE_COUNT, "build road at"),
    "build_settlement": _at("node", NODE_COUNT, "build settlement at"),
    "build_city": _at("node", NODE_COUNT, "build city at"),
    "buy_development_card": _fixed("buy development card"),
    "play_knight": _fixed("play knight"),
    "play_road_building": _fixed("play road building"),
    "play_year_of_plenty": Wording(("first", "second"), _year_of_plenty),
    "play_monopoly": _of_resource("play monopoly on {}"),
    "maritime_trade": Wording(("give", "get"), _maritime),
    "offer_trade": Wording(("to", "give", "give_count", "get", "get_count"), _offer),
    "accept_trade": _fixed("accept trade"),
    "decline_trade": _fixed("decline trade"),
    "confirm_trade": Wording(("seat",), _confirm),
    "cancel_trade": _fixed("cancel trade"),
    "end_turn": _fixed("end turn"),
}
"""Every move type of Catan (``docs/games/catan-volcano.md``, Moves) and how it reads."""


def describe_move(move: object) -> str:
    """A move of Catan in words, or its compact JSON if it is not one (see the module)."""
    return describe(move, WORDINGS)
