"""How long random Catan games run, in this engine and in Catanatron: mean, spread, standard error.

:mod:`bench_catan` compares games per second. Random games vary a lot in length (a standard
deviation of about 130 turns on a mean of about 330), so the mean length of the 120 games a run
plays is off the engine's true mean by some 12 turns (4%) either way, whichever seeds are used; and
Catanatron's games from the same seeds are not the same from one process to the next. This
script plays many games of each, the same setting as ``bench_catan`` (4 random seats, ``base``,
random board, trades between seats off, turn limit 1000), and prints each engine's mean length with
its standard error, so that whether the two play games of the same length on average, and what
games per second at equal length are, rests on a measurement. Untimed.

    python bench/catan_game_lengths.py [--games 1000] [--first 120]
"""

from __future__ import annotations

import argparse
import random
import statistics

import bench_catan
import playout

from referee.catan_volcano import GAME


def ours(games: int) -> list[int]:
    lengths = []
    for seed in range(games):
        state = bench_catan.new_game(seed)
        playout.play_random(state, bench_catan.chooser_for(seed))
        lengths.append(state.turn)
    return lengths


def catanatron(games: int) -> list[int] | None:
    new_game = bench_catan.catanatron_games()
    if new_game is None:
        return None
    lengths = []
    for seed in range(games):
        random.seed(seed)  # as bench_catan seeds it
        game = new_game()
        game.play()
        lengths.append(game.state.num_turns)
    return lengths


def summary(name: str, lengths: list[int], first: int) -> str:
    mean, spread = statistics.mean(lengths), statistics.stdev(lengths)
    return (
        f"{name:<11} {len(lengths)} games: mean {mean:6.1f} turns, standard deviation {spread:6.1f},"
        f" standard error of the mean {spread / len(lengths) ** 0.5:4.1f};"
        f" the first {first} games (a bench_catan run): mean {statistics.mean(lengths[:first]):6.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--first", type=int, default=120, help="also the mean of this many first games")
    args = parser.parse_args()
    mine = ours(args.games)
    print(f"engine version {GAME.version}")
    print(summary("ours", mine, args.first))
    theirs = catanatron(args.games)
    if theirs is None:
        print("catanatron is not installed (pip install -e '.[bench]'): this engine only")
        return
    print(summary("catanatron", theirs, args.first))
    difference = statistics.mean(mine) - statistics.mean(theirs)
    error = (statistics.variance(mine) / len(mine) + statistics.variance(theirs) / len(theirs)) ** 0.5
    print(f"difference of the means {difference:+.1f} turns, standard error {error:.1f}")


if __name__ == "__main__":
    main()
