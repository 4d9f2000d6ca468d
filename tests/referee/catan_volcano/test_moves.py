"""The move format: flat JSON objects of the declared fields; anything else is refused unchanged."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catan_volcano import GAME
from referee.catan_volcano.moves import MOVES, key_of
from referee.game import IllegalMove, canonical_json
from referee.rng import Rng
from tests.referee.engine_checks import JSON_SCALARS, assert_applied_or_refused, json_values


def test_every_generated_move_has_exactly_its_declared_fields_in_order() -> None:
    seen: set[str] = set()
    for variant in GAME.variants:
        state = GAME.start(variant, 4, seed=2)
        chooser = Rng(2)
        for _ in range(1500):
            if state.outcome() is not None:
                break
            for move in state.legal_moves():
                assert list(move) == ["type", *MOVES[move["type"]].fields]
                assert key_of(json.loads(json.dumps(move))) == tuple(move.values())
                seen.add(move["type"])
            state.apply(chooser.choice(state.legal_moves()))
    assert {"place_settlement", "place_road", "build_road", "maritime_trade", "offer_trade"} <= seen


@pytest.mark.parametrize(
    "move",
    [
        {"type": "place_settlement", "node": True},
        {"type": "place_settlement", "node": 0.0},
        {"type": "place_settlement", "node": "0"},
        {"type": "place_settlement"},
        {"type": "place_settlement", "node": 0, "extra": 1},
        {"type": "place_settlement", "node": 54},
        {"type": "place_road", "edge": 0},
        ["place_settlement", 0],
    ],
)
def test_malformed_or_illegal_moves_are_refused_without_change(move) -> None:
    state = GAME.start("base", 4, seed=2)
    before = canonical_json(state.to_json())
    with pytest.raises(IllegalMove):
        state.apply(move)
    assert canonical_json(state.to_json()) == before
    state.apply({"type": "place_settlement", "node": 0})  # the well-formed one is fine


def test_a_copy_goes_on_independently() -> None:
    state = GAME.start("gold", 3, seed=8)
    chooser = Rng(8)
    for _ in range(60):
        state.apply(chooser.choice(state.legal_moves()))
    copy = state.copy()
    assert canonical_json(copy.to_json()) == canonical_json(state.to_json())
    copy.apply(copy.legal_moves()[-1])
    assert canonical_json(copy.to_json()) != canonical_json(state.to_json())
    again = GAME.load_state(json.loads(json.dumps(state.to_json())))
    assert canonical_json(again.to_json()) == canonical_json(state.to_json())


# -- arbitrary JSON: refused with IllegalMove, the state untouched ------------------------------

_scalars = JSON_SCALARS | st.sampled_from(["wood", "ore", "all", "settlement", *MOVES])
_json = json_values(_scalars, max_leaves=6)
_field_names = sorted({name for kind in MOVES.values() for name in kind.fields} | {"type", "turn"})
_move_like = st.builds(
    lambda kind, fields: {"type": kind, **fields},
    st.sampled_from(sorted(MOVES)),
    st.dictionaries(st.sampled_from(_field_names), _json, max_size=5),
)


def _positions() -> list:
    """Games stopped at a spread of phases, one per variant."""
    found = []
    for seed, variant in enumerate(sorted(GAME.variants)):
        state = GAME.start(variant, 4, seed=seed)
        chooser = Rng(seed)
        for _ in range(40 + 90 * seed):
            state.apply(chooser.choice(state.legal_moves()))
        found.append(state)
    return found


POSITIONS = _positions()


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(POSITIONS) - 1), st.one_of(_json, _move_like))
def test_any_json_is_refused_unchanged_unless_it_is_a_legal_move(which: int, move) -> None:
    state = POSITIONS[which].copy()
    assert_applied_or_refused(state, move)
