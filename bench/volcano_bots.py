"""Volcano's reference bots: search against greedy, greedy against random, the worth of watching replies.

First the planning bot (``search``, :mod:`bots.volcano_search`) against greedy, the best bot before
it: two seats, search in seat 0 for half the games and seat 1 for the other half; three seats,
search against two greedy bots, its seat rotating 0, 1, 2. The search bot gets a budget of
``--search-ms`` per move (larger than its default cap, so that depth and beam, not the machine's
load, bound the search and the games are reproducible) with ``--depth`` and ``--beam``.

Two seats: greedy against one random bot, greedy in seat 0 for half the games and seat 1 for the
other half. Three seats: greedy against two random bots, greedy's seat rotating 0, 1, 2. Then, on
two seats, seats rotated, the next seat's reply counted three ways (``bots.volcano.REPLY_PENALTIES``):
greedy as registered (``win``: only a reply that wins counts) against greedy ignoring replies
(``none``), and greedy counting a share of every reply (``any``) against ``none``. A win is first
place alone; a shared first place is counted apart. Every game has its own match seed and bot
seeds, so the figures are reproducible.

With ``--demo``, instead: the wall time of the Volcano part of ``arena demo`` played through the real
match runner with in-process agents (every pairing of the reference bots, two games each, two seats,
1000 ms a move and no bank, as the demo plays it), with and without the search bot: what adding it
costs the demo, less the platform's own overhead (HTTP, queue), which does not depend on the bots.

    python bench/volcano_bots.py [--games 200] [--only search] [--seats 2 3] [--search-ms 5000]
    (games per line, at least 200 for the docs; --only search runs the search lines alone; --first N
    starts at game N, so a line can be played in parts at once: the parts' games are the line's games)
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from arena.cli.tally import wilson_interval as wilson
from bots.base import Bot, RandomBot
from bots.volcano import GreedyBot
from bots.volcano_search import DEFAULT_BEAM, DEFAULT_DEPTH, SearchBot
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


def run(line: Line, games: int, start: int = 0) -> None:
    """Play games ``start`` to ``start + games - 1`` of the line (a long line may be run in parts)."""
    numbers = range(start, start + games)
    started = time.perf_counter()
    for index in numbers:
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
    played = [sum(index % line.seats == seat for index in numbers) for seat in range(line.seats)]
    per_seat = ", ".join(f"seat {seat} {line.by_seat[seat]}/{played[seat]}" for seat in range(line.seats))
    endings = ", ".join(f"{reason} {count}" for reason, count in sorted(line.reasons.items()))
    print(f"{line.title}, {line.seats} seats: won {line.wins}/{games} = {line.wins / games:.1%}", end="")
    print(f" (95% interval {low:.1%}-{high:.1%}); shared first places {line.shared}")
    print(f"  by the tested bot's seat: {per_seat}")
    print(f"  mean turns {line.turns / games:.1f}, mean moves {line.moves / games:.1f}; endings: {endings}")
    print(f"  {elapsed:.1f} s, {games / elapsed:.2f} games/s")


def demo_round_robin(names: list[str]) -> tuple[float, int]:
    """Seconds and moves for every pairing of ``names`` playing two games, seats swapped."""
    from itertools import combinations

    from bots.volcano import BOTS
    from referee.match import MatchSpec, TimeControl
    from referee.runner import Player, run_match
    from referee.transport.agents import LocalAgent

    started, moves = time.perf_counter(), 0
    for number, pair in enumerate(combinations(names, 2)):
        for game, seating in enumerate((pair, pair[::-1])):
            spec = MatchSpec.build(
                game="volcano", bots=list(seating), seed=derive_seed(1, number), time=TimeControl(1000, 0)
            )
            players = [
                Player(name, LocalAgent(BOTS[name](derive_seed(game, seat))))
                for seat, name in enumerate(seating)
            ]
            moves += len(run_match(f"demo-{number}-{game}", spec, players).moves)
    return time.perf_counter() - started, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per line")
    parser.add_argument("--first", type=int, default=0, help="first game's number (a line in parts)")
    parser.add_argument("--only", choices=["search", "greedy"], help="only the search lines, or the others")
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3], help="seat counts, search lines")
    parser.add_argument("--search-ms", type=float, default=5000.0, help="the search bot's time cap per move")
    parser.add_argument("--depth", type=int, default=DEFAULT_DEPTH, help="the search bot's levels")
    parser.add_argument("--beam", type=int, default=DEFAULT_BEAM, help="the search bot's beam")
    parser.add_argument("--demo", action="store_true", help="time the demo's Volcano round robin instead")
    args = parser.parse_args()
    if args.demo:
        for names in (["random", "greedy"], ["random", "greedy", "search"]):
            seconds, moves = demo_round_robin(names)
            print(f"demo round robin of {', '.join(names)}: {seconds:.1f} s wall, {moves} moves")
        return

    def greedy(reply_penalty: str) -> Factory:
        return lambda seed: GreedyBot(seed, reply_penalty=reply_penalty)

    def search(seed: int) -> Bot:
        return SearchBot(seed, budget_ms=args.search_ms, depth=args.depth, beam=args.beam)

    print(f"volcano/{GAME.default_variant}, default options")
    if args.only != "greedy":
        budget = f"search (cap {args.search_ms:.0f} ms a move, depth {args.depth}, beam {args.beam})"
        budget += " vs greedy"
        for seats in args.seats:
            run(Line(budget, seats, search, GreedyBot), args.games, args.first)
    if args.only == "search":
        return
    for line in (
        Line("greedy vs random", 2, GreedyBot, RandomBot),
        Line("greedy vs random", 3, GreedyBot, RandomBot),
        Line("greedy (reply penalty win) vs greedy (none)", 2, greedy("win"), greedy("none")),
        Line("greedy (reply penalty any) vs greedy (none)", 2, greedy("any"), greedy("none")),
    ):
        run(line, args.games)


if __name__ == "__main__":
    main()
