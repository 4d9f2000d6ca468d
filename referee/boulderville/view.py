"""What one seat sees: the whole board and every public number, its own hand, others' hand sizes.

Hidden from every seat: the order of the action and eruption decks, the townspeople and scientists
left out of the game, the generator's state, and the other seats' cards (drawn, held or
discarded). Events carry a ``private`` part only for the seat they belong to.

:func:`observation` works one out from the table alone; :class:`Observer`, which the state uses,
gives the same (the tests hold it to it) from parts kept between moves, since the match runner
asks for one on every move. Observations share those parts with each other and with the state's
event log: read them, never change them.
"""

from __future__ import annotations

from operator import is_

from referee.boulderville.actions import LASTING
from referee.boulderville.attributes import (
    AURA,
    HALL_BELIEF,
    PRINTED,
    SHARING,
    TOWN_HALL,
    Standing,
    aura_of,
)
from referee.boulderville.edition import EDITION
from referee.boulderville.hazards import bridge_standing
from referee.boulderville.renown import cashing_place
from referee.boulderville.table import ON_BOARD, Ongoing, Person, Table
from referee.game import JSON, Move

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
_PERSON_VIEWS: dict[PersonKey, dict[str, JSON]] = {}
"""Townsperson views made so far in this process, by everything they show (a view depends on its
key alone, so games share them; read-only like every observation). Bounded: past ``MEMO_LIMIT``
views it starts afresh."""


def _townsperson(
    person: Person, standing: Standing, memo: dict[PersonKey, dict[str, JSON]]
) -> dict[str, JSON]:
    """A townsperson as seen, built once per distinct (card, space, status, numbers)."""
    status = person.status
    if status in ON_BOARD:
        key = (person.id, person.space, status, *standing.numbers(person))
    else:
        key = (person.id, person.space, status, -1, -1, -1)
    view = memo.get(key)
    return _new_view(key, memo) if view is None else view


def _townspeople(
    people: list[Person], standing: Standing, memo: dict[PersonKey, dict[str, JSON]]
) -> list[dict[str, JSON]]:
    """Every townsperson as seen: :func:`_townsperson` of each, in one loop (asked once a turn or more),
    with :meth:`Standing.numbers` written out in it (the tests hold the numbers shown to the
    per-person functions of :mod:`~referee.boulderville.attributes`)."""
    get = memo.get
    belief_off = standing.belief_off
    willingness_off = standing.aura_willingness
    shared_at = standing.sharing_at.get
    rush = standing.rush
    views = []
    for person in people:
        status = person.status
        if status in ON_BOARD:
            pid = person.id
            space = person.space
            belief, willingness, speed = PRINTED[pid]
            belief -= person.belief_down + belief_off
            willingness -= person.willingness_down + willingness_off
            speed += person.speed_up
            shared = shared_at(space)
            if shared is not None:
                belief -= shared.belief
                willingness -= shared.willingness
                speed += shared.speed
            if pid in AURA:
                own = aura_of(person)
                belief += own[0]
                willingness += own[1]
            if rush:
                speed += rush.get(pid, 0)
            key = (
                pid,
                space,
                status,
                belief if belief > 0 else 0,
                willingness if willingness > 0 else 0,
                speed,
            )
        else:
            key = (person.id, person.space, status, -1, -1, -1)
        view = get(key)
        views.append(_new_view(key, memo) if view is None else view)
    return views


def _new_view(key: PersonKey, memo: dict[PersonKey, dict[str, JSON]]) -> dict[str, JSON]:
    """The view of a townsperson shown by ``key`` (numbers -1: off the board), kept in ``memo``."""
    pid, space, status, belief, willingness, speed = key
    name, role, value, printed = _CARDS[pid]
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
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
    memo[key] = view
    return view


ScientistKey = tuple[int, str, str | None, int, int, int, bool, bool]
_SCIENTIST_VIEWS: dict[ScientistKey, dict[str, JSON]] = {}
"""Scientist views made so far, by everything they show; read-only like every observation. Bounded:
tokens and renown stay small in play, and past ``MEMO_LIMIT`` views it starts afresh."""
MEMO_LIMIT = 50_000


def _scientist(table: Table, seat: int) -> dict[str, JSON]:
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
    view = _SCIENTIST_VIEWS.get(key)
    if view is None:
        if len(_SCIENTIST_VIEWS) >= MEMO_LIMIT:
            _SCIENTIST_VIEWS.clear()
        name, kind = _SCIENTISTS[scientist.id]
        view = _SCIENTIST_VIEWS[key] = {
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
        }
    return view


def _ongoing(effect: Ongoing) -> dict[str, JSON]:
    return {
        "effect": effect.effect,
        "card": effect.card,
        "seat": effect.seat,
        "amount": effect.amount,
        "target": effect.target,
        "last_turn": effect.last_turn,
    }


def _event(event: dict[str, JSON], seat: int) -> dict[str, JSON]:
    if "private" in event and event.get("seat") != seat:
        return {key: value for key, value in event.items() if key != "private"}
    return event


Ground = tuple[dict[str, str], bool, str]
"""A copy of the terrain, whether the bridge stands on it, and where renown is cashed on it."""


def _ground(table: Table) -> Ground:
    terrain = table.terrain  # nothing covered (the first turns): the bridge stands, the station too
    return (
        dict(terrain),
        bridge_standing(table) if terrain else True,
        cashing_place(table) if terrain else "science_station",
    )


def _settled(table: Table) -> dict[str, JSON]:
    """An observation with only the parts no decision changes filled in (the automatic stages
    change them), in the observation's key order; :func:`_assemble` fills in a copy."""
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


def _assemble(
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
    memo: dict[PersonKey, dict[str, JSON]] = {}
    townspeople = _townspeople(table.people, Standing(table), memo)
    scientists = [_scientist(table, s) for s in range(table.seats)]
    events = [_event(e, seat) for e in table.events]
    ongoing = [_ongoing(o) for o in table.ongoing]
    return _assemble(table, seat, _settled(table), townspeople, scientists, events, _ground(table), ongoing)


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
        self.memo: dict[PersonKey, dict[str, JSON]] = _PERSON_VIEWS
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
        """The parts of the observations no decision changes (:func:`_settled`), kept until the
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
            townspeople = self.townspeople = _townspeople(people, standing, memo)
            self.where = {p.space: index for index, p in enumerate(people) if p.space is not None}
        scientists = self.scientists
        if scientists is None:
            scientists = self.scientists = [_scientist(table, s) for s in range(table.seats)]
        log = table.events  # the seat's view of the event log, kept as the log grows
        if log is not self.log or self.logged > len(log):
            self._follow(log, table.seats)
        elif self.logged < len(log):
            self._extend(log)
        events = self.views[seat].copy()
        ground = self.ground
        if ground is None:
            ground = self.ground = _ground(table)
        settled = self.settled
        if settled is None:
            settled = self.settled = _settled(table)
        ongoing = self.ongoing
        if ongoing is None:
            ongoing = self.ongoing = [_ongoing(o) for o in table.ongoing]
        seen = self.seen[seat] = _assemble(
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
                    scientists[other] = _scientist(table, other)
        else:
            scientists[seat] = _scientist(table, seat)
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
                        townspeople[index] = _townsperson(person, standing, self.memo)
                        break  # ids are unique
        elif kind in ("place", "clear"):
            space = move["space"]
            if self.placed[seat]:  # on the board when the terms were summed (a setup's placer): afresh
                self.townspeople = self.standing = None
                return
            self.placed[seat] = True
            scientist_id = table.scientists[seat].id
            # the placed scientist shares only this space: the one term of the numbers it changes,
            # and in the Town Hall every belief's too (townspeople stay where they are: where holds)
            standing.sharing_at[space] = SHARING[scientist_id]
            if space in TOWN_HALL:
                lowered = HALL_BELIEF[scientist_id]
                standing.hall_and_meeting += lowered
                standing.belief_off += lowered
                self.townspeople = _townspeople(table.people, standing, self.memo)
                return
            at = self.where.get(space)
            if at is not None:
                townspeople[at] = _townsperson(table.people[at], standing, self.memo)


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
