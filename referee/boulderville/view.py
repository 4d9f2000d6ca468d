"""What one seat sees: the whole board and every public number, its own hand, others' hand sizes.

Hidden from every seat: the order of the action and eruption decks, the townspeople and scientists
left out of the game, the generator's state, and the other seats' cards (drawn, held or
discarded). Events carry a ``private`` part only for the seat they belong to.

:func:`observation` works one out from the table alone, from the parts below;
:class:`referee.boulderville.observer.Observer`, which the state uses, keeps those parts between
moves (the tests hold it to this module). Observations share those parts with each other and with
the state's event log: read them, never change them.
"""

from __future__ import annotations

from referee.boulderville.attributes import (
    Standing,
)
from referee.boulderville.edition import EDITION
from referee.boulderville.hazards import bridge_standing
from referee.boulderville.renown import cashing_place
from referee.boulderville.table import ON_BOARD, Ongoing, Person, Table
from referee.game import JSON
from referee.memo import Memo

_CARDS = {
    card.id: (
        card.name,
        card.role,
        card.value,
        {"belief": card.belief, "willingness": card.willingness, "speed": card.speed},
    )
    for card in EDITION.townspeople.values()
}
_SCIENTISTS = {card.id: (card.name, card.type) for card in EDITION.scientists.values()}

PersonKey = tuple[str, str | None, str, int, int, int]
PERSON_VIEWS = Memo[PersonKey, dict[str, JSON]]("boulderville.person_views", limit=50_000)
"""Townsperson views made so far in this process, by everything they show (a view depends on its
key alone, so games share them; read-only like every observation)."""


def townsperson_view(
    person: Person, standing: Standing, memo: Memo[PersonKey, dict[str, JSON]]
) -> dict[str, JSON]:
    """A townsperson as seen, built once per distinct (card, space, status, numbers)."""
    status = person.status
    if status in ON_BOARD:
        key = (person.id, person.space, status, *standing.numbers(person))
    else:
        key = (person.id, person.space, status, -1, -1, -1)
    view = memo.table.get(key)
    return _new_view(key, memo) if view is None else view


def townspeople_views(
    people: list[Person], standing: Standing, memo: Memo[PersonKey, dict[str, JSON]]
) -> list[dict[str, JSON]]:
    """Every townsperson as seen: :func:`townsperson_view` of each."""
    return [townsperson_view(person, standing, memo) for person in people]


def _new_view(key: PersonKey, memo: Memo[PersonKey, dict[str, JSON]]) -> dict[str, JSON]:
    """The view of a townsperson shown by ``key`` (numbers -1: off the board), kept in ``memo``."""
    pid, space, status, belief, willingness, speed = key
    name, role, value, printed = _CARDS[pid]
    view: dict[str, JSON] = {
        "id": pid,
        "name": name,
        "role": role,
        "space": space,
        "status": status,
        "value": value,
        "card": printed,
    }
    if status in ON_BOARD:
        view["now"] = {"belief": belief, "willingness": willingness, "speed": speed}
    return memo.keep(key, view)


ScientistKey = tuple[int, str, str | None, int, int, int, bool, bool]
SCIENTIST_VIEWS = Memo[ScientistKey, dict[str, JSON]]("boulderville.scientist_views", limit=50_000)
"""Scientist views made so far, by everything they show; read-only like every observation (tokens
and renown stay small in play)."""


def scientist_view(table: Table, seat: int) -> dict[str, JSON]:
    scientist = table.scientists[seat]
    key = (
        seat,
        scientist.id,
        scientist.space,
        scientist.tokens,
        scientist.renown,
        len(scientist.hand),
        scientist.clearing,
        scientist.missed_turn == table.turn,
    )
    view = SCIENTIST_VIEWS.table.get(key)
    if view is None:
        name, kind = _SCIENTISTS[scientist.id]
        view = SCIENTIST_VIEWS.keep(
            key,
            {
                "seat": seat,
                "id": scientist.id,
                "name": name,
                "type": kind,
                "space": scientist.space,
                "tokens": scientist.tokens,
                "renown": scientist.renown,
                "hand_size": key[5],
                "clearing": scientist.clearing,
                "out_this_turn": key[7],
            },
        )
    return view


def ongoing_view(effect: Ongoing) -> dict[str, JSON]:
    return {
        "effect": effect.effect,
        "card": effect.card,
        "seat": effect.seat,
        "amount": effect.amount,
        "target": effect.target,
        "last_turn": effect.last_turn,
    }


def event_view(event: dict[str, JSON], seat: int) -> dict[str, JSON]:
    if "private" in event and event.get("seat") != seat:
        return {key: value for key, value in event.items() if key != "private"}
    return event


Ground = tuple[dict[str, str], bool, str]
"""A copy of the terrain, whether the bridge stands on it, and where renown is cashed on it."""


def ground_view(table: Table) -> Ground:
    return dict(table.terrain), bridge_standing(table), cashing_place(table)


def settled_parts(table: Table) -> dict[str, JSON]:
    """An observation with only the parts no decision changes filled in (the automatic stages
    change them), in the observation's key order; :func:`assemble` fills in a copy."""
    return {
        "turn": table.turn,
        "stage": None,
        "lead": table.lead,
        "to_move": None,
        "eruption": table.eruption,
        "rescue": table.rescue,
        "bridge_standing": None,
        "cash_at": None,
        "terrain": None,
        "eruption_cards_left": len(table.eruption_deck),
        "revealed": list(table.revealed),
        "action_cards_left": None,
        "discards": None,
        "ongoing": None,
        "townspeople": None,
        "scientists": None,
        "hand": None,
        "events": None,
        "over": table.result,
    }


def assemble(
    table: Table,
    seat: int,
    settled: dict[str, JSON],
    townspeople: list[dict[str, JSON]],
    scientists: list[dict[str, JSON]],
    events: list[dict[str, JSON]],
    ground: Ground,
    ongoing: list[dict[str, JSON]],
) -> dict[str, JSON]:
    """The observation: a copy of ``settled`` (a dict copy is far quicker than a dict display of
    nineteen keys) with the parts a decision may change put in, each where it was."""
    seen = settled.copy()
    seen["stage"] = table.stage
    seen["to_move"] = table.queue[0] if table.result is None and table.queue else None
    seen["terrain"], seen["bridge_standing"], seen["cash_at"] = ground
    seen["action_cards_left"] = len(table.action_deck)
    seen["discards"] = len(table.discards)
    seen["ongoing"] = ongoing
    seen["townspeople"] = townspeople
    seen["scientists"] = scientists
    seen["hand"] = sorted(table.scientists[seat].hand)
    seen["events"] = events
    return seen


def observation(table: Table, seat: int) -> dict[str, JSON]:
    """What ``seat`` sees, worked out from the table alone (no cache)."""
    people = len(table.people) + 1
    memo = Memo[PersonKey, dict[str, JSON]]("boulderville.person_views", limit=people, process_wide=False)
    townspeople = townspeople_views(table.people, Standing(table), memo)
    scientists = [scientist_view(table, s) for s in range(table.seats)]
    events = [event_view(e, seat) for e in table.events]
    ongoing = [ongoing_view(o) for o in table.ongoing]
    return assemble(
        table, seat, settled_parts(table), townspeople, scientists, events, ground_view(table), ongoing
    )
