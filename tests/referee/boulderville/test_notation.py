"""Boulderville's move notation: golden words for every move type, JSON for what is not a move."""

from __future__ import annotations

import pytest

from referee.boulderville import GAME
from referee.boulderville.edition import EDITION
from referee.boulderville.notation import WORDINGS
from referee.notation import move_json

WORDS = [
    ({"type": "place", "space": "town_hall_steps"}, "place at Town Hall steps"),
    ({"type": "place", "space": "crater_rim"}, "place at Crater rim"),
    ({"type": "clear", "space": "north_road"}, "clear rubble at North Road"),
    ({"type": "play", "card": "gas_sampling", "use": "renown"}, "play Gas sampling for renown"),
    (
        {"type": "play", "card": "gas_sampling", "use": "help", "target": "t07"},
        "play Gas sampling to help The Okafor family",
    ),
    (
        {"type": "play", "card": "rock_samples", "use": "help", "target": "t03"},
        "play Rock samples to help Dr Priya Nair",
    ),
    (
        {"type": "play", "card": "sandbags", "use": "help", "target": "crater_rim"},
        "play Sandbags at Crater rim",
    ),
    ({"type": "play", "card": "press_conference", "use": "help"}, "play Press conference to help the town"),
    (
        {"type": "play", "card": "peer_review", "use": "scientist", "target": 2},
        "play Hostile peer review on seat 2",
    ),
    ({"type": "pass"}, "pass"),
    ({"type": "discard", "cards": ["bulldozer", "field_notes"]}, "discard Bulldozer, Field notes"),
    ({"type": "discard", "cards": ["sandbags"]}, "discard Sandbags"),
    ({"type": "discard", "cards": []}, "discard nothing"),
]

NOT_MOVES = [
    {"type": "place", "space": "the_moon"},
    {"type": "place", "space": ["crater_rim"]},
    {"type": "place", "space": "crater_rim", "target": "t01"},
    {"type": "clear"},
    {"type": "play", "card": "jokers", "use": "renown"},
    {"type": "play", "card": "gas_sampling", "use": "renown", "target": "t07"},
    {"type": "play", "card": "gas_sampling", "use": "help", "target": "t99"},
    {"type": "play", "card": "gas_sampling", "use": "help", "target": 2},
    {"type": "play", "card": "sandbags", "use": "scientist", "target": 1},
    {"type": "play", "card": "peer_review", "use": "scientist"},
    {"type": "play", "card": "peer_review", "use": "scientist", "target": 4},
    {"type": "play", "card": "peer_review", "use": "scientist", "target": True},
    {"type": "play", "card": "peer_review", "use": ["scientist"], "target": 1},
    {"type": "pass", "cards": []},
    {"type": "discard", "cards": ["bulldozer", "joker"]},
    {"type": "discard", "cards": "bulldozer"},
    {"type": "discard", "cards": ["field_notes"] * 5},
]


@pytest.mark.parametrize(("move", "words"), WORDS)
def test_a_move_reads_as_its_words(move: dict[str, object], words: str) -> None:
    assert GAME.describe_move(move) == words


def test_every_move_type_has_an_example() -> None:
    assert {move["type"] for move, _ in WORDS} == set(WORDINGS)


def test_names_tell_every_space_card_and_townsperson_apart() -> None:
    """Moves read by these names, so two of one kind sharing a name would read alike."""
    for names in (
        [space.name for space in EDITION.board.spaces],
        [card.name for card in EDITION.actions.values()],
        [person.name.split(",")[0] for person in EDITION.townspeople.values()],
    ):
        assert len(set(names)) == len(names)


@pytest.mark.parametrize("move", NOT_MOVES)
def test_what_is_not_a_move_of_the_game_reads_as_its_json(move: dict[str, object]) -> None:
    assert GAME.describe_move(move) == move_json(move)
