"""What the engine benches share: seeded random playouts of any game, and the bare driver loop.

Everything here speaks only to the common interface (:class:`referee.game.State`, as
:func:`referee.registry.get_game` hands it out, and :class:`referee.rng.Rng`), so it plays every
registered game the same way:

- :func:`play_random`: a game to its end, each move drawn uniformly from the legal moves, untimed
  (the caller times the whole game if it wants to);
- :func:`timed_playout`: the same, timing ``legal_moves``, ``apply`` and ``observation`` apart into a
  :class:`Tally`, then running the bare driver loop for as many moves, so that engine and baseline
  see the same load on a shared machine;
- :func:`bare_loop`: that baseline, the same driver loop against a stand-in state that lists the
  moves it is given and applies nothing, the least any engine behind the interface can cost a move.

This is no benchmark itself: the ``bench_*.py`` scripts next to it import it by name (running
``python bench/<script>.py`` puts ``bench/`` on the path).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from referee.game import Move, Outcome, State
from referee.rng import Rng

T = TypeVar("T")


class Chooser(Protocol):
    """What draws each move of a random playout: a seeded :class:`Rng`, or Python's ``random.Random``."""

    def choice(self, seq: Sequence[T]) -> T: ...


Listing = Callable[[], list[Move]]
"""What a state's ``legal_moves`` is: no arguments, a fresh list of moves."""


@dataclass
class Tally:
    """Sums over timed playouts. A bench adds its own figures by subclassing."""

    games: int = 0
    moves: int = 0
    legal_s: float = 0.0
    apply_s: float = 0.0
    observe_s: float = 0.0
    baseline_s: float = 0.0

    @property
    def play_s(self) -> float:
        """``legal_moves`` + ``apply``: what a playout needs. Observation is extra (the runner's)."""
        return self.legal_s + self.apply_s

    @property
    def x_baseline(self) -> float:
        """How many bare driver-loop moves one engine move costs: (legal_moves + apply) / bare loop."""
        return self.play_s / self.baseline_s

    def per_move_us(self, seconds: float) -> float:
        """``seconds`` summed over every move, as microseconds per move."""
        return seconds * 1e6 / self.moves


def play_random(
    state: State,
    chooser: Chooser,
    legal: Callable[[], Sequence[Any]] | None = None,
    apply: Callable[[Any], None] | None = None,
) -> int:
    """Play ``state`` to its end, each move drawn by ``chooser`` from the legal moves; the move count.

    ``legal`` and ``apply`` stand for ``state.legal_moves`` and ``state.apply``, for an engine's own
    form of moves (Vulkan!'s ``legal_keys`` and ``apply_key``, say).
    """
    legal = state.legal_moves if legal is None else legal
    apply = state.apply if apply is None else apply
    moves = 0
    while state.outcome() is None:
        apply(chooser.choice(legal()))
        moves += 1
    return moves


def timed_playout(
    state: State,
    chooser: Rng,
    tally: Tally,
    bare_moves: Listing,
    each_move: Callable[[State, list[Move]], None] | None = None,
) -> Outcome:
    """Play ``state`` to its end as :func:`play_random` does, timing each move into ``tally``.

    Times ``legal_moves`` and ``apply`` apart, and after them the observation of the seat to move
    next (as the match runner asks for one on every move). ``each_move(state, legal)`` runs after
    every move, untimed, with ``tally.moves`` already counting it. At the end of the game the bare
    loop runs for as many moves as the game had, listing ``bare_moves()`` each time.
    """
    moves_before = tally.moves
    while state.outcome() is None:
        started = time.perf_counter()
        legal = state.legal_moves()
        middle = time.perf_counter()
        state.apply(chooser.choice(legal))
        ended = time.perf_counter()
        seat = state.current_seat
        if seat is not None:
            state.observation(seat)
        observed = time.perf_counter()
        tally.legal_s += middle - started
        tally.apply_s += ended - middle
        tally.observe_s += observed - ended
        tally.moves += 1
        if each_move is not None:
            each_move(state, legal)
    outcome = state.outcome()
    assert outcome is not None
    tally.games += 1
    tally.baseline_s += bare_loop(tally.moves - moves_before, bare_moves)
    return outcome


class BareState:
    """A stand-in state that lists ``bare_moves()`` every time and applies nothing."""

    def __init__(self, bare_moves: Listing) -> None:
        self.legal_moves = bare_moves

    def apply(self, move: Move) -> None:
        if "type" not in move:
            raise ValueError(move)


def bare_loop(moves: int, bare_moves: Listing) -> float:
    """Seconds for ``moves`` turns of the driver loop against a :class:`BareState`."""
    state, chooser = BareState(bare_moves), Rng(1)
    started = time.perf_counter()
    for _ in range(moves):
        state.apply(chooser.choice(state.legal_moves()))
    return time.perf_counter() - started


if __name__ == "__main__":
    print("shared code of the engine benches (bench/bench_*.py), no benchmark itself")
