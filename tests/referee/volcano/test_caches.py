"""What the state keeps between moves, held to the same values worked out from the facts alone.

``VolcanoState`` keeps counters (the steps of this turn, whether the Power Play was used, the capped
squares), per square and per row the board's JSON, per seat the trios and the captures' and trios'
JSON, and per position the observations and the move list; process-wide, the cap steps per
placement of the caps. Its mutators (``_touched``, ``_changed_captures``, ``_forget_position``,
``forget_kept``) must leave nothing stale: after every move of random games, with two and three
seats, the Power Play on and off, each value kept is compared with one computed here from the
board, the captures and this turn's moves, and each observation and move list with a state that
keeps nothing yet (``forget_kept``).
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.game import canonical_json
from referee.rng import Rng
from referee.volcano import GAME, VolcanoState
from referee.volcano.board import DIRECTIONS, SQUARES, square_json
from referee.volcano.edition import BOARD_SIZE, CALDERA
from referee.volcano.eruption import can_step
from referee.volcano.state import _PLACEMENTS
from referee.volcano.trios import count_trios

GAMES = [
    pytest.param(
        seats, power_play, seed, id=f"{seats}-seats-power-play-{'on' if power_play else 'off'}-{seed}"
    )
    for seats in (2, 3)
    for power_play in (True, False)
    for seed in (1, 2)
]
MOVES = 400
"""Moves checked a game: past the first turns of every seat, with captures and Power Plays."""


def square_from_facts(state: VolcanoState, index: int) -> dict[str, Any]:
    cap = state.board.caps[index]
    stack = [piece.to_json() for piece in state.board.stacks[index]]
    return {"stack": stack, "cap": None if cap is None else cap.value}


def observation_from_facts(state: VolcanoState, seat: int) -> dict[str, Any]:
    """The observation as the rule of ``docs/games/volcano.md`` lays it out, from the facts alone."""
    squares = [square_from_facts(state, index) for index in SQUARES]
    return {
        "seat": seat,
        "to_move": state.current_seat,
        "board": [squares[row * BOARD_SIZE : (row + 1) * BOARD_SIZE] for row in range(BOARD_SIZE)],
        "caldera": list(CALDERA),
        "captures": [[piece.to_json() for piece in held] for held in state.captures],
        "trios": [count_trios(held).to_json() for held in state.captures],
        "steps_this_turn": sum(move["type"] == "step" for move in state.turn_moves),
        "power_play_used": any(move["type"] == "power_play" for move in state.turn_moves),
        "turn_moves": state.turn_moves,
        "turn": state.turns_played,
        "passes_in_row": state.passes_in_row,
        "last_eruption": state.last_eruption,
        "options": state.options,
    }


def moves_from_facts(state: VolcanoState) -> list[dict[str, Any]]:
    """Every cap step in board order and direction order, then the Power Plays still open."""
    moves: list[dict[str, Any]] = [
        {"type": "step", "from": square_json(origin), "dir": direction}
        for origin in SQUARES
        for direction in DIRECTIONS
        if can_step(state.board, origin, direction)
    ]
    held = state.captures[state.to_move]
    used = any(move["type"] == "power_play" for move in state.turn_moves)
    if state.options["power_play"] and held and not used:
        for piece in dict.fromkeys(held):
            free = [index for index in SQUARES if state.board.caps[index] is None]
            moves += [{"type": "power_play", "piece": piece.to_json(), "to": square_json(i)} for i in free]
    return moves


def check_kept(state: VolcanoState) -> None:
    """Every value the state keeps now equals the one worked out from the facts."""
    assert state.steps_this_turn == sum(move["type"] == "step" for move in state.turn_moves)
    assert state.power_play_used == any(move["type"] == "power_play" for move in state.turn_moves)
    capped = tuple(index for index in SQUARES if state.board.caps[index] is not None)
    assert state._capped == capped
    placement = _PLACEMENTS.table.get(capped)
    if placement is not None:
        steps = [move for move in moves_from_facts(state) if move["type"] == "step"]
        assert canonical_json(placement.steps) == canonical_json(steps)
    for index, square in enumerate(state._squares):
        if square is not None:
            assert canonical_json(square) == canonical_json(square_from_facts(state, index))
    for row, kept in enumerate(state._rows):
        if kept is not None:
            squares = [square_from_facts(state, row * BOARD_SIZE + column) for column in range(BOARD_SIZE)]
            assert canonical_json(kept) == canonical_json(squares)
    for seat, held in enumerate(state.captures):
        assert held == sorted(held, key=lambda piece: piece.sort_key())
        if state._trios[seat] is not None:
            assert state._trios[seat] == count_trios(held)
        if state._trios_views[seat] is not None:
            assert state._trios_views[seat] == count_trios(held).to_json()
        if state._held_views[seat] is not None:
            assert state._held_views[seat] == [piece.to_json() for piece in held]
    for seat, view in state._views.items():
        assert canonical_json(view) == canonical_json(observation_from_facts(state, seat))
    if state._legal is not None:
        assert canonical_json(state._legal) == canonical_json(moves_from_facts(state))


@pytest.mark.parametrize(("seats", "power_play", "seed"), GAMES)
def test_every_kept_value_equals_one_worked_out_from_the_facts(
    seats: int, power_play: bool, seed: int
) -> None:
    state = GAME.start("fiesta-caldera", seats=seats, seed=seed, options={"power_play": power_play})
    chooser = Rng(seed)
    for _ in range(MOVES):
        if state.outcome() is not None:
            break
        seat = state.current_seat
        assert seat is not None
        other = chooser.below(seats)  # the seat to move and another: both views are kept
        for viewer in (seat, other):
            state.observation(viewer)
        check_kept(state)
        fresh = state.copy()
        fresh.forget_kept()
        for viewer in range(seats):
            assert state.observation(viewer) == fresh.observation(viewer)
        moves = state.legal_moves()
        assert moves == fresh.legal_moves()
        check_kept(state)
        state.apply(chooser.choice(moves))
        check_kept(state)
