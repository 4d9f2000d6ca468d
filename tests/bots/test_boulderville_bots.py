"""Boulderville's reference bots: legal, reproducible, and the heuristic's choices make sense.

Win rates are measured by ``bench/boulderville_bots.py``, never here.
"""

from __future__ import annotations

import pytest

from bots.boulderville import BOTS, HeuristicBot
from bots.boulderville_search import MINIMUM_MS, SearchBot
from referee.boulderville import GAME
from tests.referee.boulderville.helpers import (
    FAR,
    SCEPTIC,
    card,
    hidden_apart,
    person,
    place,
    position,
    scientist,
)


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


# ----- the search bot ------------------------------------------------------------------------------


def searched(state, guesses: int = 4, **time: int) -> dict:
    """The search bot's move in ``state``, with a fixed number of guesses (the same on any machine)."""
    ask = request(state)
    ask["time"] = time or {"move_ms": 2000, "bank_ms": 0}
    return SearchBot(7, guesses=guesses).choose(ask)


def test_the_search_bot_keeps_its_tokens_out_of_the_lava_that_spreads_next_turn() -> None:
    # lava in the crater floor: the rim fills at the start of next turn, and a lucky escape there
    # loses every untraded token
    scientists = [scientist(0, "volcanologist", tokens=4, hand=["gas_sampling"] * 3)]
    scientists += [
        scientist(seat, card) for seat, card in ((1, "seismologist"), (2, "sociologist"), (3, "geologist"))
    ]
    state = position(stage="place", lead=0, terrain={"crater_floor": "lava"}, scientists=scientists)
    assert searched(state)["space"] != "crater_rim"


def test_the_search_bot_cashes_a_pile_of_tokens_at_the_science_station() -> None:
    # tokens count for nothing at the end; the Claim renown step trades them at the station
    scientists = [scientist(0, tokens=8)] + [scientist(seat) for seat in (1, 2, 3)]
    state = position(stage="place", lead=0, scientists=scientists)
    assert searched(state)["space"] in ("station_lab", "station_yard")


def test_the_search_bot_urges_a_believer_the_lava_will_otherwise_catch() -> None:
    # the doctor believes next to the lava's path; urged now she moves this turn, else she rolls
    scientists = [scientist(0, hand=["field_notes"] * 3)] + [scientist(seat) for seat in (1, 2, 3)]
    doctor = person("t03", "north_road", "believer")
    state = position(
        stage="place", lead=0, scientists=scientists, terrain={"old_quarry": "lava"}, people=[SCEPTIC, doctor]
    )
    place(state, FAR | {0: "north_road"})
    assert searched(state) == {"type": "play", "card": "field_notes", "use": "help", "target": "t03"}


def test_the_search_bot_decides_from_its_request_alone() -> None:
    first, second = hidden_apart(seed=5)  # the other hands, the decks and the dice differ
    assert first.observation(0) == second.observation(0)
    assert searched(first, guesses=3) == searched(second, guesses=3)


def test_with_no_time_to_search_the_search_bot_plays_the_heuristic_s_move(monkeypatch) -> None:
    def no_search(*args, **kwargs):
        raise AssertionError("searched without the time to")

    monkeypatch.setattr(SearchBot, "search", no_search)
    state = GAME.start("standard", seats=4, seed=9)
    ask = request(state) | {"time": {"move_ms": 40, "bank_ms": 0}}  # 10 ms, less the safety margin
    assert SearchBot(1).budget_ms(ask) < MINIMUM_MS
    assert SearchBot(1).choose(ask) == HeuristicBot(0).choose(ask)


def test_the_search_bot_s_budget_is_a_fraction_of_the_move_s_time_and_its_cap() -> None:
    ask = {"time": {"move_ms": 1000, "bank_ms": 10_000}}
    assert SearchBot(1, cap_ms=25).budget_ms(ask) == 25  # the cap
    assert SearchBot(1, cap_ms=1000).budget_ms(ask) == 0.25 * 1000 + 0.02 * 10_000 - 15
