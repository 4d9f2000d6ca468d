"""Phases 4 to 6: townspeople move, believers decide to go, and the sceptical come to believe.

Moving (phase 4). Movers head for the Freeway exit over the bridge, or for the Small Country Road
once the bridge is gone. Distance is counted in lines to the exit around lava and rubble (other
townspeople are ignored: they move on). The mover nearest the exit goes first (ties: the one
earlier in board order). Each point of speed is one step to an adjacent space holding no townsperson
that is nearer the exit (the nearest such, ties in board order); stepping off the exit space leaves
the board. With no such step, the rest of the movement is lost. A scientist sharing the mover's space
at the start of its move goes with it, so it only steps where no other scientist stands; if they
leave the board together the scientist is placed again next turn with its tokens.

Willingness (phase 5): each believer rolls a d10; more than their willingness and they start to move.
Belief (phase 6): each townsperson without a token believes once the eruption counter exceeds
their belief.
"""

from __future__ import annotations

from collections import deque

from referee.boulderville.attributes import Standing, speed
from referee.boulderville.edition import EDITION
from referee.boulderville.hazards import blocked, bridge_standing
from referee.boulderville.table import BELIEVER, MOVER, SAVED, UNCONVINCED, Person, Scientist, Table
from referee.memo import Memo


def exit_in_use(table: Table) -> str:
    return "freeway" if bridge_standing(table) else "country_road"


_DISTANCES = Memo[tuple[str, frozenset[str]], dict[str, int]]("boulderville.distances", limit=10_000)
"""Distances to an exit by the set of covered spaces: the same few coverings come up in every game."""


def distances_to_exit(table: Table, exit_name: str) -> dict[str, int]:
    """Steps from each space to off the board by ``exit_name``, around lava and rubble.

    Spaces that cannot reach the exit are absent. The exit space itself is 1 step away. The dict
    is shared between calls with the same covered spaces: read it, never change it.
    """
    key = (exit_name, frozenset(table.terrain))
    steps = _DISTANCES.table.get(key)
    if steps is None:
        steps = _DISTANCES.keep(key, _walk_to_exit(table, exit_name))
    return steps


def _walk_to_exit(table: Table, exit_name: str) -> dict[str, int]:
    board = EDITION.board
    gate = board.exits[exit_name]
    if blocked(table, gate):
        return {}
    steps = {gate: 1}
    queue = deque([gate])
    while queue:
        here = queue.popleft()
        for there in board.adjacent[here]:
            if there not in steps and not blocked(table, there):
                steps[there] = steps[here] + 1
                queue.append(there)
    return steps


def _leave(table: Table, person: Person, exit_name: str, escort: Scientist | None) -> None:
    """Off the board by the exit; a scientist who walked with them goes too (a bystander stays)."""
    value = EDITION.townspeople[person.id].value
    table.log(
        "townsperson_saved",
        person=person.id,
        exit=exit_name,
        value=value,
        escort=None if escort is None else escort.seat,
    )
    person.status = SAVED
    person.space = None
    table.rescue += value
    if escort is not None:
        escort.space = None


def _step(
    table: Table, person: Person, steps: dict[str, int], escorted: bool, occupied: set[str | None]
) -> str | None:
    """The space this mover steps to next, or None when no nearer empty space is open.

    ``occupied``: the spaces townspeople stand on (``table.person_at(there) is None`` is ``there not
    in occupied``), kept up to date by the phase as they move."""
    assert person.space is not None
    here = steps[person.space]
    options = [
        there
        for there in EDITION.board.adjacent[person.space]
        if steps.get(there, here) < here
        and there not in occupied
        and not (escorted and table.scientist_at(there) is not None)
    ]
    if len(options) < 2:
        return options[0] if options else None
    return min(options, key=lambda s: (steps[s], EDITION.board.order[s]))


def move_person(
    table: Table, person: Person, steps: dict[str, int], exit_name: str, occupied: set[str | None]
) -> None:
    """One mover's move; ``occupied`` (the spaces townspeople stand on) follows it."""
    assert person.space is not None
    escort = table.scientist_at(person.space)
    start = person.space
    for _ in range(speed(table, person)):
        if steps[person.space] == 1:
            occupied.discard(person.space)
            _leave(table, person, exit_name, escort)
            return
        nxt = _step(table, person, steps, escort is not None, occupied)
        if nxt is None:
            break
        occupied.discard(person.space)
        occupied.add(nxt)
        person.space = nxt
        if escort is not None:
            escort.space = nxt
    if person.space != start:
        table.log(
            "townsperson_moved",
            person=person.id,
            start=start,
            to=person.space,
            escort=None if escort is None else escort.seat,
        )


def move_townspeople(table: Table) -> None:
    """Phase 4: every mover, nearest the exit first."""
    exit_name = exit_in_use(table)
    steps = distances_to_exit(table, exit_name)
    order = EDITION.board.order
    movers = sorted(
        (p for p in table.people if p.status == MOVER and p.space in steps),
        key=lambda p: (steps[p.space], order[p.space]),  # type: ignore[index]  # a mover has a space
    )
    occupied = {p.space for p in table.people}
    for person in movers:
        move_person(table, person, steps, exit_name, occupied)


def check_willingness(table: Table) -> None:
    """Phase 5: a d10 for each believer, in board order; above their willingness and they move.

    Every willingness is read before the first roll, so a Sheriff who starts moving now helps from
    the next turn on, whatever the order of the rolls.
    """
    order = EDITION.board.order
    # a believer is on the board, so has a space; (board order, index) never ties
    ranked = sorted([(order[p.space], i, p) for i, p in enumerate(table.people) if p.status == BELIEVER])  # type: ignore[index]
    believers = [p for _, _, p in ranked]
    numbers = Standing(table).numbers
    sides = EDITION.rules.die_sides
    for person, needed in [(p, numbers(p)[1]) for p in believers]:
        roll = table.roll(sides)
        moving = roll > needed
        table.log("willingness_roll", person=person.id, roll=roll, willingness=needed, moves=moving)
        if moving:
            person.status = MOVER


def check_belief(table: Table) -> None:
    """Phase 6: the eruption counter against each unconvinced townsperson's belief.

    All beliefs are read first, so a Mayor who comes to believe now sways the others from next turn.
    """
    order = EDITION.board.order
    # an unconvinced townsperson is on the board, so has a space; (board order, index) never ties
    ranked = sorted([(order[p.space], i, p) for i, p in enumerate(table.people) if p.status == UNCONVINCED])  # type: ignore[index]
    doubters = [p for _, _, p in ranked]
    numbers = Standing(table).numbers
    counter = table.eruption
    for person in [p for p in doubters if counter > numbers(p)[0]]:
        person.status = BELIEVER
        table.log("townsperson_believes", person=person.id)
