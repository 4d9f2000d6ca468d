"""The platform's edition of Volcano! (Boulderville), read once from the JSON files in ``data/``.

The printed game's board map and card texts were never published, so the platform made its own:
the board, six scientists, twenty-eight townspeople, seventeen kinds of action card and the three
eruption sub-decks all live in ``data/*.json``; ``rules.json`` keeps the numbers the rule text gives
(``from_text``) apart from the platform's choices where it is silent (``choices``). The engine never
hard-codes any of them. ``docs/games/boulderville.md`` explains every value.

>>> EDITION.board.adjacent["bridge"]
('freeway',)
>>> EDITION.board.distance["crater_floor"]["bridge"]
11
>>> EDITION.scientists["geologist"].abilities.rubble_work
2
>>> sum(card.copies for card in EDITION.actions.values()), len(EDITION.actions)
(50, 17)
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

ROCK, NON_ROCK = "rock", "non_rock"
"""The two kinds of scientist the rule text names; some action cards help or hinder one kind."""


@dataclass(frozen=True)
class Space:
    """A black rectangle on the board: room for one townsperson and one scientist."""

    id: str
    name: str
    location: str | None
    start: bool
    at: tuple[int, int]
    """Column and row on the map in the docs (row 0 is the crater, at the top)."""


@dataclass(frozen=True)
class Board:
    """The named spaces, the lines joining them, the locations they make up and the two exits."""

    title: str
    spaces: tuple[Space, ...]
    adjacent: dict[str, tuple[str, ...]]
    """Neighbours of each space, in board order."""
    locations: dict[str, str]
    """Location id to its name (a location is one or more spaces: the Town Hall has three)."""
    exits: dict[str, str]
    """Exit id (``freeway``, ``country_road``) to the space townspeople leave the board from."""
    bridge: str
    housing_filled: int
    order: dict[str, int] = field(repr=False)
    distance: dict[str, dict[str, int]] = field(repr=False)
    """Number of lines between two spaces, ignoring lava and rubble (reach and radius use it)."""
    _location: dict[str, str | None] = field(init=False, repr=False, compare=False, default_factory=dict)
    _spaces_of: dict[str, tuple[str, ...]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        """Look-ups the engine asks on every move, worked out once (the board never changes)."""
        self._location.update((s.id, s.location) for s in self.spaces)
        for space in self.spaces:
            if space.location is not None:
                self._spaces_of[space.location] = (*self._spaces_of.get(space.location, ()), space.id)

    def space(self, space_id: str) -> Space:
        return self.spaces[self.order[space_id]]

    def location_of(self, space_id: str | None) -> str | None:
        return None if space_id is None else self._location[space_id]

    def spaces_of(self, location: str) -> tuple[str, ...]:
        """The spaces making up a location, in board order."""
        return self._spaces_of.get(location, ())

    @property
    def start_positions(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.spaces if s.start)


@dataclass(frozen=True)
class Sharing:
    """What a scientist sharing a townsperson's space does: lowers belief and willingness, adds speed."""

    belief: int
    willingness: int
    speed: int


@dataclass(frozen=True)
class Abilities:
    """The numbers a scientist's special ability can change; the defaults are the rule text's."""

    renown_bonus: dict[str, int]
    """Extra renown tokens whenever the scientist scores renown at this science location."""
    rubble_work: int
    """Turns of rubble clearing done in one turn (rubble needs two)."""
    sharing: Sharing
    town_hall_belief: int
    """How much each townsperson's belief drops while this scientist is in the Town Hall."""
    hand_size: int


@dataclass(frozen=True)
class ScientistCard:
    id: str
    name: str
    type: str
    ability: str
    abilities: Abilities


@dataclass(frozen=True)
class Role:
    """A townsperson's role. Its aura lowers every other townsperson's belief or willingness once
    the holder has reached ``active_from`` (``believer`` or ``mover``), for as long as they live."""

    id: str
    title: str
    belief: int
    willingness: int
    active_from: str


@dataclass(frozen=True)
class TownspersonCard:
    id: str
    name: str
    role: str | None
    belief: int
    willingness: int
    speed: int
    value: int


@dataclass(frozen=True)
class Use:
    """One way to play an action card. ``use`` is ``renown``, ``help`` or ``scientist``.

    Renown uses give ``tokens[location]`` at a science location, plus ``bonus`` tokens when the
    player's scientist has that id or type. Help uses name an ``effect`` (see
    :mod:`referee.boulderville.actions`) with its ``amount``, ``reach``, ``radius`` and ``turns``.
    Scientist uses award or take ``amount`` tokens from a scientist matching ``who``.
    """

    use: str
    effect: str | None = None
    tokens: dict[str, int] = field(default_factory=dict)
    bonus: dict[str, int] = field(default_factory=dict)
    amount: int = 0
    reach: int | None = None
    radius: int = 0
    turns: int = 0
    who: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ActionCard:
    id: str
    name: str
    copies: int
    uses: tuple[Use, ...]


@dataclass(frozen=True)
class Bonus:
    """A position bonus: a scientist at ``location`` when the card is revealed adds ``eruption`` to
    the counter (once) and scores ``renown`` tokens."""

    location: str
    eruption: int
    renown: int


@dataclass(frozen=True)
class EruptionCard:
    id: str
    name: str
    deck: str
    value: int
    effects: tuple[dict[str, str], ...]
    bonus: Bonus | None


@dataclass(frozen=True)
class Rules:
    seats: int
    hand_size: int
    die_sides: int
    rubble_work_needed: int
    lead_bonus_tokens: int
    cash_rates: dict[str, tuple[int, int]]
    """Location to (tokens given, renown gained)."""
    science_locations: tuple[str, ...]
    first_lead: int
    lead_step: int
    max_turns: int
    events_kept_turns: int


@dataclass(frozen=True)
class Edition:
    board: Board
    scientists: dict[str, ScientistCard]
    townspeople: dict[str, TownspersonCard]
    roles: dict[str, Role]
    actions: dict[str, ActionCard]
    eruption_cards: dict[str, EruptionCard]
    eruption_decks: dict[str, tuple[str, ...]]
    """``build_up``, ``pre_eruption`` and ``post_eruption``: the pools the 5-card sub-decks come from."""
    eruption_deal: dict[str, int]
    eruption_card: str
    rules: Rules

    def action_deck(self) -> list[str]:
        """Every action card, as card ids, in data order (shuffled when dealt)."""
        return [card.id for card in self.actions.values() for _ in range(card.copies)]


def _read(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath(f"data/{name}").read_text())


def _distances(adjacent: dict[str, tuple[str, ...]]) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for origin in adjacent:
        seen = {origin: 0}
        queue = deque([origin])
        while queue:
            here = queue.popleft()
            for there in adjacent[here]:
                if there not in seen:
                    seen[there] = seen[here] + 1
                    queue.append(there)
        table[origin] = seen
    return table


def _board(raw: dict[str, Any]) -> Board:
    spaces = tuple(
        Space(s["id"], s["name"], s.get("location"), bool(s.get("start")), tuple(s["at"]))
        for s in raw["spaces"]
    )
    order = {space.id: index for index, space in enumerate(spaces)}
    neighbours: dict[str, set[str]] = {space.id: set() for space in spaces}
    for a, b in raw["lines"]:
        if a not in order or b not in order or a == b:
            raise ValueError(f"board line {a}-{b} joins unknown spaces")
        neighbours[a].add(b)
        neighbours[b].add(a)
    adjacent = {sid: tuple(sorted(near, key=order.__getitem__)) for sid, near in neighbours.items()}
    board = Board(
        title=raw["title"],
        spaces=spaces,
        adjacent=adjacent,
        locations=dict(raw["locations"]),
        exits={name: exit_["from"] for name, exit_ in raw["exits"].items()},
        bridge=raw["bridge"],
        housing_filled=raw["housing_filled"],
        order=order,
        distance=_distances(adjacent),
    )
    for space in spaces:
        if space.location is not None and space.location not in board.locations:
            raise ValueError(f"space {space.id} is in unknown location {space.location}")
        if len(board.distance[space.id]) != len(spaces):
            raise ValueError(f"space {space.id} is not joined to the whole board")
    if board.bridge not in order or any(gate not in order for gate in board.exits.values()):
        raise ValueError("the bridge and the exits must be spaces")
    return board


def _use(raw: dict[str, Any]) -> Use:
    return Use(**raw)


def _eruption_card(raw: dict[str, Any], deck: str) -> EruptionCard:
    bonus = raw.get("bonus")
    return EruptionCard(
        id=raw["id"],
        name=raw["name"],
        deck=deck,
        value=raw["value"],
        effects=tuple(raw.get("effects", ())),
        bonus=None if bonus is None else Bonus(**bonus),
    )


def _load() -> Edition:
    board = _board(_read("board.json"))
    raw_scientists = _read("scientists.json")
    defaults = raw_scientists["defaults"]

    def abilities(changes: dict[str, Any]) -> Abilities:
        merged = {**defaults, **changes}
        return Abilities(
            renown_bonus=dict(merged["renown_bonus"]),
            rubble_work=merged["rubble_work"],
            sharing=Sharing(**merged["sharing"]),
            town_hall_belief=merged["town_hall_belief"],
            hand_size=merged["hand_size"],
        )

    scientists = {
        s["id"]: ScientistCard(s["id"], s["name"], s["type"], s["ability"], abilities(s["abilities"]))
        for s in raw_scientists["scientists"]
    }
    raw_people = _read("townspeople.json")
    townspeople = {
        t["id"]: TownspersonCard(
            t["id"], t["name"], t.get("role"), t["belief"], t["willingness"], t["speed"], t["value"]
        )
        for t in raw_people["townspeople"]
    }
    roles = {
        rid: Role(rid, r["title"], r["aura"].get("belief", 0), r["aura"].get("willingness", 0), r["from"])
        for rid, r in raw_people["roles"].items()
    }
    actions = {
        a["id"]: ActionCard(a["id"], a["name"], a["copies"], tuple(_use(u) for u in a["uses"]))
        for a in _read("actions.json")["actions"]
    }
    raw_eruption = _read("eruption.json")
    decks = ("build_up", "pre_eruption", "post_eruption")
    cards = {c["id"]: _eruption_card(c, deck) for deck in decks for c in raw_eruption[deck]}
    the_eruption = _eruption_card(raw_eruption["eruption_card"], "pre_eruption")
    cards[the_eruption.id] = the_eruption
    raw_rules = _read("rules.json")
    text, choices = raw_rules["from_text"], raw_rules["choices"]
    rules = Rules(
        seats=text["seats"],
        hand_size=text["hand_size"],
        die_sides=text["die_sides"],
        rubble_work_needed=text["rubble_work_needed"],
        lead_bonus_tokens=text["lead_bonus_tokens"],
        cash_rates={loc: (rate[0], rate[1]) for loc, rate in text["cash_rates"].items()},
        science_locations=tuple(text["science_locations"]),
        first_lead=choices["first_lead"],
        lead_step=choices["lead_step"],
        max_turns=choices["max_turns"],
        events_kept_turns=choices["events_kept_turns"],
    )
    edition = Edition(
        board=board,
        scientists=scientists,
        townspeople=townspeople,
        roles=roles,
        actions=actions,
        eruption_cards=cards,
        eruption_decks={deck: tuple(c["id"] for c in raw_eruption[deck]) for deck in decks},
        eruption_deal=dict(raw_eruption["deal"]),
        eruption_card=the_eruption.id,
        rules=rules,
    )
    _check(edition)
    return edition


def _check(edition: Edition) -> None:
    """Every name the data uses refers to something that exists; a broken file fails at import."""
    board = edition.board
    locations = set(board.locations)
    for person in edition.townspeople.values():
        if person.role is not None and person.role not in edition.roles:
            raise ValueError(f"townsperson {person.id} has unknown role {person.role}")
    kinds = {ROCK, NON_ROCK} | set(edition.scientists)
    for card in edition.actions.values():
        for use in card.uses:
            if not set(use.tokens) <= set(edition.rules.science_locations):
                raise ValueError(f"action {card.id} scores renown outside the science locations")
            if not set(use.bonus) <= kinds or not set(use.who.values()) <= kinds:
                raise ValueError(f"action {card.id} names an unknown scientist or type")
    for eruption in edition.eruption_cards.values():
        if eruption.bonus is not None and eruption.bonus.location not in locations:
            raise ValueError(f"eruption card {eruption.id} names unknown location {eruption.bonus.location}")
        for effect in eruption.effects:
            if "space" in effect and effect["space"] not in board.order:
                raise ValueError(f"eruption card {eruption.id} names unknown space {effect['space']}")
    for deck, count in edition.eruption_deal.items():
        if count > len(edition.eruption_decks[deck]):
            raise ValueError(f"eruption sub-deck {deck} has fewer than {count} cards")
    for scientist in edition.scientists.values():
        if scientist.type not in (ROCK, NON_ROCK):
            raise ValueError(f"scientist {scientist.id} has unknown type {scientist.type}")


EDITION = _load()
