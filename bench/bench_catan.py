"""Catan's engine under random play, measured in the same run as Catanatron's random players.

Four random seats on the ``base`` variant (no volcano), random board, trades between seats off (the
setting closest to Catanatron's rules), the engine's default turn limit (1000 turns, Catanatron's
too). The two engines are timed in alternating blocks of games, so that load from other work on the
machine falls on both alike. Prints games and moves per second for each, the ratio, and the mean
game length in moves and turns.

Moves are not the same unit in the two engines: here a move is a decision a bot was asked for (a
roll with no card to play first, or the end of a turn with nothing else to do, is played by the
engine and not counted); Catanatron counts every action, forced ones included. A second, untimed
pass over the same seeds counts our engine's forced moves too, for a like-for-like length.

Catanatron is an optional, bench-only dependency (``pip install catanatron``); without it the
script measures this engine alone and says so.

    python bench/bench_catan.py [--games 200] [--blocks 5]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata

import playout

from referee.catan_volcano import GAME
from referee.catan_volcano.moves import MOVES, MoveKind
from referee.rng import Rng

VARIANT = "base"
SEATS = 4
OPTIONS = {"trades": False, "board": "random"}


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


def ours(seeds: range, tally: Tally) -> None:
    for seed in seeds:
        started = time.perf_counter()
        state = GAME.start(VARIANT, SEATS, seed=seed, options=OPTIONS)
        played = playout.play_random(state, Rng(seed))
        tally.seconds += time.perf_counter() - started
        tally.games += 1
        tally.moves += played
        tally.turns += state.turn
        tally.unfinished += state.outcome().reason == "turn_limit"


def catanatron_runner() -> Callable[[range, Tally], None] | None:
    try:
        from catanatron import Color, Game, RandomPlayer
    except ImportError:
        return None

    colours = (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)

    def run(seeds: range, tally: Tally) -> None:
        for seed in seeds:
            random.seed(seed)  # Catanatron draws from the global random module
            started = time.perf_counter()
            game = Game([RandomPlayer(colour) for colour in colours])
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
    original = dict(MOVES)

    def counting(name: str, play: Callable) -> Callable:
        def wrapped(state, key) -> None:
            counted[name] += 1
            play(state, key)

        return wrapped

    for name, kind in original.items():
        MOVES[name] = MoveKind(kind.fields, counting(name, kind.play))
    try:
        for seed in seeds:
            playout.play_random(GAME.start(VARIANT, SEATS, seed=seed, options=OPTIONS), Rng(seed))
    finally:
        MOVES.update(original)
    return Counter({name: count / len(seeds) for name, count in counted.items()})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--blocks", type=int, default=5)
    args = parser.parse_args()
    theirs = catanatron_runner()
    mine, rival = Tally("catan-volcano (ours)"), Tally("catanatron")
    per_block = max(1, args.games // args.blocks)
    for block in range(args.blocks):
        seeds = range(block * per_block, (block + 1) * per_block)
        ours(seeds, mine)
        if theirs is not None:
            theirs(seeds, rival)
    print(f"random play, {SEATS} seats, variant {VARIANT}, trades between seats off, turn limit 1000")
    print(mine.line())
    by_type = all_moves_per_game(range(mine.games))
    print(f"{'':<22} mean game {sum(by_type.values()):7.1f} moves with forced ones, of which")
    print(f"{'':<22} " + ", ".join(f"{name} {count:.1f}" for name, count in by_type.most_common(8)))
    if theirs is None:
        print("catanatron is not installed (pip install catanatron): measured this engine alone")
        return
    print(rival.line())
    kinds = rival.by_type.most_common(8)
    print(f"{'':<22} of which " + ", ".join(f"{name} {count / rival.games:.1f}" for name, count in kinds))
    print(f"catanatron {metadata.version('catanatron')}")
    ratio = (mine.games / mine.seconds) / (rival.games / rival.seconds)
    print(f"ratio ours / catanatron: {ratio:.2f}x games per second")


if __name__ == "__main__":
    main()
