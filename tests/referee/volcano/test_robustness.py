"""Whatever JSON a bot or a client sends, the engine answers with IllegalMove or SetupError, never a crash.

The contract for moves: a move listed by ``legal_moves`` is taken; anything else raises IllegalMove
and leaves the state document unchanged. For setups: a game starts whose documents hold only
well-formed pieces, or SetupError names the field. Both are tried two ways: every value of every
legal move (and of a valid setup) swapped, one at a time, for each of its near twins (the same number
as a float or a bool, the same name in another case, ...), which a random search rarely hits; and
hypothesis with arbitrary JSON, nested, in place of values, keys and whole moves.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.game import SetupError
from referee.rng import Rng
from referee.volcano import GAME, VolcanoState
from tests.referee.engine_checks import JSON_SCALARS, assert_applied_or_refused, json_values
from tests.referee.volcano.positions import game, setup

KEYS = st.sampled_from(["type", "from", "dir", "piece", "to", "colour", "size", "stack", "cap", "extra"])
ANY_KEY = KEYS | st.text(max_size=4)

ANY_JSON = json_values(
    JSON_SCALARS | st.sampled_from(["N", "E", "step", "power_play", "red", "black", 1.0, 2.0, 3.0]),
    keys=ANY_KEY,
)


def _position() -> VolcanoState:
    """A position with steps that erupt and steps that do not, and Power Plays of two kinds."""
    return game(
        {(0, 0): "red1 red2 red3", (0, 3): "green2", (2, 2): "blue1"},
        {(0, 0): "black", (4, 4): "white"},
        captures=["blue2 red3", "cyan1"],
    )


def _valid_setup() -> dict[str, Any]:
    return setup({(0, 0): "red1 red2 red3", (1, 1): "blue2"}, {(0, 0): "black"}, ["green1", ""], 1)


def _twins(value: Any) -> list[Any]:
    """What a sloppy client might send instead of ``value``: the same number as a float, a bool or a
    string, a neighbour, a huge number; the same name in another case, cut short or in a list."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        return [None, [value], {}]
    if isinstance(value, int):
        return [float(value), value == 1, str(value), [value], value + 1, -value, 10**100]
    return [value.lower(), value.upper(), f" {value}", [value], value[:-1], None]


def _paths(value: Any, path: tuple = (), containers: bool = False) -> list[tuple]:
    """Paths to every scalar inside a JSON document, or with ``containers`` to every dict and list."""
    if isinstance(value, dict | list):
        items = value.items() if isinstance(value, dict) else enumerate(value)
        inner = [found for key, item in items for found in _paths(item, (*path, key), containers)]
        return [path, *inner] if containers else inner
    return [] if containers else [path]


def _at(document: Any, path: tuple) -> Any:
    for key in path:
        document = document[key]
    return document


def _with(document: Any, path: tuple, value: Any) -> Any:
    """A copy of ``document`` with the value at ``path`` (not empty) replaced."""
    changed = copy.deepcopy(document)
    _at(changed, path[:-1])[path[-1]] = value
    return changed


def _sizes(value: Any) -> list[Any]:
    """Every ``size`` value anywhere in a JSON document."""
    if isinstance(value, dict):
        own = [value["size"]] if "size" in value else []
        return own + [size for item in value.values() for size in _sizes(item)]
    if isinstance(value, list):
        return [size for item in value for size in _sizes(item)]
    return []


def _start_or_refuse(data: Any) -> None:
    try:
        state = GAME.start("fiesta-caldera", seats=2, seed=0, setup=data)
    except SetupError as refused:
        assert refused.field_name.startswith("setup"), refused.field_name
        return
    document = json.loads(json.dumps(state.to_json()))
    assert all(type(size) is int and 1 <= size <= 3 for size in _sizes(document)), data


def test_every_twin_of_every_value_in_every_legal_move_is_refused_or_listed() -> None:
    for move in _position().legal_moves():
        for path in _paths(move):
            for twin in _twins(_at(move, path)):
                assert_applied_or_refused(_position(), _with(move, path, twin))


def test_every_twin_of_every_value_in_a_setup_is_refused_or_reads_as_pieces() -> None:
    valid = _valid_setup()
    for path in _paths(valid):
        for twin in _twins(_at(valid, path)):
            _start_or_refuse(_with(valid, path, twin))


@st.composite
def damaged_moves(draw) -> Any:
    """A legal move of :func:`_position` with one value replaced, one key dropped or one key added."""
    move = copy.deepcopy(draw(st.sampled_from(_position().legal_moves())))
    target = _at(move, draw(st.sampled_from(_paths(move, containers=True))))
    keys = list(target) if isinstance(target, dict) else list(range(len(target)))
    how = draw(st.sampled_from(["replace", "drop", "add"]))
    if how == "add" and isinstance(target, dict):
        target[draw(KEYS)] = draw(ANY_JSON)
    elif how == "drop" and isinstance(target, dict):
        del target[draw(st.sampled_from(keys))]
    else:
        target[draw(st.sampled_from(keys))] = draw(ANY_JSON)
    return move


@settings(max_examples=300, deadline=None)
@given(move=damaged_moves() | ANY_JSON)
def test_any_json_is_a_listed_move_or_an_illegal_move_that_changes_nothing(move: Any) -> None:
    assert_applied_or_refused(_position(), move)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), garbage=st.lists(ANY_JSON, min_size=1, max_size=5))
def test_garbage_between_real_moves_never_disturbs_a_game(seed: int, garbage: list) -> None:
    state = GAME.start("fiesta-caldera", seats=3, seed=seed, options={"turn_limit": 30})
    chooser = Rng(seed)
    while state.outcome() is None:
        for move in garbage:
            if not state.is_legal(move):
                assert_applied_or_refused(state, move)
        state.apply(chooser.choice(state.legal_moves()))


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_a_setup_with_any_json_in_place_of_a_value_is_refused_or_reads_as_pieces(data) -> None:
    damaged = _valid_setup()
    target = _at(damaged, data.draw(st.sampled_from(_paths(damaged, containers=True))))
    keys = list(target) if isinstance(target, dict) else list(range(len(target)))
    if keys:
        target[data.draw(st.sampled_from(keys))] = data.draw(ANY_JSON)
    _start_or_refuse(damaged)
