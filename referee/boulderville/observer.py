"""The observations' cache: each part of what the seats see kept between moves, rebuilt only when a
move may have changed it.

:func:`referee.boulderville.view.observation` works an observation out from the table alone;
:class:`Observer`, which the state uses, gives the same (``tests/referee/boulderville/test_caches.py``
holds it to it, part by part) from parts kept between moves, since the match runner asks for one on
every move. Its one mutator is :meth:`Observer.moved`: the state calls it after every move.
"""

from __future__ import annotations

from operator import is_

from referee.boulderville.actions import LASTING
from referee.boulderville.attributes import AURA, Standing
from referee.boulderville.edition import EDITION
from referee.boulderville.table import Table
from referee.boulderville.view import (
    PERSON_VIEWS,
    Ground,
    PersonKey,
    assemble,
    ground_view,
    ongoing_view,
    scientist_view,
    settled_parts,
    townspeople_views,
    townsperson_view,
)
from referee.game import JSON, Move
from referee.memo import Memo


class Observer:
    """Observations of one game as it goes, each part rebuilt only when a move may have changed it.

    The match runner asks for an observation after every move, and most moves change little: a
    discard or a pass changes no townsperson's numbers, a scientist placed outside the Town Hall
    only those of the townsperson on that space, and the event log only grows between two turns.
    So the townspeople's views, each seat's share of the events and the last observation of each
    seat are kept until :meth:`moved` says what a move did. Everything returned is shared with
    later observations: callers read observations, they never change them.
    """

    __slots__ = (
        "memo",
        "townspeople",
        "standing",
        "placed",
        "where",
        "scientists",
        "log",
        "logged",
        "views",
        "seen",
        "ground",
        "settled",
        "ongoing",
    )

    def __init__(self) -> None:
        self.memo: Memo[PersonKey, dict[str, JSON]] = PERSON_VIEWS
        self.townspeople: list[dict[str, JSON]] | None = None
        self.standing: Standing | None = None
        """The numbers' table-wide terms the townspeople's views were made with, kept with them: a
        decision changes those terms only in the ways :meth:`moved` follows (or it starts afresh)."""
        self.placed: list[bool] = []
        """By seat, whether its scientist stood on the board when ``standing`` was summed: a
        placement updates the terms only for a scientist that was not (the usual case: everyone is
        picked up before Move scientists)."""
        self.where: dict[str | None, int] = {}
        """Space to the index of the townsperson on it, kept with the views: only the automatic
        stages move or remove townspeople, and they start the views afresh."""
        self.scientists: list[dict[str, JSON]] | None = None
        self.log: list[dict[str, JSON]] | None = None
        """The table's event list last seen, of which ``logged`` events are in ``views``."""
        self.logged = 0
        self.views: list[list[dict[str, JSON]]] = []
        """Each seat's view of those events (others' private parts left out), in seat order."""
        self.seen: dict[int, dict[str, JSON]] = {}
        self.ground: Ground | None = None
        """The terrain's part of the observations, kept until a move may change the terrain: only the
        automatic stages and a card (a bulldozer) do."""
        self.settled: dict[str, JSON] | None = None
        """The parts of the observations no decision changes (:func:`settled_parts`), kept until the
        automatic stages run."""
        self.ongoing: list[dict[str, JSON]] | None = None
        """The lasting cards as seen, kept until the automatic stages or a card change them."""

    def copy(self) -> Observer:
        """A cache for a copy of the game: the memo is shared (its views depend on their key
        alone), the rest is rebuilt on first use."""
        other = Observer()
        other.memo = self.memo
        return other

    def observe(self, table: Table, seat: int) -> dict[str, JSON]:
        seen = self.seen.get(seat)
        if seen is not None:
            return seen
        townspeople = self.townspeople
        if townspeople is None:
            standing = self.standing = Standing(table)
            self.placed = [s.space is not None for s in table.scientists]
            memo = self.memo
            people = table.people
            townspeople = self.townspeople = townspeople_views(people, standing, memo)
            self.where = {p.space: index for index, p in enumerate(people) if p.space is not None}
        scientists = self.scientists
        if scientists is None:
            scientists = self.scientists = [scientist_view(table, s) for s in range(table.seats)]
        log = table.events  # the seat's view of the event log, kept as the log grows
        if log is not self.log or self.logged > len(log):
            self._follow(log, table.seats)
        elif self.logged < len(log):
            self._extend(log)
        events = self.views[seat].copy()
        ground = self.ground
        if ground is None:
            ground = self.ground = ground_view(table)
        settled = self.settled
        if settled is None:
            settled = self.settled = settled_parts(table)
        ongoing = self.ongoing
        if ongoing is None:
            ongoing = self.ongoing = [ongoing_view(o) for o in table.ongoing]
        seen = self.seen[seat] = assemble(
            table, seat, settled, townspeople.copy(), scientists.copy(), events, ground, ongoing
        )
        return seen

    def _follow(self, log: list[dict[str, JSON]], seats: int) -> None:
        """Start following a new event list. Phase 1 replaces the log by its last turns and appends
        to that: when the new list starts with the end of the old one (the very events), the views
        drop the events left out instead of being made again."""
        old = self.log
        if old is not None and self.logged <= len(old):
            self._extend(old)  # the old list's last events, logged after the last observation
            first = log[0] if log else None
            dropped = len(old)
            for index, event in enumerate(old):
                if event is first:
                    dropped = index
                    break
            kept = len(old) - dropped
            if len(log) >= kept and all(map(is_, log[:kept], old[dropped:])):
                for views in self.views:
                    del views[:dropped]
                self.log, self.logged = log, kept
                self._extend(log)
                return
        self.log, self.logged, self.views = log, 0, [[] for _ in range(seats)]
        self._extend(log)

    def _extend(self, log: list[dict[str, JSON]]) -> None:
        """Add the events logged since the last look to every seat's view: all at once when none
        of them has a private part (most moves), else one by one."""
        new = log[self.logged :]
        self.logged = len(log)
        views = self.views
        for event in new:
            if "private" in event:
                break
        else:
            for seen in views:
                seen += new
            return
        for event in new:
            if "private" in event:
                owner = event.get("seat")
                public = event.copy()
                del public["private"]
                for other, seen in enumerate(views):
                    seen.append(event if other == owner else public)
            else:
                for seen in views:
                    seen.append(event)

    def moved(self, table: Table, move: Move, seat: int, decisions_only: bool) -> None:
        """Forget what ``seat``'s ``move`` may have changed; ``decisions_only``: after it the engine
        ran no automatic stage (the turn goes on in Move scientists, Play actions or Draw actions,
        whose entry changes nothing a townsperson or a scientist shows)."""
        self.seen.clear()  # the dict is the observer's own: no observation holds it
        kind = move["type"]
        if not decisions_only:
            self.settled = self.ground = self.ongoing = None
        elif kind == "play" and move["use"] == "help":
            effect = HELP_EFFECT[move["card"]]
            if effect == "bulldoze":  # the one play that changes the terrain
                self.ground = None
            elif effect in LASTING:  # the plays that put a card on the table
                self.ongoing = None
        # a placement or a card changes its own seat's scientist (place, hand, tokens), a pass none,
        # a draw the hands of its seat and of any seat skipped after it (whose hand size then
        # differs); a card played on a scientist or the automatic stages may change any
        scientists = self.scientists
        if scientists is None or kind == "pass":
            pass
        elif not decisions_only or (kind == "play" and move["use"] == "scientist"):
            self.scientists = None
        elif kind == "discard":  # drawing changes nothing shown but the hand's size
            for other, view in enumerate(scientists):
                if view["hand_size"] != len(table.scientists[other].hand):
                    scientists[other] = scientist_view(table, other)
        else:
            scientists[seat] = scientist_view(table, seat)
        townspeople = self.townspeople
        if townspeople is None:
            return
        standing = self.standing
        if not decisions_only or standing is None:
            self.townspeople = None
        elif kind == "play":
            touched = _touched_by(move)
            if touched is ALL:
                self.townspeople = None
            elif touched is not None:
                if move["card"] in RUSHES:  # the one help effect the kept terms hold
                    standing = self.standing = Standing(table)
                for index, person in enumerate(table.people):
                    if person.id == touched:
                        townspeople[index] = townsperson_view(person, standing, self.memo)
                        break  # ids are unique
        elif kind in ("place", "clear"):
            space = move["space"]
            if self.placed[seat]:  # on the board when the terms were summed (a setup's placer): afresh
                self.townspeople = self.standing = None
                return
            self.placed[seat] = True
            # townspeople stay where they are (``where`` holds): only the one sharing the space, or
            # in the Town Hall every one, shows other numbers
            if standing.add_scientist(table.scientists[seat].id, space):
                self.townspeople = townspeople_views(table.people, standing, self.memo)
                return
            at = self.where.get(space)
            if at is not None:
                townspeople[at] = townsperson_view(table.people[at], standing, self.memo)


ALL = "*"
RUSHES = frozenset(
    card.id
    for card in EDITION.actions.values()
    for use in card.uses
    if use.use == "help" and use.effect == "rush"
)
"""Cards whose help adds to a mover's speed through a lasting effect (a term :class:`Standing` sums)."""
ONE_TOWNSPERSON = frozenset({"belief", "willingness", "speed", "rush"})
"""Help effects that change only their target's numbers."""
NO_TOWNSPERSON = frozenset({"sandbags", "bulldoze"})
"""Help effects that change only the ground, never a townsperson's status or numbers."""
HELP_EFFECT = {
    card.id: next(use.effect for use in card.uses if use.use == "help") for card in EDITION.actions.values()
}
"""Each card's help effect (every card has one help use)."""


def _touched_by(play: Move) -> str | None:
    """Whose view a card play can change: None (renown and scientist uses change tokens only),
    one townsperson's id, or :data:`ALL` (a meeting, a loudhailer, or a role's aura switched on)."""
    if play["use"] != "help":
        return None
    effect = HELP_EFFECT[play["card"]]
    if effect in NO_TOWNSPERSON:
        return None
    target = play.get("target")
    if effect in ONE_TOWNSPERSON or (effect in ("convince", "urge") and target not in AURA):
        return str(target)
    return ALL
