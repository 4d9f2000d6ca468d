"""Volcano's engine on the referee's path: moves per second, next to the engine as it was before.

What is timed is exactly what the match runner asks of an engine: a new state from a checked config,
then on every move the observation of the seat to move, its legal moves, and ``apply`` of one of
them (here drawn by a seeded RNG, so both engines play the same games). Games use the default
options (Power Play on, 30 steps, 300 turns): random games run to the turn limit, about 840 moves.

The baseline is the engine's previous state class (``bench/volcano_state_before.py``), which plays the
very same games (checked: every game must have the same number of moves and the same outcome) but
builds every view and move list afresh. Engine and baseline take turns, a block of games each, and
the whole is repeated; each line prints min / median / max over the runs, the ratio of medians, and
the goal of 50,000 moves/s for three seats.

    python bench/bench_volcano.py [--games 10] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import machine
import volcano_state_before

from referee.game import GameConfig, State
from referee.rng import Rng
from referee.volcano import GAME
from referee.volcano.setup import seeded_position

GOAL_MOVES_PER_S = 50_000
NewState = Callable[[GameConfig], State]


def before_state(config: GameConfig) -> State:
    """The previous engine's state for the same config (the same seeded layout)."""
    position = seeded_position(config.seats, Rng(config.seed))
    return volcano_state_before.VolcanoState(
        variant=config.variant,
        seats=config.seats,
        options=dict(config.options),
        board=position.board,
        captures=position.captures,
        to_move=position.to_move,
    )


def referee_path(new_state: NewState, config: GameConfig) -> tuple[int, str]:
    """One game on the referee's path; returns its moves and end reason."""
    state = new_state(config)
    chooser = Rng(config.seed + 10_000)
    moves = 0
    while (seat := state.current_seat) is not None:
        state.observation(seat)
        state.apply(chooser.choice(state.legal_moves()))
        moves += 1
    outcome = state.outcome()
    assert outcome is not None
    return moves, outcome.reason


def timed_block(new_state: NewState, configs: list[GameConfig]) -> tuple[float, float, list[tuple[int, str]]]:
    """Moves per second over a block of games, by the wall clock and by this process's CPU time, and
    each game's (moves, reason). On a shared machine the wall clock also counts time the process
    waited for a core; CPU time does not."""
    wall, cpu = time.perf_counter(), time.process_time()
    games = [referee_path(new_state, config) for config in configs]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    moves = sum(moves for moves, _ in games)
    return moves / wall, moves / cpu, games


def spread(figures: list[float]) -> str:
    return f"{min(figures):>8,.0f} {statistics.median(figures):>8,.0f} {max(figures):>8,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per block")
    parser.add_argument("--runs", type=int, default=5, help="blocks per engine, interleaved (at least 3)")
    args = parser.parse_args()
    runs = max(3, args.runs)

    print("volcano: new_state + per move observation(seat to move) + legal_moves + apply, random moves;")
    print(f"default options; {args.games} games per block, {runs} blocks per engine, interleaved")
    print(machine.describe())
    print(f"{'':>14} {'moves/s by wall clock':^26}   {'moves/s by CPU time':^26}")
    columns = f"{'min':>8} {'median':>8} {'max':>8}"
    print(f"{'seats':>5} {'engine':>8} {columns}   {columns}")
    for seats in (2, 3):
        configs = [GAME.configure(GAME.default_variant, seats, seed) for seed in range(args.games)]
        wall: dict[str, list[float]] = {"before": [], "now": []}
        cpu: dict[str, list[float]] = {"before": [], "now": []}
        reference: list[tuple[int, str]] | None = None
        for _ in range(runs):
            for name, new_state in (("before", before_state), ("now", GAME.new_state)):
                by_wall, by_cpu, games = timed_block(new_state, configs)
                wall[name].append(by_wall)
                cpu[name].append(by_cpu)
                if reference is None:
                    reference = games
                assert games == reference, "the two engines played different games"
        assert reference is not None
        for name in ("before", "now"):
            print(f"{seats:>5} {name:>8} {spread(wall[name])}   {spread(cpu[name])}")
        ratios = [
            statistics.median(figures["now"]) / statistics.median(figures["before"])
            for figures in (wall, cpu)
        ]
        per_game = sum(moves for moves, _ in reference) / len(reference)
        print(
            f"{'':>5} now / before (medians): x{ratios[0]:.1f} by wall clock, x{ratios[1]:.1f} by CPU time;",
            end="",
        )
        verdict = ""
        if seats == 3:
            median = statistics.median(wall["now"])
            met = "met" if median >= GOAL_MOVES_PER_S else "not met"
            verdict = f"; goal {GOAL_MOVES_PER_S:,} moves/s: {met} (median {median:,.0f}, wall clock)"
        print(f" {per_game:.0f} moves a game{verdict}")


if __name__ == "__main__":
    main()
