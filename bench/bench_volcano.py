"""Volcano's engine under random play: games and moves per second, next to a bare driver loop.

Random playouts of the default variant (2 and 3 seats, Power Play on and off), timing the engine's
``legal_moves``, ``apply`` and ``observation`` separately. The baseline, measured in the same run, is
the same driver loop against a stand-in state that lists a fixed 40 small moves and applies nothing:
the least any engine behind this interface can cost a move. It runs after every game for as many
moves as that game had, so both see the same load on a shared machine. The ratio engine / baseline
is how many such bare moves one Volcano move costs, a figure that carries across machines better
than raw speed.

    python bench/bench_volcano.py [--games 40]
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass, field

import playout

from referee.registry import get_game
from referee.rng import Rng

GAME_ID = "volcano"


@dataclass
class Tally(playout.Tally):
    reasons: Counter[str] = field(default_factory=Counter)


def bare_moves() -> list[dict]:
    """What the stand-in state lists each time: 40 fresh small moves."""
    return [{"type": "step", "from": [i // 8, i % 5], "dir": "N"} for i in range(40)]


def random_playouts(seats: int, games: int, options: dict) -> Tally:
    game = get_game(GAME_ID)
    tally = Tally()
    for seed in range(games):
        state = game.start(game.default_variant, seats=seats, seed=seed, options=options)
        outcome = playout.timed_playout(state, Rng(seed + 10_000), tally, bare_moves)
        tally.reasons[outcome.reason] += 1
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per configuration")
    args = parser.parse_args()

    print(f"{GAME_ID}: random play, {args.games} games per line, default limits (30 steps, 300 turns)")
    header = f"{'seats':>5} {'power play':>10} {'games/s':>8} {'moves/s':>9} {'moves/game':>10}"
    header += f" {'legal us':>8} {'apply us':>8} {'observe us':>10} {'x baseline':>10}  endings"
    print(header)
    for seats in (2, 3):
        for power_play in (True, False):
            tally = random_playouts(seats, args.games, {"power_play": power_play})
            us = tally.per_move_us
            endings = ", ".join(f"{reason} {count}" for reason, count in sorted(tally.reasons.items()))
            print(
                f"{seats:>5} {'on' if power_play else 'off':>10} {tally.games / tally.play_s:>8.1f}"
                f" {tally.moves / tally.play_s:>9.0f} {tally.moves / tally.games:>10.0f}"
                f" {us(tally.legal_s):>8.1f} {us(tally.apply_s):>8.1f}"
                f" {us(tally.observe_s):>10.1f} {tally.x_baseline:>10.1f}  {endings}"
            )
    print("games/s and moves/s count legal_moves + apply (what a playout needs); observe is extra,")
    print("paid by the match runner on every move; x baseline = (legal + apply) / bare driver loop.")


if __name__ == "__main__":
    main()
