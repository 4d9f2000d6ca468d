"""Catan's move notation: golden words for every move type, JSON for what is not a move."""

from __future__ import annotations

import pytest

from referee.catan_volcano import GAME
from referee.catan_volcano.moves import MOVES
from referee.catan_volcano.notation import WORDINGS
from referee.notation import move_json

OFFER = {"type": "offer_trade", "to": 2, "give": "sheep", "give_count": 2, "get": "ore", "get_count": 1}

WORDS = [
    ({"type": "place_settlement", "node": 19}, "place settlement at 19"),
    ({"type": "place_road", "edge": 23}, "place road at 23"),
    ({"type": "roll"}, "roll"),
    ({"type": "discard", "resource": "wheat"}, "discard wheat"),
    ({"type": "move_robber", "hex": 5, "victim": 2}, "robber to hex 5, rob seat 2"),
    ({"type": "move_robber", "hex": 0, "victim": None}, "robber to hex 0, rob nobody"),
    ({"type": "choose_gold", "resource": "ore"}, "take ore for gold"),
    ({"type": "build_road", "edge": 0}, "build road at 0"),
    ({"type": "build_settlement", "node": 53}, "build settlement at 53"),
    ({"type": "build_city", "node": 7}, "build city at 7"),
    ({"type": "buy_development_card"}, "buy development card"),
    ({"type": "play_knight"}, "play knight"),
    ({"type": "play_road_building"}, "play road building"),
    ({"type": "play_year_of_plenty", "first": "wood", "second": "ore"}, "play year of plenty: wood and ore"),
    ({"type": "play_monopoly", "resource": "brick"}, "play monopoly on brick"),
    ({"type": "maritime_trade", "give": "wood", "get": "ore"}, "trade wood for ore with the bank"),
    (OFFER, "offer 2 sheep for 1 ore to seat 2"),
    ({**OFFER, "to": "all", "give_count": 1}, "offer 1 sheep for 1 ore to all"),
    ({"type": "accept_trade"}, "accept trade"),
    ({"type": "decline_trade"}, "decline trade"),
    ({"type": "confirm_trade", "seat": 0}, "confirm trade with seat 0"),
    ({"type": "cancel_trade"}, "cancel trade"),
    ({"type": "end_turn"}, "end turn"),
]

NOT_MOVES = [
    {"type": "build_road", "edge": True},
    {"type": "build_road", "edge": 17.0},
    {"type": "build_road", "edge": -1},
    {"type": "build_road", "edge": 10**400},
    {"type": "build_settlement", "node": 54},
    {"type": "place_settlement"},
    {"type": "roll", "dice": 7},
    {"type": "discard", "resource": "gold"},
    {"type": "move_robber", "hex": 19, "victim": None},
    {"type": "move_robber", "hex": 4, "victim": 4},
    {"type": "move_robber", "hex": 4},
    {"type": "play_year_of_plenty", "first": "wood", "second": ["ore"]},
    {**OFFER, "to": "everyone"},
    {**OFFER, "give_count": 0},
    {**OFFER, "get_count": 20},
    {"type": "confirm_trade", "seat": "1"},
    {"type": "End_turn"},
    {"type": "pass"},
]


@pytest.mark.parametrize(("move", "words"), WORDS)
def test_a_move_reads_as_its_words(move: dict[str, object], words: str) -> None:
    assert GAME.describe_move(move) == words


def test_every_move_type_of_the_engine_is_worded_and_has_an_example() -> None:
    assert set(WORDINGS) == set(MOVES)
    assert {move["type"] for move, _ in WORDS} == set(WORDINGS)
    assert all(WORDINGS[kind].fields == MOVES[kind].fields for kind in MOVES)


@pytest.mark.parametrize("move", NOT_MOVES)
def test_what_is_not_a_move_of_the_game_reads_as_its_json(move: dict[str, object]) -> None:
    assert GAME.describe_move(move) == move_json(move)
