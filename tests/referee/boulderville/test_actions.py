"""Action cards played to help the townspeople, or on a scientist: each effect of the edition."""

from __future__ import annotations

from referee.boulderville import attributes
from referee.boulderville.edition import EDITION
from tests.referee.boulderville.helpers import (
    FAR,
    SCEPTIC,
    card,
    everyone_keeps,
    everyone_passes,
    person,
    place,
    play_turn,
    position,
    scientist,
    space_of,
    status,
)


def acting(card: str, space: str, people: list[dict], seat0: str = "seismologist", **fields):
    """Seat 0 (leading turn 1) holds three of ``card``, stands on ``space`` and is asked to play."""
    scientists = fields.pop("scientists", None) or [
        scientist(0, seat0, hand=[card] * 3),
        *(scientist(seat, hand=["bulldozer"] * 3) for seat in range(1, 4)),
    ]
    state = position(stage="place", lead=0, scientists=scientists, people=[SCEPTIC, *people], **fields)
    place(state, FAR | {0: space})
    assert state.table.stage == "act" and state.current_seat == 0
    return state


def help_targets(state, card: str) -> list:
    return [m.get("target") for m in state.legal_moves() if m.get("card") == card and m.get("use") == "help"]


def test_gas_sampling_convinces_a_townsperson_next_to_the_scientist() -> None:
    # the Garcias next door (School Lane - Mill Lane), the Bakers two lines away
    state = acting(
        "gas_sampling", "mill_lane", [person("t09", "school_lane"), person("t12", "church_square")]
    )
    assert help_targets(state, "gas_sampling") == ["t09"]
    state.apply({"type": "play", "card": "gas_sampling", "use": "help", "target": "t09"})
    assert status(state, "t09") == "believer"


def test_field_notes_set_a_believer_next_to_the_scientist_moving() -> None:
    state = acting("field_notes", "mill_lane", [person("t09", "mill_lane", "believer")])
    state.apply({"type": "play", "card": "field_notes", "use": "help", "target": "t09"})
    assert status(state, "t09") == "mover"


def test_a_seismic_survey_lowers_any_unconvinced_townsperson_s_belief_by_two_for_good() -> None:
    state = acting(
        "seismic_survey", "observation_deck", [person("t09", "mill_lane"), person("t12", "bridge", "mover")]
    )
    assert help_targets(state, "seismic_survey") == ["t09", "t10"]
    state.apply({"type": "play", "card": "seismic_survey", "use": "help", "target": "t09"})
    assert attributes.belief(state.table, state.table.person("t09")) == card("t09").belief - 2


def test_thermal_imaging_lowers_willingness_by_two() -> None:
    state = acting("thermal_imaging", "observation_deck", [person("t08", "mill_lane", "believer")])
    state.apply({"type": "play", "card": "thermal_imaging", "use": "help", "target": "t08"})
    assert attributes.willingness(state.table, state.table.person("t08")) == card("t08").willingness - 2


def test_rock_samples_add_one_to_a_townsperson_s_speed_for_good() -> None:
    state = acting("rock_samples", "observation_deck", [person("t07", "high_street", "mover")])
    state.apply({"type": "play", "card": "rock_samples", "use": "help", "target": "t07"})
    assert attributes.speed(state.table, state.table.person("t07")) == card("t07").speed + 1


def test_the_evacuation_bus_adds_two_to_a_mover_s_speed_for_this_turn_only() -> None:
    state = acting("evacuation_bus", "observation_deck", [person("t07", "high_street", "mover")])
    assert help_targets(state, "evacuation_bus") == ["t07"]  # only movers
    state.apply({"type": "play", "card": "evacuation_bus", "use": "help", "target": "t07"})
    everyone_passes(state)
    everyone_keeps(state)
    assert (
        EDITION.board.distance["high_street"]["bridge"]
        - EDITION.board.distance[space_of(state, "t07")]["bridge"]
        == 3
    )
    assert state.table.ongoing == [] and attributes.speed(state.table, state.table.person("t07")) == 1


def test_a_press_conference_lowers_every_belief_by_one_this_turn_and_the_next() -> None:
    belief = card("t09").belief  # the Garcias
    state = acting("press_conference", "observation_deck", [person("t09", "mill_lane")], eruption=belief - 2)
    state.apply({"type": "play", "card": "press_conference", "use": "help"})
    assert attributes.belief(state.table, state.table.person("t09")) == belief - 1
    everyone_passes(state)
    everyone_keeps(state)
    assert status(state, "t09") == "unconvinced"  # the counter does not exceed belief - 1
    assert attributes.belief(state.table, state.table.person("t09")) == belief - 1  # turn 2: still on
    play_turn(state, FAR)
    assert attributes.belief(state.table, state.table.person("t09")) == belief  # turn 3: over


def test_sandbags_go_only_next_to_the_lava_and_hold_it_for_the_next_two_spreads() -> None:
    state = acting("sandbags", "observation_deck", [], terrain={"crater_floor": "lava"})
    assert help_targets(state, "sandbags") == ["crater_rim"]
    state.apply({"type": "play", "card": "sandbags", "use": "help", "target": "crater_rim"})
    everyone_passes(state)
    everyone_keeps(state)
    assert "crater_rim" not in state.table.terrain  # turn 2
    play_turn(state, FAR)
    assert "crater_rim" not in state.table.terrain  # turn 3
    play_turn(state, FAR)
    assert state.table.terrain["crater_rim"] == "lava"  # turn 4


def test_a_bulldozer_clears_a_rubble_card_at_once() -> None:
    state = acting(
        "bulldozer", "observation_deck", [], terrain={"north_road": "rubble_turned", "bridge": "ruin"}
    )
    assert help_targets(state, "bulldozer") == ["north_road"]
    state.apply({"type": "play", "card": "bulldozer", "use": "help", "target": "north_road"})
    assert state.table.terrain == {"bridge": "ruin"}


def test_a_loudhailer_lowers_the_belief_of_the_unconvinced_within_two_lines_by_two() -> None:
    near, far = person("t09", "school_lane"), person("t12", "river_walk")  # 1 and 4 lines from Mill Lane
    state = acting("loudhailer", "mill_lane", [near, far])
    state.apply({"type": "play", "card": "loudhailer", "use": "help"})
    assert state.table.person("t09").belief_down == 2 and state.table.person("t12").belief_down == 0


def test_a_research_grant_can_only_be_played_on_the_volcanologist() -> None:
    state = acting("research_grant", "market_square", [])
    assert [m["target"] for m in state.legal_moves() if m.get("use") == "scientist"] == [1]  # seat 1's card
    state.apply({"type": "play", "card": "research_grant", "use": "scientist", "target": 1})
    assert state.table.scientists[1].tokens == 3


def test_a_hostile_peer_review_costs_another_rock_based_scientist_two_tokens() -> None:
    scientists = [
        scientist(0, "sociologist", hand=["peer_review"] * 3),
        scientist(1, "volcanologist", tokens=5),
        scientist(2, "geologist", tokens=0),
        scientist(3, "communicator", tokens=4),
    ]
    state = acting("peer_review", "market_square", [], scientists=scientists)
    # only rock-based scientists holding tokens: the volcanologist, not the geologist (none), not seat 3
    assert [m["target"] for m in state.legal_moves() if m.get("use") == "scientist"] == [1]
    state.apply({"type": "play", "card": "peer_review", "use": "scientist", "target": 1})
    assert state.table.scientists[1].tokens == 3


def test_a_funding_cut_hits_only_non_rock_scientists_and_takes_what_is_there() -> None:
    scientists = [
        scientist(0, "volcanologist", hand=["funding_cut"] * 3),
        scientist(1, "sociologist", tokens=1),
        scientist(2, "geologist", tokens=6),
        scientist(3, "communicator", tokens=4),
    ]
    state = acting("funding_cut", "market_square", [], scientists=scientists)
    assert [m["target"] for m in state.legal_moves() if m.get("use") == "scientist"] == [1, 3]
    state.apply({"type": "play", "card": "funding_cut", "use": "scientist", "target": 1})
    assert state.table.scientists[1].tokens == 0


def test_a_played_card_is_discarded_face_up_and_named_in_the_events() -> None:
    state = acting("seismic_survey", "observation_deck", [])
    state.apply({"type": "play", "card": "seismic_survey", "use": "renown"})
    assert state.table.discards[-1] == "seismic_survey"
    played = [e for e in state.table.events if e["kind"] == "card_played"]
    assert played[-1] == {
        "turn": 1,
        "kind": "card_played",
        "seat": 0,
        "card": "seismic_survey",
        "use": "renown",
        "target": None,
    }


def test_a_lasting_card_stays_on_the_table_until_phase_1_finds_its_effect_over() -> None:
    # "Check any action cards who have ongoing effects, discard them if the effect is over": the
    # press conference (this turn and next) is not in the discards, so the empty deck cannot be
    # refilled with it, until the start of turn 3
    state = acting("press_conference", "observation_deck", [], action_deck=[], discards=[])
    state.apply({"type": "play", "card": "press_conference", "use": "help"})
    everyone_passes(state)
    everyone_keeps(state)
    assert state.table.scientists[0].hand == ["press_conference"] * 2
    assert state.table.discards == [] and state.table.action_deck == []
    assert [o.card for o in state.table.ongoing] == ["press_conference"]
    play_turn(state, FAR)
    assert state.table.turn == 3 and state.table.ongoing == []
    assert state.table.discards == ["press_conference"]
