"""The turn: its six phases in order, the lead and its rotation, the lead's extra renown token."""

from __future__ import annotations

from tests.referee.boulderville.helpers import (
    FAR,
    SCEPTIC,
    card,
    person,
    place,
    play_turn,
    position,
    scientist,
    value_of,
)

FIELD_NOTES_RENOWN = {"type": "play", "card": "field_notes", "use": "renown"}


def test_a_turn_runs_the_six_phases_in_the_order_of_the_text() -> None:
    state = position(
        turn=2,
        lead=0,
        stage="ongoing",
        eruption=card("t14").belief - value_of("minor_tremor") + 1,
        terrain={"crater_floor": "lava"},
        eruption_deck=["minor_tremor"],
        people=[
            SCEPTIC,
            person("t11", "south_street", "mover"),
            person("t04", "church_square", "believer"),
            person("t14", "school_lane"),  # Grandma Olsen will believe after the tremor
        ],
    )
    play_turn(state, {**FAR, 1: "station_lab"}, plays={1: FIELD_NOTES_RENOWN})
    kinds = [e["kind"] for e in state.table.events if e["turn"] == 2]
    firsts = [
        "lava",  # 1. ongoing effects: lava spreads
        "eruption_card",  # 2. the next eruption card
        "lead",  # 3a. take lead
        "scientist_placed",  # 3b. move scientists
        "card_played",  # 3c. play actions
        "cards_discarded",  # 3d. draw actions
        "renown_claimed",  # 3e. claim renown
        "townsperson_moved",  # 4. move townspeople
        "willingness_roll",  # 5. believers may start to move
        "townsperson_believes",  # 6. the unconvinced may come to believe
    ]
    positions = [kinds.index(kind) for kind in firsts]
    assert positions == sorted(positions)
    assert kinds.index("scientist_placed") > max(i for i, k in enumerate(kinds) if k == "lava")
    assert state.table.turn == 3


def test_seat_0_leads_the_first_turn_then_the_lead_passes_one_seat_left_each_turn() -> None:
    state = position(turn=1, lead=0, stage="ongoing")
    leads = []
    for _ in range(6):
        leads.append(state.table.lead)
        play_turn(state, FAR)
    assert leads == [0, 1, 2, 3, 0, 1]


def test_the_lead_acts_first_in_every_step_of_do_science() -> None:
    # Seismic survey can always lower the sceptic's belief, so every seat has a play
    hands = [scientist(seat, hand=["seismic_survey"] * 3) for seat in range(4)]
    state = position(turn=3, lead=1, stage="ongoing", scientists=hands)
    assert state.table.lead == 2
    seen = {"place": [], "act": [], "draw": []}
    while state.table.turn == 3:
        stage, seat = state.table.stage, state.current_seat
        seen[stage].append(seat)
        if stage == "place":
            state.apply({"type": "place", "space": FAR[seat]})
        elif stage == "act":
            state.apply({"type": "pass"})
        else:
            state.apply({"type": "discard", "cards": []})
    assert seen == {"place": [2, 3, 0, 1], "act": [2, 3, 0, 1], "draw": [2, 3, 0, 1]}


def test_the_lead_scores_one_extra_renown_token_each_time_it_scores() -> None:
    # seat 0 leads; seats 0 and 1 both play Field notes (1 token) at a science location
    state = position(
        turn=1,
        lead=0,
        stage="ongoing",
        scientists=[scientist(0), scientist(1), scientist(2), scientist(3)],
    )
    place(state, {0: "hot_springs_upper", 1: "hot_springs_lower", 2: FAR[2], 3: FAR[3]})
    state.apply(FIELD_NOTES_RENOWN)
    state.apply(FIELD_NOTES_RENOWN)
    tokens = [s.tokens for s in state.table.scientists]
    assert tokens[:2] == [2, 1]


def test_a_seat_that_cannot_do_anything_in_a_step_is_not_asked() -> None:
    # seat 2 holds no card it can play (Field notes needs a science location or a believer nearby)
    state = position(turn=1, lead=0, stage="ongoing")
    place(state, {0: "crater_rim", 1: FAR[1], 2: FAR[2], 3: "station_yard"})
    assert state.table.stage == "act"
    asked = []
    while state.table.stage == "act":
        asked.append(state.current_seat)
        state.apply({"type": "pass"})
    assert asked == [0, 3]
