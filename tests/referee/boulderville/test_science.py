"""Do Science: the Town Hall, sharing a space, playing and drawing actions, claiming renown."""

from __future__ import annotations

import pytest

from referee.boulderville.edition import EDITION
from tests.referee.boulderville.helpers import (
    FAR,
    SCEPTIC,
    SCIENTISTS,
    card,
    events,
    everyone_passes,
    person,
    place,
    play_turn,
    position,
    rng_rolling,
    scientist,
    space_of,
    status,
)


def cast(first: str, **fields) -> list[dict]:
    """Four distinct scientists with ``first`` in seat 0 (and ``fields`` for it)."""
    others = [card for card in SCIENTISTS if card != first]
    if len(others) == 4:
        others = others[:3]
    return [scientist(0, first, **fields)] + [scientist(seat, card) for seat, card in enumerate(others, 1)]


# ----- the Town Hall ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("in_hall", "believes"),
    [({}, False), ({0: "town_hall_steps"}, False), ({0: "town_hall_steps", 1: "town_hall_offices"}, True)],
)
def test_each_scientist_in_the_town_hall_lowers_every_belief_by_one(in_hall: dict, believes: bool) -> None:
    # the Garcias in Mill Lane; the counter stands one below their belief
    counter = card("t09").belief - 1
    state = position(stage="place", eruption=counter, people=[SCEPTIC, person("t09", "mill_lane")])
    play_turn(state, FAR | in_hall)
    assert (status(state, "t09") == "believer") is believes


def test_the_science_communicator_in_the_town_hall_lowers_every_belief_by_two() -> None:
    state = position(
        stage="place",
        eruption=card("t09").belief - 1,
        scientists=cast("communicator"),
        people=[SCEPTIC, person("t09", "mill_lane")],
    )
    play_turn(state, FAR | {0: "town_hall_chamber"})
    assert status(state, "t09") == "believer"


# ----- sharing a space with a townsperson ------------------------------------------------------------


@pytest.mark.parametrize(("shared", "believes"), [(False, False), (True, True)])
def test_a_scientist_sharing_a_space_lowers_belief_by_two(shared: bool, believes: bool) -> None:
    # the counter one below the Garcias' belief: exceeded only once it is 2 lower
    counter = card("t09").belief - 1
    state = position(stage="place", eruption=counter, people=[SCEPTIC, person("t09", "mill_lane")])
    play_turn(state, FAR | ({0: "mill_lane"} if shared else {}))
    assert (status(state, "t09") == "believer") is believes


@pytest.mark.parametrize(("shared", "moves"), [(False, False), (True, True)])
def test_a_scientist_sharing_a_space_lowers_willingness_by_one(shared: bool, moves: bool) -> None:
    # the Petersens believe; the d10 shows their willingness, which only a lower willingness lets pass
    roll = rng_rolling(card("t08").willingness)
    state = position(stage="place", rng=roll, people=[SCEPTIC, person("t08", "mill_lane", "believer")])
    play_turn(state, FAR | ({0: "mill_lane"} if shared else {}))
    assert (status(state, "t08") == "mover") is moves


def test_a_scientist_sharing_a_space_adds_one_to_speed_and_moves_with_the_townsperson() -> None:
    # the Okafors (speed 1) walk from the High Street towards the bridge
    alone = position(stage="place", people=[SCEPTIC, person("t07", "high_street", "mover")])
    play_turn(alone, FAR)
    assert space_of(alone, "t07") == "town_hall_offices"
    helped = position(stage="place", people=[SCEPTIC, person("t07", "high_street", "mover")])
    play_turn(helped, FAR | {0: "high_street"})
    assert space_of(helped, "t07") == "bank_corner"
    moved = events(helped, "townsperson_moved")
    assert [(e["start"], e["to"], e["escort"]) for e in moved] == [("high_street", "bank_corner", 0)]


def test_a_townsperson_with_a_scientist_only_steps_where_no_other_scientist_stands() -> None:
    state = position(stage="place", people=[SCEPTIC, person("t07", "high_street", "mover")])
    play_turn(state, FAR | {0: "high_street", 1: "town_hall_offices"})
    # the nearer Town Hall offices hold the volcanologist, so the pair go by Station Road
    assert space_of(state, "t07") == "south_street"
    assert [(e["to"], e["escort"]) for e in events(state, "townsperson_moved")] == [("south_street", 0)]


def test_a_scientist_leaving_the_board_with_a_townsperson_keeps_its_tokens_and_returns_next_turn() -> None:
    state = position(
        stage="place",
        scientists=cast("seismologist", tokens=3),
        people=[SCEPTIC, person("t11", "freeway", "mover")],
    )
    play_turn(state, FAR | {0: "freeway"})
    assert status(state, "t11") == "saved" and state.table.rescue == 1
    assert state.table.scientists[0].space is None and state.table.scientists[0].tokens == 3
    assert state.table.stage == "place" and 0 in state.table.queue


def test_a_scientist_a_townsperson_only_walks_past_stays_on_the_board() -> None:
    # Sally Reed walks onto the bridge where seat 2 stands, then off the board: seat 2 stays behind
    state = position(stage="place", people=[SCEPTIC, person("t11", "river_walk", "mover")])
    play_turn(state, FAR | {2: "bridge"})
    assert status(state, "t11") == "saved"
    assert [e["escort"] for e in events(state, "townsperson_saved")] == [None]


def test_a_scientist_walking_out_with_a_townsperson_is_named_as_the_escort() -> None:
    state = position(stage="place", people=[SCEPTIC, person("t11", "freeway", "mover")])
    play_turn(state, FAR | {1: "freeway"})
    assert [e["escort"] for e in events(state, "townsperson_saved")] == [1]


# ----- play actions ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card_holder", "space", "card", "tokens"),
    [
        ("seismologist", "observation_deck", "seismic_survey", 2 + 1 + 1),  # card + named bonus + ability
        ("seismologist", "station_lab", "seismic_survey", 1 + 1),
        ("volcanologist", "crater_rim", "gas_sampling", 3 + 1 + 1),  # card + rock bonus + ability
        ("meteorologist", "hot_springs_upper", "gas_sampling", 2),
        ("meteorologist", "station_yard", "lab_analysis", 2 + 1),  # non-rock bonus
        ("geologist", "crater_floor", "rock_samples", 2 + 2),
        ("communicator", "station_lab", "press_conference", 2 + 2),
    ],
)
def test_a_renown_play_scores_the_card_s_tokens_for_the_location(card_holder, space, card, tokens) -> None:
    state = position(stage="place", lead=3, scientists=cast(card_holder, hand=[card] * 3))
    place(state, FAR | {0: space})
    state.apply({"type": "play", "card": card, "use": "renown"})
    assert state.table.scientists[0].tokens == tokens


def test_renown_is_only_scored_at_a_science_location() -> None:
    state = position(stage="place", lead=3, scientists=cast("seismologist", hand=["seismic_survey"] * 3))
    place(state, FAR | {0: "market_square"})
    assert {"type": "play", "card": "seismic_survey", "use": "renown"} not in state.legal_moves()


def test_each_player_plays_at_most_one_action_card_a_turn() -> None:
    hands = [scientist(seat, hand=["seismic_survey"] * 3) for seat in range(4)]
    state = position(stage="place", lead=0, scientists=hands)
    place(state, FAR | {0: "observation_deck"})
    assert state.current_seat == 0
    state.apply({"type": "play", "card": "seismic_survey", "use": "renown"})
    assert state.current_seat == 1 and state.table.scientists[0].hand == ["seismic_survey"] * 2
    asked = []
    while state.table.stage == "act":
        asked.append(state.current_seat)
        state.apply({"type": "pass"})
    assert asked == [1, 2, 3] and state.table.stage == "draw"


# ----- draw actions ----------------------------------------------------------------------------------


def test_a_player_discards_any_cards_and_draws_back_to_three() -> None:
    hand = ["bulldozer", "sandbags", "seismic_survey"]
    state = position(
        stage="place",
        lead=0,
        action_deck=["helicopter", "loudhailer", "field_notes"],
        scientists=cast("seismologist", hand=hand),
    )
    place(state, FAR | {0: "observation_deck"})
    state.apply({"type": "play", "card": "seismic_survey", "use": "renown"})
    everyone_passes(state)
    assert {"type": "discard", "cards": ["bulldozer", "sandbags"]} in state.legal_moves()
    state.apply({"type": "discard", "cards": ["bulldozer"]})
    assert sorted(state.table.scientists[0].hand) == ["helicopter", "loudhailer", "sandbags"]
    assert state.table.discards[-1] == "bulldozer"


def test_the_meteorologist_draws_back_to_four() -> None:
    state = position(
        stage="place",
        lead=0,
        action_deck=["helicopter", "loudhailer", "field_notes"],
        scientists=cast("meteorologist", hand=["sandbags"] * 3),
    )
    play_turn(state, FAR)
    assert len(state.table.scientists[0].hand) == 4


def test_an_empty_action_deck_is_the_discards_shuffled() -> None:
    state = position(
        stage="place",
        lead=0,
        action_deck=[],
        discards=["helicopter", "loudhailer"],
        scientists=cast("seismologist", hand=["bulldozer", "sandbags"]),
    )
    place(state, FAR)
    everyone_passes(state)
    state.apply({"type": "discard", "cards": []})
    hand = state.table.scientists[0].hand
    assert hand[:2] == ["bulldozer", "sandbags"] and hand[2] in ("helicopter", "loudhailer")
    assert sorted(hand[2:] + state.table.action_deck) == ["helicopter", "loudhailer"]
    assert state.table.discards == []


# ----- claim renown ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("space", "terrain", "tokens", "renown"),
    [
        ("station_lab", {}, (0, 5), "every token at the Science Station"),
        ("market_square", {}, (5, 0), "nothing elsewhere"),
        ("town_hall_steps", {}, (5, 0), "nothing at the Town Hall while the station stands"),
        ("station_yard", {"station_lab": "lava"}, (0, 5), "the station stands while one space is free"),
        (
            "town_hall_steps",
            {"station_lab": "lava", "station_yard": "lava"},
            (2, 2),
            "three for two once lost",
        ),
    ],
)
def test_tokens_are_cashed_at_the_science_station_or_three_for_two_at_the_town_hall_once_it_is_lost(
    space: str, terrain: dict, tokens: tuple[int, int], renown: str
) -> None:
    state = position(stage="place", lead=3, terrain=terrain, scientists=cast("seismologist", tokens=5))
    play_turn(state, FAR | {0: space})
    cashed = state.table.scientists[0]
    assert (cashed.tokens, cashed.renown) == tokens, renown


STATION_RATE = EDITION.rules.cash_rates["science_station"]
HALL_RATE = EDITION.rules.cash_rates["town_hall"]
STATION_LOST = {"station_lab": "lava", "station_yard": "lava"}


@pytest.mark.parametrize(
    ("space", "terrain", "held", "left_and_cashed"),
    [
        ("station_lab", {}, STATION_RATE[0], (0, STATION_RATE[1])),
        ("town_hall_steps", STATION_LOST, HALL_RATE[0], (0, HALL_RATE[1])),
        ("town_hall_steps", STATION_LOST, HALL_RATE[0] - 1, (HALL_RATE[0] - 1, 0)),
        ("town_hall_steps", STATION_LOST, 2 * HALL_RATE[0] + 1, (1, 2 * HALL_RATE[1])),
    ],
)
def test_a_scientist_holding_exactly_the_rate_cashes_it_and_one_token_short_cashes_nothing(
    space: str, terrain: dict, held: int, left_and_cashed: tuple[int, int]
) -> None:
    """ "Any Scientist in the Science Station can trade in renown tokens" (one for one), and at the
    Town Hall "three tokens for two points": tokens are traded in whole lots of the rate, so holding
    the rate exactly is one lot, and one token fewer is none."""
    state = position(stage="place", lead=3, terrain=terrain, scientists=cast("seismologist", tokens=held))
    play_turn(state, FAR | {0: space})
    cashed = state.table.scientists[0]
    assert (cashed.tokens, cashed.renown) == left_and_cashed
