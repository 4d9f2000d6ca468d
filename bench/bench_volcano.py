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
import time
from collections import Counter
from dataclasses import dataclass, field

from referee.registry import get_game
from referee.rng import Rng

GAME_ID = "volcano"


@dataclass
class Tally:
    games: int = 0
    moves: int = 0
    legal_s: float = 0.0
    apply_s: float = 0.0
    observe_s: float = 0.0
    baseline_s: float = 0.0
    reasons: Counter[str] = field(default_factory=Counter)

    @property
    def play_s(self) -> float:
        return self.legal_s + self.apply_s


def random_playouts(seats: int, games: int, options: dict) -> Tally:
    game = get_game(GAME_ID)
    tally = Tally()
    for seed in range(games):
        state = game.new_state(game.default_variant, seats=seats, seed=seed, options=options)
        chooser = Rng(seed + 10_000)
        moves_before = tally.moves
        while state.outcome() is None:
            started = time.perf_counter()
            moves = state.legal_moves()
            middle = time.perf_counter()
            state.apply(chooser.choice(moves))
            ended = time.perf_counter()
            state.observation(state.current_seat or 0)
            tally.observe_s += time.perf_counter() - ended
            tally.legal_s += middle - started
            tally.apply_s += ended - middle
            tally.moves += 1
        tally.games += 1
        tally.reasons[state.outcome().reason] += 1
        tally.baseline_s += bare_loop(tally.moves - moves_before)
    return tally


class _BareState:
    """Lists 40 fresh small moves each time and applies nothing: the driver loop's own cost."""

    def legal_moves(self) -> list[dict]:
        return [{"type": "step", "from": [i // 8, i % 5], "dir": "N"} for i in range(40)]

    def apply(self, move: dict) -> None:
        if not isinstance(move, dict):
            raise ValueError(move)


def bare_loop(moves: int) -> float:
    """Seconds for ``moves`` iterations of the playout loop against :class:`_BareState`."""
    state, chooser = _BareState(), Rng(1)
    started = time.perf_counter()
    for _ in range(moves):
        state.apply(chooser.choice(state.legal_moves()))
    return time.perf_counter() - started


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
            per_move = 1e6 / tally.moves
            endings = ", ".join(f"{reason} {count}" for reason, count in sorted(tally.reasons.items()))
            print(
                f"{seats:>5} {'on' if power_play else 'off':>10} {tally.games / tally.play_s:>8.1f}"
                f" {tally.moves / tally.play_s:>9.0f} {tally.moves / tally.games:>10.0f}"
                f" {tally.legal_s * per_move:>8.1f} {tally.apply_s * per_move:>8.1f}"
                f" {tally.observe_s * per_move:>10.1f} {tally.play_s / tally.baseline_s:>10.1f}  {endings}"
            )
    print("games/s and moves/s count legal_moves + apply (what a playout needs); observe is extra,")
    print("paid by the match runner on every move; x baseline = (legal + apply) / bare driver loop.")


if __name__ == "__main__":
    main()
