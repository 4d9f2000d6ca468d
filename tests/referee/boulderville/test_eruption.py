"""Phase 2, the eruption deck: values, effects and position bonuses ("The Eruption Cards")."""

from __future__ import annotations

import pytest

from tests.referee.boulderville.helpers import (
    FAR,
    SCEPTIC,
    events,
    person,
    play_turn,
    position,
    scientist,
    status,
    value_of,
)


def test_the_next_card_is_turned_face_up_and_moves_the_marker_by_its_value() -> None:
    state = position(
        turn=2, lead=3, stage="ongoing", eruption=4, eruption_deck=["steam_plume", "minor_tremor"]
    )
    assert state.table.revealed == ["steam_plume"] and state.table.eruption_deck == ["minor_tremor"]
    assert state.table.eruption == 4 + value_of("steam_plume")
    play_turn(state, FAR)
    assert state.table.revealed == ["steam_plume", "minor_tremor"]
    assert state.table.eruption == 4 + value_of("steam_plume") + value_of("minor_tremor")


def test_once_the_deck_is_spent_no_card_is_revealed() -> None:
    state = position(turn=2, stage="ongoing", eruption=9, eruption_deck=[])
    assert state.table.eruption == 9 and events(state, "eruption_card") == []


@pytest.mark.parametrize(
    ("card", "terrain"),
    [
        ("eruption", {"crater_floor": "lava"}),
        ("western_flow", {"hot_springs_lower": "lava"}),
        ("small_landslide", {"old_quarry": "rubble"}),
        ("volcanic_bombs", {"market_square": "rubble", "bank_corner": "rubble"}),
        ("pyroclastic_surge", {"old_quarry": "ruin", "pine_wood": "ruin"}),
        ("bridge_collapse", {"bridge": "ruin"}),
    ],
)
def test_a_card_carries_out_its_effect_at_once(card: str, terrain: dict[str, str]) -> None:
    state = position(turn=2, stage="ongoing", eruption_deck=[card])
    assert state.table.terrain == terrain


def test_the_eruption_card_covers_whoever_is_in_the_crater_floor() -> None:
    scientists = [scientist(0, space="crater_floor", tokens=2), scientist(1), scientist(2), scientist(3)]
    state = position(turn=2, stage="ongoing", eruption_deck=["eruption"], scientists=scientists)
    assert state.table.scientists[0].space is None and 0 not in state.table.queue


def test_a_position_bonus_needs_the_scientist_at_the_location_as_the_card_is_revealed() -> None:
    # "Smell of sulphur": a scientist at the Hot Springs adds 1 to the counter and scores 1 token
    state = position(stage="place", lead=2, eruption_deck=["sulphur_smell"])
    play_turn(state, FAR | {0: "hot_springs_lower"})  # placed in turn 1, still there as turn 2 begins
    assert state.table.eruption == value_of("sulphur_smell") + 1
    assert [s.tokens for s in state.table.scientists] == [1, 0, 0, 0]
    assert events(state, "position_bonus")[0]["seats"] == [0]


def test_without_a_scientist_at_the_location_there_is_no_bonus() -> None:
    state = position(stage="place", lead=2, eruption_deck=["sulphur_smell"])
    play_turn(state, FAR)
    assert state.table.eruption == value_of("sulphur_smell")
    assert [s.tokens for s in state.table.scientists] == [0, 0, 0, 0]


def test_every_scientist_at_the_location_scores_but_the_counter_gains_the_bonus_once() -> None:
    # "Glow in the crater": bonus 2 and 2 tokens each; seat 0 still leads while the card is
    # revealed (the lead passes only when Do Science begins), so it gains its extra token
    state = position(stage="place", lead=0, eruption_deck=["crater_glow"])
    play_turn(state, FAR | {0: "crater_floor", 1: "crater_rim"})
    assert state.table.eruption == value_of("crater_glow") + 2
    assert [s.tokens for s in state.table.scientists][:2] == [2 + 1, 2]
    assert state.table.lead == 1


def test_a_scientist_the_lava_has_just_chased_off_misses_the_bonus() -> None:
    # lava spreads from the crater floor to the rim in phase 1, before the card is revealed
    state = position(stage="place", lead=2, terrain={"crater_floor": "lava"}, eruption_deck=["crater_glow"])
    play_turn(state, FAR | {0: "crater_rim"})
    assert state.table.eruption == value_of("crater_glow") and state.table.scientists[0].tokens == 0


def test_rubble_from_a_card_kills_the_townsperson_under_it() -> None:
    state = position(
        turn=2,
        stage="ongoing",
        eruption_deck=["strong_tremor"],
        people=[SCEPTIC, person("t12", "north_road")],
    )
    assert status(state, "t12") == "dead" and state.table.rescue == -2
