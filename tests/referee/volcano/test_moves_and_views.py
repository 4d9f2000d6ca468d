"""Move JSON, illegal moves, the observation and the state document."""

from __future__ import annotations

import copy
import json

import pytest

from referee.game import IllegalMove, SetupError, canonical_json
from referee.rng import Rng
from referee.volcano import GAME
from tests.referee.volcano.positions import game, power_play, step


def test_legal_moves_are_steps_then_power_plays_in_a_fixed_order() -> None:
    state = game({(2, 2): "red1"}, {(0, 0): "black", (4, 4): "white"}, captures=["blue2 red3", ""])

    moves = state.legal_moves()

    assert moves[:3] == [step(0, 0, "E"), step(0, 0, "SE"), step(0, 0, "S")]
    assert moves[3:6] == [step(4, 4, "N"), step(4, 4, "W"), step(4, 4, "NW")]
    assert moves[6] == power_play("red3", 0, 1)  # red before blue, squares in board order, caps skipped
    assert moves[-1] == power_play("blue2", 4, 3)
    assert len(moves) == 6 + 2 * 23
    assert all(state.is_legal(move) for move in moves)


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "step", "from": [0, 0]},
        {"type": "step", "from": [0, 0], "dir": "E", "extra": 1},
        {"type": "step", "from": [0, 0], "dir": "UP"},
        {"type": "step", "from": [0, 5], "dir": "E"},
        {"type": "step", "from": [True, 0], "dir": "E"},
        {"type": "step", "from": "a1", "dir": "E"},
        {"type": "step", "from": [2, 2], "dir": "E"},  # no cap there
        {"type": "power_play", "piece": {"colour": "blue", "size": 2}},
        {"type": "power_play", "piece": {"colour": "blue"}, "to": [1, 1]},
        {"type": "power_play", "piece": {"colour": "blue", "size": 2}, "to": [9, 9]},
        {"type": "power_play", "piece": {"colour": "blue", "size": 2.0}, "to": [1, 1]},  # sizes are integers
        {"type": "power_play", "piece": {"colour": "blue", "size": True}, "to": [1, 1]},
        {"type": ["step"]},
        "step",
    ],
)
def test_malformed_or_impossible_moves_are_refused_and_change_nothing(bad) -> None:
    state = game({(2, 2): "red1"}, {(0, 0): "black"}, captures=["blue2", ""])
    before = canonical_json(state.to_json())
    with pytest.raises(IllegalMove):
        state.apply(bad)
    assert canonical_json(state.to_json()) == before


def test_the_observation_shows_the_whole_table_and_the_turn_so_far() -> None:
    state = game(
        {(0, 0): "red1 red2 red3", (0, 3): "green2"},
        {(0, 0): "black", (4, 4): "white"},
        captures=["blue2", "cyan1"],
    )
    state.apply(power_play("blue2", 3, 3))
    state.apply(step(4, 4, "N"))  # off an empty square: nothing erupts

    observed = state.observation(1)

    assert observed["seat"] == 1 and observed["to_move"] == 0
    assert observed["board"][3][3] == {"stack": [{"colour": "blue", "size": 2}], "cap": None}
    assert observed["board"][3][4]["cap"] == "white"
    assert observed["captures"] == [[], [{"colour": "cyan", "size": 1}]]
    assert observed["trios"] == [{"single_colour": 0, "any_colour": 0}] * 2
    assert observed["steps_this_turn"] == 1 and observed["power_play_used"] is True
    assert observed["turn_moves"] == [power_play("blue2", 3, 3), step(4, 4, "N")]
    assert observed["last_eruption"] is None
    assert observed["caldera"] == [2, 2]
    assert observed["options"] == {"power_play": True, "step_limit": 30, "turn_limit": 300}

    state.apply(step(0, 0, "E"))
    eruption = state.observation(0)["last_eruption"]
    assert eruption == {
        "seat": 0,
        "turn": 0,
        "cap": {"colour": "black", "from": [0, 0], "to": [0, 1], "dir": "E"},
        "flow": [
            {"piece": {"colour": "red", "size": 3}, "to": [0, 2], "captured": False},
            {"piece": {"colour": "red", "size": 2}, "to": [0, 3], "captured": True},
            {"piece": {"colour": "red", "size": 1}, "to": [0, 4], "captured": False},
        ],
        "stopped": "spent",
        "left_behind": 0,
    }
    json.dumps(state.observation(0))


def test_views_are_read_only_so_a_bot_cannot_change_the_game_or_later_views_through_them() -> None:
    state = game({(0, 0): "red1 red2 red3"}, {(0, 0): "black", (4, 4): "white"})
    state.apply(step(4, 4, "N"))
    state.apply(step(0, 0, "E"))
    before = canonical_json(state.to_json())
    views_before = canonical_json([state.observation(1), state.legal_moves()])

    observed = state.observation(1)
    edits = [
        lambda: observed["last_eruption"]["flow"].clear(),
        lambda: observed["board"][0][2]["stack"].append({"colour": "red", "size": 1}),
        lambda: observed.pop("board"),
        lambda: state.legal_moves()[0]["from"].__setitem__(0, 3),
        lambda: state.legal_moves()[0].update(dir="S"),
    ]
    for edit in edits:
        with pytest.raises(TypeError, match="read-only"):
            edit()
    state.legal_moves().clear()  # the list itself is the caller's own

    assert canonical_json(state.to_json()) == before
    assert canonical_json([state.observation(1), state.legal_moves()]) == views_before


def test_a_copied_view_is_plain_json_to_edit() -> None:
    state = game({(0, 0): "red1 red2 red3"}, {(0, 0): "black", (4, 4): "white"})
    observed = copy.deepcopy(state.observation(0))
    assert type(observed) is dict and type(observed["board"][0]) is list
    observed["board"][0][0]["stack"].clear()
    assert observed != state.observation(0)
    assert json.loads(json.dumps(state.observation(0))) == state.observation(0)


def test_a_state_document_loads_and_plays_on_identically() -> None:
    state = game({(0, 0): "red1 red2 red3"}, {(0, 0): "black", (4, 4): "white"}, captures=["blue2", ""])
    state.apply(power_play("blue2", 0, 3))
    state.apply(step(4, 4, "N"))

    copy = GAME.load_state(json.loads(json.dumps(state.to_json())))
    for twin in (state, copy):
        twin.apply(step(0, 0, "E"))

    assert canonical_json(copy.to_json()) == canonical_json(state.to_json())
    assert copy.observation(1) == state.observation(1)


def test_every_seat_sees_the_same_whole_table_and_nothing_beyond_the_state() -> None:
    # Volcano hides nothing, and after the seeded layout nothing is left to chance: so the only
    # difference between two seats' views is the viewer, every fact shown is one the state holds, and
    # the state keeps no seed or RNG a view could leak the future through.
    state = GAME.start("fiesta-caldera", seats=3, seed=11, options={"turn_limit": 12})
    chooser = Rng(11)
    assert not {"seed", "rng"} & set(state.to_json())
    while state.outcome() is None:
        document = state.to_json()
        views = [dict(state.observation(seat)) for seat in range(3)]
        for seat, view in enumerate(views):
            assert view.pop("seat") == seat
            assert view == views[0]
        shared = {"board", "captures", "turn_moves", "passes_in_row", "last_eruption", "options"}
        assert {key: views[0][key] for key in shared} == {key: document[key] for key in shared}
        assert views[0]["to_move"] == document["to_move"] and views[0]["turn"] == document["turns_played"]
        state.apply(chooser.choice(state.legal_moves()))


@pytest.mark.parametrize(
    ("damage", "field"),
    [
        (lambda doc: doc.pop("captures"), "state"),
        (lambda doc: doc.update(captures=[[{"colour": "red"}], []]), "state"),
        (lambda doc: doc.update(options=None), "state"),
        (lambda doc: doc["board"][0].pop(), "state.board[0]"),
    ],
)
def test_a_damaged_state_document_is_a_setup_error(damage, field: str) -> None:
    document = json.loads(json.dumps(game({(0, 0): "red1"}, {(0, 0): "black"}).to_json()))
    damage(document)
    with pytest.raises(SetupError) as refused:
        GAME.load_state(document)
    assert refused.value.field_name == field


def test_a_listed_move_and_its_plain_json_twin_play_the_same_and_unlisted_ones_are_refused() -> None:
    # apply takes the listed objects themselves without reading them again: it must still judge them
    # by the rules, exactly as it judges the same move spelled as plain JSON
    start = game({(0, 0): "red1 red2 red3", (0, 2): "blue3"}, {(0, 0): "black"}, captures=["blue1", ""])
    listed, plain = start.copy(), start.copy()
    for _ in range(3):
        move = listed.legal_moves()[-1]
        listed.apply(move)
        plain.apply(json.loads(json.dumps(move)))
    assert canonical_json(listed.to_json()) == canonical_json(plain.to_json())

    state = start.copy()
    state.apply(step(0, 0, "E"))  # seat 0's turn ends with the eruption
    stale = start.legal_moves()  # seat 0's moves of the old position, the very objects
    before = canonical_json(state.to_json())
    for move in stale:
        with pytest.raises(IllegalMove):
            state.apply(move)  # no cap on (0, 0) any more, and seat 1 holds no piece to play
    assert canonical_json(state.to_json()) == before
