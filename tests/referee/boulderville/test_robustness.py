"""Whatever a client sends, the engine answers IllegalMove or SetupError, never another exception.

Moves: a move ``legal_moves`` lists is played; anything else, JSON or not, raises IllegalMove and
leaves the state document as it was. Setups: either the game starts and plays on like any other, or
SetupError names the field (``setup.<path>``). Both are tried on hand-picked garbage and with
hypothesis, which damages a legal move or a valid setup in one place with arbitrary JSON.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.boulderville import GAME, BouldervilleState
from referee.game import IllegalMove, SetupError, canonical_json
from referee.rng import Rng
from tests.referee.boulderville.helpers import FAR, SCEPTIC, person, place, position, scientist, setup
from tests.referee.engine_checks import JSON_SCALARS, assert_applied_or_refused, json_values

WORDS = st.sampled_from(["place", "play", "discard", "pass", "renown", "help", "t07", "bridge", 0, 3, 1.0])
ANY_JSON = json_values(JSON_SCALARS | WORDS, max_leaves=12)
QUICK = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def acting() -> BouldervilleState:
    """Seat 0 at the Upper Observation Point, asked to play from a hand with targets of every kind."""
    scientists = [
        scientist(0, "seismologist", hand=["field_notes", "peer_review", "sandbags"]),
        scientist(1, "volcanologist", tokens=3),
        scientist(2, "meteorologist"),
        scientist(3, "geologist"),
    ]
    state = position(
        stage="place",
        lead=0,
        terrain={"crater_floor": "lava"},
        scientists=scientists,
        people=[SCEPTIC, person("t09", "observation_hut", "believer")],
    )
    place(state, FAR | {0: "observation_deck"})
    return state


class Opaque:
    """Not JSON at all."""


def short(value: Any) -> str:
    """A test id: the start of the value's repr (a very deep value has no repr at all)."""
    try:
        return repr(value)[:60]
    except RecursionError:
        return "deeply nested"


def deep(levels: int) -> Any:
    nested: Any = "place"
    for _ in range(levels):
        nested = [nested]
    return {"type": "place", "space": nested}


@pytest.mark.parametrize(
    "move",
    [
        None,
        7,
        "pass",
        ["pass"],
        {},
        {"type": "pass", "extra": 1},
        {"type": "pass", 1: 2},  # a key JSON would turn into a string, beside a string key
        {(1, 2): "pass"},
        {"type": "play", "card": "field_notes", "use": "help", "target": {"t09"}},
        {"type": "play", "card": "field_notes", "use": "help", "target": Opaque()},
        {"type": "play", "card": "field_notes", "use": "help", "target": ["t09"]},
        {"type": "play", "card": "peer_review", "use": "scientist", "target": True},
        {"type": "play", "card": "peer_review", "use": "scientist", "target": 1.0},
        {"type": "play", "card": "peer_review", "use": "scientist", "target": 10**400},
        {"type": "play", "card": "field_notes", "use": "renown", "target": None},
        {"type": "play", "card": ["field_notes"], "use": "renown"},
        {"type": "play", "card": "field_notes"},
        {"type": float("nan")},
        deep(5000),
    ],
    ids=short,
)
def test_garbage_moves_raise_illegal_move_and_change_nothing(move: Any) -> None:
    state = acting()
    before = canonical_json(state.to_json())
    with pytest.raises(IllegalMove):
        state.apply(move)
    assert canonical_json(state.to_json()) == before


def test_a_legal_move_spelled_with_a_tuple_plays_the_engine_s_own_move() -> None:
    state = acting()
    while state.table.stage != "draw":
        state.apply({"type": "pass"})
    seat = state.current_seat
    assert seat is not None
    card = state.table.scientists[seat].hand[0]
    state.apply({"type": "discard", "cards": (card,)})
    json.dumps(state.to_json())
    assert state.table.discards[-1] == card


@st.composite
def damaged_moves(draw: st.DrawFn) -> Any:
    """A legal move of :func:`acting` with one value replaced, one key dropped or one key added."""
    move = copy.deepcopy(draw(st.sampled_from(acting().legal_moves())))
    how = draw(st.sampled_from(["replace", "drop", "add"]))
    key = draw(st.sampled_from(sorted(move)))
    if how == "drop":
        del move[key]
    elif how == "add":
        move[draw(st.text(max_size=6))] = draw(ANY_JSON)
    else:
        move[key] = draw(ANY_JSON)
    return move


@QUICK
@given(move=damaged_moves() | ANY_JSON)
def test_any_json_is_a_listed_move_or_an_illegal_move_that_changes_nothing(move: Any) -> None:
    assert_applied_or_refused(acting(), move)


# ----- setups -------------------------------------------------------------------------------------


def valid_setup() -> dict[str, Any]:
    """A position using most fields: an ongoing card, rubble, movers, tokens (a fresh copy each time,
    as the tests damage it in place)."""
    return copy.deepcopy(
        setup(
            stage="place",
            turn=3,
            lead=1,
            eruption=9,
            rescue=-1,
            terrain={"crater_floor": "lava", "north_road": "rubble_turned"},
            ongoing=[
                {
                    "effect": "meeting",
                    "card": "press_conference",
                    "seat": 2,
                    "amount": 1,
                    "target": None,
                    "last_turn": 4,
                }
            ],
            people=[
                SCEPTIC,
                person("t07", "high_street", "mover", speed_up=1),
                person("t09", "mill_lane", "believer", willingness_down=2),
                person("t12", None, "saved"),
            ],
            scientists=[
                scientist(0, space="station_lab", tokens=2),
                scientist(1, renown=4),
                scientist(2, missed_turn=2),
                scientist(3, hand=["bulldozer", "sandbags"]),
            ],
            discards=["helicopter"],
        )
    )


def starts_or_is_refused(data: Any, moves: int = 150) -> None:
    """SetupError naming a setup field, or a game that then plays ``moves`` random moves."""
    try:
        state = GAME.start("standard", seats=4, seed=1, setup=data)
    except SetupError as refused:
        assert refused.field_name.startswith("setup"), refused.field_name
        return
    chooser = Rng(5)
    for _ in range(moves):
        if state.outcome() is not None:
            break
        state.apply(chooser.choice(state.legal_moves()))
        json.dumps(state.to_json())
        json.dumps(state.observation(0))
    if state.outcome() is not None:
        json.dumps(state.outcome().to_json())


def test_the_valid_setup_starts() -> None:
    state = GAME.start("standard", seats=4, seed=1, setup=valid_setup())
    assert state.table.stage == "place" and state.current_seat == 1


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (5, "setup"),
        (["people"], "setup"),
        ({"people": 5}, "setup.people"),
        ({"people": [5]}, "setup.people[0]"),
        ({"people": [{"id": ["t01"], "space": "bridge"}]}, "setup.people[0].id"),
        ({"people": [{"id": "t01", "space": "bridge", "status": ["mover"]}]}, "setup.people[0].status"),
        ({"people": [{"id": "t01"}]}, "setup.people[0].space"),
        ({"people": [{"id": "t01", "space": "bridge", "belief_down": "2"}]}, "setup.people[0].belief_down"),
        ({"stage": ["place"]}, "setup.stage"),
        ({"lead": "0"}, "setup.lead"),
        ({"lead": 1.0}, "setup.lead"),
        ({"lead": True}, "setup.lead"),
        ({"turn": 0}, "setup.turn"),
        ({"turn": 10**400}, "setup.turn"),
        ({"eruption": -1}, "setup.eruption"),
        ({"rescue": None}, "setup.rescue"),
        ({"rng": -1}, "setup.rng"),
        ({"rng": "seed"}, "setup.rng"),
        ({"terrain": ["bridge"]}, "setup.terrain"),
        ({"queue": ["0"]}, "setup.queue[0]"),
        ({"stage": "act", "queue": [0]}, "setup.queue"),  # seat 0's scientist is not on the board
        ({"stage": "place", "queue": [0, 0]}, "setup.queue"),
        ({"result": "won"}, "setup.result"),
        ({"events": [5]}, "setup.events[0]"),
        ({"events": [{"kind": "lava"}]}, "setup.events"),
        ({"ongoing": [{"effect": "rush"}]}, "setup.ongoing[0].card"),
        (
            {
                "ongoing": [
                    {
                        "effect": "convince",
                        "card": "gas_sampling",
                        "seat": 0,
                        "amount": 0,
                        "target": None,
                        "last_turn": 2,
                    }
                ]
            },
            "setup.ongoing",
        ),
        ({"eruption_deck": "eruption"}, "setup.eruption_deck"),
        ({"action_deck": [["bulldozer"]]}, "setup.action_deck[0]"),
        ({"scientists": [scientist(seat, tokens=-1) for seat in range(4)]}, "setup.scientists[0].tokens"),
        (
            {"scientists": [scientist(seat, renown=10**400) for seat in range(4)]},
            "setup.scientists[0].renown",
        ),
        ({"scientists": [scientist(seat, clearing=1) for seat in range(4)]}, "setup.scientists[0].clearing"),
        ({"scientists": [scientist(0, "geologist")] * 4}, "setup.scientists"),
        (
            {"scientists": [scientist(0, hand=["bulldozer"] * 4), scientist(1), scientist(2), scientist(3)]},
            "setup.scientists",
        ),
        (
            {
                "terrain": {"crater_rim": "lava"},
                "scientists": [scientist(0, space="crater_rim"), scientist(1), scientist(2), scientist(3)],
            },
            "setup.scientists",
        ),
    ],
    ids=short,
)
def test_a_malformed_setup_is_refused_naming_the_field(data: Any, field: str) -> None:
    if isinstance(data, dict):
        data = setup(**data) if "scientists" in data or "people" in data else {**setup(), **data}
    with pytest.raises(SetupError) as refused:
        GAME.start("standard", seats=4, seed=0, setup=data)
    assert refused.value.field_name == field


def paths(value: Any, path: tuple = ()) -> list[tuple]:
    """Every path to a value inside a JSON document (containers included, the root excluded)."""
    found = [path] if path else []
    if isinstance(value, dict):
        return found + [p for key, item in value.items() for p in paths(item, (*path, key))]
    if isinstance(value, list):
        return found + [p for index, item in enumerate(value) for p in paths(item, (*path, index))]
    return found


VALID_PATHS = paths(valid_setup())


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(where=st.sampled_from(VALID_PATHS), garbage=ANY_JSON)
def test_a_setup_with_any_json_in_one_place_starts_a_sound_game_or_is_refused(
    where: tuple, garbage: Any
) -> None:
    damaged = valid_setup()
    holder = damaged
    for key in where[:-1]:
        holder = holder[key]
    holder[where[-1]] = garbage
    starts_or_is_refused(damaged)
