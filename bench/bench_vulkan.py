"""Vulkan!'s engine speed under random play, per seat count, with a baseline from the same run.

Two ways of playing, both seeded and uniform over the legal moves:

- ``bot view``: what the runner does each turn: list the legal moves as JSON, apply one;
- ``engine``: the engine's own canonical moves (``legal_keys`` / ``apply_key``), no JSON.

The baseline is a JSON round trip of a mid-game state (``json.loads(json.dumps(state.to_json()))``),
timed in the same run, so "a move costs N round trips" means the same on any machine.

    python bench/bench_vulkan.py [--games 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

import playout

from referee.rng import Rng
from referee.vulkan import GAME, VulkanState

MODES = [("competitive", 2), ("competitive", 3), ("competitive", 4), ("solitaire", 1), ("cooperative", 4)]


def play_bot_view(state: VulkanState, chooser: Rng) -> int:
    return playout.play_random(state, chooser)


def play_engine(state: VulkanState, chooser: Rng) -> int:
    return playout.play_random(state, chooser, state.legal_keys, state.apply_key)


def timed_games(variant: str, seats: int, games: int, seed: int, play: Callable[[VulkanState, Rng], int]):
    """(seconds, moves) for ``games`` seeded random games, layouts alternating classic and random."""
    moves = 0
    started = time.perf_counter()
    for game in range(games):
        layout = "classic" if game % 2 == 0 else "random"
        state = GAME.start(variant, seats=seats, seed=seed + game, options={"layout": layout})
        moves += play(state, Rng(seed + game))
    return time.perf_counter() - started, moves


def baseline_round_trip(seed: int, samples: int = 300) -> float:
    """Seconds for one JSON round trip of a state eight moves into a 4-seat game."""
    state = GAME.start("competitive", seats=4, seed=seed)
    chooser = Rng(seed)
    for _ in range(8):
        state.apply(chooser.choice(state.legal_moves()))
    started = time.perf_counter()
    for _ in range(samples):
        json.loads(json.dumps(state.to_json()))
    return (time.perf_counter() - started) / samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per seat count and way of playing")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    unit = baseline_round_trip(args.seed)
    print(f"baseline: one JSON round trip of a mid-game state = {unit * 1e6:.0f} us")
    print(f"{args.games} random games per line, layouts alternating classic / random\n")
    header = (
        f"{'variant':<12} {'seats':>5} {'way':<9} {'games/s':>8} {'moves/s':>8} {'moves/game':>10} "
        f"{'move = N trips':>14}"
    )
    print(header)
    print("-" * len(header))
    for variant, seats in MODES:
        for way, play in (("bot view", play_bot_view), ("engine", play_engine)):
            seconds, moves = timed_games(variant, seats, args.games, args.seed, play)
            per_move = seconds / moves
            print(
                f"{variant:<12} {seats:>5} {way:<9} {args.games / seconds:>8.0f} {moves / seconds:>8.0f} "
                f"{moves / args.games:>10.1f} {per_move / unit:>14.2f}"
            )


if __name__ == "__main__":
    main()
