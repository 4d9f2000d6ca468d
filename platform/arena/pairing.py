"""Pairing for the continuous ladder, as pure functions: how many matches a tick may make, and
which bots meet.

The scheduler (:mod:`arena.matchmaking`) reads the store and the clock; everything it decides is
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
- Nobody meets again a bot of its previous match while another choice exists.
- Seats are shuffled from the tick's seed, so nobody always moves first.
"""

from __future__ import annotations

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
    free = sorted({bot.bot_id: bot for bot in candidates}.values(), key=_priority)
    shuffle = random.Random(seed)
    pods: list[tuple[str, ...]] = []
    while len(pods) < count and len(free) >= seats:
        pod = [free.pop(0)]
        while len(pod) < seats:

            def cost(other: Candidate, pod: list[Candidate] = pod) -> tuple[bool, float, int, float, str]:
                repeat = any(_met(member.bot_id, other.bot_id, last_opponents) for member in pod)
                spread = sum(gap(member, other) for member in pod)
                return (repeat, round(spread, 9), other.games, -other.sigma, other.bot_id)

            chosen = min(free, key=cost)
            free.remove(chosen)
            pod.append(chosen)
        order = [member.bot_id for member in pod]
        shuffle.shuffle(order)
        pods.append(tuple(order))
    return pods


def _met(a: str, b: str, last_opponents: Mapping[str, frozenset[str]]) -> bool:
    return b in last_opponents.get(a, frozenset()) or a in last_opponents.get(b, frozenset())
