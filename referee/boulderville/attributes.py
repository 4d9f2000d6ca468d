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

TOWN_HALL = frozenset(EDITION.board.spaces_of("town_hall"))
SHARING = {card.id: card.abilities.sharing for card in EDITION.scientists.values()}
HALL_BELIEF = {card.id: card.abilities.town_hall_belief for card in EDITION.scientists.values()}
AURA = {
    card.id: (EDITION.roles[card.role], PROGRESS[EDITION.roles[card.role].active_from])
    for card in EDITION.townspeople.values()
    if card.role is not None and (EDITION.roles[card.role].belief or EDITION.roles[card.role].willingness)
}
"""Townsperson id to its role and the progress from which the role's aura is on: only roles with an
aura (the others lower nothing, so every sum skips them)."""


PRINTED = {card.id: (card.belief, card.willingness, card.speed) for card in EDITION.townspeople.values()}
"""Townsperson id to the card's printed (belief, willingness, speed), for :meth:`Standing.numbers`."""


def town_hall_lowering(table: Table) -> int:
    """How much the scientists in the Town Hall lower every belief."""
    return sum(HALL_BELIEF[s.id] for s in table.scientists if s.space in TOWN_HALL)


def sharing_at(table: Table) -> dict[str | None, Sharing]:
    """Space to what the scientist standing there does for a townsperson sharing it."""
    return {s.space: SHARING[s.id] for s in table.scientists if s.space is not None}


def aura_of(person: Person) -> tuple[int, int]:
    """(belief, willingness) this townsperson's role takes off everyone else's, now."""
    held = AURA.get(person.id)
    if held is None or person.status == DEAD:
        return 0, 0
    role, active_from = held
    if PROGRESS[person.status] >= active_from:
        return role.belief, role.willingness
    return 0, 0


def belief(table: Table, person: Person) -> int:
    """The belief the eruption counter must exceed for this townsperson to believe."""
    return Standing(table).numbers(person)[0]


def willingness(table: Table, person: Person) -> int:
    """The score a d10 must exceed for this believer to start moving."""
    return Standing(table).numbers(person)[1]


def speed(table: Table, person: Person) -> int:
    """Spaces this townsperson may move this turn."""
    return Standing(table).numbers(person)[2]


class Standing:
    """Every townsperson's numbers at one moment, each table-wide term worked out once.

    :meth:`numbers` is the one place the terms above are put together; :func:`belief`,
    :func:`willingness` and :func:`speed` ask it for one person. The observation and phases 5 and
    6 want everyone's, so the Town Hall, the auras and the lasting cards are summed once and each
    person is then answered in constant time. Valid until the table changes (the observations'
    cache follows a placement in place: :meth:`referee.boulderville.observer.Observer.moved`).
    """

    __slots__ = ("hall_and_meeting", "aura_belief", "aura_willingness", "sharing_at", "rush", "belief_off")

    def __init__(self, table: Table) -> None:
        turn = table.turn
        meeting = 0
        self.rush: dict[str | None, int] = {}
        """Townsperson id to the speed the lasting rush cards (a bus, a helicopter) add."""
        for o in table.ongoing:  # the lasting cards still working: a meeting lowers every belief
            if o.last_turn >= turn:
                if o.effect == "meeting":
                    meeting += o.amount
                elif o.effect == "rush":
                    self.rush[o.target] = self.rush.get(o.target, 0) + o.amount
        self.sharing_at = sharing_at(table)
        self.hall_and_meeting = town_hall_lowering(table) + meeting
        belief = willingness = 0
        for person in table.people:
            if person.id in AURA:
                lowered = aura_of(person)
                belief += lowered[0]
                willingness += lowered[1]
        self.aura_belief, self.aura_willingness = belief, willingness
        self.belief_off = self.hall_and_meeting + belief
        """What every belief loses to the Town Hall, meetings and auras (an aura holder's own aside)."""

    def add_scientist(self, scientist_id: str, space: str) -> bool:
        """Follow a scientist placed on ``space`` that stood on no space when the terms were summed:
        it shares that space, and in the Town Hall lowers every belief. Returns whether it did the
        latter (every townsperson's numbers changed, not only those of one sharing the space)."""
        self.sharing_at[space] = SHARING[scientist_id]
        if space not in TOWN_HALL:
            return False
        lowered = HALL_BELIEF[scientist_id]
        self.hall_and_meeting += lowered
        self.belief_off += lowered
        return True

    def numbers(self, person: Person) -> tuple[int, int, int]:
        """(belief, willingness, speed) of a townsperson on the board.

        Asked for every townsperson on most moves, so the usual case (no one sharing the space, no
        aura of their own, no rush) does the least: plain integer sums, in any order, floored at 0.
        """
        pid = person.id
        belief, willingness, speed = PRINTED[pid]
        belief -= person.belief_down + self.belief_off
        willingness -= person.willingness_down + self.aura_willingness
        speed += person.speed_up
        shared = self.sharing_at.get(person.space)  # None (off the board) is no space
        if shared is not None:
            belief -= shared.belief
            willingness -= shared.willingness
            speed += shared.speed
        if pid in AURA:  # a role's holder is not lowered by its own aura
            own = aura_of(person)
            belief += own[0]
            willingness += own[1]
        rush = self.rush
        if rush:
            speed += rush.get(pid, 0)
        return belief if belief > 0 else 0, willingness if willingness > 0 else 0, speed
