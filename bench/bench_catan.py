"""Catan on the referee's path under random play, measured in the same run as Catanatron's random players.

Four random seats on the ``base`` variant (no volcano), random board, trades between seats off (the
setting closest to Catanatron's rules), the engine's default turn limit (1000 turns, Catanatron's
too). Our side is timed on the referee's path: a new state, then on every move the observation of
the seat to move, its legal moves and ``apply`` (the runner asks for all three on every move). The
engine alone (legal moves and ``apply``, no observation) is timed too, for reference.

The contestants are timed in alternating blocks of games, so that load from other work on the
machine falls on all alike, and the whole is repeated ``--runs`` times, each run on seeds of its
own: the script prints each run's games per second and the ratio to Catanatron, then min / median /
max over the runs, and the ratio over all the runs' games together next to its goal
(:data:`GOAL`), with the load average at the start, after each run and at the end.

Moves are not the same unit in the two engines: here a move is a decision a bot was asked for (a
roll with no card to play first, or the end of a turn with nothing else to do, is played by the
engine and not counted); Catanatron counts every action, forced ones included. A second, untimed
pass over the same seeds counts our engine's forced moves too, for a like-for-like length.

Why so many games (720 a side by default): random games vary widely in length (a standard
deviation of about 130 turns on a mean of about 330, ``bench/catan_game_lengths.py``), so the mean
length of 120 games is off its engine's true mean by some 4% either way, whatever the seeds, and
the ratio of games per second with it. Over 720 games a side the error is about 1.5% a side. (Nor
are Catanatron's games from the same seeds the same from one process to the next.) The ratio of
turns per second is printed beside it as a check; the two engines' random games are not quite of
one length on average (this engine's 331.7 turns over 2,000 games, Catanatron's 327.0 and 325.3
over 1,000 in each of two processes), which is why the goal stays in games.

Catanatron is an optional, bench-only dependency (``pip install -e ".[bench]"``); without it the
script measures this engine alone and says so.

    python bench/bench_catan.py [--games 240] [--blocks 4] [--runs 3] [--referee-only]
    PYTHONPATH=<a checkout of main> python bench/bench_catan.py   # the engine of that checkout

``--referee-only`` times this engine's referee path alone, the same seeds in every process, for
comparing two checkouts in processes taking turns: Catanatron's games from a seed change from one
process to the next, and its noise would hide a step of a few percent.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import playout
from machine import describe, load

import referee
from referee.catan_volcano import GAME
from referee.catan_volcano.moves import PLAYS

VARIANT = "base"
SEATS = 4
OPTIONS = {"trades": False, "board": "random"}
GOAL = 4.0
"""The referee path's target: games per second, as many times Catanatron's as this."""


@dataclass
class Tally:
    name: str
    games: int = 0
    moves: int = 0
    turns: int = 0
    seconds: float = 0.0
    unfinished: int = 0
    by_type: Counter[str] = field(default_factory=Counter)

    def line(self) -> str:
        return (
            f"{self.name:<22} {self.games / self.seconds:8.1f} games/s"
            f" {self.moves / self.seconds:10.0f} moves/s"
            f"   mean game {self.moves / self.games:7.1f} moves {self.turns / self.games:7.1f} turns"
            f"   ({self.games} games, {self.unfinished} at the turn limit)"
        )


def new_game(seed: int) -> Any:
    """This engine's game of ``seed`` in the benchmark's setting."""
    return GAME.start(VARIANT, SEATS, seed=seed, options=OPTIONS)


def chooser_for(seed: int) -> random.Random:
    """The move chooser of one game: Python's own ``random.Random``, seeded with the game's seed.

    Catanatron's ``RandomPlayer`` draws its moves with ``random.choice`` (the module's instance of
    the same class, seeded here per game), so both sides pay the same for choosing a move and the
    figures compare the engines alone. (The engine's own dice stay on its seeded ``Rng``; a choice
    with ``Rng`` costs about twice as many instructions as one with ``random.Random``.)
    """
    return random.Random(seed)


def referee_path(seeds: range, tally: Tally) -> None:
    """New state, then per move: the observation of the seat to move, its legal moves, ``apply``."""
    for seed in seeds:
        started = time.perf_counter()
        state = new_game(seed)
        chooser = chooser_for(seed)
        played = 0
        while True:
            seat = state.current_seat
            if seat is None:
                break
            state.observation(seat)
            state.apply(chooser.choice(state.legal_moves()))
            played += 1
        tally.seconds += time.perf_counter() - started
        tally.games += 1
        tally.moves += played
        tally.turns += state.turn
        tally.unfinished += state.outcome().reason == "turn_limit"


def engine_alone(seeds: range, tally: Tally) -> None:
    """New state, then per move its legal moves and ``apply`` only (no observation)."""
    for seed in seeds:
        started = time.perf_counter()
        state = new_game(seed)
        played = playout.play_random(state, chooser_for(seed))
        tally.seconds += time.perf_counter() - started
        tally.games += 1
        tally.moves += played
        tally.turns += state.turn
        tally.unfinished += state.outcome().reason == "turn_limit"


def catanatron_games() -> Callable[[], Any] | None:
    """What makes a Catanatron game of four ``RandomPlayer``s (to be played after ``random.seed``:
    Catanatron draws from the global random module); None if Catanatron is not installed."""
    try:
        from catanatron import Color, Game, RandomPlayer
    except ImportError:
        return None
    colours = (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)
    return lambda: Game([RandomPlayer(colour) for colour in colours])


def catanatron_runner() -> Callable[[range, Tally], None] | None:
    new_catanatron_game = catanatron_games()
    if new_catanatron_game is None:
        return None

    def run(seeds: range, tally: Tally) -> None:
        for seed in seeds:
            random.seed(seed)
            started = time.perf_counter()
            game = new_catanatron_game()
            winner = game.play()
            tally.seconds += time.perf_counter() - started
            tally.games += 1
            tally.moves += len(game.state.actions)
            tally.turns += game.state.num_turns
            tally.unfinished += winner is None
            tally.by_type.update(action.action_type.name.lower() for action in game.state.actions)

    return run


def all_moves_per_game(seeds: range) -> Counter[str]:
    """Mean moves per game by type, counting those the engine plays by itself (untimed, same seeds)."""
    counted: Counter[str] = Counter()
    original = dict(PLAYS)

    def counting(name: str, play: Callable) -> Callable:
        def wrapped(state, move) -> None:
            counted[name] += 1
            play(state, move)

        return wrapped

    for name, play in original.items():  # the stage functions apply and settle look up
        PLAYS[name] = counting(name, play)
    try:
        for seed in seeds:
            playout.play_random(new_game(seed), chooser_for(seed))
    finally:
        PLAYS.update(original)
    if not counted:
        raise SystemExit("no move was counted: the engine no longer plays moves through moves.PLAYS")
    return Counter({name: count / len(seeds) for name, count in counted.items()})


def spread(values: list[float], unit: str, digits: int = 1) -> str:
    return (
        f"min {min(values):.{digits}f}  median {statistics.median(values):.{digits}f}"
        f"  max {max(values):.{digits}f} {unit}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=240, help="games per contestant per run (each run its own seeds)"
    )
    parser.add_argument("--blocks", type=int, default=4, help="alternating blocks per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--referee-only", action="store_true", help="only this engine's referee path (comparing checkouts)"
    )
    args = parser.parse_args()
    if args.referee_only:
        referee_only(args.games, args.runs)
        return
    theirs = catanatron_runner()
    per_block = max(1, args.games // args.blocks)
    runs: list[tuple[Tally, Tally, Tally]] = []
    print(f"random play, {SEATS} seats, variant {VARIANT}, trades between seats off, turn limit 1000")
    print(f"engine: {engine_source()}, version {GAME.version}")
    print(describe())
    for run in range(args.runs):
        path, alone, rival = Tally("ours, referee path"), Tally("ours, engine alone"), Tally("catanatron")
        for block in range(args.blocks):
            first = run * per_block * args.blocks + block * per_block
            seeds = range(first, first + per_block)
            referee_path(seeds, path)
            if theirs is not None:
                theirs(seeds, rival)
            engine_alone(seeds, alone)
        runs.append((path, alone, rival))
        print(f"run {run + 1} (load average {load()})")
        for tally in (path, alone, rival) if theirs is not None else (path, alone):
            print("  " + tally.line())
        if theirs is not None:
            print(f"  ratio referee path / catanatron {rate(path) / rate(rival):.2f}x (goal {GOAL:.0f}x)")
    path, alone, rival = runs[0]
    by_type = all_moves_per_game(range(path.games))
    print(f"ours: mean game {sum(by_type.values()):7.1f} moves with forced ones, of which")
    print("  " + ", ".join(f"{name} {count:.1f}" for name, count in by_type.most_common(8)))
    print(f"over {len(runs)} runs of {path.games} games each (load average at the end: {load()}):")
    print(f"  ours, referee path   {spread([rate(r[0]) for r in runs], 'games/s')}")
    print(f"  ours, engine alone   {spread([rate(r[1]) for r in runs], 'games/s')}")
    if theirs is None:
        print("catanatron is not installed (pip install -e '.[bench]'): measured this engine alone, no ratio")
        return
    kinds = rival.by_type.most_common(8)
    print(
        f"catanatron {metadata.version('catanatron')}: of its moves per game, "
        + ", ".join(f"{name} {count / rival.games:.1f}" for name, count in kinds)
    )
    print(f"  catanatron           {spread([rate(r[2]) for r in runs], 'games/s')}")
    ratios = [rate(r[0]) / rate(r[2]) for r in runs]
    alone_ratios = [rate(r[1]) / rate(r[2]) for r in runs]
    print(f"ratio referee path / catanatron, run by run: {spread(ratios, 'x', 2)}")
    print(f"ratio engine alone / catanatron, run by run: {spread(alone_ratios, 'x', 2)}")
    together = rate(pooled(r[0] for r in runs)) / rate(pooled(r[2] for r in runs))
    verdict = "met" if together >= GOAL else "not met"
    print(
        f"ratio referee path / catanatron over all {sum(r[0].games for r in runs)} games a side:"
        f" {together:.2f}x   goal {GOAL:.0f}x: {verdict}"
    )
    per_turn = turn_rate(pooled(r[0] for r in runs)) / turn_rate(pooled(r[2] for r in runs))
    ours_lengths = spread([r[0].turns / r[0].games for r in runs], "turns", 1)
    their_lengths = spread([r[2].turns / r[2].games for r in runs], "turns", 1)
    print(
        f"ratio referee path / catanatron in turns per second over all the games: {per_turn:.2f}x"
        f"   (mean turns a game, run by run: ours {ours_lengths}, catanatron's {their_lengths})"
    )
    print("(the ratio moves with the CPU; the work ratio does not: python bench/catan_instructions.py)")


def referee_only(games: int, runs: int) -> None:
    """The referee path alone, ``runs`` times over seeds ``0 .. games - 1``: games and turns per second."""
    print(f"referee path only, {games} games a run on seeds 0 to {games - 1}, {runs} runs")
    print(f"engine: {engine_source()}, version {GAME.version}")
    print(describe())
    tallies = []
    for _ in range(runs):
        tally = Tally("ours, referee path")
        referee_path(range(games), tally)
        tallies.append(tally)
        print("  " + tally.line())
    print(f"  per second: {spread([rate(t) for t in tallies], 'games')}")
    print(f"  per second: {spread([turn_rate(t) for t in tallies], 'turns', 0)}")


def engine_source() -> str:
    """Where the engine measured was imported from (``PYTHONPATH=<a checkout>`` measures that one)."""
    return str(Path(referee.__file__).resolve().parent.parent)


def pooled(tallies: Iterable[Tally]) -> Tally:
    """The runs' games and seconds added up: the goal's ratio, over every game played."""
    total = Tally("all runs")
    for tally in tallies:
        total.games += tally.games
        total.turns += tally.turns
        total.seconds += tally.seconds
    return total


def rate(tally: Tally) -> float:
    return tally.games / tally.seconds


def turn_rate(tally: Tally) -> float:
    """Turns per second: a check on the games-per-second ratio, which also moves with the games'
    lengths. Ours are the same seeded games in every process; Catanatron's are the same within a
    process but not from one to the next (seeds 0 to 119 gave 303 to 348 turns a game on average
    in processes so far, ``PYTHONHASHSEED`` fixed or not)."""
    return tally.turns / tally.seconds


if __name__ == "__main__":
    main()
