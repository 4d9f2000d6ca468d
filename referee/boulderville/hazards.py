"""Lava, rubble, the bridge, and who dies under them (with the scientists' lucky escapes).

A townsperson who dies leaves the board and the rescue marker drops by their value. A scientist who
"dies" makes a lucky escape: off the board, untraded renown tokens lost, and the rest of this turn
missed; it is placed again in the next Move scientists phase. Lava kills both; rubble kills only
townspeople (the text names only them); the bridge's collapse kills both.
"""

from __future__ import annotations

from referee.boulderville.edition import EDITION
from referee.boulderville.table import CLEARABLE, DEAD, LAVA, RUBBLE, RUIN, Person, Scientist, Table
from referee.memo import Memo


def kill_person(table: Table, person: Person, cause: str) -> None:
    value = EDITION.townspeople[person.id].value
    table.log("townsperson_died", person=person.id, space=person.space, cause=cause, value=value)
    person.status = DEAD
    person.space = None
    table.rescue -= value


def lucky_escape(table: Table, scientist: Scientist, cause: str) -> None:
    table.log(
        "lucky_escape", seat=scientist.seat, space=scientist.space, cause=cause, tokens_lost=scientist.tokens
    )
    scientist.space = None
    scientist.tokens = 0
    scientist.clearing = False
    scientist.missed_turn = table.turn


def _kill_all_at(table: Table, space: str, cause: str, scientists_too: bool) -> None:
    person = table.person_at(space)
    if person is not None:
        kill_person(table, person, cause)
    scientist = table.scientist_at(space) if scientists_too else None
    if scientist is not None:
        lucky_escape(table, scientist, cause)


def cover_with_lava(table: Table, space: str, cause: str = "lava") -> None:
    """Fill a space with lava (it covers rubble too), killing whoever is there."""
    if table.terrain.get(space) == LAVA:
        return
    table.terrain[space] = LAVA
    table.log("lava", space=space)
    _kill_all_at(table, space, cause, scientists_too=True)


def drop_rubble(table: Table, space: str, kind: str = RUBBLE) -> None:
    """Cover a space with rubble (``ruin`` for ground destroyed for good); townspeople there die.

    Lava stays lava and ruin stays ruin; fresh rubble on part-cleared rubble starts it over.
    """
    if table.terrain.get(space) in (LAVA, RUIN):
        return
    table.terrain[space] = kind
    table.log("rubble", space=space, lasting=kind == RUIN)
    _kill_all_at(table, space, "rubble", scientists_too=False)


def collapse_bridge(table: Table) -> None:
    bridge = EDITION.board.bridge
    if table.terrain.get(bridge) in (LAVA, RUIN):
        return
    table.terrain[bridge] = RUIN
    table.log("bridge_collapsed", space=bridge)
    _kill_all_at(table, bridge, "bridge", scientists_too=True)


def bridge_standing(table: Table) -> bool:
    """The bridge stands until it collapses or lava covers it; then the town flees by the country road."""
    return table.terrain.get(EDITION.board.bridge) not in (LAVA, RUIN)


def blocked(table: Table, space: str) -> bool:
    """No townsperson may enter or pass: lava, rubble, or ruin."""
    return space in table.terrain


def sandbagged(table: Table, space: str) -> bool:
    return any(
        o.effect == "sandbags" and o.target == space and o.last_turn >= table.turn for o in table.ongoing
    )


_FRONTS = Memo[tuple[frozenset[tuple[str, str]], frozenset[str | None]], list[str]](
    "boulderville.fronts", limit=10_000
)
"""Lava fronts by (covered spaces, sandbagged spaces): a game sees a few dozen; the same ones come
up in every game (a :class:`referee.memo.Memo`, bounded like the engine's other memos)."""


def lava_front(table: Table) -> list[str]:
    """Spaces next to the lava, not lava themselves and not sandbagged, in board order.

    Shared between calls on the same ground: read it, never change it."""
    turn = table.turn
    bagged = frozenset(o.target for o in table.ongoing if o.effect == "sandbags" and o.last_turn >= turn)
    key = (frozenset(table.terrain.items()), bagged)
    front = _FRONTS.table.get(key)
    if front is None:
        front = _FRONTS.keep(key, _front(table.terrain, bagged))
    return front


def _front(terrain: dict[str, str], bagged: frozenset[str | None]) -> list[str]:
    board = EDITION.board
    front = {
        near
        for space, cover in terrain.items()
        if cover == LAVA
        for near in board.adjacent[space]
        if terrain.get(near) != LAVA and near not in bagged
    }
    return sorted(front, key=board.order.__getitem__)


def spread_lava(table: Table) -> None:
    """Phase 1: every space next to a lava-filled space fills with lava (sandbagged ones hold)."""
    for space in lava_front(table):
        cover_with_lava(table, space)


def clearable(table: Table, space: str) -> bool:
    return table.terrain.get(space) in CLEARABLE
