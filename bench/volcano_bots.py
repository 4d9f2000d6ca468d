"""Volcano's reference bots: greedy's win rate against random, and what watching the next seat is worth.

Two seats: greedy against one random bot, greedy in seat 0 for half the games and seat 1 for the
other half. Three seats: greedy against two random bots, greedy's seat rotating 0, 1, 2. Then, on
two seats, seats rotated, the next seat's reply counted three ways (``bots.volcano.REPLY_PENALTIES``):
greedy as registered (``win``: only a reply that wins counts) against greedy ignoring replies
(``none``), and greedy counting a share of every reply (``any``) against ``none``. A win is first
place alone; a shared first place is counted apart. Every game has its own match seed and bot
seeds, so the figures are reproducible.

    python bench/volcano_bots.py [--games 200]   (games per line, at least 200 for the docs)
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from winrate import wilson

from bots.base import Bot, RandomBot
from bots.volcano import GreedyBot
from referee.rng import derive_seed
from referee.volcano import GAME

Factory = Callable[[int], Bot]


@dataclass
class Line:
    """One match-up: the tested bot in a rotating seat against the others."""

    title: str
    seats: int
    tested: Factory
    other: Factory
    wins: int = 0
    shared: int = 0
    by_seat: Counter[int] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    turns: int = 0
    moves: int = 0


def play(seed: int, factories: list[Factory]) -> tuple[tuple[int, ...], str, int, int]:
    """One game; returns the places, the reason, the turns and the moves."""
    state = GAME.start(GAME.default_variant, seats=len(factories), seed=seed)
    bots = [factory(derive_seed(seed, "bench-bot", seat)) for seat, factory in enumerate(factories)]
    moves = 0
    while (seat := state.current_seat) is not None:
        request = {"seat": seat, "observation": state.observation(seat), "legal_moves": state.legal_moves()}
        state.apply(bots[seat].choose(request))
        moves += 1
    outcome = state.outcome()
    assert outcome is not None
    return outcome.places, outcome.reason, state.turns_played, moves


def run(line: Line, games: int) -> None:
    started = time.perf_counter()
    for index in range(games):
        tested_seat = index % line.seats
        factories = [line.other] * line.seats
        factories[tested_seat] = line.tested
        seed = derive_seed(line.seats, line.title, index)
        places, reason, turns, moves = play(seed, factories)
        first = [seat for seat, place in enumerate(places) if place == 1]
        if first == [tested_seat]:
            line.wins += 1
            line.by_seat[tested_seat] += 1
        elif tested_seat in first:
            line.shared += 1
        line.reasons[reason] += 1
        line.turns += turns
        line.moves += moves
    elapsed = time.perf_counter() - started
    low, high = wilson(line.wins, games)
    played = [len(range(seat, games, line.seats)) for seat in range(line.seats)]
    per_seat = ", ".join(f"seat {seat} {line.by_seat[seat]}/{played[seat]}" for seat in range(line.seats))
    endings = ", ".join(f"{reason} {count}" for reason, count in sorted(line.reasons.items()))
    print(f"{line.title}, {line.seats} seats: won {line.wins}/{games} = {line.wins / games:.1%}", end="")
    print(f" (95% interval {low:.1%}-{high:.1%}); shared first places {line.shared}")
    print(f"  by the tested bot's seat: {per_seat}")
    print(f"  mean turns {line.turns / games:.1f}, mean moves {line.moves / games:.1f}; endings: {endings}")
    print(f"  {elapsed:.1f} s, {games / elapsed:.2f} games/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per line")
    args = parser.parse_args()

    def greedy(reply_penalty: str) -> Factory:
        return lambda seed: GreedyBot(seed, reply_penalty=reply_penalty)

    print(f"volcano/{GAME.default_variant}, default options")
    for line in (
        Line("greedy vs random", 2, GreedyBot, RandomBot),
        Line("greedy vs random", 3, GreedyBot, RandomBot),
        Line("greedy (reply penalty win) vs greedy (none)", 2, greedy("win"), greedy("none")),
        Line("greedy (reply penalty any) vs greedy (none)", 2, greedy("any"), greedy("none")),
    ):
        run(line, args.games)


if __name__ == "__main__":
    main()
