"""Lava, rubble and the lucky escapes, from the sections "Lucky escapes", "Spreading Lava", "Rubble"."""

from __future__ import annotations

from tests.referee.boulderville.helpers import (
    FAR,
    SCEPTIC,
    events,
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


def lava(state) -> set[str]:
    return {space for space, cover in state.table.terrain.items() if cover == "lava"}


def test_lava_spreads_to_every_adjacent_space_at_the_start_of_each_turn_one_line_at_a_time() -> None:
    state = position(turn=2, stage="ongoing", terrain={"crater_floor": "lava"})
    assert lava(state) == {"crater_floor", "crater_rim"}
    play_turn(state, FAR)
    assert lava(state) == {"crater_floor", "crater_rim", "west_ridge", "east_ridge"}
    play_turn(state, FAR)
    assert lava(state) >= {"hot_springs_upper", "pine_wood", "observation_deck", "high_pasture"}
    assert "forest_track" not in lava(state)


def test_a_townsperson_in_a_space_the_lava_fills_dies_and_the_rescue_marker_drops_by_their_value() -> None:
    # the Okafor family (value 3) stands next to the lava
    state = position(
        turn=2,
        stage="ongoing",
        terrain={"crater_floor": "lava"},
        people=[SCEPTIC, person("t07", "crater_rim")],
    )
    assert status(state, "t07") == "dead" and space_of(state, "t07") is None
    assert state.table.rescue == -3
    assert events(state, "townsperson_died")[0]["cause"] == "lava"


def test_a_scientist_the_lava_reaches_escapes_loses_its_tokens_and_misses_the_rest_of_the_turn() -> None:
    scientists = [
        scientist(0),
        scientist(1, space="crater_rim", tokens=4, renown=3),
        scientist(2),
        scientist(3),
    ]
    state = position(turn=2, lead=3, stage="ongoing", terrain={"crater_floor": "lava"}, scientists=scientists)
    escaped = state.table.scientists[1]
    assert escaped.space is None and escaped.tokens == 0 and escaped.renown == 3
    assert state.table.queue == [0, 2, 3]  # seat 1 is not asked to place
    place(state, FAR)
    asked = []
    while state.table.stage in ("act", "draw"):
        asked.append(state.current_seat)
        state.apply(
            state.legal_moves()[-1] if state.table.stage == "act" else {"type": "discard", "cards": []}
        )
    assert 1 not in asked
    # the next turn it is placed again like everyone else
    assert state.table.turn == 3 and state.table.queue == [1, 2, 3, 0]


def test_a_scientist_escaping_with_tokens_keeps_its_cashed_renown_only() -> None:
    scientists = [
        scientist(0, space="crater_rim", tokens=5, renown=2),
        scientist(1),
        scientist(2),
        scientist(3),
    ]
    state = position(turn=2, stage="ongoing", terrain={"crater_floor": "lava"}, scientists=scientists)
    assert (state.table.scientists[0].tokens, state.table.scientists[0].renown) == (0, 2)
    assert events(state, "lucky_escape")[0]["tokens_lost"] == 5


def test_sandbags_hold_the_lava_back_while_they_last_then_the_card_is_discarded() -> None:
    sandbags = {
        "effect": "sandbags",
        "card": "sandbags",
        "seat": 0,
        "amount": 0,
        "target": "crater_rim",
        "last_turn": 3,
    }
    state = position(turn=2, stage="ongoing", terrain={"crater_floor": "lava"}, ongoing=[sandbags])
    assert "crater_rim" not in lava(state)
    play_turn(state, FAR)
    assert "crater_rim" not in lava(state)  # turn 3: still held
    play_turn(state, FAR)
    assert "crater_rim" in lava(state)  # turn 4: over
    assert state.table.ongoing == [] and events(state, "card_effect_over", turn=4)


def test_rubble_kills_the_townsperson_under_it_but_not_the_scientist() -> None:
    # "Small landslide" drops rubble on the Old quarry
    scientists = [scientist(0, space="old_quarry", tokens=2), scientist(1), scientist(2), scientist(3)]
    state = position(
        turn=2,
        stage="ongoing",
        eruption_deck=["small_landslide"],
        scientists=scientists,
        people=[SCEPTIC, person("t09", "old_quarry")],
    )
    assert state.table.terrain["old_quarry"] == "rubble"
    assert status(state, "t09") == "dead" and state.table.rescue == -2
    assert state.table.scientists[0].tokens == 2 and 0 in state.table.queue


def test_scientists_cannot_be_placed_on_lava_or_ruined_ground_and_only_clear_rubble() -> None:
    state = position(
        turn=2, stage="ongoing", terrain={"crater_floor": "lava", "bridge": "ruin", "north_road": "rubble"}
    )
    moves = state.legal_moves()
    spaces = {m["space"]: m["type"] for m in moves}
    assert "crater_floor" not in spaces and "crater_rim" not in spaces and "bridge" not in spaces
    assert spaces["north_road"] == "clear" and spaces["market_square"] == "place"


def test_only_one_scientist_may_be_placed_in_each_space() -> None:
    state = position(turn=1, stage="ongoing")
    state.apply({"type": "place", "space": "town_hall_steps"})
    assert {"type": "place", "space": "town_hall_steps"} not in state.legal_moves()
    assert {"type": "place", "space": "town_hall_chamber"} in state.legal_moves()


def test_clearing_rubble_takes_two_turns_by_different_scientists_not_necessarily_in_a_row() -> None:
    hands = [scientist(seat, hand=["seismic_survey"] * 3) for seat in range(4)]
    state = position(turn=1, lead=0, stage="ongoing", terrain={"north_road": "rubble"}, scientists=hands)
    # turn 1: seat 0 (the seismologist) clears; it plays no action card this turn
    place(state, FAR | {0: "north_road"})
    assert state.table.scientists[0].clearing
    assert state.table.stage == "act" and state.table.queue == [1, 2, 3]  # seat 0 is not asked
    everyone_passes(state)
    everyone_keeps(state)
    assert state.table.terrain["north_road"] == "rubble_turned"
    # turn 2: nobody clears; the card stays turned
    play_turn(state, FAR)
    assert state.table.terrain["north_road"] == "rubble_turned"
    # turn 3: seat 2 (the meteorologist) finishes the job
    play_turn(state, FAR | {2: "north_road"})
    assert "north_road" not in state.table.terrain
    assert events(state, "rubble_cleared", turn=3) == [
        {"turn": 3, "kind": "rubble_cleared", "space": "north_road", "by": 2}
    ]


def test_the_geologist_clears_a_rubble_card_in_a_single_turn() -> None:
    state = position(turn=1, lead=0, stage="ongoing", terrain={"north_road": "rubble"})
    play_turn(state, FAR | {3: "north_road"})  # seat 3 is the geologist
    assert "north_road" not in state.table.terrain


def test_ruined_ground_is_never_offered_for_clearing() -> None:
    state = position(turn=1, stage="ongoing", terrain={"old_quarry": "ruin"})
    assert all(m["space"] != "old_quarry" for m in state.legal_moves())


def test_the_bridge_collapsing_kills_the_townsperson_and_the_scientist_on_it() -> None:
    scientists = [scientist(0), scientist(1, space="bridge", tokens=3), scientist(2), scientist(3)]
    state = position(
        turn=2,
        stage="ongoing",
        eruption_deck=["bridge_collapse"],
        scientists=scientists,
        people=[SCEPTIC, person("t03", "bridge", "mover")],
    )
    assert state.table.terrain["bridge"] == "ruin"
    assert status(state, "t03") == "dead" and state.table.rescue == -3
    assert state.table.scientists[1].space is None and state.table.scientists[1].tokens == 0
    assert 1 not in state.table.queue
