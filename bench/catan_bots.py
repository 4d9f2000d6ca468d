"""How the Catan reference bots fare: one ``--hero`` seat against the others (``--opponents``).

Each game seats one hero bot (its seat rotates with the game number) and ``seats - 1`` opponents on
the given variant, with the engine's default options unless told otherwise; every bot gets the
request an HTTP bot would (seat, observation, legal moves, the time control of ``--move-ms``).
Prints the hero's win rate with its 95% Wilson interval (a shared first place is no win), its mean
points, the mean game length and the hero's time per decision.

The defaults measure ``heuristic`` against three ``random`` seats; ``--hero search --opponents
heuristic`` measures the planning bot against the best of the others, with its search budget set by
``--nodes`` and ``--worlds`` (see :mod:`bots.catan_search`).

    python bench/catan_bots.py [--games 200] [--variant gold] [--seats 4] [--no-trades]
                               [--hero heuristic] [--opponents random] [--nodes 1500] [--worlds 2]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from arena.cli.tally import wilson_interval as wilson
from bots.base import Bot
from bots.catan_search import NODE_BUDGET, WORLDS, SearchBot
from bots.catan_volcano import BOTS
from referee.registry import get_game

GAME_ID = "catan-volcano"
MOVE_CAP = 100_000


def make(name: str, seed: int, args: argparse.Namespace) -> Bot:
    if name == "search":
        return SearchBot(seed, node_budget=args.nodes, worlds=args.worlds)
    return BOTS[name](seed)


def play(seed: int, hero: int, args: argparse.Namespace, options: dict) -> tuple[dict, list[float]]:
    """One game; returns a summary of the outcome and the hero's seconds per decision."""
    game = get_game(GAME_ID)
    state = game.start(args.variant, seats=args.seats, seed=seed, options=options)
    names = [args.hero if seat == hero else args.opponents for seat in range(args.seats)]
    bots = [make(name, seed * 10 + seat, args) for seat, name in enumerate(names)]
    clock = {"move_ms": args.move_ms, "bank_ms": 0}
    thinking: list[float] = []
    moves = 0
    while state.outcome() is None:
        seat = state.current_seat
        assert seat is not None
        request = {
            "seat": seat,
            "observation": state.observation(seat),
            "legal_moves": state.legal_moves(),
            "time": clock,
        }
        started = time.perf_counter()
        move = bots[seat].choose(request)
        if seat == hero:
            thinking.append(time.perf_counter() - started)
        state.apply(move)
        moves += 1
        if moves > MOVE_CAP:
            raise RuntimeError(f"game {seed} did not end in {MOVE_CAP} moves")
    outcome = state.outcome()
    assert outcome is not None
    won = outcome.places[hero] == 1 and outcome.places.count(1) == 1
    return {
        "won": won,
        "reason": outcome.reason,
        "points": outcome.scores[hero],
        "turns": outcome.details["turns"],
        "moves": moves,
    }, thinking


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--variant", default="gold")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--no-trades", action="store_true")
    parser.add_argument("--hero", default="heuristic", choices=sorted(BOTS))
    parser.add_argument("--opponents", default="random", choices=sorted(BOTS))
    parser.add_argument("--nodes", type=int, default=NODE_BUDGET, help="search: positions per decision")
    parser.add_argument("--worlds", type=int, default=WORLDS, help="search: determinizations per decision")
    parser.add_argument("--move-ms", type=int, default=2000, help="the time control's move_ms in requests")
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()
    options = {"trades": not args.no_trades}
    started = time.perf_counter()
    wins, moves, points, turns = 0, 0, 0.0, 0
    reasons: Counter[str] = Counter()
    thinking: list[float] = []
    for seed in range(args.first_seed, args.first_seed + args.games):
        summary, thought = play(seed, seed % args.seats, args, options)
        wins += summary["won"]
        moves += summary["moves"]
        points += summary["points"]
        turns += summary["turns"]
        reasons[summary["reason"]] += 1
        thinking.extend(thought)
    elapsed = time.perf_counter() - started
    n = args.games
    low, high = wilson(wins, n)
    budget = f" (nodes {args.nodes}, worlds {args.worlds})" if args.hero == "search" else ""
    print(f"catan-volcano {args.variant}, {args.seats} seats, trades {'off' if args.no_trades else 'on'}")
    print(
        f"{args.hero}{budget} vs {args.seats - 1} x {args.opponents}:"
        f" won {wins}/{n} = {100.0 * wins / n:.1f}%"
        f" (95% Wilson {100 * low:.1f}-{100 * high:.1f}%; even share {100 / args.seats:.1f}%)"
    )
    print(
        f"{args.hero} mean points {points / n:.2f};"
        f" mean game {turns / n:.1f} turns, {moves / n:.0f} bot moves"
    )
    if thinking:
        thinking.sort()
        print(
            f"{args.hero} per decision: mean {1000 * sum(thinking) / len(thinking):.2f} ms,"
            f" 99th percentile {1000 * thinking[int(0.99 * (len(thinking) - 1))]:.1f} ms,"
            f" max {1000 * thinking[-1]:.1f} ms over {len(thinking)} decisions"
        )
    print(f"endings: {dict(reasons)}; {elapsed:.1f} s")


if __name__ == "__main__":
    main()
