"""How the Catan reference bots fare: ``heuristic`` against three ``random`` seats.

Each game seats one heuristic bot (its seat rotates with the game number) and three random bots on
the given variant, with the engine's default options unless told otherwise; the bots get the same
request an HTTP bot would (seat, observation, legal moves). Prints the heuristic bot's win rate,
its mean points and the mean game length.

    python bench/catan_bots.py [--games 200] [--variant gold] [--seats 4] [--no-trades]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from bots.catan_volcano import BOTS
from referee.registry import get_game

GAME_ID = "catan-volcano"
MOVE_CAP = 100_000


def play(variant: str, seats: int, seed: int, hero: int, options: dict) -> tuple[int, dict]:
    """One game; returns the number of bot moves and a summary of the outcome."""
    game = get_game(GAME_ID)
    state = game.start(variant, seats=seats, seed=seed, options=options)
    bots = [BOTS["heuristic" if seat == hero else "random"](seed * 10 + seat) for seat in range(seats)]
    moves = 0
    while state.outcome() is None:
        seat = state.current_seat
        assert seat is not None
        request = {"seat": seat, "observation": state.observation(seat), "legal_moves": state.legal_moves()}
        state.apply(bots[seat].choose(request))
        moves += 1
        if moves > MOVE_CAP:
            raise RuntimeError(f"game {seed} did not end in {MOVE_CAP} moves")
    outcome = state.outcome()
    assert outcome is not None
    won = outcome.places[hero] == 1 and outcome.places.count(1) == 1
    return moves, {
        "won": won,
        "reason": outcome.reason,
        "points": outcome.scores[hero],
        "turns": outcome.details["turns"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--variant", default="gold")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--no-trades", action="store_true")
    args = parser.parse_args()
    options = {"trades": not args.no_trades}
    started = time.perf_counter()
    wins, moves, points, turns = 0, 0, 0.0, 0
    reasons: Counter[str] = Counter()
    for seed in range(args.games):
        played, summary = play(args.variant, args.seats, seed, seed % args.seats, options)
        wins += summary["won"]
        moves += played
        points += summary["points"]
        turns += summary["turns"]
        reasons[summary["reason"]] += 1
    elapsed = time.perf_counter() - started
    n = args.games
    print(f"catan-volcano {args.variant}, {args.seats} seats, trades {'off' if args.no_trades else 'on'}")
    print(f"heuristic vs {args.seats - 1} x random: won {wins}/{n} = {100.0 * wins / n:.1f}%")
    print(
        f"heuristic mean points {points / n:.2f}; mean game {turns / n:.1f} turns, {moves / n:.0f} bot moves"
    )
    print(f"endings: {dict(reasons)}; {elapsed:.1f} s")


if __name__ == "__main__":
    main()
