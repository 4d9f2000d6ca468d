"""Boulderville on the referee's path: random games per second, against the same games uncached.

The timed path is what the match runner asks of the engine: a new state from a checked config, then
on every move the observation of the seat to move, its legal moves, and ``apply`` of one of them
(drawn by a seeded generator, so every run plays the same games). The goal is 200 games a second.

The baseline, measured in the same run, plays the very same games (same seeds, same moves) through
the engine's plain functions, without the state's per-position caches: the observation built from
the table alone (``referee.boulderville.view.observation``, which the tests check equal to the
cached one), the legal moves listed by ``turn.legal_moves`` and ``turn.apply_move`` listing them
again to find the move played. ``x baseline`` is how much faster the referee's path is than that.

The two are interleaved game by game and the whole set is repeated ``--runs`` times; each figure
is printed as min / median / max over the runs. Time is the process's CPU time
(``time.process_time``), so other work on a shared machine does not count against either path; on
an idle core it is the wall time. The run's wall time is printed too. After the timing, untimed, it
prints how long random games last and how far the eruption counter climbs.

    python bench/bench_boulderville.py [--games 100] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Callable

import machine

from referee.boulderville import turn, view
from referee.boulderville.edition import EDITION
from referee.registry import get_game
from referee.rng import Rng

GAME = get_game("boulderville")
GOAL = 200.0
"""Random games a second on the referee's path."""


def referee_path(seed: int) -> int:
    """One game as the runner plays it; the number of moves."""
    state = GAME.new_state(GAME.configure(GAME.default_variant, 4, seed))
    chooser = Rng(seed + 99_991)
    moves = 0
    while (seat := state.current_seat) is not None:
        state.observation(seat)
        state.apply(chooser.choice(state.legal_moves()))
        moves += 1
    return moves


def uncached_path(seed: int) -> int:
    """The same game through the plain functions, every part worked out afresh on every move."""
    table = GAME.new_state(GAME.configure(GAME.default_variant, 4, seed)).table
    chooser = Rng(seed + 99_991)
    moves = 0
    while table.result is None and table.queue:
        view.observation(table, table.queue[0])
        turn.apply_move(table, chooser.choice(turn.legal_moves(table)))
        moves += 1
    return moves


def timed(path: Callable[[int], int], seed: int) -> tuple[float, int]:
    """CPU seconds of one game, and its moves."""
    started = time.process_time()
    moves = path(seed)
    return time.process_time() - started, moves


def spread(values: list[float]) -> str:
    return f"{min(values):9.1f} {statistics.median(values):9.1f} {max(values):9.1f}"


def game_facts(games: int) -> None:
    """How random games go (untimed): their length, the Eruption card, the counter, the endings."""
    turns: list[int] = []
    erupted_on: list[int] = []
    counter_then: list[int] = []
    final: list[int] = []
    endings: Counter[str] = Counter()
    for seed in range(games):
        state = GAME.new_state(GAME.configure(GAME.default_variant, 4, seed))
        chooser = Rng(seed + 99_991)
        table = state.table
        erupted = False
        while state.current_seat is not None:
            state.apply(chooser.choice(state.legal_moves()))
            if not erupted and EDITION.eruption_card in table.revealed:
                erupted = True
                erupted_on.append(table.turn)
                counter_then.append(table.eruption)
        outcome = state.outcome()
        assert outcome is not None
        turns.append(table.turn)
        final.append(table.eruption)
        endings[f"{outcome.reason}/{'won' if outcome.team_won else 'lost'}"] += 1
    mean = statistics.fmean
    print(f"random games: {games}, untimed")
    print(f"  turns/game         {mean(turns):9.1f}   (longest {max(turns)})")
    print(f"  Eruption card turn {mean(erupted_on):9.1f}   (counter then {mean(counter_then):.1f})")
    print(f"  final counter      {mean(final):9.1f}   ({min(final)} to {max(final)})")
    print("  endings            " + ", ".join(f"{name} {count}" for name, count in sorted(endings.items())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per run (default 100)")
    parser.add_argument("--runs", type=int, default=5, help="repetitions, at least 3 (default 5)")
    args = parser.parse_args()
    if args.games < 1 or args.runs < 3:
        parser.error("--games must be at least 1 and --runs at least 3")
    for seed in range(3):  # warm the caches every real referee would have warm
        referee_path(seed)
        uncached_path(seed)
    where = machine.describe()  # the load average before the runs
    rates: dict[str, list[float]] = {"referee path": [], "uncached": []}
    per_move: dict[str, list[float]] = {"referee path": [], "uncached": []}
    ratios: list[float] = []
    moves_per_game = 0.0
    wall = time.perf_counter()
    for _ in range(args.runs):
        seconds = {"referee path": 0.0, "uncached": 0.0}
        moves = 0
        for seed in range(args.games):
            spent, moves_here = timed(referee_path, seed)
            seconds["referee path"] += spent
            spent, same_moves = timed(uncached_path, seed)
            seconds["uncached"] += spent
            assert same_moves == moves_here, "the two paths must play the same game"
            moves += moves_here
        for name, spent in seconds.items():
            rates[name].append(args.games / spent)
            per_move[name].append(spent * 1e6 / moves)
        ratios.append(seconds["uncached"] / seconds["referee path"])
        moves_per_game = moves / args.games
    wall = time.perf_counter() - wall
    print(
        f"boulderville: the referee's path (new state; per move observation + legal_moves + apply), "
        f"{args.games} random games x {args.runs} runs, interleaved with the uncached baseline"
    )
    print(f"{where}; at the end: {machine.load()}")
    print(f"  moves/game {moves_per_game:.1f}{'min':>22} {'median':>9} {'max':>9}")
    for name in rates:
        print(f"  {name:<13} games/s {spread(rates[name])}")
        print(f"  {name:<13} us/move {spread(per_move[name])}")
    print(f"  x baseline            {spread(ratios)}   (uncached time / referee path time, same games)")
    median = statistics.median(rates["referee path"])
    verdict = "met" if median >= GOAL else "NOT met"
    print(f"  goal                  {GOAL:9.1f} games/s on the referee path: {verdict} (median {median:.1f})")
    played = 2 * args.games * args.runs
    print(f"  (CPU time of this process; the {played} timed games took {wall:.1f} s of wall time)")
    game_facts(args.games)


if __name__ == "__main__":
    main()
