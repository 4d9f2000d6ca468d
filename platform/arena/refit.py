"""All of a ladder's results fitted at once by maximum likelihood, with bootstrap intervals.

The online ratings (:mod:`arena.elo`, :mod:`arena.skill`) move a little after each match, so they
depend on the order matches were played in and lag behind. A batch fit asks instead: which
strengths make the results seen most likely?

The model is Plackett-Luce: entrant ``i`` has a strength ``gamma_i > 0``; a finishing order is
read as picking the best team among those left, again and again, a team being picked with
probability its strength over the strengths of the teams left. A team's strength is the sum of its
members' (the platform's team variants are all the seats as one team against the game, see
:mod:`arena.skill`). With two teams of one this is Bradley-Terry: ``a`` beats ``b`` with
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


@dataclass(frozen=True)
class _Pick:
    """One stage of one order: ``chosen`` picked among ``left`` (which includes it)."""

    weight: float
    chosen: Team
    left: tuple[Team, ...]


def _picks(rankings: Sequence[Ranking]) -> list[_Pick]:
    picks = []
    for ranking in rankings:
        for weight, order in _orders(ranking):
            for stage in range(len(order) - 1):
                picks.append(_Pick(weight, order[stage], tuple(order[stage:])))
    return picks


def fit(
    rankings: Sequence[Ranking],
    prior: float = 1.0,
    start: Mapping[str, float] | None = None,
    tolerance: float = 1e-10,
    max_steps: int = 10_000,
) -> dict[str, float]:
    """The maximum-likelihood strengths of every entrant of ``rankings`` (see the module's notes)."""
    picks = _picks(rankings)
    entrants = sorted({m for r in rankings for team in r.teams for m in team})
    gamma = {e: (start or {}).get(e, 1.0) for e in entrants}
    for _ in range(max_steps):
        wins = dict.fromkeys(entrants, prior)
        exposure = {e: 2.0 * prior / (gamma[e] + 1.0) for e in entrants}
        for pick in picks:
            chosen_strength = sum(gamma[m] for m in pick.chosen)
            for member in pick.chosen:
                wins[member] += pick.weight * gamma[member] / chosen_strength
            share = pick.weight / sum(gamma[m] for team in pick.left for m in team)
            for team in pick.left:
                for member in team:
                    exposure[member] += share
        updated = {e: wins[e] / exposure[e] if exposure[e] > 0 else gamma[e] for e in entrants}
        if prior == 0 and entrants:
            centre = math.exp(sum(math.log(g) for g in updated.values() if g > 0) / len(entrants))
            updated = {e: g / centre for e, g in updated.items()}
        change = max(
            (abs(math.log(updated[e] / gamma[e])) for e in entrants if updated[e] > 0 and gamma[e] > 0),
            default=0.0,
        )
        gamma = updated
        if change < tolerance:
            break
    return gamma


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
        strengths = fit(resample, prior, start=best, tolerance=1e-7)
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
