"""Swiss pairing in pods: how long :func:`arena.tournaments.swiss.swiss_pairing` takes for each round
of large and middling fields, and how many pairs it repeats.

Each field plays a Swiss with random results (a seeded RNG: one random bot of each pod wins) up to
the ``rounds`` bound of :func:`arena.tournaments.swiss.max_rounds` or ``--rounds``, whichever is
smaller; every round is paired from the points, byes and pods before it. Each line prints the
slowest round, the median round and the repeated pairs over the whole event (a pair that meets a
third time counts twice). The baseline is the straight cut of the ranking with the same byes
(what a pairing costs without any search), measured in the same run.

    python bench/bench_swiss.py [--rounds 12] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from itertools import combinations

from arena.tournaments.swiss import max_rounds, swiss_pairing

FIELDS = [(200, 4), (200, 3), (200, 2), (64, 4), (28, 4), (17, 4), (12, 3), (9, 3)]


def event(bots: int, size: int, rounds: int, seed: int) -> tuple[list[float], int]:
    """The seconds each round's pairing took, and the repeated pairs of the event."""
    names = [f"b{i:03d}" for i in range(bots)]
    rng = random.Random(seed)
    points: Counter[str] = Counter()
    byes: Counter[str] = Counter()
    history: list[tuple[str, ...]] = []
    took = []
    for _ in range(rounds):
        start = time.perf_counter()
        made = swiss_pairing(names, size, points, history, byes)
        took.append(time.perf_counter() - start)
        for bot in made.byes:
            byes[bot] += 1
            points[bot] += 1
        for pod in made.pods:
            points[rng.choice(pod)] += 1
            history.append(pod)
    meetings = Counter(frozenset(pair) for pod in history for pair in combinations(pod, 2))
    return took, sum(count - 1 for count in meetings.values())


def straight_cut(bots: int, size: int, rounds: int) -> float:
    """The baseline: sorting the field and cutting it into pods, ``rounds`` times (seconds a round)."""
    names = [f"b{i:03d}" for i in range(bots)]
    start = time.perf_counter()
    for _ in range(rounds):
        order = sorted(names)
        [tuple(order[i : i + size]) for i in range(0, len(order) - len(order) % size, size)]
    return (time.perf_counter() - start) / rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    header = f"{'bots':>5} {'pods':>4} {'rounds':>6} {'slowest s':>10} {'median s':>9} {'x cut':>8}"
    print(f"{header} {'repeats':>7}")
    for bots, size in FIELDS:
        rounds = min(args.rounds, max_rounds(bots, size))
        took, repeats = event(bots, size, rounds, args.seed)
        base = straight_cut(bots, size, rounds)
        median = statistics.median(took)
        print(
            f"{bots:>5} {size:>4} {rounds:>6} {max(took):>10.4f} {median:>9.4f} "
            f"{median / base:>8.0f} {repeats:>7}"
        )


if __name__ == "__main__":
    main()
