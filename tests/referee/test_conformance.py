"""The conformance test every registered game must pass.

It speaks only to the common interface (:mod:`referee.game`): random playouts of every variant and
seat count end with a well-formed outcome; states, observations and moves are JSON; a state
serialised and loaded mid-game goes on exactly as the original; the same seed and moves give the
same game byte for byte; illegal moves are refused; every game ends within its variant's declared
``max_moves`` with one of its declared end reasons; ``State.copy()`` is independent of its original;
every legal move reads in the game's words (``Game.describe_move``), distinct moves differently, and
anything else reads without an error.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.base import RandomBot
from referee.game import MOVE_LIMIT, IllegalMove, Outcome, SetupError, canonical_json
from referee.match import MatchSpec
from referee.notation import MOVE_JSON_LIMIT, move_json
from referee.registry import all_games, get_game
from referee.replay import compress, decompress, verify_replay
from referee.rng import Rng
from referee.runner import Player, run_match
from referee.transport.agents import LocalAgent
from tests.referee.engine_checks import assert_applied_or_refused, json_values, registered_cases

SEEDS = (1, 2)


def _playout(game_id: str, variant: str, seats: int, seed: int, check_every: int = 0):
    """Play a seeded random game; return (moves, final state). Checks round-trips when asked."""
    game = get_game(game_id)
    max_moves = game.variant(variant).max_moves
    state = game.start(variant, seats=seats, seed=seed)
    chooser = Rng(seed)
    moves = []
    while state.outcome() is None:
        assert len(moves) < max_moves, "the game went past its variant's declared max_moves"
        seat = state.current_seat
        assert seat is not None and 0 <= seat < seats
        legal = state.legal_moves()
        assert legal, "a seat to move must have a legal move"
        move = json.loads(json.dumps(chooser.choice(legal)))
        if check_every and len(moves) % check_every == 0:
            _check_round_trip(game, state, move)
            for viewer in range(seats):
                json.dumps(state.observation(viewer))
        state.apply(move)
        moves.append(move)
    assert state.current_seat is None
    assert state.legal_moves() == []
    return moves, state


def _check_round_trip(game, state, next_move) -> None:
    data = json.loads(json.dumps(state.to_json()))
    copy = game.load_state(data)
    assert canonical_json(copy.to_json()) == canonical_json(state.to_json())
    assert copy.current_seat == state.current_seat
    assert [canonical_json(m) for m in copy.legal_moves()] == [canonical_json(m) for m in state.legal_moves()]
    copy.apply(next_move)
    original = game.load_state(data)
    original.apply(next_move)
    assert canonical_json(copy.to_json()) == canonical_json(original.to_json())


@pytest.mark.parametrize(("game_id", "variant", "seats"), registered_cases())
def test_random_playouts_end_with_a_well_formed_outcome(game_id: str, variant: str, seats: int) -> None:
    for seed in SEEDS:
        _moves, state = _playout(game_id, variant, seats, seed, check_every=7)
        outcome = state.outcome()
        assert isinstance(outcome, Outcome)
        assert len(outcome.places) == len(outcome.scores) == seats
        assert all(1 <= place <= seats for place in outcome.places)
        # competition ranking: a seat's place is one more than the number of seats strictly ahead
        for place in outcome.places:
            assert place == 1 + sum(1 for other in outcome.places if other < place)
        spec = get_game(game_id).variant(variant)
        assert (outcome.team_won is not None) == spec.team
        assert outcome.reason in spec.end_reasons, f"{outcome.reason!r} is not a declared end reason"
        json.dumps(outcome.to_json())
        assert Outcome.from_json(outcome.to_json()) == outcome


@pytest.mark.parametrize(("game_id", "variant", "seats"), registered_cases())
def test_same_seed_and_moves_give_the_same_game(game_id: str, variant: str, seats: int) -> None:
    game = get_game(game_id)
    moves, state = _playout(game_id, variant, seats, seed=3)
    again = game.start(variant, seats=seats, seed=3)
    for move in moves:
        again.apply(move)
    assert canonical_json(again.to_json()) == canonical_json(state.to_json())
    assert again.outcome() == state.outcome()


@pytest.mark.parametrize("game_id", [game.id for game in all_games()])
def test_illegal_moves_are_refused_without_changing_the_state(game_id: str) -> None:
    game = get_game(game_id)
    variant = game.variant(game.default_variant)
    state = game.start(variant.name, seats=variant.seats[-1], seed=5)
    before = canonical_json(state.to_json())
    for bad in ({}, {"type": "no-such-move"}, {"type": 1, "x": [None]}):
        with pytest.raises(IllegalMove):
            state.apply(bad)
        assert canonical_json(state.to_json()) == before


@pytest.mark.parametrize("game_id", [game.id for game in all_games()])
def test_game_facts_are_declared(game_id: str) -> None:
    game = get_game(game_id)
    facts = json.loads(json.dumps(game.to_json()))
    assert facts["id"] == game_id
    assert game.default_variant in game.variants
    for variant in game.variants.values():
        assert variant.seats and all(n >= 1 for n in variant.seats)
        assert variant.resolve_options(None) == {o.name: o.default for o in variant.options}
        assert variant.end_reasons and all(isinstance(r, str) and r for r in variant.end_reasons)
        assert MOVE_LIMIT not in variant.end_reasons, "move_limit is the runner's, not an engine's"
        assert isinstance(variant.max_moves, int) and variant.max_moves > 0


@pytest.mark.parametrize(("game_id", "variant", "seats"), registered_cases())
def test_a_copy_plays_on_without_touching_its_original(game_id: str, variant: str, seats: int) -> None:
    game = get_game(game_id)
    state = game.start(variant, seats=seats, seed=4)
    chooser = Rng(4)
    for _ in range(25):
        if state.outcome() is not None:
            break
        state.apply(chooser.choice(state.legal_moves()))
    before = canonical_json(state.to_json())
    copy = state.copy()
    assert canonical_json(copy.to_json()) == before
    while copy.outcome() is None:
        copy.apply(chooser.choice(copy.legal_moves()))
    assert canonical_json(state.to_json()) == before, "playing on the copy changed the original"


@pytest.mark.parametrize(("game_id", "variant", "seats"), registered_cases())
def test_a_match_through_the_runner_leaves_a_replay_that_verifies(
    game_id: str, variant: str, seats: int
) -> None:
    players = [Player("random", LocalAgent(RandomBot(seat))) for seat in range(seats)]
    spec = MatchSpec.build(game=game_id, variant=variant, bots=[f"random-{s}" for s in range(seats)], seed=9)
    replay = run_match("conformance", spec, players)
    assert all(move.source == "bot" for move in replay.moves)
    assert replay.result.reason in get_game(game_id).variant(variant).end_reasons
    assert verify_replay(replay.to_json()) == []
    stored = decompress(compress(replay))
    assert verify_replay(stored) == []
    tampered = json.loads(json.dumps(stored))
    tampered["result"]["scores"] = [score + 1 for score in tampered["result"]["scores"]]
    assert verify_replay(tampered), "a replay whose result was changed must not verify"


@pytest.mark.parametrize("game_id", [game.id for game in all_games()])
@pytest.mark.parametrize("seats", [0, -1, 99, 2.0, True, "2", None])
def test_impossible_seat_counts_are_a_setup_error(game_id: str, seats: object) -> None:
    game = get_game(game_id)
    with pytest.raises(SetupError) as refused:
        game.start(game.default_variant, seats=seats, seed=1)  # type: ignore[arg-type]
    assert refused.value.field_name == "bots"


@pytest.mark.parametrize("game_id", [game.id for game in all_games()])
@pytest.mark.parametrize(
    ("variant", "options", "field"),
    [
        ([], None, "variant"),
        ({"a": 1}, None, "variant"),
        ("no-such-variant", None, "variant"),
        (None, "x", "options"),
        (None, [1, 2], "options"),
        (None, {1: 2}, "options"),
        (None, {"no_such_option": True}, "options"),
    ],
)
def test_bad_variants_and_options_are_a_setup_error_naming_the_field(
    game_id: str, variant: object, options: object, field: str
) -> None:
    game = get_game(game_id)
    name = game.default_variant if variant is None else variant
    seats = game.variant(game.default_variant).seats[0]
    with pytest.raises(SetupError) as refused:
        game.start(name, seats=seats, seed=1, options=options)  # type: ignore[arg-type]
    assert refused.value.field_name == field


@pytest.mark.parametrize("game_id", [game.id for game in all_games()])
def test_is_legal_says_no_to_what_is_not_json(game_id: str) -> None:
    game = get_game(game_id)
    variant = game.variant(game.default_variant)
    state = game.start(variant.name, seats=variant.seats[0], seed=2)
    assert state.is_legal(state.legal_moves()[0])
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    for bad in ({"type": {1, 2}}, {1: "a", "b": 2}, {"x": deep}):
        assert not state.is_legal(bad)


def _mid_game(game_id: str, seed: int, moves: int):
    game = get_game(game_id)
    variant = game.variant(game.default_variant)
    state = game.start(variant.name, seats=variant.seats[-1], seed=seed)
    chooser = Rng(seed)
    for _ in range(moves):
        if state.outcome() is not None:
            break
        state.apply(chooser.choice(state.legal_moves()))
    return state


@pytest.mark.parametrize("game_id", [game.id for game in all_games()])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_any_json_sent_as_a_move_is_a_legal_move_or_refused_unchanged(
    game_id: str, data: st.DataObject
) -> None:
    state = _mid_game(game_id, data.draw(st.integers(0, 3), label="seed"), data.draw(st.integers(0, 30)))
    if state.outcome() is not None:
        return
    legal = state.legal_moves()
    # arbitrary JSON, and legal moves with one value swapped for arbitrary JSON
    move = data.draw(json_values() | st.sampled_from(legal).flatmap(_damaged), label="move")
    assert_applied_or_refused(state, move)


def _damaged(move: dict):
    if not move:
        return st.just(move)
    return st.builds(
        lambda key, value: {**move, key: value}, st.sampled_from(sorted(move)), json_values(max_leaves=4)
    )


@pytest.mark.parametrize(("game_id", "variant", "seats"), registered_cases())
def test_every_legal_move_reads_in_words_and_distinct_moves_differently(
    game_id: str, variant: str, seats: int
) -> None:
    game = get_game(game_id)
    for seed in SEEDS:
        state = game.start(variant, seats=seats, seed=seed)
        chooser = Rng(seed)
        while state.outcome() is None:
            legal = state.legal_moves()
            words = [game.describe_move(move) for move in legal]
            for move, said in zip(legal, words, strict=True):
                assert said and said != move_json(move), f"{move!r} is not read in the game's words"
                assert said.isprintable() and len(said) <= MOVE_JSON_LIMIT
            assert len(set(words)) == len(words), f"two legal moves read alike: {sorted(words)}"
            state.apply(chooser.choice(legal))


@pytest.mark.parametrize("game_id", [game.id for game in all_games()])
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_any_json_reads_as_a_line_of_printable_text(game_id: str, data: st.DataObject) -> None:
    """A bot may send anything: its move still reads, on one line, as words or as its JSON."""
    game = get_game(game_id)
    state = _mid_game(game_id, data.draw(st.integers(0, 3), label="seed"), data.draw(st.integers(0, 30)))
    listed = state.legal_moves() or [{"type": "none"}]
    move = data.draw(json_values() | st.sampled_from(listed).flatmap(_damaged), label="move")
    said = game.describe_move(move)
    assert said and said.isprintable() and len(said) <= MOVE_JSON_LIMIT
