"""Vulkan!'s reference bots against each other, in process on the engine: greedy against random, the
search bot against greedy, and the search bot's solitaire.

For each seat count (2, 3, 4) one greedy bot plays against random bots, sitting in each seat equally
often (game g puts it in seat g mod n). Each bot gets the protocol's move request, built as the
runner builds it. Printed per seat count: greedy's win rate (place 1, shared or not), its mean place
against the random seats', the mean scores, and greedy's mean and slowest decision. The team
variants get a line each too: the team's win rate and mean team score with every seat greedy, then
with every seat random.

The search bot's lines (``--only search solitaire``):

- ``search against greedy``: two seats, the search bot in seat 0 for even games and seat 1 for odd
  ones, every game its own match seed (``--seed`` on) and bot seeds. A win is first place alone, a
  shared first place is counted apart; the 95% Wilson interval is the win rate's.
- ``search solitaire``: the search bot alone on seeded classic deals (seeds ``--seed`` on): the share
  won (every tile gathered), with its Wilson interval.

The search bot runs ``--playouts`` playouts per candidate and move (an iteration count, not the
clock), so these figures are reproducible.

    python bench/vulkan_bots.py [--games 240] [--seed 1] [--layout classic]
    python bench/vulkan_bots.py --only search solitaire --search-games 200 --playouts 8
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence

from arena.cli.tally import wilson_interval as wilson
from bots.base import Bot
from bots.vulkan import BOTS, GreedyBot
from bots.vulkan_search import SearchBot
from referee.game import Outcome
from referee.protocol import request_base
from referee.rng import derive_seed
from referee.vulkan import GAME


def play(
    variant: str,
    names: Sequence[str],
    seed: int,
    layout: str,
    clock: list[float] | None = None,
    factories: dict[str, Callable[[int], Bot]] | None = None,
    timed: str = "greedy",
) -> Outcome:
    """One game in process, each seat asked through a protocol move request. ``clock`` collects the
    seconds each decision of the ``timed`` bot took."""
    seats = len(names)
    state = GAME.start(variant, seats=seats, seed=seed, options={"layout": layout})
    makers = BOTS if factories is None else factories
    bots = [makers[name](derive_seed(seed, "bench-bot", seat)) for seat, name in enumerate(names)]
    while (seat := state.current_seat) is not None:
        request = request_base(
            kind="move",
            match_id=f"bench-{seed}",
            game=GAME.id,
            variant=variant,
            seat=seat,
            seats=seats,
            turn=state.turn,
            time={"move_ms": 2000, "bank_ms": 0},
            observation=state.observation(seat),
        )
        request["legal_moves"] = state.legal_moves()
        started = time.perf_counter()
        move = bots[seat].choose(request)
        if clock is not None and names[seat] == timed:
            clock.append(time.perf_counter() - started)
        state.apply(move)
    outcome = state.outcome()
    assert outcome is not None
    return outcome


def head_to_head(seats: int, games: int, seed: int, layout: str) -> str:
    wins, places, other_places, scores, other_scores, clock = 0, [], [], [], [], []
    for game in range(games):
        greedy_seat = game % seats
        names = ["greedy" if s == greedy_seat else "random" for s in range(seats)]
        outcome = play("competitive", names, seed + game, layout, clock)
        wins += outcome.places[greedy_seat] == 1
        places.append(outcome.places[greedy_seat])
        scores.append(outcome.scores[greedy_seat])
        for s in range(seats):
            if s != greedy_seat:
                other_places.append(outcome.places[s])
                other_scores.append(outcome.scores[s])
    return (
        f"{seats} seats  {games:>4} games  greedy wins {wins / games:6.1%}  "
        f"mean place greedy {statistics.mean(places):.2f} / random {statistics.mean(other_places):.2f}  "
        f"mean score greedy {statistics.mean(scores):5.1f} / random {statistics.mean(other_scores):5.1f}  "
        f"greedy decision mean {statistics.mean(clock) * 1000:.0f} ms, max {max(clock) * 1000:.0f} ms"
    )


def team_line(variant: str, seats: int, games: int, seed: int, layout: str) -> str:
    parts = []
    for name in ("greedy", "random"):
        outcomes = [play(variant, [name] * seats, seed + game, layout) for game in range(games)]
        won = sum(1 for outcome in outcomes if outcome.team_won)
        mean_score = statistics.mean(outcome.scores[0] for outcome in outcomes)
        parts.append(f"all {name}: team won {won / games:5.1%}, mean team score {mean_score:5.1f}")
    return f"{variant} {seats} seat(s)  {games:>4} games  " + "  |  ".join(parts)


SECTIONS = ["greedy", "search", "solitaire"]


def search_line(games: int, seed: int, playouts: int) -> str:
    """The search bot against greedy on two seats, seats alternating."""
    factories = {"search": lambda s: SearchBot(s, playouts=playouts), "greedy": GreedyBot}
    wins = shared = 0
    margins, clock = [], []
    for game in range(games):
        me = game % 2
        names = ["search", "greedy"] if me == 0 else ["greedy", "search"]
        outcome = play("competitive", names, seed + game, "classic", clock, factories, timed="search")
        first = [seat for seat in range(2) if outcome.places[seat] == 1]
        wins += first == [me]
        shared += len(first) == 2
        margins.append(outcome.scores[me] - outcome.scores[1 - me])
    low, high = wilson(wins, games)
    return (
        f"search ({playouts} playouts) against greedy, 2 seats, classic, seeds {seed}..{seed + games - 1}: "
        f"{games} games, search wins {wins} ({wins / games:.1%}, 95% {low:.1%}..{high:.1%}), "
        f"shared first {shared}, greedy wins {games - wins - shared}; "
        f"mean margin {statistics.mean(margins):+.1f}; "
        f"search decision mean {statistics.mean(clock) * 1000:.0f} ms, max {max(clock) * 1000:.0f} ms"
    )


def solitaire_line(games: int, seed: int, playouts: int) -> str:
    """The search bot alone on seeded classic deals."""
    factories = {"search": lambda s: SearchBot(s, playouts=playouts)}
    outcomes = [
        play("solitaire", ["search"], seed + game, "classic", None, factories) for game in range(games)
    ]
    won = sum(1 for outcome in outcomes if outcome.team_won)
    low, high = wilson(won, games)
    reasons = Counter(outcome.reason for outcome in outcomes)
    return (
        f"search solitaire, classic deals, seeds {seed}..{seed + games - 1}: {games} games, won {won} "
        f"({won / games:.1%}, 95% {low:.1%}..{high:.1%}); ends: "
        + ", ".join(f"{reason} {count}" for reason, count in sorted(reasons.items()))
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=240, help="games per seat count (a multiple of 12)")
    parser.add_argument("--team-games", type=int, default=60, help="games per team-variant line")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--layout", default="classic", choices=["classic", "random"])
    parser.add_argument(
        "--only", nargs="+", default=SECTIONS, choices=SECTIONS, help="which lines to play (default: all)"
    )
    parser.add_argument("--search-games", type=int, default=200, help="games per search-bot line")
    parser.add_argument("--playouts", type=int, default=8, help="search bot playouts per candidate and move")
    args = parser.parse_args()
    if "search" in args.only:
        started = time.perf_counter()
        line = search_line(args.search_games, args.seed, args.playouts)
        print(f"{line}  ({time.perf_counter() - started:.0f} s)", flush=True)
    if "solitaire" in args.only:
        started = time.perf_counter()
        line = solitaire_line(args.search_games, args.seed, args.playouts)
        print(f"{line}  ({time.perf_counter() - started:.0f} s)", flush=True)
    if "greedy" not in args.only:
        return
    print(f"greedy against random, layout {args.layout}, seeds {args.seed}..{args.seed + args.games - 1}")
    for seats in (2, 3, 4):
        started = time.perf_counter()
        line = head_to_head(seats, args.games, args.seed, args.layout)
        print(f"{line}  ({time.perf_counter() - started:.0f} s)", flush=True)
    for variant, seats in (("solitaire", 1), ("cooperative", 2), ("cooperative", 4)):
        print(team_line(variant, seats, args.team_games, args.seed, args.layout), flush=True)


if __name__ == "__main__":
    main()
