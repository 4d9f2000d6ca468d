"""Pairing for the continuous ladder, as pure functions: how many matches a tick may make, and
which bots meet.

The scheduler (:mod:`arena.ladders.matchmaking`) reads the store and the clock; everything it decides is
here, so it can be tested without either.

How many (:func:`allowance`): a ladder's rate is ``matches_per_minute``; in any window of 60 s no
more matches are made than that. Each tick makes at most its share of the rate
(``ceil(rate * tick_s / 60)``), so the matches come steadily rather than in one burst a minute, and
never so many that more than ``max_in_flight`` of the ladder's matches are queued or running.

Who meets (:func:`pair`): only bots that are free (no match of this ladder queued or running).

- The bot that has played least (then the most uncertain: highest sigma) anchors the next pod.
- The others of the pod are the free bots closest to it in rating, measured in the pair's combined
  uncertainty: ``(mu_a - mu_b)**2 / (2 beta**2 + sigma_a**2 + sigma_b**2)``, openskill's own measure of
  how open a match is. A small gap, or a gap the model is unsure of, makes an informative match, so
  uncertain bots are tried over a wider range and sure ones only against their neighbours.
- Nobody meets again a bot of its previous match while another choice exists (among the
  :data:`SCAN` free bots nearest in rating).
- Seats are shuffled from the tick's seed, so nobody always moves first.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

BETA = 25.0 / 6.0
"""openskill's default ``beta`` (the performance noise of one game): the scale ratings are compared on."""
WINDOW_S = 60.0
"""The rate is counted over any 60 s."""


@dataclass(frozen=True)
class Candidate:
    """A bot the ladder may pair: its skill (``mu``, ``sigma``) and how many ladder games it played."""

    bot_id: str
    mu: float
    sigma: float
    games: int


def per_tick(rate_per_minute: int, tick_s: float) -> int:
    """A tick's share of the rate, at least one match.

    >>> per_tick(6, 10), per_tick(1, 10), per_tick(120, 5)
    (1, 1, 10)
    """
    return max(1, math.ceil(rate_per_minute * tick_s / WINDOW_S))


def allowance(
    rate_per_minute: int, made_in_window: int, in_flight: int, max_in_flight: int, tick_s: float
) -> int:
    """How many matches one tick may make (see the module): never past the rate over the last 60 s
    (``made_in_window``), never past the cap of matches in flight, at most the tick's share.

    >>> allowance(6, 0, 0, 10, 10), allowance(6, 6, 0, 10, 10), allowance(60, 0, 9, 10, 10)
    (1, 0, 1)
    """
    room = min(rate_per_minute - made_in_window, max_in_flight - in_flight)
    return max(0, min(per_tick(rate_per_minute, tick_s), room))


def gap(a: Candidate, b: Candidate, beta: float = BETA) -> float:
    """How far apart two bots are, in the pair's combined uncertainty (0: as even as can be)."""
    return (a.mu - b.mu) ** 2 / (2 * beta**2 + a.sigma**2 + b.sigma**2)


def _priority(bot: Candidate) -> tuple[int, float, str]:
    return (bot.games, -bot.sigma, bot.bot_id)


SCAN = 256
"""At most this many free bots, the nearest in ``mu`` to the pod's first bot, are weighed for each seat
of a pod: a tick over thousands of bots stays quick, and the best pick is nearly always among them."""


def pair(
    candidates: Sequence[Candidate],
    seats: int,
    count: int,
    last_opponents: Mapping[str, frozenset[str]],
    seed: int,
) -> list[tuple[str, ...]]:
    """Up to ``count`` pods of ``seats`` distinct bots from ``candidates`` (all free), each bot in
    one pod at most, each pod in seat order (see the module for who meets whom).

    ``last_opponents[bot]`` holds the bots of its previous match of this ladder.
    """
    if seats < 1 or count < 1:
        return []
    unique = {bot.bot_id: bot for bot in candidates}
    by_priority = sorted(unique.values(), key=_priority)
    by_mu = sorted(unique.values(), key=lambda bot: (bot.mu, bot.bot_id))
    sigma_max = max((bot.sigma for bot in by_mu), default=0.0)
    taken: set[str] = set()
    shuffle = random.Random(seed)
    pods: list[tuple[str, ...]] = []
    for anchor in by_priority:
        if len(pods) >= count or len(unique) - len(taken) < seats:
            break
        if anchor.bot_id in taken:
            continue
        taken.add(anchor.bot_id)
        pod = [anchor]
        while len(pod) < seats:
            chosen = _closest(pod, by_mu, taken, sigma_max, last_opponents)
            taken.add(chosen.bot_id)
            pod.append(chosen)
        order = [member.bot_id for member in pod]
        shuffle.shuffle(order)
        pods.append(tuple(order))
    return pods


def _closest(
    pod: Sequence[Candidate],
    by_mu: Sequence[Candidate],
    taken: set[str],
    sigma_max: float,
    last_opponents: Mapping[str, frozenset[str]],
) -> Candidate:
    """The free bot that best joins ``pod``: not a repeat, then the least spread, fewest games,
    highest sigma, id. The free bots are walked outward from the first bot's ``mu``; the walk stops
    once no bot further away can have a smaller spread (every spread is at least the gap to the first
    bot, and that grows with the distance), or after :data:`SCAN` bots."""
    anchor = pod[0]
    widest = 2 * BETA**2 + anchor.sigma**2 + sigma_max**2
    lo = bisect.bisect_left(by_mu, (anchor.mu, anchor.bot_id), key=lambda bot: (bot.mu, bot.bot_id)) - 1
    hi = lo + 1
    best: Candidate | None = None
    best_key: tuple[bool, float, int, float, str] | None = None
    scanned = 0
    while (lo >= 0 or hi < len(by_mu)) and scanned < SCAN:
        if hi >= len(by_mu) or (lo >= 0 and anchor.mu - by_mu[lo].mu <= by_mu[hi].mu - anchor.mu):
            other, lo = by_mu[lo], lo - 1
        else:
            other, hi = by_mu[hi], hi + 1
        if other.bot_id in taken:
            continue
        if (
            best_key is not None
            and not best_key[0]
            and (other.mu - anchor.mu) ** 2 / widest > best_key[1] + 1e-9
        ):
            break
        scanned += 1
        repeat = any(_met(member.bot_id, other.bot_id, last_opponents) for member in pod)
        spread = round(sum(gap(member, other) for member in pod), 9)
        key = (repeat, spread, other.games, -other.sigma, other.bot_id)
        if best_key is None or key < best_key:
            best, best_key = other, key
    if best is None:  # unreachable while enough bots are free: the caller checks
        raise ValueError("no free bot left to seat")
    return best


def _met(a: str, b: str, last_opponents: Mapping[str, frozenset[str]]) -> bool:
    return b in last_opponents.get(a, frozenset()) or a in last_opponents.get(b, frozenset())
