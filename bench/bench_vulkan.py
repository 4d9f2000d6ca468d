"""Vulkan!'s referee path under random play: games per second, against a baseline from the same run.

The *referee path* is what the match runner asks of the engine: a new state, then on every move the
observation of the seat to move, its legal moves and ``apply`` of one of them (here drawn by a
seeded :class:`referee.rng.Rng`, so every run plays the same games).

The *baseline* does comparable work on the same games: for every move of the game just played it
takes the observation and the legal move list the engine gave and sends them through a JSON round
trip (``json.loads(json.dumps(...))``), as an in-process agent does with each request. It is the
cost of merely carrying the engine's output across once, so the ratio "engine / baseline" means the
same on any machine. The two alternate game by game, and the whole measurement is repeated
``--runs`` times; min, median and max are printed.

    python bench/bench_vulkan.py [--games 200] [--runs 3] [--seed 1] [--goal-only]

``--goal-only`` plays the goal's mode alone (4-seat competitive, classic layout): a quicker figure
for comparing two checkouts in processes taking turns (``PYTHONPATH=<checkout>``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import dataclass, field

import machine

from referee.game import JSON, Move
from referee.rng import Rng
from referee.vulkan import GAME

GOAL_GAMES_PER_S = 1000
"""The goal for 4-seat competitive play on the default (classic) layout."""

MODES = [
    ("competitive", 4, "classic"),
    ("competitive", 3, "classic"),
    ("competitive", 2, "classic"),
    ("solitaire", 1, "classic"),
    ("cooperative", 4, "classic"),
    ("competitive", 4, "random"),
]


@dataclass
class Line:
    """One mode's figures over the runs: games/s of the engine and of the baseline, per run."""

    engine: list[float] = field(default_factory=list)
    baseline: list[float] = field(default_factory=list)
    moves: int = 0
    games: int = 0


Played = tuple[float, list[JSON], list[list[Move]]]


def referee_path(variant: str, seats: int, layout: str, seed: int) -> Played:
    """Play one seeded random game the way the runner drives the engine; its seconds, and what the
    engine handed out (kept by reference, for the baseline)."""
    observations: list[JSON] = []
    listings: list[list[Move]] = []
    started = time.perf_counter()
    state = GAME.start(variant, seats=seats, seed=seed, options={"layout": layout})
    chooser = Rng(seed)
    while (seat := state.current_seat) is not None:
        observation = state.observation(seat)
        legal = state.legal_moves()
        state.apply(chooser.choice(legal))
        observations.append(observation)
        listings.append(legal)
    return time.perf_counter() - started, observations, listings


def baseline(observations: list[JSON], listings: list[list[Move]]) -> float:
    """Seconds for a JSON round trip of every observation and legal move list of one game."""
    started = time.perf_counter()
    for observation, legal in zip(observations, listings, strict=True):
        json.loads(json.dumps(observation))
        json.loads(json.dumps(legal))
    return time.perf_counter() - started


def run_once(line: Line, variant: str, seats: int, layout: str, games: int, seed: int) -> None:
    engine_s = baseline_s = 0.0
    moves = 0
    for game in range(games):
        seconds, observations, listings = referee_path(variant, seats, layout, seed + game)
        engine_s += seconds
        baseline_s += baseline(observations, listings)
        moves += len(listings)
    line.engine.append(games / engine_s)
    line.baseline.append(games / baseline_s)
    line.moves, line.games = moves, games


def spread(values: list[float]) -> str:
    return f"{min(values):7.0f} {statistics.median(values):7.0f} {max(values):7.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per mode and run")
    parser.add_argument("--runs", type=int, default=3, help="repetitions (at least 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--goal-only", action="store_true", help="only the goal's mode: 4-seat competitive, classic layout"
    )
    args = parser.parse_args()
    if args.runs < 3:
        parser.error("--runs must be at least 3")

    where = machine.describe()  # the load average before the runs
    modes = MODES[:1] if args.goal_only else MODES
    lines = {mode: Line() for mode in modes}
    for _ in range(args.runs):
        for mode in modes:
            run_once(lines[mode], *mode, args.games, args.seed)

    print("referee path: new state + per move observation(seat to move) + legal_moves + apply")
    print("baseline: a JSON round trip of the same observations and legal move lists")
    print(f"{args.games} seeded random games per mode and run, {args.runs} runs (min / median / max)")
    print(f"{where}; at the end: {machine.load()}\n")
    header = (
        f"{'variant':<12} {'seats':>5} {'layout':<8} {'moves/game':>10}   "
        f"{'engine games/s':^23}   {'baseline games/s':^23}   {'engine/baseline':>15}"
    )
    print(header)
    print("-" * len(header))
    for (variant, seats, layout), line in lines.items():
        ratio = statistics.median(line.engine) / statistics.median(line.baseline)
        print(
            f"{variant:<12} {seats:>5} {layout:<8} {line.moves / line.games:>10.1f}   {spread(line.engine)}"
            f"   {spread(line.baseline)}   {ratio:>14.2f}x"
        )
    goal = lines[modes[0]]
    median = statistics.median(goal.engine)
    verdict = "met" if median >= GOAL_GAMES_PER_S else "not met"
    print(
        f"\ngoal: 4-seat competitive (classic) at least {GOAL_GAMES_PER_S:,} games/s; "
        f"median here {median:,.0f} games/s ({verdict} on this machine)"
    )


if __name__ == "__main__":
    main()
