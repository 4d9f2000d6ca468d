"""All of a ladder's results fitted at once by maximum likelihood, with bootstrap intervals.

The online ratings (:mod:`arena.ladders.elo`, :mod:`arena.ladders.skill`) move a little after each
match, so they depend on the order matches were played in and lag behind. A batch fit asks instead: which
strengths make the results seen most likely?

The model is Plackett-Luce: entrant ``i`` has a strength ``gamma_i > 0``; a finishing order is
read as picking the best team among those left, again and again, a team being picked with
probability its strength over the strengths of the teams left. A team's strength is the sum of its
members' (the platform's team variants are all the seats as one team against the game, see
:mod:`arena.ladders.skill`). With two teams of one this is Bradley-Terry: ``a`` beats ``b`` with
probability ``gamma_a / (gamma_a + gamma_b)``.

The fit is the MM algorithm of Hunter (2004), "MM algorithms for generalized Bradley-Terry
models", Annals of Statistics 32(1): each step sets every strength to (its wins) / (the sum, over
every pick at which it was still in, of 1 / the strengths left), which never lowers the likelihood.
A team's win is shared among its members in proportion to their current strengths (the same
minorisation, applied to the log of a sum), so the step stays closed-form.

- Shared places: a tie of ``k`` teams counts as each of its ``k!`` orders with weight ``1/k!`` (for
  two entrants, half a win each, the usual Bradley-Terry convention).
- ``prior``: every entrant also has one virtual win and one virtual loss, each of weight ``prior``,
  against a fixed reference of strength 1. Without it a bot that never lost has no finite maximum;
  with it, strengths are anchored so that the reference is 1500 on the rating scale. ``prior=0``
  gives the plain MLE, scaled so the strengths' geometric mean is 1.
- Ratings are shown on the Elo scale: ``1500 + 400 log10(gamma)``, so a strength ratio of 3 (a
  3-in-4 favourite) is about 191 points.
- Intervals: the bootstrap (Efron): resample the matches with replacement, refit, and take the
  2.5th and 97.5th percentiles of each bot's rating over the resamples it appears in.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby, permutations

BASE_RATING = 1500.0
SCALE = 400.0 / math.log(10.0)

Team = tuple[str, ...]


@dataclass(frozen=True)
class Ranking:
    """One match as the model reads it: teams and their places (1 best, equal places tie)."""

    teams: tuple[Team, ...]
    places: tuple[int, ...]


@dataclass(frozen=True)
class Interval:
    rating: float
    low: float
    high: float


def rating_of(strength: float) -> float:
    return BASE_RATING + SCALE * math.log(strength)


def _orders(ranking: Ranking) -> list[tuple[float, list[Team]]]:
    """The finishing orders a ranking stands for, with their weights (ties expanded)."""
    by_place = sorted(zip(ranking.places, ranking.teams, strict=True), key=lambda pair: pair[0])
    groups = [[team for _, team in group] for _, group in groupby(by_place, key=lambda pair: pair[0])]
    orders: list[tuple[float, list[Team]]] = [(1.0, [])]
    for group in groups:
        variants = list(permutations(group))
        orders = [(weight / len(variants), order + list(v)) for weight, order in orders for v in variants]
    return orders


def _picks(rankings: Sequence[Ranking], index: Mapping[str, int]) -> list[tuple[float, list[int], list[int]]]:
    """Every pick of every order: (weight, the chosen team's members, the members of all teams
    still in), members as indices."""
    picks = []
    for ranking in rankings:
        for weight, order in _orders(ranking):
            for stage in range(len(order) - 1):
                chosen = [index[m] for m in order[stage]]
                left = [index[m] for team in order[stage:] for m in team]
                picks.append((weight, chosen, left))
    return picks


TOLERANCE = 1e-5 / SCALE
"""Stop when no rating moves by more than 0.00001 Elo points in a step."""


def fit(
    rankings: Sequence[Ranking],
    prior: float = 1.0,
    start: Mapping[str, float] | None = None,
    tolerance: float = TOLERANCE,
    max_steps: int = 20_000,
) -> dict[str, float]:
    """The maximum-likelihood strengths of every entrant of ``rankings`` (see the module's notes).

    ``tolerance`` is on the log of the strengths (a rating moves by ``SCALE`` times it).
    """
    entrants = sorted({m for r in rankings for team in r.teams for m in team})
    index = {e: i for i, e in enumerate(entrants)}
    picks = _picks(rankings, index)
    solo = all(len(chosen) == 1 for _, chosen, _ in picks)
    fixed_wins = [prior] * len(entrants)
    if solo:  # teams of one: the wins do not depend on the strengths
        for weight, chosen, _ in picks:
            fixed_wins[chosen[0]] += weight
    gamma = [(start or {}).get(e, 1.0) for e in entrants]
    for _ in range(max_steps):
        wins = list(fixed_wins)
        exposure = [2.0 * prior / (g + 1.0) for g in gamma]
        for weight, chosen, left in picks:
            if not solo:
                team = sum(gamma[m] for m in chosen)
                for m in chosen:
                    wins[m] += weight * gamma[m] / team
            share = weight / sum(gamma[m] for m in left)
            for m in left:
                exposure[m] += share
        updated = [w / x if x > 0 else g for w, x, g in zip(wins, exposure, gamma, strict=True)]
        if prior == 0 and entrants:
            centre = math.exp(sum(math.log(g) for g in updated if g > 0) / len(entrants))
            updated = [g / centre for g in updated]
        pairs = zip(updated, gamma, strict=True)
        change = max((abs(math.log(new / old)) for new, old in pairs if new > 0 and old > 0), default=0.0)
        gamma = updated
        if change < tolerance:
            break
    return dict(zip(entrants, gamma, strict=True))


def _percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    position = fraction * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def bootstrap(
    rankings: Sequence[Ranking], samples: int = 200, seed: int = 0, prior: float = 1.0
) -> dict[str, Interval]:
    """Each entrant's fitted rating with a 95% bootstrap interval (resampling whole matches)."""
    if not rankings:
        return {}
    best = fit(rankings, prior)
    rng = random.Random(seed)
    seen: dict[str, list[float]] = {e: [] for e in best}
    for _ in range(samples):
        resample = [rankings[rng.randrange(len(rankings))] for _ in rankings]
        strengths = fit(resample, prior, start=best, tolerance=100 * TOLERANCE)
        for entrant, strength in strengths.items():
            seen[entrant].append(rating_of(strength))
    return {
        entrant: Interval(
            rating_of(strength),
            _percentile(seen[entrant], 0.025) if seen[entrant] else rating_of(strength),
            _percentile(seen[entrant], 0.975) if seen[entrant] else rating_of(strength),
        )
        for entrant, strength in best.items()
    }
