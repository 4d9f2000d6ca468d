"""Checks and hypothesis strategies that every game's robustness tests share.

The contract they check is the interface's (:mod:`referee.game`): a move listed by ``legal_moves`` is
taken; anything else a bot could send raises :class:`IllegalMove` and leaves the state document
exactly as it was. Each game's tests add the words of its own vocabulary to the generated JSON, so
that the checks past a move's ``type`` are reached too.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from referee.game import IllegalMove, State, canonical_json
from referee.registry import all_games

JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**400), max_value=10**400)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
)
"""JSON's scalars, with the awkward ones a parser lets through: huge integers, NaN, infinities."""


SHORT_KEYS = st.text(max_size=6)


def registered_cases() -> list[tuple[str, str, int]]:
    """(game id, variant, seat count) for every registered game, variant and seat count it allows."""
    return [
        (game.id, variant.name, seats)
        for game in all_games()
        for variant in game.variants.values()
        for seats in variant.seats
    ]


def json_values(
    leaves: st.SearchStrategy[Any] = JSON_SCALARS,
    keys: st.SearchStrategy[str] = SHORT_KEYS,
    max_leaves: int = 10,
) -> st.SearchStrategy[Any]:
    """Nested JSON values: lists and objects of ``leaves``, objects keyed by ``keys``."""
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
        max_leaves=max_leaves,
    )


def assert_applied_or_refused(state: State, move: Any) -> bool:
    """Apply ``move``; it must be one of the listed legal moves, or be refused with the state unchanged.

    Returns whether it was applied.
    """
    listed = {canonical_json(legal) for legal in state.legal_moves()}
    before = canonical_json(state.to_json())
    try:
        state.apply(move)
    except IllegalMove:
        assert canonical_json(state.to_json()) == before, f"a refused move changed the state: {move!r}"
        return False
    assert canonical_json(move) in listed, f"apply took a move legal_moves never listed: {move!r}"
    return True
