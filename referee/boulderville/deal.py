"""Setting up a game: the seeded deal of the rule text, or an explicit position.

The seeded deal follows the set-up section: scientists shuffled and one dealt to each seat;
townspeople shuffled and dealt onto the marked start positions, then onto four housing-estate
spaces picked at random; three action cards to each seat; the eruption deck built from its three
sub-decks. Markers start at zero.

An explicit ``setup`` is a mapping of state fields (the keys of the state's ``to_json``) laid over
the seeded deal, so a test or a match can start from any position::

    {"people": [{"id": "t07", "space": "bridge", "status": "mover"}],
     "eruption_deck": [], "stage": "townsfolk"}

It is checked: unknown fields, cards, spaces, stages and crowded spaces are a SetupError.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, is_dataclass

from referee.boulderville.actions import LASTING
from referee.boulderville.edition import EDITION
from referee.boulderville.eruption import build_deck
from referee.boulderville.shape import ShapeError
from referee.boulderville.table import (
    LAVA,
    ON_BOARD,
    PROGRESS,
    RUBBLE,
    RUBBLE_TURNED,
    RUIN,
    Person,
    Scientist,
    Table,
)
from referee.game import JSON, SetupError
from referee.rng import Rng, derive_seed

FIXED = ("seats", "variant", "options")
"""Fields a setup may not change: they come from the match request."""


def seeded_table(variant: str, seats: int, seed: int, options: dict[str, JSON]) -> Table:
    board = EDITION.board
    table = Table(
        seats=seats,
        variant=variant,
        options=options,
        rng=Rng(derive_seed(seed, "boulderville")).state,
        people=[],
        scientists=[],
        eruption_deck=[],
        action_deck=EDITION.action_deck(),
        lead=EDITION.rules.first_lead,
    )
    scientists = table.sample(list(EDITION.scientists), seats)
    table.scientists = [Scientist(seat, card) for seat, card in enumerate(scientists)]
    deck = list(EDITION.townspeople)
    table.shuffle(deck)
    housing = table.sample(list(board.spaces_of("housing_estate")), board.housing_filled)
    spaces = [*board.start_positions, *sorted(housing, key=board.order.__getitem__)]
    table.people = [Person(card, space) for card, space in zip(deck, spaces, strict=False)]
    table.shuffle(table.action_deck)
    for scientist in table.scientists:
        hand_size = EDITION.rules.hand_size
        scientist.hand = table.action_deck[:hand_size]
        del table.action_deck[:hand_size]
    table.eruption_deck = build_deck(table)
    table.log("setup", scientists=scientists)
    return table


def _fail(message: str, where: str) -> SetupError:
    return SetupError(message, f"setup.{where}")


def explicit_table(base: Table, setup: object) -> Table:
    """The seeded ``base`` with the setup's fields laid over it, checked."""
    if not isinstance(setup, Mapping):
        raise SetupError("setup must be an object of state fields", "setup")
    data = base.to_json()
    unknown = sorted((str(key) for key in setup if key not in data), key=str)
    if unknown:
        raise _fail(f"unknown setup field(s): {', '.join(unknown)}", unknown[0])
    fixed = sorted(set(setup) & set(FIXED))
    if fixed:
        raise _fail(f"{fixed[0]} comes from the match request, not the setup", fixed[0])
    data.update(setup)
    try:
        table = Table.from_json(data, where="setup")
    except ShapeError as error:
        raise SetupError(str(error), error.where) from None
    check_table(table)
    return table


LIMIT = 10**6
"""The largest counter a setup may give: far beyond any real game, small enough for every client."""

BOUNDS: dict[str, tuple[int, int]] = {
    "turn": (1, LIMIT),
    "eruption": (0, LIMIT),
    "rescue": (-LIMIT, LIMIT),
    "rng": (0, 2**64 - 1),
    "tokens": (0, LIMIT),
    "renown": (0, LIMIT),
    "missed_turn": (0, LIMIT),
    "belief_down": (0, LIMIT),
    "willingness_down": (0, LIMIT),
    "speed_up": (0, LIMIT),
    "amount": (0, LIMIT),
    "last_turn": (0, LIMIT),
}
"""The range of every whole-number field, by field name, wherever it sits in the table."""

RESULTS = (None, "evacuated", "turn_limit")


def _check_numbers(record: object, where: str) -> None:
    """Every bounded number of ``record`` (a table dataclass) within its range."""
    assert is_dataclass(record)
    for spec in fields(record):
        value = getattr(record, spec.name)
        if spec.name in BOUNDS and isinstance(value, int):
            low, high = BOUNDS[spec.name]
            if not low <= value <= high:
                raise _fail(f"{spec.name} must be from {low} to {high}", f"{where}{spec.name}")


def check_table(table: Table) -> None:
    """Every reference in the position exists, every number is in range and no space is crowded."""
    from referee.boulderville.turn import STAGES, Decision

    board = EDITION.board
    _check_numbers(table, "")
    for index, person in enumerate(table.people):
        _check_numbers(person, f"people[{index}].")
    for index, scientist in enumerate(table.scientists):
        _check_numbers(scientist, f"scientists[{index}].")
    for index, effect in enumerate(table.ongoing):
        _check_numbers(effect, f"ongoing[{index}].")
    where: dict[str, str] = {}
    for person in table.people:
        if person.id not in EDITION.townspeople:
            raise _fail(f"unknown townsperson {person.id!r}", "people")
        if person.status not in PROGRESS:
            raise _fail(f"townsperson {person.id} has unknown status {person.status!r}", "people")
        if (person.space is None) == (person.status in ON_BOARD):
            raise _fail(f"townsperson {person.id} must be on a space exactly while on the board", "people")
        if person.space is not None:
            if person.space not in board.order or person.space in table.terrain:
                raise _fail(f"townsperson {person.id} is on a missing or covered space", "people")
            if person.space in where:
                raise _fail(f"two townspeople on {person.space}", "people")
            where[person.space] = person.id
    if len({p.id for p in table.people}) != len(table.people):
        raise _fail("a townsperson appears twice", "people")
    if [s.seat for s in table.scientists] != list(range(table.seats)):
        raise _fail("one scientist per seat, in seat order", "scientists")
    placed = [s.space for s in table.scientists if s.space is not None]
    if len(set(placed)) != len(placed) or not set(placed) <= set(board.order):
        raise _fail("scientists must stand on distinct spaces of the board", "scientists")
    if any(table.terrain.get(space) in (LAVA, RUIN) for space in placed):
        raise _fail("no scientist may stand on lava or ruin", "scientists")
    if len({s.id for s in table.scientists}) != len(table.scientists):
        raise _fail("each scientist card is dealt once", "scientists")
    for scientist in table.scientists:
        if scientist.id not in EDITION.scientists:
            raise _fail(f"unknown scientist {scientist.id!r}", "scientists")
        if not set(scientist.hand) <= set(EDITION.actions):
            raise _fail(f"unknown action card in seat {scientist.seat}'s hand", "scientists")
        if len(scientist.hand) > EDITION.scientists[scientist.id].abilities.hand_size:
            raise _fail(f"seat {scientist.seat} holds more cards than its hand size", "scientists")
    if not set(table.action_deck) | set(table.discards) <= set(EDITION.actions):
        raise _fail("unknown action card in the deck or discards", "action_deck")
    if not set(table.eruption_deck) | set(table.revealed) <= set(EDITION.eruption_cards):
        raise _fail("unknown eruption card", "eruption_deck")
    for space, cover in table.terrain.items():
        if space not in board.order or cover not in (LAVA, RUBBLE, RUBBLE_TURNED, RUIN):
            raise _fail(f"terrain {space}: {cover} is not a space and a cover", "terrain")
    for effect in table.ongoing:
        if effect.effect not in LASTING or effect.card not in EDITION.actions:
            raise _fail(f"{effect.card}: {effect.effect} is not a lasting action card", "ongoing")
        if not 0 <= effect.seat < table.seats:
            raise _fail("an ongoing card's seat must be a seat", "ongoing")
    for event in table.events:
        if type(event.get("turn")) is not int or not isinstance(event.get("kind"), str):
            raise _fail("every event has a whole-number turn and a kind", "events")
    if table.result not in RESULTS:
        raise _fail(f"result must be one of {RESULTS}", "result")
    if table.stage not in STAGES:
        raise _fail(f"unknown stage {table.stage!r}", "stage")
    if not 0 <= table.lead < table.seats:
        raise _fail("lead must be a seat", "lead")
    stage = STAGES[table.stage]
    if isinstance(stage, Decision):
        asked = stage.seats(table)
        if len(set(table.queue)) != len(table.queue) or not set(table.queue) <= set(asked):
            raise _fail(f"queue must list distinct seats from {asked} for stage {table.stage}", "queue")
