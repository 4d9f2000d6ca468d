"""Positions come from re-playing the replay through the engine, move for move."""

from __future__ import annotations

import copy

import pytest

from arena.boards import Positions, ReplayPositionError, position_after
from referee.game import canonical_json
from tests.platform.boards.replays import replay, replayed_by_hand


def same(a: object, b: object) -> bool:
    return canonical_json(a.to_json()) == canonical_json(b.to_json())  # type: ignore[attr-defined]


@pytest.mark.parametrize("game_id", ["vulkan", "volcano", "catan-volcano", "boulderville"])
def test_position_after_is_the_game_replayed_by_hand(game_id: str) -> None:
    document = replay(game_id)
    total = len(document["moves"])
    for n in (0, 1, total // 3, total - 1, total):
        assert same(position_after(document, n), replayed_by_hand(document, n)), n
    assert position_after(document, total).outcome() is not None
    assert canonical_json(position_after(document, 0).to_json()) == canonical_json(document["initial_state"])


def test_positions_stepping_back_and_forth_gives_the_same_states() -> None:
    document = replay("catan-volcano")
    positions = Positions(document, every=10)
    total = len(document["moves"])
    assert len(positions) == total + 1
    order = [total, 5, 37, 36, 35, 120, 0, total // 2, total // 2 + 1, 11]
    for n in order:
        assert same(positions[n], replayed_by_hand(document, n)), n


def test_a_position_is_the_callers_own_copy() -> None:
    document = replay("vulkan")
    positions = Positions(document)
    first = positions.after(3)
    first.apply(first.legal_moves()[0])
    assert same(positions.after(3), replayed_by_hand(document, 3))


def test_a_growing_match_is_followed_without_starting_again() -> None:
    document = replay("boulderville")
    partial = {**document, "moves": document["moves"][:40], "result": None}
    assert same(position_after(partial, 40), replayed_by_hand(document, 40))
    with pytest.raises(IndexError):
        position_after(partial, 41)
    grown = {**document, "moves": document["moves"][:60], "result": None}
    assert same(position_after(grown, 60), replayed_by_hand(document, 60))


@pytest.mark.parametrize("n", [-1, 10**6])
def test_beyond_the_ends_is_an_index_error_that_says_how_many_moves_there_are(n: int) -> None:
    document = replay("volcano")
    with pytest.raises(IndexError, match=f"the replay has {len(document['moves'])} moves"):
        position_after(document, n)


def test_a_replay_with_an_illegal_move_names_the_move() -> None:
    document = copy.deepcopy(replay("vulkan"))
    document["match_id"] = "damaged"
    document["moves"][4]["move"] = {"type": "flight", "path": [[99, 99]], "colour": "red"}
    assert same(position_after(document, 4), replayed_by_hand(document, 4))
    with pytest.raises(ReplayPositionError, match="move 4 "):
        position_after(document, 5)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"variant": "nope"}, "has no variant"),
        ({"moves": "none"}, "moves must be a list"),
    ],
)
def test_a_document_that_is_not_a_replay_is_a_value_error(change: dict[str, object], message: str) -> None:
    document = {**replay("volcano"), **change}
    with pytest.raises(ValueError, match=message):
        position_after(document, 0)
