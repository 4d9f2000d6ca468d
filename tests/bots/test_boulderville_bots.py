"""Boulderville's reference bots: legal, reproducible, and the heuristic's choices make sense.

Win rates are measured by ``bench/boulderville_bots.py``, never here.
"""

from __future__ import annotations

import pytest

from bots.boulderville import BOTS, HeuristicBot
from referee.boulderville import GAME
from tests.referee.boulderville.helpers import FAR, SCEPTIC, card, person, place, position, scientist


def request(state) -> dict:
    seat = state.current_seat
    return {"seat": seat, "observation": state.observation(seat), "legal_moves": state.legal_moves()}


def play_out(bot: str, seed: int) -> list[dict]:
    state = GAME.start("standard", seats=4, seed=seed)
    players = [BOTS[bot](seed * 10 + seat) for seat in range(4)]
    moves = []
    while state.outcome() is None:
        ask = request(state)
        move = players[ask["seat"]].choose(ask)
        assert move in ask["legal_moves"]
        state.apply(move)
        moves.append(move)
    return moves


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_a_bot_always_answers_a_legal_move_and_plays_the_same_game_from_the_same_seeds(bot: str) -> None:
    assert play_out(bot, 4) == play_out(bot, 4)


def first_choice(state) -> dict:
    return HeuristicBot(0).choose(request(state))


def test_the_heuristic_keeps_its_scientist_out_of_the_lava_s_way() -> None:
    # lava in the crater floor: the rim fills at the start of next turn
    scientists = [scientist(0, "volcanologist", tokens=4, hand=["gas_sampling"] * 3)]
    scientists += [
        scientist(seat, card) for seat, card in ((1, "seismologist"), (2, "sociologist"), (3, "geologist"))
    ]
    state = position(stage="place", lead=0, terrain={"crater_floor": "lava"}, scientists=scientists)
    assert first_choice(state)["space"] != "crater_rim"


def test_the_heuristic_walks_with_a_mover_the_lava_is_catching_up_with() -> None:
    threatened = person("t16", "north_road", "mover")  # the Novaks, slow and worth 3
    state = position(stage="place", lead=0, terrain={"pine_wood": "lava"}, people=[SCEPTIC, threatened])
    assert first_choice(state) == {"type": "place", "space": "north_road"}


def test_the_heuristic_clears_the_rubble_that_blocks_the_only_road_out() -> None:
    movers = [person("t07", "south_street", "mover"), person("t16", "bank_corner", "mover")]
    state = position(stage="place", lead=0, terrain={"freeway": "rubble"}, people=[SCEPTIC, *movers])
    assert first_choice(state) == {"type": "clear", "space": "freeway"}


def test_the_heuristic_goes_to_the_town_hall_when_that_tips_the_town_into_believing() -> None:
    # three townspeople one point short of believing: the Town Hall convinces them all
    people = [person("t09", "mill_lane"), person("t12", "church_square"), person("t19", "river_walk")]
    counter = min(card(p["id"]).belief for p in people)
    state = position(stage="place", lead=0, eruption=counter, people=[SCEPTIC, *people])
    assert first_choice(state)["space"].startswith("town_hall")


def test_the_heuristic_urges_a_believer_rather_than_passing() -> None:
    scientists = [scientist(0, hand=["field_notes"] * 3)] + [scientist(seat) for seat in (1, 2, 3)]
    state = position(
        stage="place", lead=0, scientists=scientists, people=[SCEPTIC, person("t03", "mill_lane", "believer")]
    )
    place(state, FAR | {0: "mill_lane"})
    assert first_choice(state) == {"type": "play", "card": "field_notes", "use": "help", "target": "t03"}


def test_the_heuristic_cashes_a_pile_of_tokens_at_the_science_station() -> None:
    scientists = [scientist(0, tokens=8)] + [scientist(seat) for seat in (1, 2, 3)]
    state = position(stage="place", lead=0, scientists=scientists)
    assert first_choice(state)["space"] in ("station_lab", "station_yard")
