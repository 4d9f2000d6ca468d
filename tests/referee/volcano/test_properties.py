"""Invariants that random play must never break, from seeded and from arbitrary explicit positions."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rng import Rng
from referee.volcano import GAME, VolcanoState
from referee.volcano.pieces import CapColour, Colour

BOX = 72  # 24 nests x 3 pieces; caps are not pieces
SQUARES = [(row, column) for row in range(5) for column in range(5)]
PROPERTY_SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

options = st.fixed_dictionaries(
    {
        "power_play": st.booleans(),
        "step_limit": st.integers(min_value=1, max_value=40),
        "turn_limit": st.integers(min_value=1, max_value=120),
    }
)


@st.composite
def explicit_setups(draw) -> dict:
    """Any position the box allows: a random share of the 72 pieces in random stacks, 1 to 6 caps."""
    box = [{"colour": c.value, "size": size} for c in Colour for size in (1, 2, 3) for _ in range(3)]
    chosen = draw(st.lists(st.sampled_from(range(len(box))), unique=True, max_size=len(box)))
    squares = draw(st.lists(st.sampled_from(range(25)), min_size=len(chosen), max_size=len(chosen)))
    stacks: list[list[dict]] = [[] for _ in SQUARES]
    for item, square in zip(chosen, squares, strict=True):
        stacks[square].append(box[item])
    capped = draw(st.lists(st.sampled_from(range(25)), unique=True, min_size=1, max_size=6))
    colours = [CapColour.BLACK.value] * 3 + [CapColour.WHITE.value] * 3
    caps = dict(zip(capped, colours, strict=False))
    board = [[{"stack": stacks[r * 5 + c], "cap": caps.get(r * 5 + c)} for c in range(5)] for r in range(5)]
    return {"board": board}


def _pieces_on_board(state: VolcanoState) -> int:
    return sum(len(stack) for stack in state.board.stacks)


def _pieces_in_play(state: VolcanoState) -> int:
    return _pieces_on_board(state) + sum(len(held) for held in state.captures)


def _play_out(state: VolcanoState, seed: int) -> int:
    """Random play to the end, checking the invariants after every move; returns the moves played."""
    chooser = Rng(seed)
    total = _pieces_in_play(state)
    limit = state.options["turn_limit"] * (state.options["step_limit"] + 1)
    moves = 0
    while state.outcome() is None:
        assert moves <= limit, "a game outlived its turn and step limits"
        stacks_before = [list(stack) for stack in state.board.stacks]
        capped_before = set(state.board.cap_squares())
        turn = state.turns_played
        move = chooser.choice(state.legal_moves())
        state.apply(move)
        moves += 1
        assert _pieces_in_play(state) == total
        capped = capped_before | set(state.board.cap_squares())
        for index in capped:
            # a square with a cap before or after the move (the stepping cap's new square included)
            # never gains a piece: at most its top pieces erupt away
            stack, before = state.board.stacks[index], stacks_before[index]
            assert stack == before[: len(stack)], "a piece landed on a cap"
        eruption = state.last_eruption
        if eruption is not None and eruption["turn"] == turn:  # this very step erupted
            for landing in eruption["flow"]:
                row, column = landing["to"]
                assert row * 5 + column not in capped, "a piece landed on a cap"
        if move["type"] == "power_play":
            row, column = move["to"]
            assert row * 5 + column not in capped_before, "a Power Play put a piece on a cap"
    assert state.current_seat is None and state.legal_moves() == []
    return moves


@PROPERTY_SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32), seats=st.sampled_from([2, 3]), chosen=options)
def test_seeded_games_conserve_pieces_never_land_on_caps_and_end(seed: int, seats: int, chosen: dict) -> None:
    state = GAME.start("fiesta-caldera", seats=seats, seed=seed, options=chosen)
    assert _pieces_in_play(state) == BOX
    _play_out(state, seed)
    assert _pieces_in_play(state) == BOX


@PROPERTY_SETTINGS
@given(setup=explicit_setups(), seed=st.integers(min_value=0, max_value=2**32), chosen=options)
def test_any_position_plays_to_an_end_within_the_rules(setup: dict, seed: int, chosen: dict) -> None:
    state = GAME.start("fiesta-caldera", seats=2, seed=0, options=chosen, setup=setup)
    _play_out(state, seed)
    outcome = state.outcome()
    assert outcome is not None
    winner = outcome.details["winner"]
    if winner is not None:  # a win is only ever claimed with a winning collection
        trios = state.trios(winner)
        assert trios.single_colour >= 3 or trios.any_colour >= 5


@PROPERTY_SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**32), seats=st.sampled_from([2, 3]))
def test_the_seat_to_move_always_has_a_step(seed: int, seats: int) -> None:
    # a turn can only end by an eruption or the step limit, so every position needs a cap step
    state = GAME.start("fiesta-caldera", seats=seats, seed=seed, options={"turn_limit": 40})
    chooser = Rng(seed)
    while state.outcome() is None:
        moves = state.legal_moves()
        assert any(move["type"] == "step" for move in moves)
        state.apply(chooser.choice(moves))
