"""A townsperson's belief, willingness and speed as they stand right now.

The card gives the base; lasting changes from help cards sit on the :class:`Person`; and four
things on the table change them while they last:

* each scientist in the Town Hall lowers every belief by its ``town_hall_belief`` (1 by the text);
* a scientist sharing the space lowers belief by 2 and willingness by 1 and adds 1 to speed
  (the text's numbers; the sociologist does more);
* a role's aura (the Mayor, the Sheriff, the editor) lowers everyone else's belief or willingness
  once its holder believes or moves, while the holder lives;
* lasting action cards: a public meeting lowers every belief, a bus or helicopter adds speed.

Belief and willingness are never lowered below 0, so a die roll or the counter still has to beat 0.
"""

from __future__ import annotations

from referee.boulderville.edition import EDITION, Sharing
from referee.boulderville.table import DEAD, PROGRESS, Person, Table

NO_SHARING = Sharing(0, 0, 0)


def sharing(table: Table, person: Person) -> Sharing:
    """What the scientist sharing this townsperson's space does for them (nothing if alone)."""
    if person.space is None:
        return NO_SHARING
    scientist = table.scientist_at(person.space)
    if scientist is None:
        return NO_SHARING
    return EDITION.scientists[scientist.id].abilities.sharing


def town_hall_lowering(table: Table) -> int:
    """How much the scientists in the Town Hall lower every belief."""
    hall = EDITION.board.spaces_of("town_hall")
    return sum(
        EDITION.scientists[s.id].abilities.town_hall_belief for s in table.scientists if s.space in hall
    )


def aura(table: Table, person: Person) -> tuple[int, int]:
    """(belief, willingness) lowering from the other townspeople's roles."""
    belief = willingness = 0
    for other in table.people:
        card = EDITION.townspeople[other.id]
        if other is person or card.role is None or other.status == DEAD:
            continue
        role = EDITION.roles[card.role]
        if PROGRESS[other.status] >= PROGRESS[role.active_from]:
            belief += role.belief
            willingness += role.willingness
    return belief, willingness


def _ongoing(table: Table, effect: str, target: str | None = None) -> int:
    return sum(
        o.amount
        for o in table.ongoing
        if o.effect == effect and o.last_turn >= table.turn and (target is None or o.target == target)
    )


def belief(table: Table, person: Person) -> int:
    """The belief the eruption counter must exceed for this townsperson to believe."""
    base = EDITION.townspeople[person.id].belief - person.belief_down
    lowered = (
        town_hall_lowering(table)
        + sharing(table, person).belief
        + aura(table, person)[0]
        + _ongoing(table, "meeting")
    )
    return max(0, base - lowered)


def willingness(table: Table, person: Person) -> int:
    """The score a d10 must exceed for this believer to start moving."""
    base = EDITION.townspeople[person.id].willingness - person.willingness_down
    return max(0, base - sharing(table, person).willingness - aura(table, person)[1])


def speed(table: Table, person: Person) -> int:
    """Spaces this townsperson may move this turn."""
    card = EDITION.townspeople[person.id]
    return card.speed + person.speed_up + sharing(table, person).speed + _ongoing(table, "rush", person.id)
