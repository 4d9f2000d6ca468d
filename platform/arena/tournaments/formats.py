"""The formats, and the schedule of those that make every match at once, pure functions.

Formats:

- ``round_robin``: every combination of ``seats_per_match`` bots plays.
- ``gauntlet``: the first bot plays every combination of ``seats_per_match - 1`` of the others
  (with two seats: the first bot against each other bot).

Each combination (a *pairing*) plays ``games_per_pairing`` games, rounded up to a multiple of the
seat count, with the seat order rotating one step each game: over a pairing every bot sits in every
seat equally often, and so over the whole tournament. The games of one rotation cycle share a seed,
so each bot plays the same deal from every seat.

A Swiss (:mod:`arena.tournaments.swiss`) and a knockout (:mod:`arena.tournaments.knockout`) make
their rounds one at a time; each format's standings are in its own module
(:mod:`arena.tournaments.results`).

>>> [m.bots for m in schedule("round_robin", ["a", "b", "c"], 2, 1, seed=1)]
[('a', 'b'), ('b', 'a'), ('a', 'c'), ('c', 'a'), ('b', 'c'), ('c', 'b')]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from referee.rng import derive_seed

FORMATS = ("round_robin", "gauntlet", "swiss", "knockout")


@dataclass(frozen=True)
class ScheduledMatch:
    pairing: int
    game: int
    bots: tuple[str, ...]
    seed: int


def games_per_pairing(requested: int, seats: int) -> int:
    """``requested`` rounded up to a multiple of ``seats`` (so seats rotate evenly).

    >>> games_per_pairing(2, 3), games_per_pairing(4, 2), games_per_pairing(1, 1)
    (3, 4, 1)
    """
    return max(1, math.ceil(requested / seats)) * seats


def pairings(format_name: str, bots: Sequence[str], seats: int) -> list[tuple[str, ...]]:
    """The groups of bots that meet, each in its starting seat order."""
    if format_name == "round_robin":
        return list(combinations(bots, seats))
    if format_name == "gauntlet":
        first, others = bots[0], bots[1:]
        return [(first, *group) for group in combinations(others, seats - 1)]
    raise ValueError(f"unknown tournament format {format_name!r} (formats: {', '.join(FORMATS)})")


def schedule(
    format_name: str, bots: Sequence[str], seats: int, requested_games: int, seed: int
) -> list[ScheduledMatch]:
    """Every match of the tournament, in play order."""
    per_pairing = games_per_pairing(requested_games, seats)
    matches = []
    for index, group in enumerate(pairings(format_name, bots, seats)):
        for game in range(per_pairing):
            turn = game % seats
            matches.append(
                ScheduledMatch(
                    pairing=index,
                    game=game,
                    bots=group[turn:] + group[:turn],
                    seed=derive_seed(seed, "pairing", index, "cycle", game // seats),
                )
            )
    return matches


def match_count(format_name: str, bots: int, seats: int, requested_games: int) -> int:
    """How many matches :func:`schedule` would make, without making them."""
    groups = math.comb(bots - 1, seats - 1) if format_name == "gauntlet" else math.comb(bots, seats)
    return groups * games_per_pairing(requested_games, seats)
