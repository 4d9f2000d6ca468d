"""Phases 4 to 6: moving townspeople, the willingness rolls, the belief checks; roles' auras."""

from __future__ import annotations

import pytest

from referee.boulderville.edition import EDITION
from tests.referee.boulderville.helpers import (
    FAR,
    SCEPTIC,
    card,
    events,
    person,
    play_turn,
    position,
    rng_rolling,
    space_of,
    status,
)

TO_BRIDGE = EDITION.board.distance["bridge"]


def after_a_turn(**fields):
    """Run one turn from the Move scientists phase, scientists out of the way."""
    state = position(stage="place", **fields)
    play_turn(state, FAR)
    return state


# ----- 4. moving townspeople -------------------------------------------------------------------------


def test_movers_head_for_the_freeway_bridge_by_the_shortest_way() -> None:
    # Sally Reed (speed 3) from the Market Square takes three steps nearer the bridge; where
    # shortest ways tie, the space first in board order
    state = after_a_turn(people=[SCEPTIC, person("t11", "market_square", "mover")])
    assert space_of(state, "t11") == "bank_corner"
    assert TO_BRIDGE["market_square"] - TO_BRIDGE["bank_corner"] == 3


def test_the_townsperson_nearest_the_bridge_moves_first() -> None:
    # the Okafors (speed 1) on the Freeway step onto the bridge, freeing the Freeway for Grandma
    # Olsen (speed 1) behind them on the River Walk; the other way round she would be stuck
    state = after_a_turn(
        people=[SCEPTIC, person("t14", "river_walk", "mover"), person("t07", "freeway", "mover")]
    )
    assert (space_of(state, "t07"), space_of(state, "t14")) == ("bridge", "freeway")


def test_a_step_needs_an_empty_space_and_without_one_the_movement_is_lost() -> None:
    # the Garcias believe but stay put on the Freeway; Sally Reed cannot get past them
    state = after_a_turn(
        rng=rng_rolling(1),
        people=[SCEPTIC, person("t09", "freeway", "believer"), person("t11", "river_walk", "mover")],
    )
    assert space_of(state, "t11") == "river_walk"


def test_a_townsperson_may_step_into_a_space_where_only_a_scientist_stands() -> None:
    state = position(stage="place", people=[SCEPTIC, person("t07", "freeway", "mover")])
    play_turn(state, FAR | {2: "bridge"})
    assert space_of(state, "t07") == "bridge"


def test_townspeople_cannot_move_past_rubble_but_go_around_it() -> None:
    # rubble on the River Walk: from Bank Corner Sally goes round by South Street
    state = after_a_turn(
        terrain={"river_walk": "rubble"}, people=[SCEPTIC, person("t11", "bank_corner", "mover")]
    )
    assert space_of(state, "t11") == "freeway_ramp"


def test_with_no_way_round_the_rubble_movers_wait() -> None:
    state = after_a_turn(
        terrain={"freeway": "rubble"}, people=[SCEPTIC, person("t11", "south_street", "mover")]
    )
    assert space_of(state, "t11") == "south_street"


def test_leaving_the_board_saves_the_townsperson_and_raises_the_rescue_marker_by_their_value() -> None:
    # the Okafors (value 3) on the bridge walk off it
    state = after_a_turn(people=[SCEPTIC, person("t07", "bridge", "mover")])
    assert status(state, "t07") == "saved" and space_of(state, "t07") is None
    assert state.table.rescue == 3
    assert events(state, "townsperson_saved")[0]["exit"] == "freeway"


@pytest.mark.parametrize("bridge", ["ruin", "lava"])
def test_once_the_bridge_is_gone_the_town_flees_by_the_small_country_road(bridge: str) -> None:
    state = after_a_turn(
        terrain={"bridge": bridge},
        people=[SCEPTIC, person("t11", "mill_lane", "mover"), person("t09", "country_road_farm", "mover")],
    )
    assert space_of(state, "t11") == "country_road_ford"
    assert status(state, "t09") == "saved"
    assert events(state, "townsperson_saved")[0]["exit"] == "country_road"


def test_speed_is_the_number_of_steps() -> None:
    # Bert Lowry, speed 3, from the High Street: three steps and no more
    state = after_a_turn(people=[SCEPTIC, person("t06", "high_street", "mover")])
    assert TO_BRIDGE["high_street"] - TO_BRIDGE[str(space_of(state, "t06"))] == 3


# ----- 5. willingness ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("roll", "moves"), [(4, False), (5, False), (6, True), (10, True)])
def test_a_believer_starts_moving_when_the_d10_exceeds_their_willingness(roll: int, moves: bool) -> None:
    # the Okafors believe; willingness 5
    assert card("t07").willingness == 5
    state = after_a_turn(rng=rng_rolling(roll), people=[SCEPTIC, person("t07", "mill_lane", "believer")])
    assert (status(state, "t07") == "mover") is moves
    assert events(state, "willingness_roll")[0]["roll"] == roll


def test_only_believers_roll_for_willingness() -> None:
    state = after_a_turn(
        people=[
            SCEPTIC,
            person("t07", "mill_lane", "believer"),
            person("t08", "school_lane", "mover"),
            person("t09", "church_square"),
        ],
    )
    assert [e["person"] for e in events(state, "willingness_roll")] == ["t07"]


# ----- 6. belief ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("above", "believes"), [(-1, False), (0, False), (1, True)])
def test_one_believes_once_the_eruption_counter_exceeds_their_belief(above: int, believes: bool) -> None:
    # the Garcias, with the counter just below, at and just above their belief
    counter = card("t09").belief + above
    state = after_a_turn(eruption=counter, people=[SCEPTIC, person("t09", "mill_lane")])
    assert (status(state, "t09") == "believer") is believes


def test_a_new_believer_first_rolls_for_willingness_the_next_turn() -> None:
    state = after_a_turn(eruption=card("t09").belief + 1, people=[SCEPTIC, person("t09", "mill_lane")])
    assert status(state, "t09") == "believer" and events(state, "willingness_roll") == []
    play_turn(state, FAR)
    assert [e["person"] for e in events(state, "willingness_roll")] == ["t09"]


# ----- roles -------------------------------------------------------------------------------------------


def test_once_the_mayor_believes_every_other_belief_is_two_lower() -> None:
    # the counter one below the Garcias' belief: they believe only with the Mayor's word
    counter = card("t09").belief - 1
    without = after_a_turn(eruption=counter, people=[SCEPTIC, person("t09", "mill_lane")])
    mayor = person("t01", "church_square", "believer")
    with_mayor = after_a_turn(eruption=counter, people=[SCEPTIC, person("t09", "mill_lane"), mayor])
    assert status(without, "t09") == "unconvinced" and status(with_mayor, "t09") == "believer"


def test_a_mayor_who_comes_to_believe_this_turn_sways_the_others_from_the_next_turn() -> None:
    # the counter exceeds the Mayor's belief but not the Campbells' until her word counts
    counter = card("t01").belief + 1
    assert card("t24").belief >= counter > card("t24").belief - EDITION.roles["mayor"].belief
    state = after_a_turn(
        eruption=counter, people=[SCEPTIC, person("t24", "mill_lane"), person("t01", "church_square")]
    )
    assert (status(state, "t01"), status(state, "t24")) == ("believer", "unconvinced")
    play_turn(state, FAR)
    assert status(state, "t24") == "believer"


def test_a_dead_mayor_sways_nobody() -> None:
    counter = card("t09").belief - 1
    state = after_a_turn(
        eruption=counter, people=[SCEPTIC, person("t09", "mill_lane"), person("t01", None, "dead")]
    )
    assert status(state, "t09") == "unconvinced"


def test_once_the_sheriff_moves_every_other_willingness_is_one_lower() -> None:
    # the Okafors roll exactly their willingness: enough only with the Sheriff on the move
    people = [SCEPTIC, person("t07", "mill_lane", "believer")]
    roll = rng_rolling(card("t07").willingness)
    without = after_a_turn(rng=roll, people=people)
    with_sheriff = after_a_turn(rng=roll, people=[*people, person("t02", "east_estate_a", "mover")])
    assert status(without, "t07") == "believer" and status(with_sheriff, "t07") == "mover"
