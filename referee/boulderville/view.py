"""What one seat sees: the whole board and every public number, its own hand, others' hand sizes.

Hidden from every seat: the order of the action and eruption decks, the townspeople and scientists
left out of the game, the generator's state, and the other seats' cards (drawn, held or
discarded). Events carry a ``private`` part only for the seat they belong to.
"""

from __future__ import annotations

from dataclasses import asdict

from referee.boulderville import attributes
from referee.boulderville.edition import EDITION
from referee.boulderville.hazards import bridge_standing
from referee.boulderville.renown import cashing_place
from referee.boulderville.table import Table
from referee.game import JSON


def _townsperson(table: Table, person_index: int) -> dict[str, JSON]:
    person = table.people[person_index]
    card = EDITION.townspeople[person.id]
    view: dict[str, JSON] = {
        "id": person.id,
        "name": card.name,
        "role": card.role,
        "space": person.space,
        "status": person.status,
        "value": card.value,
        "card": {"belief": card.belief, "willingness": card.willingness, "speed": card.speed},
    }
    if person.on_board:
        view["now"] = {
            "belief": attributes.belief(table, person),
            "willingness": attributes.willingness(table, person),
            "speed": attributes.speed(table, person),
        }
    return view


def _scientist(table: Table, seat: int) -> dict[str, JSON]:
    scientist = table.scientists[seat]
    card = EDITION.scientists[scientist.id]
    return {
        "seat": seat,
        "id": scientist.id,
        "name": card.name,
        "type": card.type,
        "space": scientist.space,
        "tokens": scientist.tokens,
        "renown": scientist.renown,
        "hand_size": len(scientist.hand),
        "clearing": scientist.clearing,
        "out_this_turn": table.is_out(seat),
    }


def _event(event: dict[str, JSON], seat: int) -> dict[str, JSON]:
    if "private" in event and event.get("seat") != seat:
        return {key: value for key, value in event.items() if key != "private"}
    return event


def observation(table: Table, seat: int) -> dict[str, JSON]:
    return {
        "turn": table.turn,
        "stage": table.stage,
        "lead": table.lead,
        "to_move": table.queue[0] if table.result is None and table.queue else None,
        "eruption": table.eruption,
        "rescue": table.rescue,
        "bridge_standing": bridge_standing(table),
        "cash_at": cashing_place(table),
        "terrain": dict(table.terrain),
        "eruption_cards_left": len(table.eruption_deck),
        "revealed": list(table.revealed),
        "action_cards_left": len(table.action_deck),
        "discards": len(table.discards),
        "ongoing": [asdict(o) for o in table.ongoing],
        "townspeople": [_townsperson(table, index) for index in range(len(table.people))],
        "scientists": [_scientist(table, s) for s in range(table.seats)],
        "hand": sorted(table.scientists[seat].hand),
        "events": [_event(e, seat) for e in table.events],
        "over": table.result,
    }
