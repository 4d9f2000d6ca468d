"""Everything that changes during a game, as plain dataclasses of JSON values.

The table is the whole game state: the engine's stages read and change it, ``to_json`` is
``dataclasses.asdict`` and :meth:`Table.from_json` rebuilds it from the fields' type hints
(:mod:`referee.boulderville.shape`), so no field is listed twice.
Card facts (belief, speed, abilities...) stay in :mod:`referee.boulderville.edition`; the table
only says which card is where and what has happened to it.

>>> person = Person("t07", "market_square")
>>> person.status, person.on_board
('unconvinced', True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

from referee.boulderville.shape import build
from referee.game import JSON
from referee.memo import Memo
from referee.rng import Rng

UNCONVINCED, BELIEVER, MOVER, SAVED, DEAD = "unconvinced", "believer", "mover", "saved", "dead"
"""A townsperson's progress: no token, Believer token, Move token, left by an exit, killed."""
ON_BOARD = (UNCONVINCED, BELIEVER, MOVER)
PROGRESS = {UNCONVINCED: 0, BELIEVER: 1, MOVER: 2, SAVED: 2, DEAD: -1}
"""How far a townsperson got; a role's aura is on once its holder reached its ``active_from``."""

LAVA, RUBBLE, RUBBLE_TURNED, RUIN = "lava", "rubble", "rubble_turned", "ruin"
"""What can cover a space: lava, a rubble card (turned 180 degrees after one turn of clearing), and
a rubble card laid at 90 degrees for ground destroyed for good (the collapsed bridge)."""
CLEARABLE = (RUBBLE, RUBBLE_TURNED)


@dataclass
class Person:
    """A townsperson card on the board (or gone from it: saved or dead).

    The ``*_down``/``speed_up`` fields are lasting changes from action cards, on top of the card.
    """

    id: str
    space: str | None
    status: str = UNCONVINCED
    belief_down: int = 0
    willingness_down: int = 0
    speed_up: int = 0

    @property
    def on_board(self) -> bool:
        return self.status in ON_BOARD


@dataclass
class Scientist:
    """A seat's scientist: where it stands, its untraded renown tokens and cashed renown, its hand."""

    seat: int
    id: str
    space: str | None = None
    tokens: int = 0
    renown: int = 0
    hand: list[str] = field(default_factory=list)
    missed_turn: int = 0
    """The turn this scientist sits out after a lucky escape (0: none)."""
    clearing: bool = False
    """Placed on rubble this turn to clear it, so it plays no action card."""


@dataclass
class Ongoing:
    """An action card whose effect lasts: active until the end of ``last_turn``."""

    effect: str
    card: str
    seat: int
    amount: int
    target: str | None
    last_turn: int


_T = TypeVar("_T")

_LEAD_ORDERS = Memo[tuple[int, int], tuple[int, ...]]("boulderville.lead_orders", limit=256)
"""Seats in lead order by (lead, seats): a handful, asked at every decision stage."""


def _blank(cls: type[_T]) -> _T:
    """An instance with no field set yet, for a copy that fills ``__dict__`` without ``__init__``."""
    return object.__new__(cls)


def _copied(person: Person) -> Person:
    other = _blank(Person)
    other.__dict__.update(person.__dict__)
    return other


def _copied_scientist(scientist: Scientist) -> Scientist:
    other = _blank(Scientist)
    other.__dict__.update(scientist.__dict__)
    other.hand = list(scientist.hand)
    return other


@dataclass
class Table:
    seats: int
    variant: str
    options: dict[str, JSON]
    rng: int
    people: list[Person]
    scientists: list[Scientist]
    eruption_deck: list[str]
    action_deck: list[str]
    turn: int = 1
    lead: int = 0
    stage: str = "ongoing"
    queue: list[int] = field(default_factory=list)
    """Seats still to decide in the current decision stage, first one to move first."""
    eruption: int = 0
    rescue: int = 0
    terrain: dict[str, str] = field(default_factory=dict)
    revealed: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)
    ongoing: list[Ongoing] = field(default_factory=list)
    events: list[dict[str, JSON]] = field(default_factory=list)
    result: str | None = None
    """Why the game ended (``evacuated`` or ``turn_limit``), None while it goes on."""

    def to_json(self) -> dict[str, JSON]:
        return asdict(self)

    def copy(self) -> Table:
        """An independent copy, sharing only what the engine never changes in place.

        Townspeople and scientists are changed in place, so they are copied; events, lasting cards
        and the options are only ever replaced or appended to, so the new lists hold the same ones.
        """
        other = _blank(Table)
        other.__dict__.update(self.__dict__)
        other.people = [_copied(p) for p in self.people]
        other.scientists = [_copied_scientist(s) for s in self.scientists]
        other.eruption_deck = list(self.eruption_deck)
        other.action_deck = list(self.action_deck)
        other.queue = list(self.queue)
        other.terrain = dict(self.terrain)
        other.revealed = list(self.revealed)
        other.discards = list(self.discards)
        other.ongoing = list(self.ongoing)
        other.events = list(self.events)
        return other

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str = "state") -> Table:
        """Rebuild a table from ``to_json`` output, checked field by field against the type hints.

        A misfit raises :class:`~referee.boulderville.shape.ShapeError` naming it under ``where``.
        """
        table = build(cls, data, where)
        assert isinstance(table, Table)
        return table

    # ----- small queries the stages share ------------------------------------------------------

    # plain loops: the stages ask these many times a turn, and a generator costs twice as much

    def person_at(self, space: str) -> Person | None:
        for person in self.people:
            if person.space == space:
                return person
        return None

    def scientist_at(self, space: str) -> Scientist | None:
        for scientist in self.scientists:
            if scientist.space == space:
                return scientist
        return None

    def person(self, person_id: str) -> Person:
        for person in self.people:
            if person.id == person_id:
                return person
        raise StopIteration(person_id)

    def on_board(self) -> list[Person]:
        return [p for p in self.people if p.status in ON_BOARD]

    def lead_order(self) -> tuple[int, ...]:
        """Seats from the lead round to the left (seat numbers increasing); one tuple per lead."""
        order = _LEAD_ORDERS.table.get((self.lead, self.seats))
        if order is None:
            order = _LEAD_ORDERS.keep(
                (self.lead, self.seats), tuple((self.lead + step) % self.seats for step in range(self.seats))
            )
        return order

    def in_turn(self) -> list[int]:
        """Seats in lead order whose scientists take part in the rest of this turn: a scientist who
        made a lucky escape this turn misses the rest of it (placing and drawing alike)."""
        turn, scientists = self.turn, self.scientists
        return [seat for seat in self.lead_order() if scientists[seat].missed_turn != turn]

    def log(self, kind: str, **facts: JSON) -> None:
        """Record a public event; a ``private`` entry (a dict) is shown only to ``facts['seat']``."""
        self.events.append({"turn": self.turn, "kind": kind, **facts})

    # ----- chance, always from the state's own generator --------------------------------------

    def roll(self, sides: int) -> int:
        rng = Rng(self.rng)
        value = rng.randint(1, sides)
        self.rng = rng.state
        return value

    def shuffle(self, items: list[Any]) -> None:
        rng = Rng(self.rng)
        rng.shuffle(items)
        self.rng = rng.state

    def sample(self, items: list[Any], count: int) -> list[Any]:
        """``count`` items picked at random, in the order picked."""
        pool = list(items)
        self.shuffle(pool)
        return pool[:count]
