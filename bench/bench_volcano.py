"""Volcano's engine on the referee's path: moves per second, next to the same engine keeping nothing.

What is timed is exactly what the match runner asks of an engine: a new state from a checked config,
then on every move the observation of the seat to move, its legal moves, and ``apply`` of one of
them (here drawn by a seeded RNG, so every run plays the same games). Games use the default
options (Power Play on, 30 steps, 300 turns): random games run to the turn limit, about 840 moves.

The baseline, measured in the same run, plays the very same games (checked: every game must have
the same number of moves and the same outcome) with the same engine, but before every move it calls
``VolcanoState.forget_kept()``, so each observation and move list is built from the facts alone, as
a new state would build it; the process-wide tables (the JSON of squares, pieces and moves, and the
cap steps per placement of the caps) serve both. ``kept / rebuilt`` is therefore what the views and
move lists kept between moves save on this machine: it says nothing of any earlier engine. The two
take turns, a block of games each, and the whole is repeated; each line prints min / median / max
over the runs, the ratio of medians, and the goal of 50,000 moves/s for three seats.

    python bench/bench_volcano.py [--games 10] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

import machine

from referee.game import GameConfig
from referee.rng import Rng
from referee.volcano import GAME, VolcanoState

GOAL_MOVES_PER_S = 50_000
PATHS = ("rebuilt", "kept")


def referee_path(config: GameConfig, *, keep: bool) -> tuple[int, str]:
    """One game on the referee's path, the state's kept views dropped before each move unless
    ``keep``; returns its moves and end reason."""
    state = GAME.new_state(config)
    assert isinstance(state, VolcanoState)
    chooser = Rng(config.seed + 10_000)
    moves = 0
    while (seat := state.current_seat) is not None:
        if not keep:
            state.forget_kept()
        state.observation(seat)
        state.apply(chooser.choice(state.legal_moves()))
        moves += 1
    outcome = state.outcome()
    assert outcome is not None
    return moves, outcome.reason


def timed_block(keep: bool, configs: list[GameConfig]) -> tuple[float, float, list[tuple[int, str]]]:
    """Moves per second over a block of games, by the wall clock and by this process's CPU time, and
    each game's (moves, reason). On a shared machine the wall clock also counts time the process
    waited for a core; CPU time does not."""
    wall, cpu = time.perf_counter(), time.process_time()
    games = [referee_path(config, keep=keep) for config in configs]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    moves = sum(moves for moves, _ in games)
    return moves / wall, moves / cpu, games


def spread(figures: list[float]) -> str:
    return f"{min(figures):>8,.0f} {statistics.median(figures):>8,.0f} {max(figures):>8,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per block")
    parser.add_argument("--runs", type=int, default=5, help="blocks per path, interleaved (at least 3)")
    args = parser.parse_args()
    runs = max(3, args.runs)

    print("volcano: new_state + per move observation(seat to move) + legal_moves + apply, random moves;")
    print(f"default options; {args.games} games per block, {runs} blocks per path, interleaved")
    print(machine.describe())
    print(f"{'':>14} {'moves/s by wall clock':^26}   {'moves/s by CPU time':^26}")
    columns = f"{'min':>8} {'median':>8} {'max':>8}"
    print(f"{'seats':>5} {'views':>8} {columns}   {columns}")
    for seats in (2, 3):
        configs = [GAME.configure(GAME.default_variant, seats, seed) for seed in range(args.games)]
        wall: dict[str, list[float]] = {path: [] for path in PATHS}
        cpu: dict[str, list[float]] = {path: [] for path in PATHS}
        reference: list[tuple[int, str]] | None = None
        for _ in range(runs):
            for name in PATHS:
                by_wall, by_cpu, games = timed_block(name == "kept", configs)
                wall[name].append(by_wall)
                cpu[name].append(by_cpu)
                if reference is None:
                    reference = games
                assert games == reference, "the two paths played different games"
        assert reference is not None
        for name in PATHS:
            print(f"{seats:>5} {name:>8} {spread(wall[name])}   {spread(cpu[name])}")
        ratios = [
            statistics.median(figures["kept"]) / statistics.median(figures["rebuilt"])
            for figures in (wall, cpu)
        ]
        per_game = sum(moves for moves, _ in reference) / len(reference)
        print(
            f"{'':>5} kept / rebuilt (medians): x{ratios[0]:.1f} by wall clock,"
            f" x{ratios[1]:.1f} by CPU time;",
            end="",
        )
        verdict = ""
        if seats == 3:
            median = statistics.median(wall["kept"])
            met = "met" if median >= GOAL_MOVES_PER_S else "not met"
            verdict = f"; goal {GOAL_MOVES_PER_S:,} moves/s: {met} (median {median:,.0f}, wall clock)"
        print(f" {per_game:.0f} moves a game{verdict}")


if __name__ == "__main__":
    main()
